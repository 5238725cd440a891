"""Corrections, voids and withdrawals through the HTTP API: the TD's alone (a steward may void
their own entry within the window), the original kept in the log, standings following at once."""

from __future__ import annotations

from typing import Any

from tests.display.competitions.machines.test_queue_api import act, order, queue
from tests.utils import Api, connect, receive, ws_url

EPC = "epc-qualifying"


async def change(
    api: Api, tid: str, seq: int, action: str, token: str | None, version: int | None, body: Any
) -> Any:
    """POST a correction or void with ``If-Match: "<version>"`` (default: ``seq``, the entry's
    version while nothing has corrected it)."""
    headers = {**api.headers(token), "If-Match": f'"{seq if version is None else version}"'}
    return await api.http.post(f"/api/t/{tid}/scores/{seq}/{action}", json=body, headers=headers)


async def correct(
    api: Api, tid: str, seq: int, token: str | None = None, version: int | None = None, **body: Any
) -> Any:
    return await change(api, tid, seq, "correct", token, version, body)


async def void(
    api: Api, tid: str, seq: int, token: str | None = None, version: int | None = None, **body: Any
) -> Any:
    return await change(api, tid, seq, "void", token, version, body)


async def log(api: Api, tid: str) -> list[dict[str, Any]]:
    return (await api.http.get(f"/api/t/{tid}/log")).json()["records"]  # type: ignore[no-any-return]


async def test_a_td_correction_names_the_original_and_the_standings_follow(api: Api) -> None:
    """EPC 2009, EPC Qualifying ranking points (PAPA scale): 100 for the top score, 90 next."""
    await api.tournament("co1", EPC, players=2, machines=1)
    token = await api.sign_in_steward("co1")
    first = (await api.score("co1", 1, 1, 3_000_000, token=token)).json()["version"]
    await api.score("co1", 2, 1, 5_000_000, token=token)
    r = await correct(api, "co1", first, score=30_000_000, reason="typed one zero short")
    assert r.status_code == 201, r.text
    record = r.json()["record"]
    assert record["corrects"] == first and record["by"] == "td:TD"
    assert record["reason"] == "typed one zero short"
    views = (await api.views("co1"))["views"]
    rows = views["machine/1"]["rows"]
    assert rows["1"] == {"score": 30_000_000, "place": 1, "points": 100, "corrected": True}
    assert rows["2"] == {"score": 5_000_000, "place": 2, "points": 90}
    assert views["standings"]["rows"]["1"]["total"] == 100
    records = await log(api, "co1")
    original = next(rec for rec in records if rec["seq"] == first)
    assert original["type"] == "score_recorded" and original["score"] == 3_000_000  # kept
    again = await correct(api, "co1", r.json()["version"], score=31_000_000, reason="again")
    assert again.status_code == 201  # naming the correction corrects the same entry
    assert (await api.views("co1"))["views"]["machine/1"]["rows"]["1"]["score"] == 31_000_000


async def test_a_correction_can_move_a_score_to_the_right_player(api: Api) -> None:
    await api.tournament("co2", EPC, players=3, machines=2, settings={"machines_per_player": 1})
    seq = (await api.score("co2", 1, 1, 700)).json()["version"]
    await api.score("co2", 3, 2, 100)
    r = await correct(api, "co2", seq, score=700, player="2", reason="wrong badge number")
    assert r.status_code == 201
    rows = (await api.views("co2"))["views"]["machine/1"]["rows"]
    assert list(rows) == ["2"] and rows["2"]["corrected"] is True
    fixed = r.json()["entry"]["version"]
    r = await correct(api, "co2", seq, version=fixed, score=700, player="3", reason="no")
    assert r.status_code == 409 and r.json()["error"] == "too_many_machines"


async def test_only_the_td_corrects_and_bad_requests_are_refused(api: Api) -> None:
    await api.tournament("co3", EPC, players=2, machines=1)
    token = await api.sign_in_steward("co3")
    seq = (await api.score("co3", 1, 1, 700, token=token)).json()["version"]
    r = await correct(api, "co3", seq, token, score=800, reason="mine")
    assert r.status_code == 403 and "TD" in r.json()["message"]
    cases = [
        (seq, {"score": 800}, 422, "reason"),
        (seq, {"score": 800, "reason": ""}, 422, "reason"),
        (seq, {"score": -1, "reason": "x"}, 422, "negative"),
        (999, {"score": 1, "reason": "x"}, 404, "no record 999"),
        (1, {"score": 1, "reason": "x"}, 409, "is a tournament created, not a recorded score"),
    ]
    for target, body, status, text in cases:
        r = await correct(api, "co3", target, **body)
        assert r.status_code == status, r.text
        assert text in r.json()["message"]
    r = await api.post("/api/t/co3/scores/abc/correct", {"score": 1, "reason": "x"})
    assert r.status_code == 404


