"""Queues through the HTTP API on a real server and Redis: who may do what, the flow as records in
the log, errors a steward understands, players on their phones, and live patches."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.utils import Api, connect, receive, ws_url

EPC = "epc-qualifying"


async def act(api: Api, tid: str, machine: str, action: str, token: str | None = None,
              **body: Any) -> Any:  # fmt: skip
    return await api.post(f"/api/t/{tid}/queues/{machine}/{action}", body, token=token)


async def queue(api: Api, tid: str, machine: str) -> dict[str, Any]:
    return (await api.views(tid))["views"]["queues"][machine]  # type: ignore[no-any-return]


def order(doc: dict[str, Any]) -> list[str]:
    return sorted(doc["waiting"], key=lambda p: doc["waiting"][p]["pos"])


async def test_the_flow_is_records_in_the_log(api: Api) -> None:
    await api.tournament("qa1", EPC, players=4, machines=2)
    token = await api.sign_in_steward("qa1")
    for player in ("1", "2", "3"):
        r = await act(api, "qa1", "1", "join", token, player=player)
        assert r.status_code == 201, r.text
    r = await act(api, "qa1", "1", "call", token)  # the next player, found by the server
    assert r.status_code == 201
    assert r.json()["record"] == {
        "type": "queue_called", "machine": "1", "player": "1", "by": "steward:Sam",
        "at": r.json()["record"]["at"],
    }  # fmt: skip
    assert (await act(api, "qa1", "1", "start", token)).json()["record"]["player"] == "1"
    doc = await queue(api, "qa1", "1")
    assert doc["up"]["player"] == "1" and doc["up"]["state"] == "playing"
    assert order(doc) == ["2", "3"] and doc["waiting"]["2"]["wait"] == 480  # the default, 8 min
    await api.score("qa1", 1, 1, 5_000_000, token=token)  # finishes the game, calls the next
    doc = await queue(api, "qa1", "1")
    assert doc["up"] == {"player": "2", "state": "called", "since": doc["up"]["since"]}
    assert order(doc) == ["3"]
    r = await act(api, "qa1", "1", "skip", token)  # P2 is a no-show: to the back (the default)
    assert r.json()["record"]["to"] == "back"
    doc = await queue(api, "qa1", "1")
    assert doc["up"]["player"] == "3" and order(doc) == ["2"]
    log = (await api.http.get("/api/t/qa1/log")).json()["records"]
    kinds = [rec["type"] for rec in log if rec["type"].startswith(("queue", "game"))]
    assert kinds == ["queue_joined"] * 3 + ["queue_called", "game_started", "queue_skipped"]


async def test_pause_resume_move_and_leave(api: Api) -> None:
    await api.tournament("qa2", EPC, players=4, machines=1)
    token = await api.sign_in_steward("qa2")
    for player in ("1", "2", "3", "4"):
        await act(api, "qa2", "1", "join", token, player=player)
    r = await act(api, "qa2", "1", "pause", token, player="1", note="ruling at machine 4")
    assert r.status_code == 201
    doc = await queue(api, "qa2", "1")
    assert doc["waiting"]["1"] == {"pos": 1, "paused": True, "note": "ruling at machine 4"}
    assert (await act(api, "qa2", "1", "call", token)).json()["record"]["player"] == "2"
    r = await act(api, "qa2", "1", "move", token, player="4", position=1)
    assert r.status_code == 403 and "TD" in r.json()["message"]
    assert (await act(api, "qa2", "1", "move", player="4", position=1)).status_code == 201
    assert order(await queue(api, "qa2", "1")) == ["4", "1", "3"]
    await act(api, "qa2", "1", "resume", token, player="1")
    await act(api, "qa2", "1", "leave", token, player="3")
    doc = await queue(api, "qa2", "1")
    assert order(doc) == ["4", "1"] and "paused" not in doc["waiting"]["1"]
    r = await act(api, "qa2", "1", "pause", token)
    assert r.status_code == 422 and "player's number" in r.json()["message"]
    r = await act(api, "qa2", "1", "move", player="4")
    assert r.status_code == 422 and "position" in r.json()["message"]


async def test_refusals_a_steward_understands(api: Api) -> None:
    await api.tournament("qa3", EPC, players=3, machines=2, settings={"jokers_per_player": 0})
    token = await api.sign_in_steward("qa3")
    version = (await api.views("qa3"))["version"]
    cases = [
        ("9", "join", {"player": "1"}, 404, "no machine 9"),
        ("1", "join", {"player": "42"}, 404, "No player number 42"),
        ("1", "call", {}, 409, "Nobody is waiting for Machine 1"),
        ("1", "skip", {}, 409, "Nobody has been called to Machine 1"),
        ("1", "dance", {}, 404, "no action 'dance'"),
        ("1", "join", {"player": "1", "extra": 1}, 422, "extra"),
    ]
    for machine, action, body, status, text in cases:
        r = await act(api, "qa3", machine, action, token, **body)
        assert r.status_code == status, (action, r.text)
        assert text in r.json()["message"], r.text
    await api.score("qa3", 1, 2, 100, token=token)
    r = await act(api, "qa3", "2", "join", token, player="1")
    assert r.status_code == 409 and r.json()["error"] == "machine_already_played"
    assert "no joker games" in r.json()["message"]
    await act(api, "qa3", "1", "join", token, player="2")
    r = await act(api, "qa3", "2", "join", token, player="2")
    assert r.status_code == 409 and "one queue at a time" in r.json()["message"]
    assert (await api.views("qa3"))["version"] == version + 2  # only the score and the join


async def test_sign_in_is_needed_and_times_are_the_tds(api: Api) -> None:
    await api.tournament("qa4", EPC, players=2, machines=1)
    r = await api.http.post("/api/t/qa4/queues/1/join", json={"player": "1"})
    assert r.status_code == 401 and "Sign in" in r.json()["message"]
    token = await api.sign_in_steward("qa4")
    await act(api, "qa4", "1", "join", token, player="1")
    started = (datetime.now(UTC) - timedelta(minutes=7)).isoformat()
    r = await act(api, "qa4", "1", "start", token, started_at=started)
    assert r.status_code == 403 and "TD" in r.json()["message"]
    r = await act(api, "qa4", "1", "start", started_at=started)
    assert r.status_code == 201 and r.json()["record"]["started_at"] == started
    await api.score("qa4", 1, 1, 100, token=token)
    doc = await queue(api, "qa4", "1")
    assert doc["timed"] == 1 and 420 <= doc["game"] <= 425  # seven minutes and the push's delay


async def test_a_retried_join_is_recorded_once(api: Api) -> None:
    await api.tournament("qa5", EPC, players=2, machines=1)
    first = await api.post("/api/t/qa5/queues/1/join", {"player": "1"}, key="join-1")
    again = await api.post("/api/t/qa5/queues/1/join", {"player": "1"}, key="join-1")
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert first.json() == again.json()
    assert order(await queue(api, "qa5", "1")) == ["1"]


async def test_players_join_and_leave_from_their_phones_when_the_td_allows(api: Api) -> None:
    await api.tournament("qa6", EPC, players=3, machines=2)
    r = await api.post("/api/t/qa6/players/2/pin", {})
    assert r.status_code == 201
    pin = r.json()["pin"]
    assert len(pin) == 6 and pin.isdigit()
    wrong = await api.http.post("/api/t/qa6/player-session", json={"player": "2", "pin": "x"})
    assert wrong.status_code == 401 and "PIN" in wrong.json()["message"]
    signed = await api.http.post("/api/t/qa6/player-session", json={"player": "2", "pin": pin})
    assert signed.status_code == 200
    phone = str(signed.json()["token"])
    r = await act(api, "qa6", "1", "join", phone)
    assert r.status_code == 403 and "stewards" in r.json()["message"]
    await api.post("/api/t/qa6/settings", {"settings": {"hall": {"players_may_queue": True}}})
    r = await act(api, "qa6", "1", "join", phone)
    assert r.status_code == 201 and r.json()["record"]["by"] == "player:2"
    r = await act(api, "qa6", "1", "join", phone, player="3")
    assert r.status_code == 403 and "yourself" in r.json()["message"]
    assert (await act(api, "qa6", "1", "call", phone)).status_code == 403  # a player's, not staff's
    assert (await api.score("qa6", 2, 1, 100, token=phone)).status_code == 403
    assert (await act(api, "qa6", "1", "leave", phone)).status_code == 201
    assert order(await queue(api, "qa6", "1")) == []
    r = await api.post("/api/t/qa6/players/9/pin", {})
    assert r.status_code == 404


async def test_queue_changes_reach_the_displays_as_patches(api: Api, server: str) -> None:
    await api.tournament("qa7", EPC, players=2, machines=2)
    async with connect(ws_url(server, "qa7")) as ws:
        snap = await receive(ws)
        assert snap["views"]["queues"]["2"] == {"waiting": {}, "count": 0, "game": 480, "wait": 0}
        await act(api, "qa7", "2", "join", player="1")
        patch = await receive(ws)
        assert patch["type"] == "patch"
        assert patch["patches"] == {
            "queues": {"2": {"waiting": {"1": {"pos": 1, "wait": 0}}, "count": 1, "wait": 480}}
        }


async def test_a_fresh_replica_rebuilds_the_same_queues(api: Api, settings: Any) -> None:
    """The log is the truth: another server process on the same Redis has the same queues."""
    from tests.utils import serve_in_loop

    await api.tournament("qa8", EPC, players=4, machines=2)
    for player in ("1", "2", "3"):
        await act(api, "qa8", "1", "join", player=player)
    await act(api, "qa8", "1", "start")
    await act(api, "qa8", "1", "pause", player="3")
    await api.score("qa8", 1, 1, 100)
    mine = (await api.views("qa8"))["views"]
    async with serve_in_loop(settings) as other:
        client = Api(other)
        theirs = (await client.views("qa8"))["views"]
        await client.close()
    assert theirs == mine and mine["queues"]["1"]["up"]["player"] == "2"
