"""FWPL playoffs change only by the league officer's own record (issue 13, "A late correction
silently re-seeds a running stage"): once the playoffs have started, a correction that would
change the season table they were drawn from (FWPL 6.1, 6.2) is refused until the playoffs'
start is taken back, and a replay of the log equals the live state."""

from __future__ import annotations

from typing import Any

from display.live.tournament import LiveTournament
from display.log.store import Record
from tests.display.competitions.fwpl.test_fwpl_live import league, members, night, view
from tests.display.competitions.fwpl.test_fwpl_live_playoffs import one_week
from tests.utils import Api


async def correct(api: Api, tid: str, scores: dict[str, int]) -> Any:
    """Correct week 1, group 1, game 1 to ``scores`` with the game's version in If-Match."""
    version = (await night(api, tid, 1))["groups"]["1"]["games"]["1"]["version"]
    fix = {"week": 1, "group": 1, "game_no": 1, "scores": scores, "reason": "scores swapped"}
    headers = {**api.headers(), "If-Match": f'"{version}"'}
    return await api.http.post(f"/api/t/{tid}/league/corrections", json=fix, headers=headers)


async def seeds(api: Api, tid: str) -> list[str]:
    found = (await view(api, tid, "bracket"))["divisions"]["A"]["seeds"]
    return sorted(found, key=found.__getitem__)


async def test_a_season_correction_after_the_playoffs_start_waits_for_a_reopen(
    api: Api,
) -> None:
    tid = "flate1"
    await league(api, tid, 8)
    await one_week(api, tid, 8)
    assert (await api.post(f"/api/t/{tid}/league/playoffs", {})).status_code == 201
    before = await seeds(api, tid)
    order = members((await night(api, tid, 1))["groups"]["1"])
    reversed_scores = dict(zip(order, (10, 100, 1_000, 10_000), strict=True))
    log_length = len((await api.http.get(f"/api/t/{tid}/log")).json()["records"])

    answer = await correct(api, tid, reversed_scores)
    assert answer.status_code == 409, answer.text
    assert answer.json()["message"] == "The playoffs have started: reopen the regular season first."
    assert len((await api.http.get(f"/api/t/{tid}/log")).json()["records"]) == log_length
    assert await seeds(api, tid) == before

    missing = await api.post(f"/api/t/{tid}/league/playoffs/reopen", {})
    assert missing.status_code == 422  # a reason for the audit page
    reopened = await api.post(f"/api/t/{tid}/league/playoffs/reopen", {"reason": "game 1 wrong"})
    assert reopened.status_code == 201, reopened.text
    assert "bracket" not in (await api.views(tid))["views"]
    fixed = await correct(api, tid, reversed_scores)
    assert fixed.status_code == 201, fixed.text
    assert (await api.post(f"/api/t/{tid}/league/playoffs", {})).status_code == 201
    assert await seeds(api, tid) != before

    records = (await api.http.get(f"/api/t/{tid}/log")).json()["records"]
    replay = LiveTournament(tid, 16)
    replay.apply([Record(r.pop("seq"), r) for r in records])
    assert replay.views == (await api.views(tid))["views"]


async def test_the_season_cannot_be_reopened_once_a_playoff_match_started(api: Api) -> None:
    tid = "flate2"
    await league(api, tid, 8)
    await one_week(api, tid, 8)
    early = await api.post(f"/api/t/{tid}/league/playoffs/reopen", {"reason": "x"})
    assert early.status_code == 409
    assert early.json()["message"] == "The playoffs have not started; the regular season is open."
    assert (await api.post(f"/api/t/{tid}/league/playoffs", {})).status_code == 201
    semi = ["1", "6", "3", "8"]
    body = {"division": "A", "players": semi, "seed": 5}
    assert (await api.post(f"/api/t/{tid}/league/playoff-matches", body)).status_code == 201
    late = await api.post(f"/api/t/{tid}/league/playoffs/reopen", {"reason": "x"})
    assert late.status_code == 409
    assert late.json()["message"] == (
        "1 playoff match(es) have started: the regular season cannot be reopened."
    )
