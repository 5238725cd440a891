"""The JSON API against a real Redis and a real server: writes, errors a steward understands,
idempotency, sign-in, and reads."""

from __future__ import annotations

import asyncio

import orjson
from starlette.routing import Route

from display.app import create_app
from tests.utils import Api

EPC = "epc-qualifying"


async def test_push_score_updates_machine_and_standings(api: Api) -> None:
    await api.tournament("q1", EPC, players=3, machines=2)
    token = await api.sign_in_steward("q1")
    r = await api.score("q1", 1, 1, 5_000_000, token=token)
    assert r.status_code == 201, r.text
    assert r.json()["record"]["score"] == 5_000_000
    assert r.json()["record"]["by"] == "steward:Sam"
    await api.score("q1", "2", "1", 7_000_000, token=token)
    views = (await api.views("q1"))["views"]
    rows = views["machine/1"]["rows"]
    assert rows["2"]["place"] == 1 and rows["2"]["points"] == 100
    assert rows["1"]["place"] == 2 and rows["1"]["points"] < 100
    assert views["standings"]["rows"]["2"]["place"] == 1
    assert views["standings"]["rows"]["3"]["total"] == 0
    assert views["machine/1"]["latest"] == {
        "player": "2",
        "score": 7_000_000,
        "seq": r.json()["version"] + 1,
    }


async def test_pushing_without_sign_in_is_refused(api: Api) -> None:
    await api.tournament("q2", EPC, players=1, machines=1)
    r = await api.http.post("/api/t/q2/scores", json={"player": "1", "machine": "1", "score": 1})
    assert r.status_code == 401
    assert "Sign in" in r.json()["message"]
    r = await api.score("q2", 1, 1, 1, token="not-a-token")
    assert r.status_code == 401


async def test_steward_cannot_create_or_write_other_tournaments(api: Api) -> None:
    await api.tournament("q3", EPC, players=1, machines=1)
    await api.tournament("q4", EPC, players=1, machines=1)
    token = await api.sign_in_steward("q3")
    assert (await api.score("q4", 1, 1, 10, token=token)).status_code == 403
    r = await api.post("/api/tournaments", {"id": "x", "name": "x", "format": EPC}, token=token)
    assert r.status_code == 403


async def test_wrong_pin_is_refused(api: Api) -> None:
    await api.tournament("q5", EPC, players=1, machines=1)
    await api.post("/api/t/q5/stewards", {"name": "Sam"})
    r = await api.http.post(
        "/api/session", json={"role": "steward", "tournament": "q5", "name": "Sam", "pin": "xxxxxx"}
    )
    assert r.status_code == 401
    assert "PIN" in r.json()["message"]


async def test_errors_a_steward_understands(api: Api) -> None:
    await api.tournament("e1", EPC, players=2, machines=8)
    cases = [
        ({"player": "99", "machine": "1", "score": 10}, 404, "99"),
        ({"player": "1", "machine": "77", "score": 10}, 404, "77"),
        ({"player": "1", "machine": "1", "score": -5}, 422, "negative"),
        ({"player": "1", "machine": "1", "score": 12.5}, 422, "whole number"),
        ({"player": "1", "machine": "1", "score": "12,340"}, 422, "whole number"),
        ({"player": "1", "machine": "1", "score": True}, 422, "whole number"),
        ({"player": "1", "machine": "1", "score": 2**53}, 422, "too large"),
        ({"player": "1", "machine": "1"}, 422, "score"),
    ]
    for body, status, words in cases:
        r = await api.post("/api/t/e1/scores", body)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["message"], (body, r.json())
    assert (await api.score("e1", 1, 1, 2**53 - 1)).status_code == 201
    r = await api.http.post("/api/t/e1/scores", content=b"{not json", headers=api.headers())
    assert r.status_code == 400


async def test_seventh_machine_second_score_and_second_joker(api: Api) -> None:
    await api.tournament("e2", EPC, players=1, machines=8)
    for machine in range(1, 7):
        assert (await api.score("e2", 1, machine, 1000 * machine)).status_code == 201
    r = await api.score("e2", 1, 7, 10)
    assert r.status_code == 409 and r.json()["error"] == "too_many_machines"
    assert (await api.score("e2", 1, 1, 500)).status_code == 201  # the joker game
    r = await api.score("e2", 1, 2, 10)
    assert r.status_code == 409
    r = await api.score("e2", 1, 1, 10)
    assert r.status_code == 409
    views = (await api.views("e2"))["views"]
    assert views["machine/1"]["rows"]["1"]["score"] == 1000  # joker lower: earlier score stands


