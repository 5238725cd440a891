"""``backglass serve`` and how Backglass runs uvicorn (also for the demo's own server and the
tests' servers)."""

from __future__ import annotations

import asyncio
import functools
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

WORKER_HEALTHCHECK_SECONDS = 30
"""A worker that does not answer uvicorn's health check in this many seconds is killed as hung;
the 5 s default killed workers still importing on a busy 2-core machine, over and over."""


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
    ledger = Ledger(Limits.for_process(settings, raise_open_file_limit()))
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=http_protocol_class(ledger),
        ws=protocol_class(settings.ws_stall_seconds, settings.ws_write_buffer, ledger.release),
        **(_uvicorn_options(settings) | extra),
    )
    # uvicorn's per-request warnings ("Invalid HTTP request received.") name no client: each
    # message at most 10 times a minute, so a flood of bad requests cannot fill the disk.
    _limit_repeats()
    return config


def _uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options one server and ``--workers`` share: no proxy headers, the frame size
    limit, protocol pings every ``settings.ws_ping_seconds`` (none at 0), no per-message deflate,
    warnings only."""
    ping = settings.ws_ping_seconds or None
    return {
        "proxy_headers": False,
        "ws_max_size": MAX_FRAME_BYTES,
        "ws_ping_interval": ping,
        "ws_ping_timeout": ping,
        "ws_per_message_deflate": False,
        "log_level": "warning",
    }


def _limit_repeats() -> None:
    """uvicorn's error log passes each message at most 10 times a minute (``RepeatFilter``)."""
    error_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, RepeatFilter) for f in error_log.filters):
        error_log.addFilter(RepeatFilter())


def serve_workers(settings: Settings, host: str, port: int, workers: int) -> None:
    """Run ``workers`` server processes behind one port: uvicorn's process manager binds the port
    once, starts the workers (restarting one that dies) and stops them on SIGINT/SIGTERM. Each
    worker is a whole server and a replica of every log (architecture principle 3); they share
    one embedded Redis, which the first to start runs and the last to stop stops
    (``display/embedded/redis.py``). Workers are spawned processes that build their app, and their
    protocols (``worker_http``, ``worker_ws``), from the environment, so ``settings`` must be the
    environment's, with ``data_dir`` put in ``BACKGLASS_DATA`` by the caller. The connection caps
    of ``display/http/connections.py`` hold per worker."""
    uvicorn.run(
        "display.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
        http="display.cli.serve:worker_http",
        ws="display.cli.serve:worker_ws",
        **_uvicorn_options(settings),
    )


@functools.cache
def _worker_protocols() -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """This worker's HTTP and websocket protocol classes, as ``uvicorn_config`` makes them, with
    one ``Ledger`` per process (made on the first connection)."""
    settings = Settings.from_env()
    _limit_repeats()  # as uvicorn_config does in one process
    ledger = Ledger(Limits.for_process(settings, raise_open_file_limit()))
    ws = protocol_class(settings.ws_stall_seconds, settings.ws_write_buffer, ledger.release)
    return http_protocol_class(ledger), ws


def worker_http(*args: Any, **kwargs: Any) -> asyncio.Protocol:
    """A worker's HTTP protocol for one connection: uvicorn names its protocol by import path in a
    spawned worker and calls it with the connection's arguments."""
    return _worker_protocols()[0](*args, **kwargs)


def worker_ws(*args: Any, **kwargs: Any) -> asyncio.Protocol:
    """A worker's websocket protocol for one upgraded connection (as ``worker_http``)."""
    return _worker_protocols()[1](*args, **kwargs)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="0.0.0.0 to serve the LAN.")
@click.option(
    "--port",
    type=int,
    default=lambda: int(os.environ.get("PORT", "8000")),
    show_default="$PORT or 8000",
)
@click.option("--data", type=click.Path(path_type=Path), default=None, help="Data directory.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Server processes behind the one port, each serving every tournament (docs/deploy.md).",
)
def serve(host: str, port: int, data: Path | None, workers: int) -> None:
    """Run the server (embedded Redis unless REDIS_URL is set)."""
    from display.app import create_app

    settings = Settings.from_env()
    if data is not None:
        settings = Settings(**{**settings.__dict__, "data_dir": data})
    if workers > 1:
        if data is not None:  # the workers read the environment
            os.environ["BACKGLASS_DATA"] = str(data)
        announce(host, port, settings)
        serve_workers(settings, host, port, workers)
        return
    announce(host, port, settings)
    uvicorn.Server(uvicorn_config(create_app(settings), host, port, settings)).run()


def announce(host: str, port: int, settings: Settings) -> None:
    """Print where phones and displays open this server: each LAN address when it serves beyond
    localhost (display/http/lan.py), and BACKGLASS_PUBLIC_URL, which the QR codes encode."""
    from display.http.lan import serve_urls

    for url in serve_urls(host, port):
        click.echo(f"Backglass at {url} (desk: {url}desk)")
    if settings.public_url:
        click.echo(f"QR codes open {settings.public_url}/ (BACKGLASS_PUBLIC_URL)")
