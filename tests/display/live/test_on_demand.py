"""Tournaments on demand (display/live/loader.py): a process starts holding no tournament, lists
them all from their summaries, loads one on its first GET, websocket or write (answering as a
process that held it all along), lets an idle one go and loads it again equal, and two processes
holding different sets of tournaments stay consistent. Real Redis, real uvicorn, real websockets."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from display.settings import Settings
from tests.utils import Api, connect, receive, serve_with_services, ws_url

EPC = "epc-qualifying"


async def _three(base: str) -> dict[str, dict[str, Any]]:
    """Tournaments a, b and c with a few scores; returns each one's views."""
    api = Api(base)
    await api.sign_in_td()
    for n, tid in enumerate("abc"):
        await api.tournament(tid, EPC, players=4, machines=2)
        for player in range(1, 4):
            r = await api.score(tid, player, 1 + player % 2, 1000 * player + n)
            assert r.status_code == 201, r.text
    found = {tid: await api.views(tid) for tid in "abc"}
    listed = (await api.http.get("/api/tournaments")).json()["tournaments"]
    await api.close()
    return {"views": found, "listed": {t["id"]: t for t in listed}}


async def _until(condition: Any, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not met in time")


async def test_a_tournament_not_loaded_loads_on_first_get_websocket_or_write(
    settings: Settings,
) -> None:
    async with serve_with_services(settings) as (base, _, _):
        before = await _three(base)
    async with serve_with_services(settings) as (base, svc, _):
        replica = svc.replica
        assert set(replica.registered) == {"a", "b", "c"} and not replica.tournaments
        api = Api(base)
        await api.sign_in_td()
        # Listed from the summaries in Redis, exactly as the process that held them listed them.
        listed = (await api.http.get("/api/tournaments")).json()["tournaments"]
        assert {t["id"]: t for t in listed} == before["listed"]
        assert not replica.tournaments
        assert await api.views("a") == before["views"]["a"]  # first GET
        assert set(replica.tournaments) == {"a"}
        async with connect(ws_url(base, "b")) as ws:  # first websocket
            snapshot = await receive(ws)
            assert snapshot["type"] == "snapshot"
            assert snapshot["version"] == before["views"]["b"]["version"]
            assert snapshot["views"] == before["views"]["b"]["views"]
        # First write: validated against c's current state (player 9 was never added; player
        # 3's game on machine 2 is in), then appended at c's version.
        assert (await api.score("c", 9, 1, 5)).status_code in (404, 409, 422)
        assert not (await api.views("c"))["views"].get("integrity")
        r = await api.score("c", 4, 1, 7777)
        assert r.status_code == 201, r.text
        assert r.json()["version"] == before["views"]["c"]["version"] + 1
        # An id Redis does not have stays unknown and is not held.
        assert (await api.http.get("/api/t/nothing/views")).status_code == 404
        assert "nothing" not in replica.tournaments and "nothing" not in replica.registered
        await api.close()


async def test_an_idle_tournament_is_let_go_and_loads_again_equal(settings: Settings) -> None:
    async with serve_with_services(settings) as (base, _, _):
        before = await _three(base)
    idle = dataclasses.replace(settings, idle_minutes=0.3 / 60)  # 0.3 s
    async with serve_with_services(idle) as (base, svc, server):
        replica = svc.replica
        api = Api(base)
        await api.sign_in_td()
        assert await api.views("a") == before["views"]["a"]
        chart = await api.http.get("/api/t/a/progress", params={"player": "1"})  # a replay of a
        assert chart.status_code == 200 and chart.json()["points"]
        async with connect(ws_url(base, "b")) as ws:
            await receive(ws)
            await _until(lambda: "a" not in replica.tournaments)  # a: no client, no request
            assert (await api.http.get("/api/t/b/progress", params={"player": "1"})).is_success
            # the players' charts' replays (display/desk/progress.py): a's went with a
            assert set(server.config.app.state.progress) == {"b"}
            assert "b" in replica.tournaments  # b has a display: kept however long
            assert replica.snapshots.saved_at["a"] == before["views"]["a"]["version"]
        await _until(lambda: "b" not in replica.tournaments)  # its display left
        assert await api.views("a") == before["views"]["a"]  # loaded again, from its snapshot
        assert await api.views("b") == before["views"]["b"]
        r = await api.score("a", 4, 2, 4242)  # and it takes writes as before
        assert r.status_code == 201 and r.json()["version"] == before["views"]["a"]["version"] + 1
        await api.close()


async def test_two_processes_holding_different_tournaments_stay_consistent(
    settings: Settings, tmp_path: Any
) -> None:
    async with serve_with_services(settings) as (base, _, _):
        before = await _three(base)
    other = dataclasses.replace(settings, data_dir=tmp_path / "second", idle_minutes=0.3 / 60)
    async with (
        serve_with_services(settings) as (one, first, _),
        serve_with_services(other) as (two, second, _),
    ):
        a, b = Api(one), Api(two)
        await a.sign_in_td()
        await b.sign_in_td()
        # Process one holds a; process two does not until its display opens it.
        assert (await a.score("a", 4, 1, 900)).status_code == 201
        async with connect(ws_url(two, "a")) as ws:
            snapshot = await receive(ws)
            assert snapshot["version"] == before["views"]["a"]["version"] + 1
            pushed = await a.score("a", 4, 2, 901)  # through one, reaches two's display
            while (message := await receive(ws))["type"] != "patch":
                pass
            assert message["version"] == pushed.json()["version"]
            pushed = await b.score("a", 1, 2, 902)  # written through two, which loaded it
            assert pushed.status_code == 201, pushed.text
            assert await a.wait_version("a", pushed.json()["version"])
            assert await a.views("a") == await b.views("a")
        # Two lets a go; one writes on; two loads it again at the new version.
        await _until(lambda: "a" not in second.replica.tournaments)
        pushed = await a.score("a", 2, 2, 903)
        assert await b.views("a") == await a.views("a")
        assert (await b.views("a"))["version"] == pushed.json()["version"]
        # A tournament created through one is listed by two, with its summary, once two's tail
        # has read the new log's records (two follows one's writes as any replica does: a
        # listing asked for within milliseconds of the last write may still show the one before).
        await a.tournament("d", EPC, players=3, machines=1)
        mine = {t["id"]: t for t in (await a.http.get("/api/tournaments")).json()["tournaments"]}
        for _ in range(250):
            listed = (await b.http.get("/api/tournaments")).json()["tournaments"]
            if {t["id"]: t for t in listed} == mine:
                break
            await asyncio.sleep(0.02)
        assert {t["id"]: t for t in listed} == mine
        assert mine["d"]["players"] == 3 and mine["d"]["machines"] == 1
        assert "c" not in first.replica.tournaments and "c" not in second.replica.tournaments
        await a.close()
        await b.close()


async def test_the_desk_knows_the_zone_of_a_tournament_not_loaded(settings: Settings) -> None:
    """The desk shows each session's time in its tournament's zone: a tournament not loaded
    gives it from its summary (display/live/summaries.py), as a loaded one from its record."""
    async with serve_with_services(settings) as (base, _, _):
        api = Api(base)
        await api.sign_in_td()
        body = {"id": "far", "name": "Far", "format": EPC, "time_zone": "Pacific/Auckland"}
        assert (await api.post("/api/tournaments", body)).status_code == 201
        await api.close()
    async with serve_with_services(settings) as (base, svc, _):
        api = Api(base)
        page = await api.http.get("/desk")
        assert page.status_code == 200
        assert '"far": "Pacific/Auckland"' in page.text or '"far":"Pacific/Auckland"' in page.text
        assert "far" not in svc.replica.tournaments
        await api.close()
