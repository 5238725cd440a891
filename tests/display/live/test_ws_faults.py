"""Websocket faults and bad input, on real sockets against a real uvicorn (display/live/ws_protocol.py):
a dead peer is found by ping and freed, a peer that stops reading neither delays the others nor
holds its socket for ever, and malformed, oversized, flooding or non-UTF-8 frames get a clean close
while the server, its other clients and the log carry on."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import os
import socket
import struct
from base64 import b64encode
from typing import Any

import pytest

from display.live.ws_protocol import (
    MAX_FRAME_BYTES,
    MAX_FRAMES_PER_SECOND,
    GuardedWebSocketProtocol,
)
from display.settings import Settings
from tests.utils import Api, connect, receive, serve_with_services, ws_url

EPC = "epc-qualifying"
TEXT, BINARY, CONT, CLOSE, PING = 0x1, 0x2, 0x0, 0x8, 0x9


def frame(
    opcode: int,
    payload: bytes = b"",
    fin: bool = True,
    mask: bool = True,
    length: int | None = None,
) -> bytes:
    """One RFC 6455 frame as a client writes it (masked), or deliberately not."""
    size = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | opcode])
    bit = 0x80 if mask else 0
    if size < 126:
        head += bytes([bit | size])
    elif size < 1 << 16:
        head += bytes([bit | 126]) + struct.pack("!H", size)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", size)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


class RawClient:
    """A websocket client on a bare non-blocking socket: it reads only when asked to, so it can
    play a peer that has stopped reading, never answers pings, or writes garbage."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    @classmethod
    async def open(cls, base: str, path: str, receive_buffer: int | None = None) -> RawClient:
        loop = asyncio.get_running_loop()
        sock = socket.socket()
        sock.setblocking(False)
        if receive_buffer:  # set before connecting, so the TCP window starts small
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        host, port = base.removeprefix("http://").split(":")
        await loop.sock_connect(sock, (host, int(port)))
        key = b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        await loop.sock_sendall(sock, request.encode())
        client = cls(sock)
        while b"\r\n\r\n" not in client.buffer:
            client.buffer += await client.recv()
        head, client.buffer = client.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        return client

    async def recv(self) -> bytes:
        data = await asyncio.wait_for(asyncio.get_running_loop().sock_recv(self.sock, 65536), 10)
        if not data:
            raise EOFError
        return data

    async def send(self, data: bytes) -> None:
        await asyncio.get_running_loop().sock_sendall(self.sock, data)

    async def close_code(self) -> int | None:
        """Read server frames until the server closes the socket; the close frame's code."""
        code = None
        with_eof = True
        while with_eof:
            while len(self.buffer) >= 2:
                opcode, size = self.buffer[0] & 0x0F, self.buffer[1] & 0x7F
                start = 2
                if size == 126:
                    size, start = struct.unpack("!H", self.buffer[2:4])[0], 4
                elif size == 127:
                    size, start = struct.unpack("!Q", self.buffer[2:10])[0], 10
                if len(self.buffer) < start + size:
                    break
                payload, self.buffer = (
                    self.buffer[start : start + size],
                    self.buffer[start + size :],
                )
                if opcode == CLOSE:
                    code = struct.unpack("!H", payload[:2])[0]
            try:
                self.buffer += await self.recv()
            except (EOFError, ConnectionResetError):
                with_eof = False
        return code

    def close(self) -> None:
        self.sock.close()


async def until(condition: Any, timeout: float = 10.0) -> None:
    """Wait for ``condition()`` to hold (polled); fail after ``timeout`` seconds."""
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not reached")


async def signed_in(base: str) -> Api:
    api = Api(base)
    await api.sign_in_td()
    return api


def apply(state: dict[str, Any], version: int, message: dict[str, Any]) -> int:
    """Apply a snapshot or a patch (docs/protocol.md) to ``state``; the new version. A patch must
    follow on from ``version``: a gap or a repeat fails the test."""
    from display.live import mergepatch

    if message["type"] == "snapshot":
        assert message["version"] >= version, "a snapshot went back in time"
        state.clear()
        state.update(message["views"])
        return int(message["version"])
    assert message["type"] == "patch", message
    assert message["base"] == version, f"gap or repeat: at {version}, got base {message['base']}"
    state.update(message["views"])
    for name, patch in message["patches"].items():
        if patch is None:
            state.pop(name, None)
        else:
            state[name] = mergepatch.apply(state.get(name, {}), patch)
    return int(message["version"])


