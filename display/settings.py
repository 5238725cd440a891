"""Server settings, read once from the environment (or given by tests and the CLI)."""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from dataclasses import dataclass, field
from pathlib import Path

from display.log.connection import has_password, store_hosts


@dataclass(frozen=True)
class Settings:
    """How one server process runs.

    ``redis_url``: an external Redis (``REDIS_URL``); None starts the embedded one under ``data_dir``.
    ``key_prefix``: every Redis key starts with it, so tests and several installations can share one
    Redis. ``td_password``: the tournament director's password; None: the one kept in ``data_dir``
    (``td-password``, made on the first start; ``display/http/auth.py``). ``ws_write_buffer``: a
    websocket's write-buffer limit (bytes, the transport's high-water mark): a display whose
    buffer is over it is sent nothing until it drains, then resynced (``display/live/hub.py``).
    """

    redis_url: str | None = None
    data_dir: Path = field(default_factory=lambda: Path(".data"))
    key_prefix: str = "bg"
    td_password: str | None = None
    ws_write_buffer: int = 64 * 1024
    heartbeat_seconds: float = 5.0
    history_size: int = 512
    # Websockets (display/live/ws_protocol.py, docs/protocol.md "Dead and slow connections"): a
    # protocol ping every ``ws_ping_seconds``, unanswered within as long again frees the socket
    # (0: no pings); a peer that leaves its socket full for ``ws_stall_seconds`` is dropped.
    # BACKGLASS_WS_PING, BACKGLASS_WS_STALL.
    ws_ping_seconds: float = 20.0
    ws_stall_seconds: float = 30.0
    # Sign-in throttle (display/http/throttle.py; the arithmetic is in docs/sign-in.md): free wrong
    # tries, then delays doubling from the base, capped per source (long) and per account (short).
    throttle_free: int = 5
    throttle_base_seconds: float = 1.0
    throttle_source_cap_seconds: float = 900.0
    throttle_account_cap_seconds: float = 60.0
    # True only when a reverse proxy is in front: the client address is then the last
    # X-Forwarded-For entry (the one the proxy added), not the proxy's own address.
    trust_proxy: bool = False
    # The hash chain over each tournament's log (display/log/store.py, docs/integrity.md);
    # BACKGLASS_HASH_CHAIN=0 turns it off: no hashes written, none checked.
    hash_chain: bool = True
    # Requests (display/security.py, docs/security.md): host names and browser origins allowed
    # beyond the defaults ("*" allows any), and the largest request body in bytes (uploads: the
    # log, CSV and restore endpoints). BACKGLASS_ALLOWED_HOSTS, BACKGLASS_ALLOWED_ORIGINS (comma
    # lists), BACKGLASS_MAX_BODY, BACKGLASS_MAX_UPLOAD.
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    max_body: int = 256 * 1024
    max_upload: int = 20 * 1024 * 1024
    # Connections (display/http/connections.py, docs/security.md "Connections"): how many one
    # client address may hold (0: no cap), the seconds a request's head may take to arrive (also
    # the longest pause inside a body) and the seconds its whole body may take.
    # BACKGLASS_CONNECTIONS_PER_ADDRESS, BACKGLASS_HEADER_SECONDS, BACKGLASS_BODY_SECONDS.
    connections_per_address: int = 64
    header_seconds: float = 10.0
    body_seconds: float = 120.0
    # A REDIS_URL to another host without a password is refused at start-up (insecure_redis,
    # docs/redis.md) unless BACKGLASS_ALLOW_INSECURE_REDIS=1.
    allow_insecure_redis: bool = False
    # Replicated acknowledgement (display/log/store.py, docs/deploy.md): with ``wait_replicas`` N
    # above 0 a write is acknowledged only once N replicas of the master have it (Redis WAIT); not
    # within ``wait_timeout_ms`` it answers 503 "may have been recorded: send it again with the
    # same key". BACKGLASS_WAIT_REPLICAS, BACKGLASS_WAIT_TIMEOUT (milliseconds).
    wait_replicas: int = 0
    wait_timeout_ms: int = 1000
    # The address phones open, for the board's QR code (display/http/lan.py), e.g.
    # "https://pinball.example.org"; None: the address the display itself used.
    # BACKGLASS_PUBLIC_URL.
    public_url: str | None = None
    # Tournaments on demand (display/live/loader.py): a tournament with no websocket client and
    # no request for this many minutes is let go from memory (loaded again on its next use; 0:
    # never). BACKGLASS_IDLE_MINUTES.
    idle_minutes: float = 10.0

    @classmethod
    def from_env(cls) -> Settings:
        """``REDIS_URL``, ``BACKGLASS_DATA``, ``BACKGLASS_PREFIX``, ``BACKGLASS_TD_PASSWORD``,
        ``BACKGLASS_TRUST_PROXY`` (1 when a reverse proxy is in front), ``BACKGLASS_HASH_CHAIN``,
        ``BACKGLASS_WAIT_REPLICAS``, ``BACKGLASS_WAIT_TIMEOUT`` and ``BACKGLASS_IDLE_MINUTES``."""
        return cls(
            redis_url=os.environ.get("REDIS_URL") or None,
            data_dir=Path(os.environ.get("BACKGLASS_DATA", ".data")),
            key_prefix=os.environ.get("BACKGLASS_PREFIX", "bg"),
            td_password=os.environ.get("BACKGLASS_TD_PASSWORD") or None,
            ws_ping_seconds=float(os.environ.get("BACKGLASS_WS_PING") or 20.0),
            ws_stall_seconds=float(os.environ.get("BACKGLASS_WS_STALL") or 30.0),
            allowed_hosts=_listed(os.environ.get("BACKGLASS_ALLOWED_HOSTS")),
            allowed_origins=_listed(os.environ.get("BACKGLASS_ALLOWED_ORIGINS")),
            max_body=int(os.environ.get("BACKGLASS_MAX_BODY") or 256 * 1024),
            max_upload=int(os.environ.get("BACKGLASS_MAX_UPLOAD") or 20 * 1024 * 1024),
            connections_per_address=int(os.environ.get("BACKGLASS_CONNECTIONS_PER_ADDRESS") or 64),
            header_seconds=float(os.environ.get("BACKGLASS_HEADER_SECONDS") or 10.0),
            body_seconds=float(os.environ.get("BACKGLASS_BODY_SECONDS") or 120.0),
            trust_proxy=os.environ.get("BACKGLASS_TRUST_PROXY", "") in ("1", "true", "yes"),
            hash_chain=os.environ.get("BACKGLASS_HASH_CHAIN", "1") != "0",
            allow_insecure_redis=os.environ.get("BACKGLASS_ALLOW_INSECURE_REDIS", "") == "1",
            wait_replicas=int(os.environ.get("BACKGLASS_WAIT_REPLICAS") or 0),
            wait_timeout_ms=int(os.environ.get("BACKGLASS_WAIT_TIMEOUT") or 1000),
            public_url=(os.environ.get("BACKGLASS_PUBLIC_URL") or "").rstrip("/") or None,
            idle_minutes=float(os.environ.get("BACKGLASS_IDLE_MINUTES") or 10.0),
        )


