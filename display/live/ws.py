"""``/ws/{tournament}``: snapshot, then patches with versions; ``?since=V`` resumes (docs/protocol.md).
A hall display adds ``display=<name>`` (and the ``views``/``profile`` its URL asked for) and is
listed on the desk while connected (``live/displays.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time

import orjson
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from display.live.hub import RESYNC, Link, Outgoing
from display.live.ws_protocol import DIRECT
from display.log.store import version_number
from display.services import Services

UNKNOWN_TOURNAMENT = 4404
STARTING_EVERY = 1.0
"""Seconds between ``starting`` messages while the server catches up (docs/protocol.md)."""
NO_DIRECT_WRITES = 1011
"""Close code when the server is not Backglass's uvicorn protocol (``backglass serve``), whose
direct writes the hub needs."""


async def live_socket(websocket: WebSocket) -> None:
    """``/ws/{tournament}``: accept, then a snapshot; with ``?since=V`` a ping (V is current) or one
    patch from V instead, then every broadcast until the client leaves (docs/protocol.md). An
    unknown tournament gets an ``error`` message and close 4404; a server without direct writes
    closes 1011."""
    svc: Services = websocket.app.state.services
    tid = websocket.path_params["tournament"]
    await websocket.accept()
    link: Link | None = websocket.scope.get("extensions", {}).get(DIRECT, {}).get("link")
    if link is None:
        await websocket.close(NO_DIRECT_WRITES, "run under backglass serve")
        return
    while not svc.replica.ready(tid):  # start-up: say how far, until its log is read
        done, total = svc.replica.progress()
        starting = {"type": "starting", "done": done, "total": total, "time": time.time()}
        await websocket.send_text(orjson.dumps(starting).decode())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(svc.replica.started.wait(), STARTING_EVERY)
    live = svc.replica.tournaments.get(tid)
    if live is None:
        message = {"type": "error", "message": f"There is no tournament {tid}."}
        await websocket.send_text(orjson.dumps(message).decode())
        await websocket.close(UNKNOWN_TOURNAMENT)
        return
    first, version = RESYNC, -1
    since = websocket.query_params.get("since", "")
    resume = version_number(since)  # anything but a version (negative, garbage) gets a snapshot
    if resume is not None:
        change = live.since(resume)
        if change is not None and change.version == change.base:
            version = change.version
            ping = {"type": "ping", "version": version, "time": time.time()}
            first = Outgoing(orjson.dumps(ping).decode())
        elif change is not None:
            version = change.base
            first = Outgoing(orjson.dumps(change.message()).decode(), change.base, change.version)
    client = svc.hub.join(tid, link, version, live.resync, first)
    gone = None
    name = websocket.query_params.get("display")
    if name is not None:  # a hall display: listed on the desk while connected (live/displays.py)
        query, address = websocket.query_params, websocket.client
        number = svc.displays.add(
            tid,
            name,
            query.get("views", ""),
            query.get("profile", ""),
            address.host if address else "unknown",
        )
        if number is not None:
            gone = functools.partial(svc.displays.remove, tid, number)
    svc.hub.hold(tid, client, gone)  # this task ends; the connection stays, the hub writes to it


routes = [WebSocketRoute("/ws/{tournament}", live_socket)]
