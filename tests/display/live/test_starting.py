"""Up at once, honest while catching up (display/http/starting.py, Replica.catch_up): a process
that restarts on a long log answers before it has read it, says how far it is on /api/health,
its pages and its websockets, refuses writes with 503 "starting, N % caught up", and then serves
the same views as a process that read everything first."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx
import pytest
import uvicorn

from display.app import create_app
from display.cli.serve import uvicorn_config
from display.live import replica as replica_module
from display.live.replica import Replica
from display.live.snapshots import Snapshots
from display.settings import Settings
from tests.utils import Api, connect, free_port, receive, serve_in_loop, ws_url

EPC = "epc-qualifying"


async def test_a_restart_answers_at_once_and_says_how_far_it_has_caught_up(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("long", EPC, players=30, machines=6)
        for n in range(30):
            r = await api.score("long", 1 + n, 1 + n % 6, 1000 + n)
            assert r.status_code == 201, r.text
        before = await api.views("long")
        await api.close()
    total = before["version"]

    # The restarted process reads 5 records at a time and stops after its first page until let go.
    gate = asyncio.Event()
    reads = 0
    original = Replica._read

    async def held_read(self: Replica, block_ms: int | None) -> Any:
        nonlocal reads
        reads += 1
        if reads > 2:
            await gate.wait()
        return await original(self, block_ms)

    monkeypatch.setattr(Snapshots, "load", lambda self, tid: None)  # the whole log to read
    monkeypatch.setattr(replica_module, "READ_COUNT", 5)
    monkeypatch.setattr(Replica, "_read", held_read)
    app = create_app(settings)
    port = free_port()
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port, settings))
    task = asyncio.create_task(server.serve())
    base = f"http://127.0.0.1:{port}"
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            while reads < 3:  # registry, then the first page of the log: held there
                await asyncio.sleep(0.01)
            health = (await http.get("/api/health")).json()
            assert health["start"] == {
                "state": "starting",
                "done": 5,
                "total": total,
                "percent": 5 * 100 // total,
            }
            assert health["tournaments"]["long"] == {
                "version": 5,
                "state": "starting",
                "total": total,
            }
            r = await http.post("/api/session", json={"role": "td", "password": "x"})
            assert r.status_code == 503 and r.headers["retry-after"] == "1"
            assert r.json()["error"] == "starting"
            assert r.json()["message"] == f"starting, {5 * 100 // total} % caught up"
            assert (await http.get("/api/t/long/views")).status_code == 503
            page = await http.get("/t/long/display", headers={"Accept": "text/html"})
            assert page.status_code == 503
            assert re.search(rf"starting: \d+ % caught up \(5 of {total} records\)", page.text)
            assert 'http-equiv="refresh"' in page.text
            assert (await http.get("/static/live.js")).status_code == 200
            async with connect(ws_url(base, "long")) as ws:
                starting = await receive(ws)
                assert starting["type"] == "starting"
                assert (starting["done"], starting["total"]) == (5, total)
                gate.set()
                snapshot = await receive(ws)
                while snapshot["type"] == "starting":
                    snapshot = await receive(ws)
                assert snapshot["type"] == "snapshot" and snapshot["version"] == total
                assert snapshot["views"] == before["views"]
            while not app.state.services.replica.started.is_set():
                await asyncio.sleep(0.01)
            assert (await http.get("/api/health")).json()["start"]["state"] == "ready"
            api = Api(base)
            await api.sign_in_td()
            assert (await api.views("long"))["views"] == before["views"]
            r = await api.score("long", 1, 2, 5)
            assert r.status_code == 201, r.text
            await api.close()
    finally:
        gate.set()
        server.should_exit = True
        await task


async def test_no_request_waits_behind_a_long_catch_up(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rules run in slices: while a catch-up applies records that each take 20 ms, a health
    check is answered between slices (well before the catch-up ends), not after it."""
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("slow", EPC, players=40, machines=6)
        for n in range(40):
            assert (await api.score("slow", 1 + n, 1 + n % 6, 1000 + n)).status_code == 201
        await api.close()

    from display.live.tournament import LiveTournament

    original = LiveTournament.advance

    def slow_advance(self: LiveTournament, batch: Any) -> Any:
        import time

        time.sleep(0.02 * len(batch))  # the rules of a big tournament
        return original(self, batch)

    monkeypatch.setattr(LiveTournament, "advance", slow_advance)
    monkeypatch.setattr(Snapshots, "load", lambda self, tid: None)  # the whole log to read
    app = create_app(settings)
    port = free_port()
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port, settings))
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        replica = app.state.services.replica
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            while not replica.progress()[0]:
                await asyncio.sleep(0.001)
            health = (await http.get("/api/health")).json()
            assert health["start"]["state"] == "starting"
            assert 0 < health["start"]["done"] < health["start"]["total"]
    finally:
        server.should_exit = True
        await task
