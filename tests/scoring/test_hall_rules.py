"""The per-machine engine's refusals beside the formats' own: a machine closed or replaced takes no
scores, one not in service no queue, a withdrawn player plays no more (``scoring.tournament``); a
machine's status changes and its replacement (``scoring.machine_faults.change_status``); the
score a correction names and where it may move (``scoring.corrections``). Pure functions of
frozen data, so these need no hall around them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scoring import EPC_CLASSIC, EPC_QUALIFYING, UKPL_MEETING
from scoring.corrections import correct_score, counted_entry
from scoring.errors import (
    InvalidScore,
    MachineUnavailable,
    PlayerWithdrawn,
    ReplacementRefused,
    ScoringError,
    TooManyMachines,
    UnknownEntry,
    UnknownMachine,
)
from scoring.machine_faults import change_status
from scoring.model import MachineState, Status
from scoring.tournament import (
    Tournament,
    check_in_service,
    check_still_playing,
    check_takes_scores,
    player_label,
    unavailable,
    withdraw,
)
from tests.scoring.scoring_builders import build, table

CLOSED = {"1": MachineState("closed", "coil burnt")}
OUT = {"1": MachineState("out_of_order")}
REPLACED = {"1": MachineState("replaced", None, "2")}


def refused(error: type[ScoringError], message: str, check: Callable[[], object]) -> None:
    """``check()`` raises ``error`` whose message begins with ``message`` (or is it, when it
    ends with a full stop)."""
    with pytest.raises(error) as raised:
        check()
    found = raised.value.message
    assert found == message if message.endswith(".") else found.startswith(message), found


def test_a_closed_or_replaced_machine_takes_no_scores_one_out_of_order_does() -> None:
    """EPC 2009, EPC Classic: "closed to further qualification"; UKPL 6A: its games are played on
    the new game. A game played on a machine now out of order was played: its score is taken."""
    t = build(EPC_QUALIFYING, [("1", "a", 10)], machines=["2"])
    closed = "1 is closed (coil burnt); it takes no more scores."
    refused(MachineUnavailable, closed, lambda: check_takes_scores(t, CLOSED, "1"))
    refused(
        MachineUnavailable, "1 was replaced by 2.", lambda: check_takes_scores(t, REPLACED, "1")
    )
    check_takes_scores(t, OUT, "1")
    check_takes_scores(t, {}, "1")


def test_a_machine_not_in_service_takes_no_queue() -> None:
    t = build(EPC_QUALIFYING, [("1", "a", 10)])
    waits = "1 is out of order; its queue waits until it is back in service."
    refused(MachineUnavailable, waits, lambda: check_in_service(t, OUT, "1"))
    check_in_service(t, {"1": MachineState()}, "1")
    assert unavailable(t, {}, "1") is None
    gone = unavailable(t, {"9": MachineState("closed")}, "9")
    assert gone == "machine 9 is closed; it takes no more scores."


def test_a_withdrawn_player_plays_no_more_and_withdraws_once() -> None:
    """EPC 2009, EPC Qualifying: "Any unplayed games will score zero"; their games stand."""
    t = build(EPC_QUALIFYING, [("1", "a", 10)])
    assert player_label(t, "a") == "Name a (a)" and player_label(t, "z") == "Player z"
    withdrawn = withdraw(t, {}, "a", "ill")
    assert withdrawn == {"a": "ill"}
    left = "Name a (a) has withdrawn from the tournament."
    refused(PlayerWithdrawn, left, lambda: check_still_playing(t, withdrawn, "a"))
    again = "Name a (a) has already withdrawn."
    refused(PlayerWithdrawn, again, lambda: withdraw(t, withdrawn, "a", "again"))
    check_still_playing(t, withdrawn, "b")


def test_a_status_change_refuses_what_the_rules_refuse() -> None:
    """A replaced machine stays out (UKPL 6A); a status is not given twice (out of order may be,
    with a new note); a closed machine comes back into service before it is out of order."""
    t = build(EPC_QUALIFYING, [("1", "a", 10)], machines=["2"])

    def to(status: Status, statuses: dict[str, MachineState]) -> Callable[[], object]:
        return lambda: change_status(t, statuses, "1", status, None, None, 5)

    stays = "1 was replaced; a replaced machine stays out."
    refused(ReplacementRefused, stays, to("in_service", REPLACED))
    refused(MachineUnavailable, "1 is already closed.", to("closed", CLOSED))
    refused(MachineUnavailable, "1 is already in service.", to("in_service", {}))
    first = "1 is closed; put it back in service first."
    refused(MachineUnavailable, first, to("out_of_order", CLOSED))
    again = change_status(t, OUT, "1", "out_of_order", "still weak", None, 5)
    assert again.state == MachineState("out_of_order", "still weak") and again.tournament is t
    back = change_status(t, CLOSED, "1", "in_service", None, None, 5)
    assert back.state == MachineState() and back.wiped == ()


def test_a_replacement_is_named_and_starts_fresh() -> None:
    """The replacement machine (EPC 2009, EPC Classic; UKPL 6A "the new game"): another machine of
    the tournament, in service, with no scores and replacing no other machine."""
    t = build(EPC_QUALIFYING, [("1", "a", 10), ("3", "b", 20)], machines=["2", "4"])

    def by(replacement: str | None, **statuses: MachineState) -> Callable[[], object]:
        return lambda: change_status(t, statuses, "1", "replaced", None, replacement, 9)

    fresh = "already has scores or replaces another machine; a replacement starts fresh."
    refused(ReplacementRefused, "Name the machine that replaces 1 (add it first).", by(None))
    refused(UnknownMachine, "There is no machine 8 in this tournament.", by("8"))
    refused(ReplacementRefused, "1 cannot replace itself.", by("1"))
    refused(MachineUnavailable, "2 is out of order", by("2", **{"2": MachineState("out_of_order")}))
    refused(ReplacementRefused, f"3 {fresh}", by("3"))
    refused(ReplacementRefused, f"2 {fresh}", by("2", **{"4": MachineState("replaced", None, "2")}))
    done = change_status(t, {}, "1", "replaced", "gone", "2", 9)
    assert done.state == MachineState("replaced", "gone", "2", ())  # EPC qualifying: scores stand
    assert table(done.tournament, "1") == table(t, "1") and done.wiped == ()


def test_a_replaced_meeting_machine_wipes_its_games_and_owes_replays() -> None:
    """UKPL 6A: "any games already played on the faulty machines will need to be replayed on the
    new game"."""
    t = build(UKPL_MEETING, [("A", "a", 10), ("A", "b", 20)], machines=["B"])
    done = change_status(t, {}, "A", "replaced", None, "B", 7)
    assert [e.seq for e in done.wiped] == [1, 2] and done.state.owed == ("a", "b")
    assert done.tournament.entries["A"] == ()


