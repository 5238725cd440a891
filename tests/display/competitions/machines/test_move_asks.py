"""A correction that moves a score onto a player who already has one on that machine asks first
(issue 13, "moving an entry onto a player who already has one on that machine asks"): 409
``move_needs_confirm`` in plain words saying what would happen, nothing written; the same
correction with ``"confirm": true`` goes through. EPC 2009, EPC Qualifying: a second game on a
machine is the player's joker game, the better of the two counting."""

from __future__ import annotations

from tests.display.competitions.epc_main.test_epc_stage_corrections import (
    assert_replay_equals_live,
)
from tests.display.competitions.machines.test_corrections_api import correct, log
from tests.utils import Api

EPC = "epc-qualifying"


async def test_a_move_onto_a_players_machine_asks_then_spends_the_joker_on_confirm(
    api: Api,
) -> None:
    tid = "mv1"
    await api.tournament(tid, EPC, players=3, machines=2)
    assert (await api.score(tid, 2, 1, 900_000)).status_code == 201
    typed = (await api.score(tid, 1, 1, 1_200_000)).json()["version"]  # player 2's game, mistyped
    before = len(await log(api, tid))

    asked = await correct(api, tid, typed, score=1_200_000, player="2", reason="wrong badge")
    assert asked.status_code == 409, asked.text
    assert asked.json()["error"] == "move_needs_confirm"
    assert asked.json()["message"] == (
        "Player 2 (2) already has a score on Machine 1 (900,000). Moved to them, this score "
        "(1,200,000) would be their second game there: it uses their joker game, and 1,200,000 "
        "would count for them. Confirm to move it anyway."
    )
    assert len(await log(api, tid)) == before
    rows = (await api.views(tid))["views"]["machine/1"]["rows"]
    assert rows["1"]["score"] == 1_200_000 and "joker" not in rows["2"]

    moved = await correct(
        api, tid, typed, score=1_200_000, player="2", reason="wrong badge", confirm=True
    )
    assert moved.status_code == 201, moved.text
    rows = (await api.views(tid))["views"]["machine/1"]["rows"]
    assert list(rows) == ["2"]
    assert rows["2"]["score"] == 1_200_000 and rows["2"]["joker"] is True
    await assert_replay_equals_live(api, tid)


async def test_a_lower_moved_score_says_the_better_one_still_counts(api: Api) -> None:
    tid = "mv2"
    await api.tournament(tid, EPC, players=2, machines=1)
    await api.score(tid, 2, 1, 900_000)
    typed = (await api.score(tid, 1, 1, 40_000)).json()["version"]
    asked = await correct(api, tid, typed, score=40_000, player="2", reason="wrong badge")
    assert asked.status_code == 409
    assert (
        "(40,000) would be their second game there: it uses their joker game, and 900,000 "
        in (asked.json()["message"])
    )


async def test_a_move_onto_an_empty_machine_or_a_refused_move_does_not_ask(api: Api) -> None:
    """No score of the player there: no question. A move the rules refuse anyway (a UKPL meeting
    counts one game per player and machine, UKPL 3B) answers the rule's refusal, not a
    question."""
    await api.tournament("mv3", EPC, players=2, machines=2)
    typed = (await api.score("mv3", 1, 1, 500)).json()["version"]
    fine = await correct(api, "mv3", typed, score=500, player="2", reason="wrong badge")
    assert fine.status_code == 201, fine.text

    await api.tournament("mv4", "ukpl-meeting", players=2, machines=1)
    await api.score("mv4", 2, 1, 900)
    typed = (await api.score("mv4", 1, 1, 500)).json()["version"]
    refused = await correct(api, "mv4", typed, score=500, player="2", reason="wrong badge")
    assert refused.status_code == 409
    assert refused.json()["error"] != "move_needs_confirm"
    confirmed = await correct(
        api, "mv4", typed, score=500, player="2", reason="wrong badge", confirm=True
    )
    assert confirmed.status_code == 409  # confirm never overrides a rule
