"""``scoring.corrections``: a corrected or voided entry gives the standings of a log recorded right,
worked by hand from the rule texts, and keeps its place in the order played."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring import EPC_CLASSIC, EPC_KIDS, EPC_QUALIFYING, FORMATS, UKPL_MEETING
from scoring.corrections import UnknownEntry, correct_entry, find_entry, void_entry
from scoring.epc.classic import classic_qualifiers
from scoring.errors import InvalidScore, MachineAlreadyPlayed, TooManyMachines, UnknownPlayer
from scoring.model import Entry
from scoring.tournament import Tournament, check_entry
from tests.scoring.scoring_builders import build, standings, table

JOKER_ROWS = [("A", "1", 1000), ("A", "2", 3000), ("A", "1", 2000)]  # seq 1, 2, 3 (P1's joker)


def rows_of(t: Tournament) -> dict[str, list[tuple[str, int, int | None, object, bool]]]:
    return {m: table(t, m) for m in t.machines}


def test_correcting_a_first_game_keeps_the_joker_game_a_joker() -> None:
    """EPC 2009, EPC Qualifying: the best of the regular and the joker game counts; ranking
    points 100, 90 (the PAPA scale)."""
    t = build(EPC_QUALIFYING, JOKER_ROWS)
    assert table(t, "A") == [("2", 3000, 1, 100, False), ("1", 2000, 2, 90, True)]
    fixed = correct_entry(t, 1, 5000)
    assert table(fixed, "A") == [("1", 5000, 1, 100, True), ("2", 3000, 2, 90, False)]
    assert standings(fixed)[:2] == [("1", 1, 100, "qualified"), ("2", 2, 90, "qualified")]
    assert find_entry(fixed, 1) == Entry(1, "1", "A", 5000)
    assert table(t, "A")[0][0] == "2"  # pure: the original is untouched


def test_voiding_a_game_is_as_if_it_was_never_played() -> None:
    """EPC 2009, EPC Qualifying: with the first game voided, the later one is the player's only
    game there, so their joker game is free again."""
    t = build(EPC_QUALIFYING, JOKER_ROWS)
    with pytest.raises(MachineAlreadyPlayed):
        check_entry(t, Entry(9, "1", "A", 0))
    gone = void_entry(t, 1)
    assert table(gone, "A") == [("2", 3000, 1, 100, False), ("1", 2000, 2, 90, False)]
    check_entry(gone, Entry(9, "1", "A", 0))  # a joker game is allowed again
    joker_gone = void_entry(t, 3)
    assert table(joker_gone, "A") == [("2", 3000, 1, 100, False), ("1", 1000, 2, 90, False)]
    with pytest.raises(UnknownEntry, match="no recorded score at log version 3"):
        void_entry(joker_gone, 3)


def test_a_score_moved_to_another_player_or_machine_is_checked_by_the_rules() -> None:
    """EPC 2009, EPC Qualifying: "Each of the six machines may only be played once"; here one
    machine per player."""
    rows = [("A", "1", 100), ("B", "2", 200)]
    t = build(EPC_QUALIFYING, rows, {"machines_per_player": 1})
    with pytest.raises(TooManyMachines, match="Player 2 has already played 1 machines"):
        correct_entry(t, 1, 100, player="2")
    moved = correct_entry(t, 2, 200, machine="A")
    assert table(moved, "A") == [("2", 200, 1, 100, False), ("1", 100, 2, 90, False)]
    assert table(moved, "B") == []
    with pytest.raises(UnknownPlayer):
        correct_entry(t, 1, 100, player="77")
    with pytest.raises(InvalidScore, match="negative"):
        correct_entry(t, 1, -1)


def test_a_correction_can_win_or_lose_the_ukpl_bonus_point() -> None:
    """UKPL 3B: N points down to 1 for N players; a bonus point for the top score when it is more
    than double the second. 100 is not more than double 50; it is more than double 40."""
    t = build(UKPL_MEETING, [("A", "1", 100), ("A", "2", 50), ("A", "3", 10)])
    assert [(p, pts) for p, _, _, pts, _ in table(t, "A")] == [("1", 3), ("2", 2), ("3", 1)]
    fixed = correct_entry(t, 2, 40)
    assert [(p, pts) for p, _, _, pts, _ in table(fixed, "A")] == [("1", 4), ("2", 2), ("3", 1)]
    assert [(p, total) for p, _, total, _ in standings(fixed)] == [("1", 4), ("2", 2), ("3", 1)]


def test_a_classic_correction_keeps_the_score_recorded_first_ahead() -> None:
    """EPC 2009, EPC Classic Tournament: the top score on a machine qualifies; of equal scores
    the one recorded first ranks first. Correcting keeps the entry's place in the order played,
    where voiding and entering it again would put it last."""
    t = build(EPC_CLASSIC, [("1", "7", 400), ("1", "8", 500)])
    assert classic_qualifiers(t.config, t.tables)[0].player == "8"
    fixed = correct_entry(t, 1, 500)
    assert classic_qualifiers(fixed.config, fixed.tables)[0].player == "7"


CASES = {
    "epc-qualifying": [("A", "1", 50), ("B", "2", 70), ("A", "3", 70), ("A", "1", 90),
                       ("C", "2", 10), ("B", "3", 30), ("C", "4", 10)],
    "ukpl-meeting": [("A", "1", 50), ("B", "2", 70), ("A", "3", 70), ("C", "2", 10),
                     ("B", "3", 30), ("C", "4", 10), ("A", "4", 200)],
    "epc-classic": [("A", "1", 50), ("A", "1", 80), ("B", "2", 70), ("A", "3", 80),
                    ("B", "3", 30), ("C", "4", 10)],
    "epc-kids": [("K", "1", 50), ("K", "2", 70), ("K", "1", 90), ("K", "3", 70)],
}  # fmt: skip


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_corrections_and_voids_equal_the_log_recorded_right(fmt: str) -> None:
    rows = CASES[fmt]
    t = build(FORMATS[fmt], rows)
    for seq in range(1, len(rows) + 1):
        machine, player, score = rows[seq - 1]
        right = [*rows[: seq - 1], (machine, player, score + 5), *rows[seq:]]
        fixed = correct_entry(t, seq, score + 5)
        expected = build(FORMATS[fmt], right)
        assert rows_of(fixed) == rows_of(expected)
        assert standings(fixed) == standings(expected)
        never = [*rows[: seq - 1], *rows[seq:]]
        gone = void_entry(t, seq)
        everyone = sorted({p for _, p, _ in rows})
        expected = build(FORMATS[fmt], never, players=everyone, machines=list(t.machines))
        assert rows_of(gone) == rows_of(expected)
        assert standings(gone) == standings(expected)


def test_kids_corrections_follow_the_best_score() -> None:
    """EPC 2009, UK Pinball Kids Tournament: each player's best score counts."""
    t = build(EPC_KIDS, CASES["epc-kids"])
    assert [(p, s) for p, s, *_ in table(t, "K")] == [("1", 90), ("2", 70), ("3", 70)]
    fixed = void_entry(t, 3)
    assert [(p, s) for p, s, *_ in table(fixed, "K")] == [("2", 70), ("3", 70), ("1", 50)]
    assert standings(fixed)[0][2] == Fraction(70)