async def test_a_peer_that_never_answers_pings_is_freed(settings: Settings) -> None:
    """Protocol pings every 0.3 s: a peer that completed the handshake and then went silent (it
    never reads, never answers a ping) is dropped and its hub entry freed within interval +
    timeout. With pings off (uvicorn's default is 20 s) it would stay and this would time out."""
    quick = dataclasses.replace(settings, ws_ping_seconds=0.3)
    async with serve_with_services(quick) as (base, services, _):
        api = await signed_in(base)
        await api.tournament("dead", EPC, players=2, machines=1)
        async with connect(ws_url(base, "dead")) as alive:
            await receive(alive)
            silent = await RawClient.open(base, "/ws/dead")
            await until(lambda: services.hub.count() == 2)
            await until(lambda: services.hub.count() == 1, timeout=5)
            # the live client answers pings (websockets does) and stays
            pushed = await api.score("dead", 1, 1, 4242)
            patch = await receive(alive)
            assert patch["version"] == pushed.json()["version"]
            assert services.hub.count() == 1
        silent.close()
        await api.close()


def squeeze(server: Any, client: socket.socket) -> GuardedWebSocketProtocol:
    """Shrink the server's buffers for ``client``'s connection (kernel 4 KiB, asyncio 8 KiB): a
    link that slow fills after kilobytes, not the megabytes loopback buffers would take first."""
    port = client.getsockname()[1]
    for conn in server.server_state.connections:
        if isinstance(conn, GuardedWebSocketProtocol) and conn.client and conn.client[1] == port:
            conn.transport.get_extra_info("socket").setsockopt(
                socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
            )
            conn.transport.set_write_buffer_limits(high=8192)  # asyncio's, 64 KiB by default
            return conn
    raise AssertionError("no such connection")


async def small_socket(base: str) -> socket.socket:
    """A connected socket with a 4 KiB receive buffer (set before connecting: the TCP window)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    host, port = base.removeprefix("http://").split(":")
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    return sock


async def push_many(api: Api, tid: str, pushes: int, start: int) -> int:
    """``pushes`` scores on a 40-player, 4-machine tournament; the version of the last."""
    version = 0
    for n in range(start, start + pushes):
        r = await api.score(tid, 1 + n % 40, 1 + n // 40, 1_000_000 + (n * 7919) % 100_000)
        assert r.status_code == 201, r.text
        version = r.json()["version"]
    return version


async def test_a_slow_display_is_resynced_without_delaying_the_others(settings: Settings) -> None:
    """One display stops reading while pushes go on: its socket and write buffer fill, but the
    other three get every patch as it comes (their versions reach each push while the slow one is
    still behind), it is sent nothing more while its buffer is over the limit, and when it reads
    again it gets what was in flight, then one message to the latest version: no gap, and its
    state equals the server's."""
    async with serve_with_services(settings) as (base, services, server):
        api = await signed_in(base)
        await api.tournament("slow", EPC, players=40, machines=4)
        fast = [await connect(ws_url(base, "slow")) for _ in range(3)]
        states: list[dict[str, Any]] = [{} for _ in fast]
        versions = [apply(states[i], -1, await receive(ws)) for i, ws in enumerate(fast)]
        sock = await small_socket(base)
        # max_queue=1: websockets stops reading the socket while a message waits for recv()
        slow = await connect(ws_url(base, "slow"), sock=sock, max_queue=1, ping_interval=None)
        slow_state: dict[str, Any] = {}
        slow_version = apply(slow_state, -1, await receive(slow))
        squeeze(server, sock)
        port = sock.getsockname()[1]
        by_port = {c.link.client[1]: c for c in services.hub.clients["slow"]}  # type: ignore[attr-defined]
        hub_slow = by_port[port]
        pushed = 0
        while not hub_slow.resyncs and pushed < 150:  # until its buffer went over the limit
            last = await push_many(api, "slow", 1, pushed)
            pushed += 1
            for i, ws in enumerate(fast):
                versions[i] = apply(states[i], versions[i], await receive(ws))
            assert versions == [last] * 3
        assert hub_slow.resyncs > 0, "the slow display's buffer never went over the limit"
        assert hub_slow.version < last
        server_views = (await api.views("slow"))["views"]
        assert all(state == server_views for state in states)
        # it reads again: what was in flight, then a resync to the latest, no gap
        last = await push_many(api, "slow", 2, pushed)
        while slow_version < last:
            slow_version = apply(slow_state, slow_version, await receive(slow))
        assert slow_state == (await api.views("slow"))["views"]
        assert hub_slow in services.hub.clients["slow"]  # resynced, never dropped
        for ws in [*fast, slow]:
            await ws.close()
        await api.close()


