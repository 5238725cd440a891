"""Server settings, read once from the environment (or given by tests and the CLI)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    """How one server process runs.

    ``redis_url``: an external Redis (``REDIS_URL``); None starts the embedded one under ``data_dir``.
    ``key_prefix``: every Redis key starts with it, so tests and several installations can share one
    Redis. ``td_password``: the tournament director's password; None generates one on first start
    and prints it. ``queue_size``: bound of each websocket client's outbound queue (messages).
    """

    redis_url: str | None = None
    data_dir: Path = field(default_factory=lambda: Path(".data"))
    key_prefix: str = "bg"
    td_password: str | None = None
    queue_size: int = 64
    heartbeat_seconds: float = 5.0
    history_size: int = 512

    @classmethod
    def from_env(cls) -> Settings:
        """``REDIS_URL``, ``BACKGLASS_DATA``, ``BACKGLASS_PREFIX``, ``BACKGLASS_TD_PASSWORD``."""
        return cls(
            redis_url=os.environ.get("REDIS_URL") or None,
            data_dir=Path(os.environ.get("BACKGLASS_DATA", ".data")),
            key_prefix=os.environ.get("BACKGLASS_PREFIX", "bg"),
            td_password=os.environ.get("BACKGLASS_TD_PASSWORD") or None,
        )
