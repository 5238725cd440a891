"""UKPL meeting rules, worked by hand from ukpl-rules.txt sections 1C, 3B, 3C, 3D, 3F."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring import (
    UKPL_MEETING,
    Entry,
    MachineAlreadyPlayed,
    Player,
    SettingsError,
    Tournament,
    UkplConfig,
    league_points,
    record_entry,
)
from scoring.ukpl.meeting import earns_bonus, machine_points
from tests.scoring.scoring_builders import build

TZ, TAF = "Twilight Zone", "The Addams Family"


def points(t: Tournament, machine: str) -> dict[str, tuple[int | None, Fraction | None, int]]:
    return {r.player: (r.place, r.points, r.bonus) for r in t.tables[machine].rows}


def test_machine_points_run_from_the_number_of_players_down_to_one() -> None:
    """UKPL 3B: "if there are 20 players the highest scorer on each game gets 20 points and the
    lowest 1 point". Four players: 4, 3, 2, 1. Scores kept within double: no bonus."""
    t = build(UKPL_MEETING, [(TZ, "a", 150), (TZ, "b", 100), (TZ, "c", 90), (TZ, "d", 80)])
    assert points(t, TZ) == {"a": (1, 4, 0), "b": (2, 3, 0), "c": (3, 2, 0), "d": (4, 1, 0)}


def test_n_counts_only_players_with_a_score_on_that_machine() -> None:
    """UKPL 3B as published (cases/README.md): N is the number of non-guest players with a score
    on the machine. Three players at the meeting, two played TAF: TAF's top gets 2, not 3."""
    t = build(
        UKPL_MEETING, [(TZ, "a", 30), (TZ, "b", 20), (TZ, "c", 16), (TAF, "a", 5), (TAF, "b", 4)]
    )
    assert points(t, TAF) == {"a": (1, 2, 0), "b": (2, 1, 0)}


@pytest.mark.parametrize(
    ("ties", "tied"),
    [("high", Fraction(3)), ("low", Fraction(2)), ("shared", Fraction(5, 2))],
)
def test_equal_scores_on_a_machine(ties: str, tied: Fraction) -> None:
    """UKPL 3B with docs/rules.md: four players, b and c tie for 2nd, covering the 3 and 2 point
    places: "high" gives both 3 (2025 season), "low" both 2 (2023), "shared" both 2.5. a still gets
    4 and d, 4th, gets 1."""
    rows = [(TZ, "a", 150), (TZ, "b", 100), (TZ, "c", 100), (TZ, "d", 80)]
    t = build(UKPL_MEETING, rows, {"ties": ties})
    assert points(t, TZ) == {"a": (1, 4, 0), "b": (2, tied, 0), "c": (2, tied, 0), "d": (4, 1, 0)}


def test_bonus_point_for_more_than_double_the_second() -> None:
    """UKPL 3B: "One bonus machine point is awarded to any player whose score on any machine is
    more than double that of the second placed player". 201 > 2 * 100: a gets 3 + 1 = 4."""
    t = build(UKPL_MEETING, [(TZ, "a", 201), (TZ, "b", 100), (TZ, "c", 1)])
    assert points(t, TZ)["a"] == (1, 4, 1)
    assert t.standings.rows[0].total == 4


@pytest.mark.parametrize(("bonus", "expected"), [("gt", 0), ("gte", 1)])
def test_exactly_double(bonus: str, expected: int) -> None:
    """UKPL 3B with docs/rules.md: exactly double (200 vs 100) is not "more than double" ("gt",
    the rules' text) but is "at least double" ("gte", the league's website)."""
    t = build(UKPL_MEETING, [(TZ, "a", 200), (TZ, "b", 100)], {"bonus": bonus})
    assert points(t, TZ)["a"] == (1, 2 + expected, expected)


def test_no_bonus_without_a_second_score_or_for_a_shared_top() -> None:
    """UKPL 3B: the bonus compares the top score with the second placed score; with nobody second
    there is nothing to compare; two equal top scores are not double each other (even at 0)."""
    assert points(build(UKPL_MEETING, [(TZ, "a", 500)]), TZ)["a"] == (1, 1, 0)
    t = build(UKPL_MEETING, [(TZ, "a", 0), (TZ, "b", 0)], {"bonus": "gte"})
    assert points(t, TZ) == {"a": (1, 2, 0), "b": (1, 2, 0)}
    assert not earns_bonus(500, None, "gte")


