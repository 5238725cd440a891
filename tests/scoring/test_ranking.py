"""Ranking with ties and the point helpers, worked by hand from the rule texts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.model import MachineRow, MachineTable
from scoring.ranking import player_key, rank, tally, tied_points
from scoring.rounding import points_json, points_text, round_half_up


def test_equal_values_share_a_place_and_the_next_place_is_skipped() -> None:
    """EPC 2009, EPC Qualifying and UKPL 3B: equal scores hold equal rank; places run 1, 2, 2, 4."""
    groups = rank(["a", "b", "c", "d"], value={"a": 50, "b": 70, "c": 70, "d": 90}.__getitem__)
    assert [(g.place, g.items) for g in groups] == [(1, ("d",)), (2, ("b", "c")), (4, ("a",))]
    assert [(g.size, g.last_place) for g in groups] == [(1, 1), (2, 3), (1, 4)]


def test_order_inside_a_tie_comes_from_the_display_key_not_the_input() -> None:
    """UKPL 3F and EPC 2009: tied players share a place; who was entered first must not matter."""
    value = {"10": 5, "9": 5, "P2": 5}.__getitem__
    for items in (["10", "9", "P2"], ["P2", "10", "9"]):
        (group,) = rank(items, value=value, order=player_key)
        assert group.items == ("9", "10", "P2")


def test_exact_fractions_rank_exactly() -> None:
    """UKPL 3B with shared ties: totals such as 7/2 and 10/3 must compare exactly; 2/6 equals 1/3
    and ties with it, 1/3 + 1/6 equals 1/2."""
    values = {"a": Fraction(1, 3), "b": Fraction(2, 6), "c": Fraction(7, 2), "d": Fraction(10, 3)}
    values["e"] = Fraction(1, 3) + Fraction(1, 6)
    values["f"] = Fraction(1, 2)
    groups = rank(values, value=values.__getitem__, order=player_key)
    assert [(g.place, g.items) for g in groups] == [
        (1, ("c",)),
        (2, ("d",)),
        (3, ("e", "f")),
        (5, ("a", "b")),
    ]
    assert [g.place for g in rank([3, Fraction(3), Fraction(5, 2), 2], value=lambda v: v)] == [
        1,
        3,
        4,
    ]


def test_tally_sums_points_and_counts_machines() -> None:
    """UKPL 3B: the meeting total adds a player's machine points (a guest's None adds nothing);
    EPC 2009, EPC Qualifying: unplayed machines add 0. Rows of unregistered players are ignored."""
    tables = [
        MachineTable("m1", (MachineRow("a", 9, 1, Fraction(5, 2)), MachineRow("g", 1, None, None))),
        MachineTable(
            "m2", (MachineRow("a", 9, 1, Fraction(3)), MachineRow("x", 1, 2, Fraction(1)))
        ),
    ]
    totals, played = tally(["a", "b", "g"], tables)
    assert totals == {"a": Fraction(11, 2), "b": 0, "g": 0}
    assert played == {"a": 2, "b": 0, "g": 1}


def test_empty_ranking() -> None:
    """EPC 2009, EPC Qualifying: a machine nobody has played has no places."""
    assert rank([], value=int) == ()


@pytest.mark.parametrize(
    ("policy", "expected"),
    [("high", Fraction(4)), ("low", Fraction(3)), ("shared", Fraction(7, 2))],
)
def test_tie_policies_on_five_places(policy: str, expected: Fraction) -> None:
    """UKPL 3B: with 5 players, places are worth 5, 4, 3, 2, 1; two tied 2nd cover 4 and 3:
    high -> 4, low -> 3, shared -> 3.5."""
    assert tied_points(2, 2, lambda p: 6 - p, policy) == expected  # type: ignore[arg-type]


def test_an_untied_place_gets_its_own_points_under_every_policy() -> None:
    """UKPL 3B: a tie of one is no tie."""
    for policy in ("high", "low", "shared"):
        assert tied_points(3, 1, lambda p: 10 - p, policy) == 7  # type: ignore[arg-type]


def test_tied_points_rejects_nonsense() -> None:
    """UKPL 3B: the policy must be one of the three readings."""
    with pytest.raises(ValueError, match="unknown tie policy"):
        tied_points(1, 2, lambda p: p, "coin")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one"):
        tied_points(1, 0, lambda p: p, "high")


def test_player_key_is_natural() -> None:
    """Display order only: "9" before "10", letters then numbers compared as numbers."""
    assert sorted(["10", "9", "P0106", "P0094", "100"], key=player_key) == [
        "9",
        "10",
        "100",
        "P0094",
        "P0106",
    ]


@pytest.mark.parametrize(
    ("value", "rounded", "text", "json"),
    [
        (Fraction(20), Fraction(20), "20", 20),
        (Fraction(33, 2), Fraction(33, 2), "16.5", 16.5),
        (Fraction(1, 3), Fraction(33, 100), "0.33", 0.33),
        (Fraction(2, 3), Fraction(67, 100), "0.67", 0.67),
        (Fraction(1, 8), Fraction(13, 100), "0.13", 0.13),
        (Fraction(0), Fraction(0), "0", 0),
        (Fraction(23, 2), Fraction(23, 2), "11.5", 11.5),
        (Fraction(1, 200), Fraction(1, 100), "0.01", 0.01),
        (Fraction(1, 201), Fraction(0), "0", 0),
    ],
)
def test_published_rounding(value: Fraction, rounded: Fraction, text: str, json: object) -> None:
    """UKPL 3D: shared league points are published rounded to 2 decimals (0.33 for a third),
    halves rounded up (0.125 -> 0.13), whole numbers without decimals."""
    assert round_half_up(value) == rounded
    assert points_text(value) == text
    assert points_json(value) == json
    assert type(points_json(value)) is type(json)


def test_points_json_keeps_none_for_unranked_rows() -> None:
    """UKPL 1C/3C: a guest's points are None, and stay null in JSON."""
    assert points_json(None) is None


def test_round_half_up_rejects_negative_places() -> None:
    """UKPL 3D: rounding is to a whole number of decimals."""
    with pytest.raises(ValueError):
        round_half_up(Fraction(1, 3), -1)
