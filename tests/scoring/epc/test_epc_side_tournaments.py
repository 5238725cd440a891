"""The EPC Classic and kids tournaments past qualifying (``scoring.epc.side_tournaments``): the
close, faults, and the Classic's semi-finals and final. Machine m's top score is player Pm's; Z
has a low score everywhere. The same refusals through the HTTP API:
tests/display/competitions/epc_main/test_epc_boards.py."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from scoring import EPC_CLASSIC, EPC_KIDS, Entry, SettingsError, UnknownMachine, UnknownPlayer
from scoring.epc.classic import FaultDecision
from scoring.epc.errors import StageNotReady
from scoring.epc.side_tournaments import (
    SideTournament,
    check_classic_stage_may_start,
    check_fault_allowed,
    check_may_close,
    check_places_kept,
    record_classic_game,
    record_classic_playoff,
    start_classic_stage,
    with_fault,
)
from scoring.errors import EntryNotAllowed, MachineAlreadyPlayed
from tests.scoring.scoring_builders import build

EIGHT = [str(m) for m in range(1, 9)]
ROWS = [(m, f"P{m}", 1000 * int(m)) for m in EIGHT] + [(m, "Z", 10) for m in EIGHT]
CLOSED = {"closed_after": len(ROWS)}


def classic(settings: dict[str, Any] | None = None) -> SideTournament:
    return SideTournament(build(EPC_CLASSIC, ROWS, settings, machines=EIGHT))


def semifinals() -> SideTournament:
    return start_classic_stage(classic(CLOSED), "semifinal", {})


def scored(state: SideTournament, key: str, scores: list[int], seq: int = 100) -> SideTournament:
    game = state.stage_games[key]
    machine = state.game_machines.get(key, game.machines[0] if game.machines else "1")
    for i, (player, score) in enumerate(zip(game.players, scores, strict=True)):
        state = record_classic_game(state, Entry(seq + i, player, machine, score))
    return state


def test_qualifying_closes_once() -> None:
    """EPC 2009, EPC Classic Tournament: "The qualifying round ends at 3pm promptly"; EPC 2009,
    UK Pinball Kids Tournament: "At the close of the tournament each day"."""
    check_may_close(classic())
    with pytest.raises(StageNotReady, match="Qualifying has already closed"):
        check_may_close(classic(CLOSED))
    kids = SideTournament(build(EPC_KIDS, [("K", "1", 10)], {"closed_after": 1}))
    assert kids.closed and not kids.classic
    with pytest.raises(StageNotReady, match="Qualifying has already closed"):
        check_may_close(kids)


def test_the_stages_run_in_order_the_semi_finals_after_the_close() -> None:
    """EPC 2009, EPC Classic Tournament: qualifying, two semi-finals, the final."""
    with pytest.raises(StageNotReady, match="The next Classic stage is semifinal, not 'final'"):
        check_classic_stage_may_start(classic(CLOSED), "final")
    with pytest.raises(StageNotReady, match="Close Classic qualifying before the semi-finals"):
        check_classic_stage_may_start(classic(), "semifinal")
    with pytest.raises(StageNotReady, match="Classic game 1 is not decided: not every score is"):
        check_classic_stage_may_start(semifinals(), "final")


def test_a_semi_final_is_played_on_the_other_halfs_machines() -> None:
    """EPC 2009, EPC Classic Tournament: "The top players on machines 1, 2, 3 & 4 will play
    their semi-final on one of machines 5-8"."""
    closed = classic(CLOSED)
    with pytest.raises(EntryNotAllowed, match="semi-final 1 is played on one of machines 5, 6"):
        start_classic_stage(closed, "semifinal", {"1": "2"})
    with pytest.raises(SettingsError, match="There is no Classic game 'final' at this stage"):
        start_classic_stage(closed, "semifinal", {"final": "2"})
    assert start_classic_stage(closed, "semifinal", {"1": "6"}).game_machines == {"1": "6"}


def test_a_semi_final_score_is_one_per_player_on_the_games_machine() -> None:
    """EPC 2009, EPC Classic Tournament: "four-player semi-final games"."""
    state = start_classic_stage(classic(CLOSED), "semifinal", {"1": "6"})
    with pytest.raises(EntryNotAllowed, match="semi-final 1 is played on machine 6"):
        record_classic_game(state, Entry(100, "P1", "5", 10))
    with pytest.raises(UnknownPlayer, match="Player Z is not in a Classic semifinal game"):
        record_classic_game(state, Entry(100, "Z", "6", 10))
    with pytest.raises(UnknownMachine, match="There is no machine 99 in this tournament"):
        record_classic_game(state, Entry(100, "P1", "99", 10))
    state = record_classic_game(state, Entry(100, "P1", "6", 10))
    with pytest.raises(MachineAlreadyPlayed, match="Player P1 already has a score in the Classic"):
        record_classic_game(state, Entry(101, "P1", "6", 20))


def test_the_final_after_both_semi_finals_and_their_play_offs() -> None:
    """EPC 2009, EPC Classic Tournament: "The top two players from each semi-final will go
    forward to the four-player final game"; equal scores across 2nd/3rd need a play-off."""
    state = scored(semifinals(), "1", [40, 30, 30, 10])
    state = scored(state, "2", [40, 30, 20, 10], seq=200)
    with pytest.raises(StageNotReady, match="Classic game 1 is not decided: players P2, P3 tied"):
        check_classic_stage_may_start(state, "final")
    state = start_classic_stage(record_classic_playoff(state, "1", ["P3", "P2"]), "final", {})
    assert state.stage_games["final"].players == ("P1", "P3", "P5", "P6")
    state = scored(state, "final", [10, 20, 30, 40], seq=300)
    state = start_classic_stage(state, "complete", {})
    with pytest.raises(StageNotReady, match="The Classic is over: no more scores are recorded"):
        record_classic_game(state, Entry(400, "P1", "1", 10))
    with pytest.raises(StageNotReady, match="The next Classic stage is none, not None"):
        check_classic_stage_may_start(state, None)  # a record without its stage


def test_the_places_are_final_once_the_semi_finals_start() -> None:
    """EPC 2009, EPC Classic Tournament: the holders of the places play the semi-finals, so no
    setting may move a place then (here: P1 named as an EPC player)."""
    before = classic(CLOSED)
    moved = replace(before, tournament=classic({**CLOSED, "epc_players": ["P1"]}).tournament)
    check_places_kept(before, moved)  # still qualifying: the places may move
    with pytest.raises(StageNotReady, match="semi-finals have started: reopen qualifying first"):
        check_places_kept(semifinals(), replace(moved, stage="semifinal"))


def test_a_fault_is_decided_once_while_qualifying_runs() -> None:
    """EPC 2009, EPC Classic Tournament: "closed to further qualification"."""
    check_fault_allowed(classic(), "3")
    faulty = classic({"faults": [{"machine": "3", "after": len(ROWS), "replacement": None}]})
    with pytest.raises(StageNotReady, match="Machine 3 is already out of qualifying, or it"):
        check_fault_allowed(faulty, "3")
    with pytest.raises(StageNotReady, match="Machine 4 is already out of qualifying, or it"):
        check_fault_allowed(classic(CLOSED), "4")
    decided = with_fault(classic(), "3", FaultDecision("replace", 2, ("P3", "Z")))
    assert decided.faults == {"3": ("replace", ("P3", "Z"))}