def demo_settings(settings: Settings) -> Settings:
    """Where the demo's own server keeps its data: ``<data>/demo`` and the key prefix
    ``<prefix>-demo`` (``.data/demo``, ``bg-demo``) unless BACKGLASS_DATA / BACKGLASS_PREFIX say
    otherwise, so a demo never touches a real installation's tournaments or TD password.
    ``backglass verify`` and ``restore`` look there too."""
    data_dir, key_prefix = settings.data_dir, settings.key_prefix
    if "BACKGLASS_DATA" not in os.environ:
        data_dir = data_dir / "demo"
    if "BACKGLASS_PREFIX" not in os.environ:
        key_prefix = f"{key_prefix}-demo"
    return dataclasses.replace(settings, data_dir=data_dir, key_prefix=key_prefix)


def _listed(raw: str | None) -> tuple[str, ...]:
    """A comma-separated environment value as lower-case items, blanks dropped."""
    return tuple(part.strip().lower() for part in (raw or "").split(",") if part.strip())


def insecure_redis(url: str) -> str | None:
    """Why ``url`` is not safe to use, or None: a Redis on another host (not loopback, not a unix
    socket) reached without a password, which anyone on its network could rewrite the scores in.
    The message is for the person starting the server (docs/redis.md)."""
    if has_password(url):
        return None
    for host in store_hosts(url):
        if not _loopback(host):
            break
    else:
        return None
    return (
        f"REDIS_URL points at {host}, another host, without a password: anyone who can reach it "
        "could change or delete the scores. Give the app its ACL user and password "
        "(redis://backglass:PASSWORD@host:6379/0, or rediss:// for TLS; see docs/redis.md), or "
        "set BACKGLASS_ALLOW_INSECURE_REDIS=1 if that network is yours alone."
    )


def _loopback(host: str) -> bool:
    """Whether ``host`` is this machine: ``localhost`` or a loopback address."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name
