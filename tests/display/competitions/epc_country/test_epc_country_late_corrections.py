"""EPC Country: a late correction follows the EPC main event's freeze rule (issue 13, "A late
correction silently re-seeds a running stage"). Once the final has started, voiding a
qualifying record is refused with a plain message; the TD's ``stage_reopened`` takes the final's
start back while the final has no result, the correction goes in, and the final starts again
with its teams drawn from the corrected table. A replay of the log equals the live state."""

from __future__ import annotations

from typing import Any

from display.live.tournament import LiveTournament
from display.log.store import Record
from tests.display.competitions.epc_country.test_epc_country_live_builders import (
    T03_MAXIMUM,
    country_over_http,
    four_ball_over_http,
    four_ball_scores,
    match_over_http,
    pair_fixture,
    stage_over_http,
)
from tests.utils import Api


async def log(api: Api, tid: str) -> list[dict[str, Any]]:
    return (await api.http.get(f"/api/t/{tid}/log")).json()["records"]  # type: ignore[no-any-return]


async def game_seqs(api: Api, tid: str, a: str, b: str, stage: str) -> list[int]:
    """The seqs of the recorded machines of the ``stage`` match between ``a`` and ``b``."""
    fixtures = (await api.views(tid))["views"]["country/fixtures"]
    found = fixtures[pair_fixture(fixtures, a, b, stage)]
    return [game["seq"] for game in found.get("games", {}).values()]


async def void(api: Api, tid: str, seq: int) -> Any:
    body = {"seq": seq, "reason": "scores entered against the wrong team"}
    headers = {**api.headers(), "If-Match": f'"{seq}"'}
    return await api.http.post(f"/api/t/{tid}/country/void", json=body, headers=headers)


async def stage(api: Api, tid: str) -> str:
    return (await api.views(tid))["views"]["tournament"]["stage"]  # type: ignore[no-any-return]


async def test_a_qualifying_correction_after_the_final_started_waits_for_a_reopen(
    api: Api,
) -> None:
    tid = "cclate1"
    await country_over_http(api, tid)
    await stage_over_http(api, tid, T03_MAXIMUM)
    await four_ball_over_http(api, tid, four_ball_scores())
    started = await api.post(f"/api/t/{tid}/country/stage", {"stage": "final"})
    assert started.status_code == 201, started.text
    first = started.json()["finalists"]
    wrong = await game_seqs(api, tid, "T03", "T08", "qualifying")
    length = len(await log(api, tid))

    late = await void(api, tid, wrong[0])
    assert late.status_code == 409, late.text
    assert late.json()["message"] == "The final has started: reopen qualifying first."
    assert len(await log(api, tid)) == length

    a, b = first[0], first[1]
    await match_over_http(api, tid, a, b, 16, "final")
    reopen = {"stage": "qualifying", "reason": "T03 v T08 entered the wrong way round"}
    waits = await api.post(f"/api/t/{tid}/country/reopen", reopen)
    assert waits.status_code == 409
    assert waits.json()["message"] == "The final has 2 result(s) recorded: void them first."
    assert (
        await api.post(f"/api/t/{tid}/country/reopen", {"stage": "qualifying"})
    ).status_code == 422
    for seq in await game_seqs(api, tid, a, b, "final"):
        assert (await void(api, tid, seq)).status_code == 201
    reopened = await api.post(f"/api/t/{tid}/country/reopen", reopen)
    assert reopened.status_code == 201, reopened.text
    assert await stage(api, tid) == "qualifying"

    for seq in wrong:
        answer = await void(api, tid, seq)
        assert answer.status_code == 201, answer.text
    # T08 took the 28 and T03 the 4: T08 rises into the final's six, the field changes
    await match_over_http(api, tid, "T08", "T03", 28, "qualifying")
    again = await api.post(f"/api/t/{tid}/country/stage", {"stage": "final"})
    assert again.status_code == 201, again.text
    assert "T08" in again.json()["finalists"] and "T08" not in first
    assert await stage(api, tid) == "final"

    twice = await api.post(f"/api/t/{tid}/country/reopen", {"stage": "final", "reason": "x"})
    assert twice.status_code == 409
    assert twice.json()["message"] == (
        "Only the stage before the current one can be reopened (qualifying), not 'final'."
    )
    records = await log(api, tid)
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    for r in records:
        del r["seq"]
    replay = LiveTournament(tid, 16)
    replay.apply([Record(n, r) for n, r in enumerate(records, start=1)])
    assert replay.views == (await api.views(tid))["views"]
