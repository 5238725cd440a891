"""While a process catches up on the logs after it starts, it already answers, and says so.

A pure ASGI middleware (as ``display/security.py``, no task per request). Until
``Replica.started`` (every log read, Redis checked against the high-water file, writes taken):

- a request that names a tournament caught up (``/t/{id}/…``, ``/api/t/{id}/…``) and only reads
  (GET, HEAD) is served as usual, from a current state;
- any other page (GET, HEAD asking for HTML) gets a 503 page "Backglass is starting: N % caught
  up (done of total records)" that reloads itself every 2 s (a meta refresh: no script);
- anything else, writes included, gets 503 ``{"error": "starting", "message": "starting, N %
  caught up", "done": …, "total": …}`` with ``Retry-After: 1``;
- ``/api/health`` (which reports the progress itself), ``/static/…`` and websockets pass: the
  websocket endpoint sends ``starting`` messages until its tournament is caught up
  (``display/live/ws.py``), so a display says so instead of showing a connection error.
"""

from __future__ import annotations

import html
import re

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from display.live.replica import Replica

_TOURNAMENT = re.compile(r"^/(?:api/)?t/([^/]+)(?:/|$)")
READS = frozenset({"GET", "HEAD"})


def percent(replica: Replica) -> int:
    """Start-up progress in whole percent (100 once nothing is left to read)."""
    done, total = replica.progress()
    return 100 if total == 0 else min(100, done * 100 // total)


def starting_message(replica: Replica) -> str:
    """The words a steward or a display sees: ``starting, N % caught up``."""
    return f"starting, {percent(replica)} % caught up"


class StartingMiddleware:
    """Answers 503 "starting" for what a catching-up process cannot serve yet (module doc)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer it 503 while start-up has not read what it needs."""
        services = getattr(scope.get("app"), "state", None)
        replica: Replica | None = getattr(getattr(services, "services", None), "replica", None)
        if scope["type"] != "http" or replica is None or replica.started.is_set():
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path == "/api/health" or path.startswith("/static/"):
            await self.app(scope, receive, send)
            return
        match = _TOURNAMENT.match(path)
        if scope["method"] in READS and match is not None and replica.ready(match[1]):
            await self.app(scope, receive, send)
            return
        done, total = replica.progress()
        accept = dict(scope["headers"]).get(b"accept", b"")
        if scope["method"] in READS and b"text/html" in accept:
            words = html.escape(
                f"Backglass is starting: {percent(replica)} % caught up ({done} of {total} records)."
            )
            body = (
                '<!doctype html><html lang="en"><head><meta charset="utf-8">'
                '<meta http-equiv="refresh" content="2"><title>Starting</title></head>'
                f"<body><h1>{words}</h1><p>This page reloads by itself.</p></body></html>"
            ).encode()
            kind = b"text/html; charset=utf-8"
        else:
            message = {"error": "starting", "message": starting_message(replica)}
            body = orjson.dumps({**message, "done": done, "total": total})
            kind = b"application/json"
        headers = [
            (b"content-type", kind),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", b"1"),
        ]
        await send({"type": "http.response.start", "status": 503, "headers": headers})
        await send({"type": "http.response.body", "body": body})
