"""The websocket protocol with a real client: snapshot, patch per push, resume, folding."""

from __future__ import annotations

import asyncio

from display.live import mergepatch
from tests.utils import Api, connect, receive, ws_url

EPC = "epc-qualifying"


async def test_snapshot_then_patch_per_push(api: Api) -> None:
    await api.tournament("w1", EPC, players=2, machines=1)
    async with connect(ws_url(api.base, "w1")) as ws:
        snap = await receive(ws)
        assert snap["type"] == "snapshot"
        assert snap["views"]["machine/1"]["played"] == 0
        r = await api.score("w1", 1, 1, 12345)
        patch = await receive(ws)
        assert patch["type"] == "patch"
        assert patch["base"] == snap["version"] and patch["version"] == r.json()["version"]
        assert patch["patches"]["machine/1"]["rows"]["1"]["score"] == 12345
        assert patch["patches"]["standings"]["rows"]["1"]["total"] == 100


async def test_client_state_equals_server_views_after_many_patches(api: Api) -> None:
    await api.tournament("w2", EPC, players=12, machines=3)
    async with connect(ws_url(api.base, "w2")) as ws:
        snap = await receive(ws)
        state, version = snap["views"], snap["version"]
        for player in range(1, 13):
            await api.score("w2", player, 1 + player % 3, (player * 7919) % 1000)
        server = await api.views("w2")
        while version < server["version"]:
            message = await receive(ws)
            assert message["base"] == version
            for name, doc in message["views"].items():
                state[name] = doc
            for name, patch in message["patches"].items():
                state[name] = mergepatch.apply(state.get(name, {}), patch)
            version = message["version"]
        assert state == server["views"]


async def test_resume_from_a_version_gets_one_folded_patch(api: Api) -> None:
    await api.tournament("w3", EPC, players=3, machines=2)
    since = (await api.views("w3"))["version"]
    old = (await api.views("w3"))["views"]
    await api.score("w3", 1, 1, 100)
    await api.score("w3", 2, 1, 200)
    await api.score("w3", 3, 2, 300)
    now = await api.views("w3")
    async with connect(ws_url(api.base, "w3", since)) as ws:
        message = await receive(ws)
    assert message["type"] == "patch"
    assert (message["base"], message["version"]) == (since, now["version"])
    state = dict(old)
    for name, doc in message["views"].items():
        state[name] = doc
    for name, patch in message["patches"].items():
        state[name] = mergepatch.apply(state.get(name, {}), patch)
    assert state == now["views"]


async def test_resume_at_current_version_and_from_the_future(api: Api) -> None:
    await api.tournament("w4", EPC, players=1, machines=1)
    version = (await api.views("w4"))["version"]
    async with connect(ws_url(api.base, "w4", version)) as ws:
        first = await receive(ws, skip_pings=False)
        assert first["type"] == "ping" and first["version"] == version and first["time"] > 0
    async with connect(ws_url(api.base, "w4", version + 50)) as ws:
        assert (await receive(ws))["type"] == "snapshot"


async def test_unknown_tournament_closes_with_4404(api: Api) -> None:
    async with connect(ws_url(api.base, "missing")) as ws:
        message = await receive(ws)
        assert message["type"] == "error"
        await asyncio.wait_for(ws.wait_closed(), 5)
        assert ws.close_code == 4404


async def test_heartbeat_ping_carries_version(api: Api) -> None:
    await api.tournament("w5", EPC, players=1, machines=1)
    async with connect(ws_url(api.base, "w5")) as ws:
        snap = await receive(ws)
        ping = await receive(ws, timeout=5, skip_pings=False)
        assert ping["type"] == "ping" and ping["version"] == snap["version"]


async def test_views_equal_a_replay_of_the_log(api: Api) -> None:
    """The writer applies its own records once (it validated them that way); a replica replaying
    the log from the start must reach the same views, byte for byte (architecture principle 1)."""
    from display.live.tournament import LiveTournament
    from display.log.store import Record

    await api.tournament("rp", EPC, players=8, machines=3)
    for player in range(1, 9):
        for machine in (1, 2):
            await api.score("rp", player, 1 + (player + machine) % 3, player * 1000 + machine)
    await api.score("rp", 3, 1 + (3 + 1) % 3, 999_999)  # a joker game
    served = await api.views("rp")
    log = (await api.http.get("/api/t/rp/log")).json()["records"]
    replica = LiveTournament("rp", 10)
    replica.apply([Record(r.pop("seq"), r) for r in log])
    assert replica.version == served["version"]
    assert replica.views == served["views"]
