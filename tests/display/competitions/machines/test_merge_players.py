"""Duplicate registrations joined by a record (``players_merged``, POST /api/t/{t}/players/{p}/merge;
issue 13): the two numbers' games become the kept number's, the better score kept on a machine
both played and the clash listed for the TD, the joined number gone from the standings; bad
merges refused in plain words with nothing written; a replay of the log equals the live state.
EPC 2009, EPC Qualifying, PAPA points (100 for the best score on a machine, 90 next)."""

from __future__ import annotations

from typing import Any

from tests.display.competitions.epc_main.helpers import ok, qualified
from tests.display.competitions.epc_main.test_epc_stage_corrections import (
    assert_replay_equals_live,
)
from tests.display.competitions.machines.test_corrections_api import correct, log
from tests.display.competitions.machines.test_queue_api import act
from tests.utils import Api

EPC = "epc-qualifying"


async def merge(api: Api, tid: str, player: str, **body: Any) -> Any:
    return await api.post(f"/api/t/{tid}/players/{player}/merge", body)


async def current(api: Api, tid: str) -> dict[str, Any]:
    return (await api.views(tid))["views"]  # type: ignore[no-any-return]


async def test_a_duplicate_is_merged_keeping_the_better_score_and_flagging_the_clash(
    api: Api,
) -> None:
    """Player 3 is player 1 registered again. 1: Machine 1 900,000, Machine 2 300,000; 3:
    Machine 1 500,000 (the clash: 900,000 kept), Machine 3 700,000. Player 2: 800,000, 400,000,
    100,000. Merged, 1 is first on machines 1 and 3 (100 + 100) and second on 2 (90): 290; 2 has
    90 + 100 + 90 = 280."""
    tid = "mg1"
    await api.tournament(tid, EPC, players=3, machines=3)
    for player, machine, score in ((1, 1, 900_000), (1, 2, 300_000), (2, 1, 800_000),
                                   (2, 2, 400_000), (2, 3, 100_000), (3, 3, 700_000)):  # fmt: skip
        assert (await api.score(tid, player, machine, score)).status_code == 201
    dropped = (await api.score(tid, 3, 1, 500_000)).json()["version"]

    done = await merge(api, tid, "3", into="1", reason="registered twice at the desk")
    assert done.status_code == 201, done.text
    assert done.json()["record"]["type"] == "players_merged"
    views = await current(api, tid)
    assert views["players"]["3"] == {"name": "Player 3", "merged_into": "1"}
    assert views["players"]["1"]["merged"] == {
        "3": {
            "name": "Player 3",
            "reason": "registered twice at the desk",
            "clashes": {"1": {"kept": 900_000, "dropped": [500_000]}},
        }
    }
    rows = views["standings"]["rows"]
    assert "3" not in rows
    assert (rows["1"]["total"], rows["2"]["total"]) == (290, 280)
    assert views["machine/3"]["rows"]["1"]["score"] == 700_000
    assert list(views["machine/1"]["rows"]) == ["1", "2"]

    gone = await correct(api, tid, dropped, score=600_000, reason="x")
    assert gone.status_code == 409
    assert f"voided by record {done.json()['version']}" in gone.json()["message"]
    assert (await api.score(tid, 3, 2, 1)).status_code == 404
    await assert_replay_equals_live(api, tid)


async def test_bad_merges_are_refused_in_plain_words_with_nothing_written(api: Api) -> None:
    tid = "mg2"
    await api.tournament(tid, EPC, players=3, machines=7, settings={"machines_per_player": 6})
    before = len(await log(api, tid))
    unknown = await merge(api, tid, "3", into="44", reason="x")
    assert unknown.status_code == 404
    assert unknown.json()["message"] == "No player number 44 is registered in this tournament."
    itself = await merge(api, tid, "3", into="3", reason="x")
    assert itself.status_code == 409
    assert itself.json()["message"] == "Player 3 (3) cannot be merged into itself."
    assert (await merge(api, tid, "3", into="1")).status_code == 422  # no reason
    token = await api.sign_in_steward(tid)
    steward = await api.post(
        f"/api/t/{tid}/players/3/merge", {"into": "1", "reason": "x"}, token=token
    )
    assert steward.status_code == 403
    assert len(await log(api, tid)) == before

    # six machines each: joined, seven machines, which EPC qualifying refuses
    for machine in range(1, 7):
        await api.score(tid, 1, machine, 1000)
    await api.score(tid, 3, 7, 1000)
    seven = await merge(api, tid, "3", into="1", reason="x")
    assert seven.status_code == 409, seven.text

    assert (await act(api, tid, "7", "join", player="2")).status_code == 201
    queued = await merge(api, tid, "2", into="3", reason="x")
    assert queued.status_code == 409
    assert queued.json()["message"] == (
        "Player 2 (2) is in the queue for Machine 7: take them out of it first."
    )

    await api.tournament("mg2u", "ukpl-meeting", players=2, machines=1)
    ukpl = await merge(api, "mg2u", "2", into="1", reason="x")
    assert ukpl.status_code == 409 and "does not merge player numbers" in ukpl.json()["message"]


async def test_an_epc_main_merge_is_refused_once_the_quarter_finals_started(api: Api) -> None:
    """The draw is frozen by the record that starts the quarter-finals (EPC 2009, EPC
    Qualifying): a merge changes the qualifying standings, so it waits for qualifying to reopen.
    Before, it goes through."""
    tid = "mg3"
    await qualified(api, tid, 12, {"qualify": 8, "standby": 2})
    assert (await merge(api, tid, "12", into="11", reason="twice")).status_code == 201
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    late = await merge(api, tid, "10", into="9", reason="twice")
    assert late.status_code == 409, late.text
    assert late.json()["message"] == "The quarter-finals have started: reopen qualifying first."
    await assert_replay_equals_live(api, tid)