def test_a_classic_machine_with_many_scores_is_not_replaced() -> None:
    """EPC 2009, EPC Classic: with 10 or more players' scores it "will be closed"."""
    t = build(EPC_CLASSIC, [("1", str(p), 100 + p) for p in range(10)], machines=["2"])
    with pytest.raises(ReplacementRefused) as raised:
        change_status(t, {}, "1", "replaced", None, "2", 20)
    assert raised.value.message.endswith("Close it instead.")


def test_the_entry_a_record_names_while_it_counts() -> None:
    """A score is corrected or voided while it counts (EPC 2009, EPC Qualifying); voided or wiped
    with its machine (EPC 2009, EPC Classic) it is no score to change."""
    t = build(EPC_QUALIFYING, [("1", "a", 10), ("1", "b", 20)])
    origins = {1: 1, 2: 2, 5: 1}
    assert counted_entry(t, 5, origins, {}, {}).score == 10
    none = "Record 7 is not a recorded score."
    refused(UnknownEntry, none, lambda: counted_entry(t, 7, origins, {}, {}))
    voided = "The score of record 2 was voided by record 6."
    refused(UnknownEntry, voided, lambda: counted_entry(t, 2, origins, {2: 6}, {}))
    wiped = "The score of record 1 was wiped when its machine was replaced (record 8)."
    refused(UnknownEntry, wiped, lambda: counted_entry(t, 1, origins, {}, {1: 8}))


def test_a_correction_moves_a_score_only_where_it_could_be_played() -> None:
    """A score moved onto a closed machine or to a withdrawn player is refused; left where it
    was played, it is corrected whatever happened since (EPC 2009, EPC Qualifying)."""
    t = build(EPC_QUALIFYING, [("1", "a", 10)], players=["b"], machines=["2"])
    entry = t.entries["1"][0]
    closed = {"1": MachineState("closed"), "2": MachineState("closed")}

    def fix(score: object, player: str, machine: str, **more: object) -> Callable[[], Tournament]:
        statuses = closed if more.get("closed") else {}
        withdrawn = {"b"} if more.get("withdrawn") else set()
        return lambda: correct_score(t, entry, score, player, machine, statuses, withdrawn)

    assert fix(15, "a", "1", closed=True)().entries["1"][0].score == 15
    unknown = "There is no machine 9 in this tournament."
    refused(UnknownMachine, unknown, fix("x", "a", "9"))  # the machine before the score
    refused(
        MachineUnavailable, "2 is closed; it takes no more scores.", fix(15, "a", "2", closed=1)
    )
    refused(PlayerWithdrawn, "Name b (b) has withdrawn", fix(15, "b", "1", withdrawn=True))
    refused(InvalidScore, "A score cannot be negative (-1).", fix(-1, "a", "1"))
    moved = fix(12, "b", "2")()
    assert [(e.player, e.score) for e in moved.entries["2"]] == [("b", 12)]


def test_a_correction_is_checked_by_the_format_in_its_place() -> None:
    """EPC 2009, EPC Qualifying: a score moved to a seventh machine is refused."""
    rows = [(str(m), "a", 10) for m in range(1, 7)] + [("7", "b", 5)]
    t = build(EPC_QUALIFYING, rows)
    with pytest.raises(TooManyMachines):
        correct_score(t, t.entries["7"][0], 5, "a", "7", {}, ())
