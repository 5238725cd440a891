"""``backglass serve`` and how Backglass runs uvicorn (also for the demo's own server and the
tests' servers)."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import click
import uvicorn
from starlette.types import ASGIApp

from display.http.connections import Ledger, Limits, http_protocol_class, raise_open_file_limit
from display.http.log_budget import RepeatFilter
from display.live.ws_protocol import MAX_FRAME_BYTES, protocol_class
from display.settings import Settings


def uvicorn_config(
    app: ASGIApp, host: str, port: int, settings: Settings | None = None, **extra: Any
) -> uvicorn.Config:
    """uvicorn as Backglass runs it: websockets without per-message compression (it roughly doubles
    memory per connection and costs CPU per client on every broadcast), with the guards of
    ``display/live/ws_protocol.py``, a frame size limit and protocol pings (``settings``, default from
    the environment); HTTP connections with the time limits and caps of
    ``display/http/connections.py`` (the open-file limit raised first); proxy headers
    (``X-Forwarded-For``) never rewrite the client address (``display/http/throttle.py`` reads
    them itself when ``BACKGLASS_TRUST_PROXY`` is on). ``extra``: more of ``uvicorn.Config``'s
    keyword arguments, each its own type."""
    settings = settings or Settings.from_env()
    ping = settings.ws_ping_seconds or None
    ledger = Ledger(Limits.for_process(settings, raise_open_file_limit()))
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=http_protocol_class(ledger),
        ws=protocol_class(settings.ws_stall_seconds, settings.ws_write_buffer, ledger.release),
        proxy_headers=False,
        ws_max_size=MAX_FRAME_BYTES,
        ws_ping_interval=ping,
        ws_ping_timeout=ping,
        ws_per_message_deflate=False,
        log_level="warning",
        **extra,
    )
    # uvicorn's per-request warnings ("Invalid HTTP request received.") name no client: each
    # message at most 10 times a minute, so a flood of bad requests cannot fill the disk.
    error_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, RepeatFilter) for f in error_log.filters):
        error_log.addFilter(RepeatFilter())
    return config


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="0.0.0.0 to serve the LAN.")
@click.option(
    "--port", default=lambda: int(os.environ.get("PORT", "8000")), show_default="$PORT or 8000"
)
@click.option("--data", type=click.Path(path_type=Path), default=None, help="Data directory.")
def serve(host: str, port: int, data: Path | None) -> None:
    """Run the server (embedded Redis unless REDIS_URL is set)."""
    from display.app import create_app

    settings = Settings.from_env()
    if data is not None:
        settings = Settings(**{**settings.__dict__, "data_dir": data})
    uvicorn.Server(uvicorn_config(create_app(settings), host, port, settings)).run()
