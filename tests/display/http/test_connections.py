"""display/http/connections.py over real sockets: a connection that sends nothing, or part of a
request, is answered 408 and closed in time; one address may hold only its cap of connections; when
every slot is taken the longest-idle connection makes room, so an attacker holding idle
connections from many addresses cannot keep a steward or a display out; the soft open-file limit
is raised to the hard one at start. Attackers connect from other loopback addresses
(127.0.0.2, ...: Linux routes all of 127/8 to lo)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import resource
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import websockets

from display.http.connections import Ledger, Limits, reserve_for
from display.settings import Settings
from tests.utils import TD_PASSWORD, Api, ServerProcess, receive, serve_in_loop, ws_url

EPC = "epc-qualifying"


async def attacker(port: int, address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection to the server on 127.0.0.1 from ``address`` that sends nothing."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))


async def answer(reader: asyncio.StreamReader, timeout: float = 5) -> bytes:
    """Everything the server sends until it closes the connection."""
    return await asyncio.wait_for(reader.read(), timeout)


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


# --- time limits ------------------------------------------------------------------------------


@pytest.fixture
async def quick(settings: Settings) -> AsyncIterator[str]:
    """A server whose request heads must arrive within 1 s (and bodies pause at most 1 s)."""
    async with serve_in_loop(dataclasses.replace(settings, header_seconds=1.0)) as base:
        yield base


@pytest.fixture
async def connect(quick: str) -> AsyncIterator[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """A connection to ``quick``, closed after the test (before the server stops)."""
    reader, writer = await attacker(port_of(quick), "127.0.0.1")
    yield reader, writer
    writer.close()


@pytest.mark.parametrize(
    "sent",
    [
        b"",  # connects and says nothing
        b"GET /api/tournaments HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # a head never finished
        b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b'content-length: 100\r\n\r\n{"role":',  # a body never finished
    ],
    ids=["nothing", "partial-head", "partial-body"],
)
async def test_a_connection_that_stops_sending_is_answered_408_and_closed(
    connect: tuple[asyncio.StreamReader, asyncio.StreamWriter], sent: bytes
) -> None:
    reader, writer = connect
    writer.write(sent)
    started = time.monotonic()
    got = await answer(reader, timeout=5)
    assert got.startswith(b"HTTP/1.1 408 "), got
    assert b"took too long" in got
    assert time.monotonic() - started < 4  # 1 s limit; without one the read would time out


async def test_a_keep_alive_connection_that_starts_a_second_request_and_stalls_is_closed(
    connect: tuple[asyncio.StreamReader, asyncio.StreamWriter],
) -> None:
    reader, writer = connect
    writer.write(b"GET /api/tournaments HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /api/tourn")
    got = await answer(reader, timeout=5)
    assert got.startswith(b"HTTP/1.1 200 "), got
    assert b"HTTP/1.1 408 " in got  # the second, partial request timed out


async def test_a_body_that_keeps_arriving_is_not_cut_off(
    connect: tuple[asyncio.StreamReader, asyncio.StreamWriter],
) -> None:
    """The 1 s limit is on pauses, not on the whole body: pieces 0.5 s apart over 2 s pass."""
    reader, writer = connect
    body = b'{"role": "td", "password": "' + TD_PASSWORD.encode() + b'"}'
    head = (
        b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    writer.write(head)
    for start in range(0, len(body), len(body) // 4 + 1):
        await asyncio.sleep(0.5)
        writer.write(body[start : start + len(body) // 4 + 1])
    got = await answer(reader)
    assert got.startswith(b"HTTP/1.1 200 "), got


# --- caps -------------------------------------------------------------------------------------


def server_env(redis_url: str, tmp_path: Path, per_address: int) -> dict[str, str]:
    return {
        "REDIS_URL": redis_url,
        "BACKGLASS_DATA": str(tmp_path / "data"),
        "BACKGLASS_PREFIX": f"bgtest-{uuid.uuid4().hex[:12]}",
        "BACKGLASS_TD_PASSWORD": TD_PASSWORD,
        "BACKGLASS_CONNECTIONS_PER_ADDRESS": str(per_address),
        "BACKGLASS_HEADER_SECONDS": "120",  # the attackers' idle connections stay for the test
    }


@contextlib.contextmanager
def running(server: ServerProcess) -> Iterator[ServerProcess]:
    server.start()
    try:
        yield server
    finally:
        server.kill()


async def hall_gets_through(base: str, tid: str) -> None:
    """A steward signs in and pushes a score, and a display opened before the push gets it."""
    api = Api(base)
    try:
        await api.sign_in_td()
        await api.tournament(tid, EPC, players=2, machines=1)
        steward = await api.sign_in_steward(tid)
        async with websockets.connect(ws_url(base, tid), open_timeout=5) as ws:
            assert (await receive(ws))["type"] == "snapshot"
            r = await api.score(tid, 1, 1, 12_340, token=steward, key=f"{tid}-push")
            assert r.status_code == 201, r.text
            patch = await receive(ws)
            assert patch["type"] == "patch", patch
    finally:
        await api.close()


async def test_one_address_holds_only_its_cap_and_the_hall_still_gets_through(
    redis_url: str, tmp_path: Path
) -> None:
    cap = 24
    with running(ServerProcess(server_env(redis_url, tmp_path, cap))) as server:
        held = [await attacker(server.port, "127.0.0.2") for _ in range(cap)]
        # the server counts a connection when it accepts it: one more gets the refusal
        reader, writer = await attacker(server.port, "127.0.0.2")
        refusal = await answer(reader)
        assert refusal.startswith(b"HTTP/1.1 503 "), refusal
        assert b"Too many connections from 127.0.0.2" in refusal
        assert b"retry-after: 5" in refusal
        writer.close()
        for reader, _ in held:  # the held ones are all still open
            assert not reader.at_eof()
        await hall_gets_through(server.url, "cap1")
        # a websocket keeps its slot until it closes, then frees it
        held.pop()[1].close()
        await asyncio.sleep(0.2)
        url = ws_url(server.url, "cap1")
        async with websockets.connect(url, open_timeout=5, local_addr=("127.0.0.2", 0)) as ws:
            assert (await receive(ws))["type"] == "snapshot"
            reader, writer = await attacker(server.port, "127.0.0.2")
            assert (await answer(reader)).startswith(b"HTTP/1.1 503 ")
            writer.close()
        await asyncio.sleep(0.2)
        held.append(await attacker(server.port, "127.0.0.2"))
        await asyncio.sleep(0.2)
        assert not held[-1][0].at_eof()
        for _, writer in held:
            writer.close()


def small_file_limit() -> None:
    """In the server's child: a soft open-file limit of 150 under a hard one of 200."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (150, 200))