def test_guests_are_shown_but_not_ranked() -> None:
    """UKPL 1C and 3C: a player from another region may play "for fun" but "their finishing
    positions will not feature when league points are awarded". The guest g has the top score:
    g is shown without place or points, does not count in N (2 players -> 2, 1), and the bonus
    compares a (201) with b (100), the second placed non-guest: 201 > 200, bonus."""
    guest = Player("g", "Guest", guest=True)
    t = build(UKPL_MEETING, [(TZ, "g", 999), (TZ, "a", 201), (TZ, "b", 100)], players=[guest])
    assert [r.player for r in t.tables[TZ].rows] == ["a", "b", "g"]
    assert points(t, TZ) == {"a": (1, 3, 1), "b": (2, 1, 0), "g": (None, None, 0)}
    rows = {r.player: r for r in t.standings.rows}
    assert (rows["g"].place, rows["g"].league_points, rows["g"].total) == (None, None, 0)
    assert (rows["a"].place, rows["a"].league_points) == (1, 20)
    assert t.standings.rows[-1].player == "g"


def test_meeting_total_and_positions_with_ties() -> None:
    """UKPL 3B: "The finishing order at each meeting is decided by adding together individual
    player's points from each competition game played"; 3F: ties share. TZ gives a 3, b 2, c 1;
    TAF gives c 3, b 2, a 1: every total is 4, all three are 1st and share 20, 19 and 18 (19)."""
    rows = [
        (TZ, "a", 30),
        (TZ, "b", 20),
        (TZ, "c", 16),
        (TAF, "c", 9),
        (TAF, "b", 8),
        (TAF, "a", 7),
    ]
    t = build(UKPL_MEETING, rows)
    assert [(r.player, r.place, r.total) for r in t.standings.rows] == [
        ("a", 1, 4),
        ("b", 1, 4),
        ("c", 1, 4),
    ]
    assert {r.league_points for r in t.standings.rows} == {Fraction(19)}


def test_league_points_20_down_by_one_then_zero() -> None:
    """UKPL 3D: "the player with the most machine points is awarded twenty league points" and one
    fewer per place; only the twenty highest placed get any; with fewer than twenty players the
    best still gets 20."""
    assert [league_points(p, 1) for p in (1, 2, 11, 20, 21, 30)] == [20, 19, 10, 1, 0, 0]


def test_shared_league_points_are_the_average() -> None:
    """UKPL 3F: "In the event of a tie at a meeting points will be shared": two tied 4th share
    17 and 16 (16.5); three tied 20th share 1, 0, 0 (1/3, published 0.33)."""
    assert league_points(4, 2) == Fraction(33, 2)
    assert league_points(20, 3) == Fraction(1, 3)


def test_a_blank_cell_is_no_entry() -> None:
    """docs/rules.md (blank cell): b never played TAF, so TAF has one competitor (1 point) and b
    gets nothing there; it is not a zero score that would rank b last with 1 point."""
    t = build(UKPL_MEETING, [(TZ, "a", 30), (TZ, "b", 20), (TAF, "a", 9)])
    assert points(t, TAF) == {"a": (1, 1, 0)}
    assert [(r.player, r.total, r.played) for r in t.standings.rows] == [("a", 3, 2), ("b", 1, 1)]


@pytest.mark.parametrize(("no_score", "place"), [("unranked", None), ("ranked", 2)])
def test_a_registered_player_without_scores(no_score: str, place: int | None) -> None:
    """UKPL 3D with the no_score setting: "unranked" (default) shows z without a position or league
    points; "ranked" places z last with 0 machine points and league points for that place."""
    t = build(UKPL_MEETING, [(TZ, "a", 30)], {"no_score": no_score}, players=["z"])
    z = next(r for r in t.standings.rows if r.player == "z")
    assert (z.place, z.total) == (place, 0)
    assert z.league_points == (None if place is None else 19)


def test_a_second_score_on_a_machine_is_refused() -> None:
    """UKPL 3A/3B: one game per player per machine at a meeting."""
    t = build(UKPL_MEETING, [(TZ, "a", 30)])
    with pytest.raises(MachineAlreadyPlayed, match="already has a score on Twilight Zone"):
        record_entry(t, Entry(2, "a", TZ, 40))


def test_machine_points_helper() -> None:
    """UKPL 3B: 10 competitors, three tied 4th cover 7, 6, 5 points."""
    assert machine_points(4, 3, 10, "high") == 7
    assert machine_points(4, 3, 10, "low") == 5
    assert machine_points(4, 3, 10, "shared") == 6


def test_settings() -> None:
    """UKPL 3B: ties and bonus are settings; defaults high (2025 season) and gt (the text)."""
    assert UKPL_MEETING.parse_settings({}) == UkplConfig("high", "gt", "unranked")
    config = UKPL_MEETING.parse_settings({"ties": "LOW", "bonus": "gte"})
    assert (config.ties, config.bonus) == ("low", "gte")
    assert UKPL_MEETING.parse_settings(UKPL_MEETING.settings_dict(config)) == config
    with pytest.raises(SettingsError, match="ties must be one of high, low, shared"):
        UKPL_MEETING.parse_settings({"ties": "average"})
    with pytest.raises(SettingsError, match="has no setting 'bonsu'"):
        UKPL_MEETING.parse_settings({"bonsu": "gt"})