async def test_a_void_takes_the_score_away_and_cannot_be_corrected_after(api: Api) -> None:
    await api.tournament("co4", EPC, players=2, machines=1)
    seq = (await api.score("co4", 1, 1, 700)).json()["version"]
    await api.score("co4", 2, 1, 500)
    r = await void(api, "co4", seq, reason="played on the wrong machine")
    assert r.status_code == 201 and r.json()["record"]["voids"] == seq
    views = (await api.views("co4"))["views"]
    assert list(views["machine/1"]["rows"]) == ["2"]
    assert views["machine/1"]["rows"]["2"]["points"] == 100
    assert views["standings"]["rows"]["1"]["played"] == 0
    r = await correct(api, "co4", seq, score=1, reason="x")
    assert (
        r.status_code == 409
        and f"score of record {seq} was voided by record" in (r.json()["message"])
    )
    assert (await void(api, "co4", seq, reason="twice")).status_code == 409


async def test_a_steward_voids_their_own_entry_within_the_window(api: Api) -> None:
    await api.tournament("co5", EPC, players=3, machines=1)
    sam, kim = await api.sign_in_steward("co5", "Sam"), await api.sign_in_steward("co5", "Kim")
    mine = (await api.score("co5", 1, 1, 700, token=sam)).json()["version"]
    theirs = (await api.score("co5", 2, 1, 800, token=kim)).json()["version"]
    r = await void(api, "co5", theirs, sam, reason="oops")
    assert r.status_code == 403 and "within 120 seconds" in r.json()["message"]
    r = await void(api, "co5", mine, sam, reason="typed the wrong player")
    assert r.status_code == 201 and r.json()["record"]["by"] == "steward:Sam"
    await api.post("/api/t/co5/settings", {"settings": {"hall": {"void_window_seconds": 0}}})
    late = (await api.score("co5", 3, 1, 900, token=sam)).json()["version"]
    r = await void(api, "co5", late, sam, reason="too late")
    assert r.status_code == 403 and "within 0 seconds" in r.json()["message"]


async def test_corrections_reach_the_displays_at_once(api: Api, server: str) -> None:
    await api.tournament("co6", EPC, players=2, machines=1)
    seq = (await api.score("co6", 1, 1, 700)).json()["version"]
    async with connect(ws_url(server, "co6")) as ws:
        await receive(ws)
        await correct(api, "co6", seq, score=900, reason="typo")
        patch = await receive(ws)
        assert patch["patches"]["machine/1"] == {
            "latest": {"score": 900},
            "rows": {"1": {"score": 900, "corrected": True}},
        }


async def test_a_withdrawn_player_leaves_the_queues_and_their_scores_stand(api: Api) -> None:
    await api.tournament("co7", EPC, players=3, machines=1)
    token = await api.sign_in_steward("co7")
    await api.score("co7", 1, 1, 700)
    for player in ("2", "3"):
        await act(api, "co7", "1", "join", token, player=player)
    r = await api.post("/api/t/co7/players/2/withdraw", {"reason": "went home ill"}, token=token)
    assert r.status_code == 403
    r = await api.post("/api/t/co7/players/2/withdraw", {"reason": "went home ill"})
    assert r.status_code == 201
    views = (await api.views("co7"))["views"]
    assert views["players"]["2"]["withdrawn"] == "went home ill"
    assert order(await queue(api, "co7", "1")) == ["3"]
    r = await act(api, "co7", "1", "join", token, player="2")
    assert r.status_code == 409 and "withdrawn" in r.json()["message"]
    assert (await api.score("co7", 2, 1, 10)).status_code == 409
    r = await api.post("/api/t/co7/players/1/withdraw", {"reason": "left"})
    assert (await api.views("co7"))["views"]["machine/1"]["rows"]["1"]["score"] == 700
    assert (await api.post("/api/t/co7/players/1/withdraw", {"reason": "x"})).status_code == 409
    assert (await api.post("/api/t/co7/players/77/withdraw", {"reason": "x"})).status_code == 404