async def test_when_every_slot_is_taken_the_longest_idle_makes_room_for_the_hall(
    redis_url: str, tmp_path: Path
) -> None:
    """An attacker on many addresses fills every slot with idle connections (each address below
    its cap): a steward and a display still get through, and the display's websocket (not
    idle) survives more attackers while it is open."""
    env = server_env(redis_url, tmp_path, per_address=16)
    with running(ServerProcess(env, preexec=small_file_limit)) as server:
        assert server.process is not None
        limits = Path(f"/proc/{server.process.pid}/limits").read_text()
        soft, hard = next(
            line.split()[3:5] for line in limits.splitlines() if line.startswith("Max open files")
        )
        assert (soft, hard) == ("200", "200")  # raised to the hard limit at start
        total = 200 - reserve_for(200)
        held = []
        for n in range(total + 16):  # more than every slot, from 10 addresses
            held.append(await attacker(server.port, f"127.0.0.{10 + n % 10}"))
        await asyncio.sleep(0.3)
        closed = sum(reader.at_eof() for reader, _ in held)
        assert closed >= 16  # the oldest idle ones made room for the newest
        api = Api(server.url)
        await api.sign_in_td()
        await api.tournament("full1", EPC, players=2, machines=1)
        async with websockets.connect(ws_url(server.url, "full1"), open_timeout=5) as ws:
            assert (await receive(ws))["type"] == "snapshot"
            for n in range(40):
                held.append(await attacker(server.port, f"127.0.1.{n % 10}"))
            await asyncio.sleep(0.3)
            pusher = Api(server.url)
            pusher.token = api.token
            r = await pusher.score("full1", 1, 1, 5_000, key="full1-push")
            assert r.status_code == 201, r.text
            assert (await receive(ws))["type"] == "patch"
            await pusher.close()
        await api.close()
        for _, writer in held:
            writer.close()


def test_the_ledger_counts_per_address_and_evicts_the_longest_waiting() -> None:
    class Transport:
        aborted = False

        def abort(self) -> None:
            self.aborted = True

    ledger = Ledger(Limits(per_address=2, total=3))
    a, b, c, d, e = (Transport() for _ in range(5))
    assert ledger.admit(a, "10.0.0.1") is None
    assert ledger.admit(b, "10.0.0.1") is None
    assert "at most 2" in (ledger.admit(c, "10.0.0.1") or "")
    ledger.busy(a)  # a sent its request: not evictable
    assert ledger.admit(c, "10.0.0.2") is None
    assert ledger.admit(d, "10.0.0.3") is None  # full: b, the longest waiting, goes
    assert b.aborted and not a.aborted and ledger.count() == 3
    ledger.busy(c)
    ledger.busy(d)
    assert ledger.admit(e, "10.0.0.4") == "The server is full. Try again in a moment."
    ledger.release(a)
    ledger.release(a)  # idempotent
    assert ledger.count("10.0.0.1") == 0 and ledger.admit(e, "10.0.0.4") is None