async def test_idempotency_key_returns_first_answer_and_writes_once(api: Api) -> None:
    await api.tournament("i1", EPC, players=1, machines=1)
    first = await api.score("i1", 1, 1, 4242, key="push-1")
    again = await api.score("i1", 1, 1, 4242, key="push-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    log = (await api.http.get("/api/t/i1/log")).json()["records"]
    assert [r["type"] for r in log].count("score_recorded") == 1
    other = await api.score("i1", 1, 1, 9999, key="push-1")
    assert other.status_code == 422 and other.json()["error"] == "idempotency_key_reused"


async def test_concurrent_retries_with_one_key_write_once(api: Api) -> None:
    """20 identical pushes at once with one key: one entry, 20 times the same answer. Without
    jokers a second game on the machine breaks the rules, so a retry queued behind the first
    must be answered from its key, not refused as a second game."""
    await api.tournament("i2", EPC, players=1, machines=1, settings={"jokers_per_player": 0})
    # 20 open connections first, so the copies arrive together, not one connect apart.
    await asyncio.gather(*[api.http.get("/api/tournaments") for _ in range(20)])
    results = await asyncio.gather(*[api.score("i2", 1, 1, 77, key="same") for _ in range(20)])
    assert {r.status_code for r in results} == {201}, {r.text for r in results}
    assert len({r.json()["version"] for r in results}) == 1
    assert len({orjson.dumps(r.json()["record"]) for r in results}) == 1
    log = (await api.http.get("/api/t/i2/log")).json()["records"]
    assert [r["type"] for r in log].count("score_recorded") == 1


async def test_concurrent_pushes_are_linearized(api: Api) -> None:
    """Many writers at once: every push lands exactly once, versions are contiguous, and the
    rules still hold (only one of two racing scores for a player's one machine is accepted)."""
    await api.tournament("c1", EPC, players=40, machines=6, settings={"jokers_per_player": 0})
    pushes = [api.score("c1", p, 1, p * 10) for p in range(1, 41)]
    pushes += [api.score("c1", 1, 1, 5)]  # races player 1's first score on machine 1
    results = await asyncio.gather(*pushes)
    codes = sorted(r.status_code for r in results)
    assert codes.count(201) == 40 and codes.count(409) == 1
    log = (await api.http.get("/api/t/c1/log")).json()["records"]
    assert [r["seq"] for r in log] == list(range(1, len(log) + 1))
    assert len((await api.views("c1"))["views"]["machine/1"]["rows"]) == 40


async def test_duplicate_tournament_player_and_machine(api: Api) -> None:
    await api.tournament("d1", EPC, players=1, machines=1)
    r = await api.post("/api/tournaments", {"id": "d1", "name": "again", "format": EPC})
    assert r.status_code == 409
    assert (await api.post("/api/t/d1/players", {"number": "1", "name": "X"})).status_code == 409
    assert (await api.post("/api/t/d1/machines", {"id": "1", "name": "X"})).status_code == 409
    r = await api.post("/api/tournaments", {"id": "d2", "name": "x", "format": "no-such"})
    assert r.status_code == 422 and "no-such" in r.json()["message"]


async def test_unknown_tournament_and_view(api: Api) -> None:
    assert (await api.http.get("/api/t/nope/views")).status_code == 404
    assert (await api.score("nope", 1, 1, 1)).status_code == 404
    await api.tournament("v1", EPC, players=1, machines=1)
    assert (await api.http.get("/api/t/v1/views/standings")).status_code == 200
    assert (await api.http.get("/api/t/v1/views/machine/9")).status_code == 404


async def test_openapi_lists_every_route(api: Api) -> None:
    doc = (await api.http.get("/openapi.json")).json()
    assert doc["openapi"].startswith("3.1")
    assert "/api/t/{tournament}/scores" in doc["paths"]
    assert "post" in doc["paths"]["/api/tournaments"]
    score = doc["components"]["schemas"]["ScoreIn"]
    assert set(score["required"]) >= {"player", "machine", "score"}
    api_routes = {
        (route.path.replace("{name:path}", "{name}"), method.lower())
        for route in create_app().routes
        if isinstance(route, Route) and route.path.startswith("/api/")
        for method in (route.methods or set()) - {"HEAD"}
    }
    listed = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    assert api_routes <= listed  # every kind's endpoints too
    assert not any(":" in path for path in doc["paths"])


async def test_ukpl_meeting_over_the_api(api: Api) -> None:
    await api.tournament("u1", "ukpl-meeting", players=3, machines=1, guests={3})
    await api.score("u1", 1, 1, 300)
    await api.score("u1", 2, 1, 100)
    await api.score("u1", 3, 1, 900)  # a guest: shown, not ranked
    rows = (await api.views("u1"))["views"]["machine/1"]["rows"]
    assert rows["1"]["points"] == 2 + 1  # 2 non-guest players; 300 > 2 x 100 earns the bonus
    assert rows["2"]["points"] == 1
    assert "place" not in rows["3"] and rows["3"]["score"] == 900


async def test_settings_change_rebuilds_standings(api: Api) -> None:
    await api.tournament("s1", EPC, players=3, machines=1)
    for player, score in ((1, 300), (2, 200), (3, 100)):
        await api.score("s1", player, 1, score)
    rows = (await api.views("s1"))["views"]["machine/1"]["rows"]
    assert [rows[p]["points"] for p in "123"] == [100, 90, 85]  # PAPA
    r = await api.post("/api/t/s1/settings", {"settings": {"scale": "linear"}})
    assert r.status_code == 201, r.text
    rows = (await api.views("s1"))["views"]["machine/1"]["rows"]
    assert [rows[p]["points"] for p in "123"] == [100, 99, 98]
    r = await api.post("/api/t/s1/settings", {"settings": {"scale": "no-such-scale"}})
    assert r.status_code == 422


async def test_closing_the_kids_tournament_refuses_later_scores(api: Api) -> None:
    await api.tournament("kids", "epc-kids", players=2, machines=1)
    await api.score("kids", 1, 1, 5000)
    version = (await api.views("kids"))["version"]
    r = await api.post("/api/t/kids/settings", {"settings": {"closed_after": version}})
    assert r.status_code == 201, r.text
    r = await api.score("kids", 2, 1, 9000)
    assert r.status_code == 409, r.text
    standings = (await api.views("kids"))["views"]["standings"]["rows"]
    assert standings["1"]["place"] == 1 and standings["1"].get("band") == "trophy"
