"""The client process: N real websocket clients (the ``websockets`` library) in one event loop.

It runs in a process of its own so that parsing N copies of every patch does not run on the
pusher's event loop (the pusher would otherwise time itself waiting behind the clients). It is
driven over stdin/stdout, one JSON object per line:

    {"cmd": "connect", "url": "ws://…", "n": 100, "impl": "protocol", "capture": true}
        -> {"ok": true, "connected": 100, "seconds": 0.8}
    {"event": "reached", "version": V, "first": t, "last": t}      (sent by itself, see "report")
    {"cmd": "report", "on": true}       report each version once every client has it
    {"cmd": "converge", "version": V, "timeout": 30}
        -> {"ok": true, "at": t} once every client is at version >= V (or {"ok": false, ...})
    {"cmd": "message", "version": V}    -> {"ok": true, "text": …} the patch client 0 got for V
    {"cmd": "capture", "path": P}       write client 0's patch messages (one text per line)
    {"cmd": "state", "path": P}         write client 0's state ({"version", "views"}), if verifying
    {"cmd": "stats"}                    messages, snapshots, pings received, CPU seconds used
    {"cmd": "close"}                    close every connection
    {"cmd": "quit"}

Times are ``time.perf_counter()`` taken when the bytes completing a message were handed to the
process (``data_received``), i.e. the moment the client has the patch.

Two client implementations (``impl``):

- ``protocol`` (default): the websockets sans-I/O ``ClientProtocol`` driven by an
  ``asyncio.Protocol``. Real TCP, real handshake, real frame parsing (and masking of what the client
  sends), but no task and no queue per connection, so 1000 of them cost the shared CPU little and
  the figure is the server's, not the clients'.
- ``asyncio``: ``websockets.asyncio.client.connect`` with a reader task per connection, as an
  application would use it. Heavier per message; use it to see how much the clients themselves add.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import time
from collections.abc import Callable
from typing import Any

import orjson
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from bench.common import check_clock, now, raise_nofile, use_uvloop

VERSION = re.compile(rb'"version":(\d+)')
TRACK_GAP = 64  # a jump bigger than this (a snapshot) is not tracked per version


def merge(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON Merge Patch (for the state check of client 0)."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge(result.get(key), value)
    return result


class Pool:
    """Every client's version, per-version arrival stats and the commands' bookkeeping."""

    def __init__(self, emit: Callable[[dict[str, Any]], None]) -> None:
        self.emit = emit
        self.n = 0
        self.versions: list[int] = []
        self.messages: list[int] = []
        self.snapshots: list[int] = []
        self.pings = 0
        self.first_message: list[asyncio.Future[None]] = []
        self.reached: dict[int, list[float]] = {}  # version -> [count, first, last]
        self.report = False
        self.capture: dict[int, bytes] | None = None
        self.verify = False
        self.state: dict[str, Any] = {}
        self.state_version = -1
        self.converge_target: int | None = None
        self.converge_future: asyncio.Future[float] | None = None
        self.errors: list[str] = []

    def reset(self, n: int, capture: bool, verify: bool) -> None:
        loop = asyncio.get_running_loop()
        self.n = n
        self.versions = [-1] * n
        self.messages = [0] * n
        self.snapshots = [0] * n
        self.pings = 0
        self.first_message = [loop.create_future() for _ in range(n)]
        self.reached = {}
        self.capture = {} if capture else None
        self.verify = verify
        self.state, self.state_version = {}, -1

    def on_message(self, idx: int, data: bytes, t: float) -> None:
        kind = data[9:14]  # {"type":"patch" / "snapshot" / "ping" (orjson keeps key order)
        if kind.startswith(b"ping"):
            self.pings += 1
            return
        match = VERSION.search(data, 0, 200)
        if match is None:
            self.errors.append(f"client {idx}: message without a version: {data[:80]!r}")
            return
        version = int(match.group(1))
        prev = self.versions[idx]
        self.messages[idx] += 1
        if kind.startswith(b"snaps"):
            if prev >= 0:
                self.snapshots[idx] += 1  # a resync (the first snapshot is not counted)
        elif kind.startswith(b"error"):
            self.errors.append(f"client {idx}: {data[:200]!r}")
            return
        if idx == 0:
            self._client0(data, version, kind)
        self.versions[idx] = version
        fut = self.first_message[idx]
        if not fut.done():
            fut.set_result(None)
        elif prev < version and version - prev <= TRACK_GAP and self.report:
            for v in range(prev + 1, version + 1):
                slot = self.reached.get(v)
                if slot is None:
                    slot = self.reached[v] = [0, t, t]
                slot[0] += 1
                slot[2] = t
                if slot[0] == self.n:
                    del self.reached[v]
                    self.emit({"event": "reached", "version": v, "first": slot[1], "last": t})
        if self.converge_target is not None and version >= self.converge_target:
            self.check_converged(t)

    def _client0(self, data: bytes, version: int, kind: bytes) -> None:
        if self.capture is not None and kind.startswith(b"patch"):
            self.capture[version] = data
        if self.verify:
            message = orjson.loads(data)
            if message["type"] == "snapshot":
                self.state = message["views"]
            elif message["base"] == self.state_version:
                for name, document in message.get("views", {}).items():
                    self.state[name] = document
                for name, patch in message["patches"].items():
                    if patch is None:
                        self.state.pop(name, None)
                    else:
                        self.state[name] = merge(self.state.get(name, {}), patch)
            else:
                self.errors.append(
                    f"client 0: patch base {message['base']} at {self.state_version}"
                )
            self.state_version = version

    def check_converged(self, t: float) -> None:
        target, fut = self.converge_target, self.converge_future
        if target is None or fut is None or fut.done():
            return
        if min(self.versions, default=target) >= target:
            fut.set_result(t)
            self.converge_target = None


class ProtocolClient(asyncio.Protocol):
    """One websocket over a raw asyncio transport, parsed by websockets' sans-I/O protocol."""

    def __init__(self, pool: Pool, idx: int, url: str) -> None:
        self.pool, self.idx = pool, idx
        self.ws = ClientProtocol(parse_uri(url), max_size=None)
        self.transport: asyncio.Transport | None = None
        self.fragments: list[bytes] = []
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.ws.send_request(self.ws.connect())
        self.flush()

    def data_received(self, data: bytes) -> None:
        t = now()
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is not None:
                    self.pool.errors.append(f"client {self.idx}: {self.ws.handshake_exc}")
                continue
            if not isinstance(event, Frame):
                continue
            if event.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
                payload = bytes(event.data)
                if event.fin and not self.fragments:
                    self.pool.on_message(self.idx, payload, t)
                elif event.fin:
                    self.fragments.append(payload)
                    self.pool.on_message(self.idx, b"".join(self.fragments), t)
                    self.fragments = []
                else:
                    self.fragments.append(payload)
        self.flush()

    def flush(self) -> None:
        assert self.transport is not None
        chunks = self.ws.data_to_send()
        payload = b"".join(chunks)
        if payload:
            self.transport.write(payload)
        if chunks and chunks[-1] == b"":
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)

    def close(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        with contextlib.suppress(Exception):
            self.ws.send_close(1000)
            self.flush()


class Clients:
    """The clients of the current ``connect``, whichever implementation."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.protocols: list[ProtocolClient] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.sockets: list[Any] = []

    async def connect(self, url: str, n: int, impl: str, concurrency: int = 50) -> None:
        loop = asyncio.get_running_loop()
        uri = parse_uri(url)
        gate = asyncio.Semaphore(concurrency)

        async def one_protocol(idx: int) -> None:
            async with gate:
                _, proto = await loop.create_connection(
                    lambda: ProtocolClient(self.pool, idx, url), uri.host, uri.port
                )
                self.protocols.append(proto)
                await asyncio.wait_for(self.pool.first_message[idx], 30)

        async def one_asyncio(idx: int) -> None:
            from websockets.asyncio.client import connect

            async with gate:
                ws = await connect(url, compression=None, max_size=None, open_timeout=30)
                self.sockets.append(ws)
                self.tasks.append(asyncio.create_task(self.read_asyncio(ws, idx)))
                await asyncio.wait_for(self.pool.first_message[idx], 30)

        one = one_protocol if impl == "protocol" else one_asyncio
        await asyncio.gather(*(one(i) for i in range(n)))

    async def read_asyncio(self, ws: Any, idx: int) -> None:
        with contextlib.suppress(Exception):
            while True:
                data = await ws.recv(decode=False)
                self.pool.on_message(idx, data, now())

    async def close(self) -> None:
        for proto in self.protocols:
            proto.close()
        if self.protocols:
            await asyncio.wait([asyncio.ensure_future(p.closed) for p in self.protocols], timeout=5)
        for proto in self.protocols:
            if proto.transport is not None:
                proto.transport.abort()
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.protocols, self.tasks, self.sockets = [], [], []


async def main() -> None:
    check_clock()
    raise_nofile()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out = sys.stdout.buffer

    def emit(message: dict[str, Any]) -> None:
        out.write(orjson.dumps(message) + b"\n")
        out.flush()

    pool = Pool(emit)
    clients = Clients(pool)
    while True:
        line = await reader.readline()
        if not line:
            break
        cmd = orjson.loads(line)
        name = cmd["cmd"]
        try:
            if name == "connect":
                await clients.close()
                pool.reset(cmd["n"], cmd.get("capture", False), cmd.get("verify", False))
                pool.report = cmd.get("report", True)
                start = now()
                await clients.connect(cmd["url"], cmd["n"], cmd.get("impl", "protocol"))
                emit({"ok": True, "connected": cmd["n"], "seconds": now() - start})
            elif name == "report":
                pool.report = cmd["on"]
                pool.reached = {}
                emit({"ok": True})
            elif name == "converge":
                pool.converge_target = cmd["version"]
                pool.converge_future = loop.create_future()
                pool.check_converged(now())
                try:
                    at = await asyncio.wait_for(pool.converge_future, cmd.get("timeout", 30))
                    emit({"ok": True, "at": at})
                except TimeoutError:
                    emit({"ok": False, "versions": sorted(set(pool.versions))[:10]})
            elif name == "capture":
                with open(cmd["path"], "wb") as f:
                    for version in sorted(pool.capture or {}):
                        f.write((pool.capture or {})[version] + b"\n")
                emit({"ok": True, "messages": len(pool.capture or {})})
            elif name == "message":
                text = (pool.capture or {}).get(cmd["version"], b"")
                emit({"ok": bool(text), "text": text.decode()})
            elif name == "state":
                with open(cmd["path"], "wb") as f:
                    f.write(orjson.dumps({"version": pool.state_version, "views": pool.state}))
                emit({"ok": True})
            elif name == "stats":
                cpu = time.process_time()
                emit(
                    {
                        "ok": True,
                        "messages": sum(pool.messages),
                        "snapshots": sum(pool.snapshots),
                        "pings": pool.pings,
                        "cpu": cpu,
                        "errors": pool.errors[:5],
                        "min_version": min(pool.versions, default=-1),
                    }
                )
            elif name == "close":
                await clients.close()
                emit({"ok": True})
            elif name == "quit":
                await clients.close()
                emit({"ok": True})
                break
            else:
                emit({"ok": False, "error": f"unknown command {name}"})
        except Exception as exc:
            emit({"ok": False, "error": f"{type(exc).__name__}: {exc}"})


if __name__ == "__main__":
    loop_name = use_uvloop()
    asyncio.run(main())
