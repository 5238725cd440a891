"""The EPC main tournament's API: who may do what, what the rules refuse (with a message a steward
or TD understands, and nothing written), live patches, and replaying the log (EPC 2009)."""

from __future__ import annotations

from typing import Any

from display.live.tournament import LiveTournament
from display.log.store import Record
from tests.display.competitions.epc_main.helpers import (
    ok,
    play_quarterfinal,
    qualified,
    register_all,
    td,
    views,
)
from tests.utils import Api, connect, receive, ws_url

SMALL = {"qualify": 8, "standby": 2}


def fixed(player: str, machine: str) -> tuple[int, int]:
    return 1_000, 2_000


async def version(api: Api, tid: str) -> int:
    return int((await api.views(tid))["version"])


async def refused(api: Api, tid: str, answer: Any, status: int, code: str, words: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == code
    assert words in answer.json()["message"]


async def test_stage_actions_are_for_the_td_and_scores_for_stewards(api: Api) -> None:
    tid = "a1"
    await qualified(api, tid, 10, SMALL, machines=4)
    steward = await api.sign_in_steward(tid)
    answer = await td(api, tid, "stage", {"stage": "quarterfinal"}, token=steward)
    await refused(api, tid, answer, 403, "td_only", "tournament director")
    anonymous = await api.http.post(f"/api/t/{tid}/epc/stage", json={"stage": "quarterfinal"})
    assert anonymous.status_code == 401
    await ok(api, tid, "stage", {"stage": "quarterfinal", "machines": ["1", "2", "3"]})
    await register_all(api, tid, 1, [5, 6, 7, 8])
    await ok(api, tid, "rounds", {"round": 1})
    # a steward pushes a quarter-final game through the same endpoint as in qualifying
    pushed = await api.score(tid, 5, "1", 123_450, token=steward)
    assert pushed.status_code == 201
    assert pushed.json()["record"]["by"] == "steward:Sam"
    row = (await views(api, tid))["quarterfinal/1"]["rows"]["5"]
    assert row == {"score": 123_450, "place": 1, "points": 100, "games": 1}


async def test_the_rules_refuse_and_nothing_is_written(api: Api) -> None:
    """EPC 2009: the stages run in order; quarter-final games only for the round's players, on
    their pair's three machines, two each; qualifying entries close with the quarter-finals."""
    tid = "a2"
    await qualified(api, tid, 12, SMALL, machines=4)
    early = await td(api, tid, "stage", {"stage": "semifinal"})
    await refused(api, tid, early, 409, "stage_not_ready", "next stage is quarterfinal")
    bad = await td(api, tid, "stage", {"stage": "quarterfinal", "machines": ["1", "9", "3"]})
    await refused(api, tid, bad, 404, "unknown_machine", "no machine 9")
    await ok(api, tid, "stage", {"stage": "quarterfinal"})  # default: machines 1, 2, 3
    before = await version(api, tid)
    cases = [
        (await api.score(tid, 5, 1, 1000), 409, "stage_not_ready", "round 1, which has not"),
        (
            await api.post(f"/api/t/{tid}/players", {"number": "99", "name": "Late Comer"}),
            409,
            "stage_not_ready",
            "Qualifying has closed",
        ),
        (
            await td(api, tid, "registrations", {"player": "1", "round": 1}),
            409,
            "entry_not_allowed",
            "neither",
        ),
        (
            await td(api, tid, "registrations", {"player": "77", "round": 1}),
            404,
            "unknown_player",
            "77",
        ),
        (await td(api, tid, "rounds", {"round": 2}), 409, "stage_not_ready", "is 1, not 2"),
        (
            await td(api, tid, "playoffs", {"tie": "qualifying", "order": ["1", "2"]}),
            409,
            "stage_not_ready",
            "fixed",
        ),
    ]
    for answer, status, code, words in cases:
        await refused(api, tid, answer, status, code, words)
    assert await version(api, tid) == before
    await register_all(api, tid, 1, [5, 6, 7, 8])
    await ok(api, tid, "rounds", {"round": 1})
    late = await td(api, tid, "registrations", {"player": "9", "round": 1})
    await refused(api, tid, late, 409, "stage_not_ready", "has closed")
    await refused(api, tid, await api.score(tid, 11, 1, 5), 404, "unknown_player", "11")
    await refused(api, tid, await api.score(tid, 5, 4, 5), 409, "not_allocated", "not on 4")
    await refused(api, tid, await api.score(tid, 1, 1, 5), 409, "stage_not_ready", "round 2")
    await refused(api, tid, await api.score(tid, 5, 1, -3), 422, "invalid_score", "negative")
    assert (await api.score(tid, 5, 1, 10)).status_code == 201
    assert (await api.score(tid, 5, 1, 20)).status_code == 201
    third = await api.score(tid, 5, 1, 30)
    await refused(api, tid, third, 409, "machine_already_played", "both quarter-final games")
    unfinished = await td(api, tid, "stage", {"stage": "semifinal"})
    await refused(api, tid, unfinished, 409, "stage_not_ready", "still to record")
    typo = await td(api, tid, "stage", {"stage": "semi"})
    await refused(api, tid, typo, 422, "invalid_setting", "Stage must be one of")


async def test_equal_qualifying_totals_inside_the_seeds_need_a_playoff(api: Api) -> None:
    """EPC Qualifying: the quarter-finals need a strict order; players 3 and 4 share 3rd (equal
    scores on the only machine, equal points), so the TD records their play-off first."""
    tid = "a3"
    await api.tournament(tid, "epc-main", players=10, machines=3, settings=SMALL)
    for n in range(1, 11):
        await api.score(tid, n, 1, 96_500 if n in (3, 4) else (100 - n) * 1000)
    tied = await td(api, tid, "stage", {"stage": "quarterfinal"})
    await refused(api, tid, tied, 422, "unresolved_tie", "3 and 4 are tied")
    await ok(api, tid, "playoffs", {"tie": "qualifying", "order": ["4", "3"]})
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    seeds = (await views(api, tid))["quarterfinal"]["seeds"]
    assert [seeds[s]["qualifier"] for s in ("1", "2", "3", "4", "5")] == ["1", "2", "4", "3", "5"]


async def test_wrong_format_and_idempotent_retries(api: Api) -> None:
    await api.tournament("a4", "epc-qualifying", players=2, machines=1)
    other = await td(api, "a4", "stage", {"stage": "quarterfinal"})
    await refused(api, "a4", other, 409, "wrong_format", "for the EPC")
    tid = "a5"
    await qualified(api, tid, 10, SMALL)
    first = await td(api, tid, "stage", {"stage": "quarterfinal"}, key="advance-1")
    again = await td(api, tid, "stage", {"stage": "quarterfinal"}, key="advance-1")
    assert first.status_code == again.status_code == 201
    assert again.headers.get("idempotent-replayed") == "true"
    assert again.json()["version"] == first.json()["version"] == await version(api, tid)


async def test_a_quarterfinal_game_reaches_a_display_as_a_small_patch(
    api: Api, server: str
) -> None:
    tid = "a6"
    await qualified(api, tid, 10, SMALL)
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 6, 7, 8])
    await ok(api, tid, "rounds", {"round": 1})
    async with connect(ws_url(server, tid)) as ws:
        snapshot = await receive(ws)
        assert snapshot["views"]["stage"] == {
            "stage": "quarterfinal",
            "round": 1,
            "waiting": "Re-registration for round 2, group A (seeds 1-4), is open.",
        }
        await api.score(tid, 6, "2", 77_000)
        patch = await receive(ws)
        assert patch["base"] == snapshot["version"]
        assert patch["patches"]["quarterfinal/2"]["rows"] == {
            "6": {"score": 77_000, "place": 1, "points": 100, "games": 1}
        }
        assert patch["patches"]["quarterfinal"]["rows"]["6"] == {
            "place": 1,
            "total": 100,
            "games": 1,
        }
        assert "standings" not in patch["patches"]  # qualifying is closed and untouched


async def test_replaying_the_log_gives_the_same_views(api: Api) -> None:
    """architecture principle 1: views are a pure function of the log."""
    tid = "a7"
    await qualified(api, tid, 12, SMALL)
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 7, 9, 10])
    await ok(api, tid, "rounds", {"round": 1})
    await play_quarterfinal(api, tid, "B", fixed)
    records = (await api.http.get(f"/api/t/{tid}/log")).json()["records"]
    replay = LiveTournament(tid, 16)
    replay.apply([Record(r.pop("seq"), r) for r in records])
    assert replay.views == await views(api, tid)
