"""Up at once, honest while loading (display/live/loader.py): a process that restarts on a long
log reads no log before it is ready, loads a tournament on its first use, says how far the load
is on /api/health and its websockets, serves other requests between the load's slices, and then
serves the same views as the process that wrote it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette

from display.app import create_app
from display.cli.serve import uvicorn_config
from display.live import loader as loader_module
from display.live.replica import Replica
from display.live.snapshots import Snapshots
from display.log.store import LogStore
from display.settings import Settings
from tests.utils import Api, connect, free_port, receive, serve_in_loop, ws_url

EPC = "epc-qualifying"


@contextlib.asynccontextmanager
async def listening(
    settings: Settings, gate: asyncio.Event | None = None
) -> AsyncIterator[tuple[Starlette, httpx.AsyncClient]]:
    """The app under uvicorn on a free port, yielded with an HTTP client of it as soon as the port
    listens, before it has caught up; on the way out ``gate`` is opened so a held start or load
    can finish, and the server stops."""
    app = create_app(settings)
    port = free_port()
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port, settings))
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            yield app, http
    finally:
        if gate is not None:
            gate.set()
        server.should_exit = True
        await task


def base_of(http: httpx.AsyncClient) -> str:
    """The server's base URL, as the suite's helpers take it (no trailing slash)."""
    return str(http.base_url).rstrip("/")


async def test_a_restart_answers_at_once_and_a_long_tournament_says_how_far_it_has_loaded(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart reads no log: it is ready at once, lists the tournament from its summary, and
    loads it on first use; while the load is held after its first page, health and the
    websocket say how far it is, and then the display and the API get what the process that
    wrote it had."""
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("long", EPC, players=30, machines=6)
        for n in range(30):
            r = await api.score("long", 1 + n, 1 + n % 6, 1000 + n)
            assert r.status_code == 201, r.text
        before = await api.views("long")
        listed = (await api.http.get("/api/tournaments")).json()
        await api.close()
    total = before["version"]

    # The restarted process loads 5 records at a time and stops after its first page until let go.
    gate = asyncio.Event()
    reads = 0
    original = LogStore.read

    async def held_read(self: LogStore, tid: str, after: int = 0, count: int | None = None) -> Any:
        nonlocal reads
        reads += 1
        if reads > 1:
            await gate.wait()
        return await original(self, tid, after, count)

    monkeypatch.setattr(Snapshots, "load", lambda self, tid: None)  # the whole log to read
    monkeypatch.setattr(loader_module, "READ_COUNT", 5)
    monkeypatch.setattr(LogStore, "read", held_read)
    async with listening(settings, gate) as (app, http):
        while not app.state.services.replica.started.is_set():
            await asyncio.sleep(0.01)
        assert reads == 0  # ready without reading a log
        assert (await http.get("/api/tournaments")).json() == listed
        async with connect(ws_url(base_of(http), "long")) as ws:
            starting = await receive(ws)
            assert starting["type"] == "starting"
            assert (starting["done"], starting["total"]) == (5, total)
            health = (await http.get("/api/health")).json()
            assert health["start"] == {
                "state": "ready",
                "done": 5,
                "total": total,
                "percent": 5 * 100 // total,
            }
            assert health["tournaments"]["long"] == {
                "version": 5,
                "state": "starting",
                "total": total,
            }
            views = asyncio.create_task(http.get("/api/t/long/views"))  # waits for the load
            await asyncio.sleep(0.2)
            assert not views.done()
            gate.set()
            snapshot = await receive(ws)
            while snapshot["type"] == "starting":
                snapshot = await receive(ws)
            assert snapshot["type"] == "snapshot" and snapshot["version"] == total
            assert snapshot["views"] == before["views"]
            assert (await views).json() == before
        api = Api(base_of(http))
        await api.sign_in_td()
        r = await api.score("long", 1, 2, 5)
        assert r.status_code == 201, r.text
        await api.close()


async def test_no_request_waits_behind_a_long_load(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rules run in slices: while a load on first use applies records that each take 20 ms,
    a health check is answered between slices (well before the load ends), not after it."""
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("slow", EPC, players=40, machines=6)
        for n in range(40):
            assert (await api.score("slow", 1 + n, 1 + n % 6, 1000 + n)).status_code == 201
        await api.close()

    from display.live.tournament import LiveTournament

    original = LiveTournament.advance

    def slow_advance(self: LiveTournament, batch: Any, defer: bool = False) -> Any:
        import time

        time.sleep(0.02 * len(batch))  # the rules of a big tournament
        return original(self, batch, defer)

    monkeypatch.setattr(LiveTournament, "advance", slow_advance)
    monkeypatch.setattr(Snapshots, "load", lambda self, tid: None)  # the whole log to read
    async with listening(settings) as (app, http):
        replica = app.state.services.replica
        while not replica.started.is_set():
            await asyncio.sleep(0.01)
        first_use = asyncio.create_task(http.get("/api/t/slow/views"))
        while not replica.progress()[0]:
            await asyncio.sleep(0.001)
        health = (await http.get("/api/health")).json()
        assert health["tournaments"]["slow"]["state"] == "starting"
        assert 0 < health["start"]["done"] < health["start"]["total"]
        assert not first_use.done()
        assert (await first_use).json()["version"] == health["start"]["total"]


async def test_until_the_registry_is_read_writes_and_pages_answer_starting(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start-up reads the registry and checks Redis against the high-water file before it takes
    writes; until then writes and pages answer 503 "starting" and a display is told so."""
    gate = asyncio.Event()
    original = Replica.read_registry

    async def held(self: Replica) -> None:
        await gate.wait()
        await original(self)

    monkeypatch.setattr(Replica, "read_registry", held)
    async with listening(settings, gate) as (_app, http):
        r = await http.post("/api/session", json={"role": "td", "password": "x"})
        assert (r.status_code, r.headers["retry-after"]) == (503, "1")
        assert r.json()["error"] == "starting"
        page = await http.get("/t/any/display", headers={"Accept": "text/html"})
        assert page.status_code == 503 and "Backglass is starting" in page.text
        assert 'http-equiv="refresh"' in page.text
        assert (await http.get("/static/live.js")).status_code == 200
        assert (await http.get("/api/health")).json()["start"]["state"] == "starting"
        async with connect(ws_url(base_of(http), "any")) as ws:
            assert (await receive(ws))["type"] == "starting"
            gate.set()
            while (message := await receive(ws))["type"] == "starting":
                pass
            assert message["type"] == "error"  # no tournament "any"
        assert (await http.get("/api/health")).json()["start"]["state"] == "ready"