async def test_a_peer_that_stops_reading_is_dropped_after_the_stall_time(
    settings: Settings,
) -> None:
    """A peer that never reads again: uvicorn alone would keep it for ever (its close and its send
    both wait for the buffer to drain, and so would a graceful shutdown). After
    ``ws_stall_seconds`` with its buffer full the connection is aborted and freed; the others
    carry on."""
    quick = dataclasses.replace(settings, ws_stall_seconds=0.3)
    async with serve_with_services(quick) as (base, services, server):
        api = await signed_in(base)
        await api.tournament("stall", EPC, players=40, machines=4)
        async with connect(ws_url(base, "stall")) as alive:
            version = apply({}, -1, await receive(alive))
            stuck = await RawClient.open(base, "/ws/stall", receive_buffer=4096)
            await until(lambda: services.hub.count() == 2)
            squeeze(server, stuck.sock)
            pushed = 0
            while services.hub.count() == 2 and pushed < 150:
                version = await push_many(api, "stall", 1, pushed)
                pushed += 1
                assert (await receive(alive))["version"] == version
            await until(lambda: services.hub.count() == 1, timeout=5)
            pushed_now = await api.score("stall", 1, 4, 7)
            assert (await receive(alive))["version"] == pushed_now.json()["version"]
            with pytest.raises((ConnectionResetError, EOFError)):
                while True:  # what was in its buffers, then the reset
                    await stuck.recv()
        stuck.close()
        await api.close()


async def test_a_held_display_keeps_none_of_its_handshake_and_still_works(
    settings: Settings,
) -> None:
    """Once the hub holds a connection, it has let go of its handshake request and response, the
    scope's headers and extensions (which held the protocol itself) and the receive queue's
    deques: about 7 KiB of each display's 16. It still gets every patch, answers pings, and
    closes cleanly when the peer says so, which frees its hub entry."""
    quick = dataclasses.replace(settings, ws_ping_seconds=0.3)
    async with serve_with_services(quick) as (base, services, server):
        api = await signed_in(base)
        await api.tournament("lean", EPC, players=4, machines=1)
        async with connect(ws_url(base, "lean")) as ws:
            await receive(ws)
            await until(lambda: services.hub.count() == 1)
            (conn,) = (
                c
                for c in server.server_state.connections
                if isinstance(c, GuardedWebSocketProtocol)
            )
            assert not hasattr(conn, "request") and not hasattr(conn, "response")
            assert conn.scope["headers"] == [] and conn.scope["extensions"] == {}
            holds = [*vars(conn.queue).values(), *vars(conn.writable).values()]
            assert not any(isinstance(value, collections.deque) for value in holds)
            for n in (1, 2):
                pushed = await api.score("lean", n, 1, 1000 * n)
                assert (await receive(ws))["version"] == pushed.json()["version"]
            await asyncio.sleep(0.7)  # two ping intervals: a lean connection still answers
            assert services.hub.count() == 1
        await until(lambda: services.hub.count() == 0)
        await api.close()


async def test_a_stuck_socket_that_is_closed_is_freed_and_does_not_hold_up_shutdown(
    settings: Settings,
) -> None:
    """With the stall guard off, two peers fill their sockets and stop reading. One floods, so the
    server closes it (1008) — but a close waits for the buffer to drain, which never happens: it
    is aborted after the close grace and freed. The other is still stuck when the server shuts
    down gracefully: uvicorn waits for every connection to close, so without the same abort the
    shutdown would never end."""
    no_stall = dataclasses.replace(settings, ws_stall_seconds=0)
    async with asyncio.timeout(30):  # a shutdown that hangs fails here, not at pytest's timeout
        async with serve_with_services(no_stall) as (base, services, server):
            api = await signed_in(base)
            await api.tournament("shut", EPC, players=40, machines=4)
            peers = [await RawClient.open(base, "/ws/shut", receive_buffer=4096) for _ in (1, 2)]
            await until(lambda: services.hub.count() == 2)
            conns = [squeeze(server, peer.sock) for peer in peers]
            pushed = 0
            while any(conn.writable.is_set() for conn in conns) and pushed < 150:
                await push_many(api, "shut", 1, pushed)
                pushed += 1
            assert not any(conn.writable.is_set() for conn in conns), "never filled"
            await peers[0].send(frame(PING, b"x") * (MAX_FRAMES_PER_SECOND * 2))
            await until(lambda: conns[0] not in server.server_state.connections)
            assert services.hub.count() == 1 and conns[1] in server.server_state.connections
            await api.close()
    for peer in peers:
        peer.close()


