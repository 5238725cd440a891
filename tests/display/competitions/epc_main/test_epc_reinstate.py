"""A withdrawal undone by a record (``player_reinstated``, POST /api/t/{t}/players/{p}/reinstate):
in qualifying and before the first quarter-final round, never once a stand-by may be playing the
place (EPC 2009, EPC Qualifying; EPC Quarter-Finals; docs/rules.md). Log replay equals live."""

from __future__ import annotations

from tests.display.competitions.epc_main.helpers import ok, qualified, register_all, views
from tests.display.competitions.epc_main.test_epc_stage_corrections import (
    assert_replay_equals_live,
)
from tests.utils import Api

SMALL = {"qualify": 8, "standby": 2}


async def test_a_player_withdrawn_in_qualifying_is_reinstated_and_scores_again(api: Api) -> None:
    tid = "ri1"
    await qualified(api, tid, 12, SMALL)
    gone = await api.post(f"/api/t/{tid}/players/9/withdraw", {"reason": "went home"})
    assert gone.status_code == 201, gone.text
    assert (await api.score(tid, 9, 2, 5_000)).status_code == 409
    assert (await views(api, tid))["players"]["9"]["withdrawn"] == "went home"
    no_reason = await api.post(f"/api/t/{tid}/players/9/reinstate", {})
    assert no_reason.status_code == 422
    back = await api.post(f"/api/t/{tid}/players/9/reinstate", {"reason": "came back"})
    assert back.status_code == 201, back.text
    assert "withdrawn" not in (await views(api, tid))["players"]["9"]
    assert (await api.score(tid, 9, 2, 5_000)).status_code == 201
    twice = await api.post(f"/api/t/{tid}/players/9/reinstate", {"reason": "again"})
    assert twice.status_code == 409 and twice.json()["error"] == "player_not_withdrawn"
    await assert_replay_equals_live(api, tid)


async def test_a_seed_reinstated_before_round_1_takes_their_place_back(api: Api) -> None:
    """Seed 7 withdraws after the close (a vacancy at once), then is reinstated before round 1:
    they can be registered and play seed 7 themselves; once round 1 has started a withdrawal
    can no longer be undone."""
    tid = "ri2"
    await qualified(api, tid, 12, SMALL)
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    assert (
        await api.post(f"/api/t/{tid}/players/7/withdraw", {"reason": "went home"})
    ).status_code == 201
    back = await api.post(f"/api/t/{tid}/players/7/reinstate", {"reason": "misunderstanding"})
    assert back.status_code == 201, back.text
    await register_all(api, tid, 1, [5, 6, 7, 8, 9])
    await ok(api, tid, "rounds", {"round": 1})
    seed = (await views(api, tid))["quarterfinal"]["seeds"]["7"]
    assert (seed["qualifier"], seed["player"]) == ("7", "7") and "replaced" not in seed
    gone = await api.post(f"/api/t/{tid}/players/2/withdraw", {"reason": "ill"})
    assert gone.status_code == 201
    late = await api.post(f"/api/t/{tid}/players/2/reinstate", {"reason": "better"})
    assert late.status_code == 409, late.text
    assert "round has started" in late.json()["message"]
    await assert_replay_equals_live(api, tid)
