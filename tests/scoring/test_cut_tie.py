"""``scoring.cut_tie``: the tied group a cut runs through (EPC 2009, EPC Qualifying; FWPL 6.1)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cut_tie import CutTie, settle_cut, tie_at_cut
from scoring.model import StandingRow, Standings

ROWS = [("a", 1), ("b", 2), ("c", 3), ("d", 3), ("e", 3), ("f", 6), ("g", None)]


def test_a_line_through_a_shared_place_is_a_tie_for_the_places_left() -> None:
    assert tie_at_cut(ROWS, 3) == CutTie(line=3, place=3, places=1, players=("c", "d", "e"))
    assert tie_at_cut(ROWS, 4) == CutTie(line=4, place=3, places=2, players=("c", "d", "e"))
    assert tie_at_cut(ROWS, 4).note == "tie at the cut: play-off for 2 places"  # type: ignore[union-attr]
    assert tie_at_cut(ROWS, 3).note == "tie at the cut: play-off for 1 place"  # type: ignore[union-attr]


def test_a_line_between_two_places_is_no_tie() -> None:
    assert [tie_at_cut(ROWS, line) for line in (0, 1, 2, 5, 6, 7)] == [None] * 6


def test_settle_cut_bands_the_tie_until_the_order_ranks_all_of_it() -> None:
    standings = Standings(
        tuple(StandingRow(p, place, Fraction(0), 1, band="qualified") for p, place in ROWS)
    )
    waiting, tie = settle_cut(standings, 4, ["d", "c"], "qualified", "standby")
    assert tie is not None and tie.places == 2
    assert [r.band for r in waiting.rows] == ["qualified", "qualified", "tie", "tie", "tie"] + [
        "qualified"
    ] * 2
    settled, none = settle_cut(standings, 4, ["x", "e", "c", "d"], "qualified", "standby")
    assert none is None
    assert {r.player: r.band for r in settled.rows if r.place == 3} == {
        "c": "qualified",
        "d": "standby",
        "e": "qualified",
    }


@settings(max_examples=300, deadline=None)
@given(
    totals=st.lists(st.integers(0, 4), max_size=12),
    unranked=st.integers(0, 2),
    line=st.integers(-1, 14),
)
def test_settle_cut_finds_the_tie_tie_at_cut_finds(
    totals: list[int], unranked: int, line: int
) -> None:
    # settle_cut reads only the rows at the line of ranked standings; the whole rows agree.
    ranked = sorted(totals, reverse=True)
    rows = [(f"p{i}", 1 + ranked.index(total)) for i, total in enumerate(ranked)]
    rows += [(f"u{i}", None) for i in range(unranked)]
    standings = Standings(tuple(StandingRow(p, place, Fraction(0), 1) for p, place in rows))
    _, tie = settle_cut(standings, line, [], "qualified", "standby")
    assert tie == tie_at_cut(rows, line)