async def observed(base: str, tid: str) -> tuple[Any, int]:
    ws = await connect(ws_url(base, tid))
    return ws, (await receive(ws))["version"]


BAD_INPUT = {
    "garbage bytes": (b"\xff\xfe\xfd\xfc" * 8, 1002),
    "unmasked frame": (frame(TEXT, b'{"type":"hello"}', mask=False), 1002),
    "reserved opcode": (frame(0x3, b"x"), 1002),
    "control frame over 125 bytes": (frame(PING, b"p" * 200), 1002),
    "fragmented control frame": (frame(PING, b"p", fin=False), 1002),
    "continuation with nothing to continue": (frame(CONT, b"x"), 1002),
    "bad UTF-8 text": (frame(TEXT, b"caf\xc3\x28 \xed\xa0\x80"), 1007),
    "bad close code": (frame(CLOSE, struct.pack("!H", 999)), 1002),
    "1 MB frame": (frame(BINARY, b"\0" * (1 << 20)), 1009),
    "huge declared length": (frame(BINARY, b"", length=(1 << 63) - 1), 1009),
    "fragments that never end": (
        frame(TEXT, b"a" * 8192, fin=False)
        + b"".join(frame(CONT, b"a" * 8192, fin=False) for _ in range(MAX_FRAME_BYTES // 8192)),
        1009,
    ),
    "flood of messages": (frame(TEXT, b"{}") * (MAX_FRAMES_PER_SECOND * 4), 1008),
    "flood of pings": (frame(PING, b"x") * (MAX_FRAMES_PER_SECOND * 4), 1008),
}


async def test_malformed_frames_get_a_clean_close_and_change_nothing(settings: Settings) -> None:
    """Each bad input on its own connection: the server answers with the RFC 6455 close code
    (1002 protocol error, 1007 bad UTF-8, 1008 flood, 1009 too big) and closes the socket; the
    server stays up, a display connected throughout still gets the next push, and the log is
    exactly as it was."""
    async with serve_with_services(settings) as (base, services, _):
        api = await signed_in(base)
        await api.tournament("fz", EPC, players=2, machines=1)
        await api.score("fz", 1, 1, 100)
        log_before = (await api.http.get("/api/t/fz/log")).json()
        watcher, version = await observed(base, "fz")
        codes = {}
        for name, (data, _) in BAD_INPUT.items():
            raw = await RawClient.open(base, "/ws/fz")
            # the server may close while the 1 MB is still being written: its close frame came first
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                await raw.send(data)
            codes[name] = await raw.close_code()
            raw.close()
        assert codes == {name: code for name, (_, code) in BAD_INPUT.items()}
        await until(lambda: services.hub.count() == 1)  # every bad peer freed; the watcher stays
        assert (await api.http.get("/api/t/fz/log")).json() == log_before
        pushed = await api.score("fz", 2, 1, 200)
        patch = await receive(watcher)
        assert (patch["base"], patch["version"]) == (version, pushed.json()["version"])
        await watcher.close()
        await api.close()


async def test_bad_resume_versions_and_unknown_ids_get_clean_answers(api: Api) -> None:
    """``?since=`` negative, non-digit, in non-ASCII digits ("²" passes str.isdigit, int() refuses
    it), longer than int() takes, or past any version: a snapshot of the current version. An
    unknown tournament id, however odd: an error message and close 4404. A client sending a few
    messages and pings (under the flood limit) keeps its connection and gets the next patch."""
    await api.tournament("sg", EPC, players=2, machines=1)
    version = (await api.views("sg"))["version"]
    for since in ["-1", "abc", "1e3", "%C2%B2", "%EF%BC%91%EF%BC%92", "9" * 5000, "9" * 20, "%00"]:
        async with connect(ws_url(api.base, "sg") + "?since=" + since) as ws:
            message = await receive(ws)
            assert (message["type"], message["version"]) == ("snapshot", version), since
    for tid in ["nope", "%00", "%ff%fe", "a" * 2000, "..", "%2e%2e", "sg%20"]:
        async with connect(api.base.replace("http://", "ws://") + "/ws/" + tid) as ws:
            assert (await receive(ws))["type"] == "error"
            await asyncio.wait_for(ws.wait_closed(), 5)
            assert ws.close_code == 4404, tid
    async with connect(ws_url(api.base, "sg")) as ws:
        await receive(ws)
        for _ in range(MAX_FRAMES_PER_SECOND // 4):
            await ws.send('{"type":"hello"}')
            await ws.ping()
        pushed = await api.score("sg", 1, 1, 5)
        patch = await receive(ws)
        assert (patch["base"], patch["version"]) == (version, pushed.json()["version"])
