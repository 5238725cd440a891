"""``/ws/{tournament}``: snapshot, then patches with versions; ``?since=V`` resumes (docs/protocol.md).
A hall display adds ``display=<name>`` (and the ``views``/``profile`` its URL asked for) and is
listed on the desk while connected (``live/displays.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time

import orjson
from redis.exceptions import RedisError
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from display.live.hub import RESYNC, Link, Outgoing
from display.live.tournament import LiveTournament
from display.live.ws_protocol import DIRECT
from display.log.store import version_number
from display.services import Services

UNKNOWN_TOURNAMENT = 4404
TRY_AGAIN_LATER = 1013
"""Close code when the score store fails while the tournament loads (RFC 6455, 7.4.1 via the
IANA registry: "Try Again Later")."""
STARTING_EVERY = 1.0
"""Seconds between ``starting`` messages while the server starts or the tournament loads
(docs/protocol.md)."""
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
    try:
        live = await _loaded(websocket, svc, tid)
    except (RedisError, OSError):
        message = {"type": "error", "message": "The score store is not answering; try again."}
        await websocket.send_text(orjson.dumps(message).decode())
        await websocket.close(TRY_AGAIN_LATER)
        return
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


async def _loaded(websocket: WebSocket, svc: Services, tid: str) -> LiveTournament | None:
    """Tournament ``tid``, loaded if this process does not hold it (``display/live/loader.py``);
    while the server starts and while the tournament loads, a ``starting`` message every
    ``STARTING_EVERY`` seconds says how far (docs/protocol.md). None: there is no such
    tournament. Raises what Redis raises while loading."""
    replica = svc.replica
    while not replica.started.is_set():  # the registry is read first
        await _starting(websocket, *replica.progress())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(replica.started.wait(), STARTING_EVERY)
    replica.loader.touch(tid)
    if (live := replica.tournaments.get(tid)) is not None:
        return live
    loading = replica.loader.start(tid)
    await asyncio.wait([loading], timeout=STARTING_EVERY)  # most loads take less: no message
    while not loading.done():
        await _starting(websocket, *replica.progress_of(tid))
        await asyncio.wait([loading], timeout=STARTING_EVERY)
    return loading.result()


async def _starting(websocket: WebSocket, done: int, total: int) -> None:
    starting = {"type": "starting", "done": done, "total": total, "time": time.time()}
    await websocket.send_text(orjson.dumps(starting).decode())


routes = [WebSocketRoute("/ws/{tournament}", live_socket)]
