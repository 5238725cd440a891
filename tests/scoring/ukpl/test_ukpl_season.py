"""UKPL regional season rules, worked by hand from ukpl-rules.txt sections 1C, 1E, 1G, 3E, 3F, 3G.

The main case is an invented but realistic season: six meetings of one region, seven region
players a-g and a player x from another region playing for fun. League points at each meeting
follow UKPL 3D (1st 20, 2nd 19, ...):

    meeting  region players by position (league points)             for fun
    M1       a 20, b 19, c 18, d 17, e 16, f 15
    M2       b 20, a 19, d 18, c 17, g 16, e 15
    M3       c 20, a 19, b 18, e 17, d 16                            x
    M4       a 20, c 19, b 18, d 17, f 16, g 15
    M5       d 20, b 19, c 18, a 17, e 16
    M6       b 20, c 19, e 18, f 17 (4 region players: void, 1E)    x
"""

from __future__ import annotations

import doctest
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring.ukpl.season
from scoring import UKPL_MEETING, DuplicateRegistration, InvalidScore, Player, SettingsError
from scoring.ukpl.season import (
    ForFunRow,
    Meet,
    MeetResult,
    MissingResult,
    SeasonConfig,
    SeasonTable,
    TieBreakScope,
    countback_key,
    meet_from_standings,
    parse_season_settings,
    region_competitors,
    season_points,
    season_table,
)
from tests.scoring.scoring_builders import build

F = Fraction
SEASON = {
    "M1": {"a": 20, "b": 19, "c": 18, "d": 17, "e": 16, "f": 15},
    "M2": {"b": 20, "a": 19, "d": 18, "c": 17, "g": 16, "e": 15},
    "M3": {"c": 20, "a": 19, "b": 18, "e": 17, "d": 16, "x": None},
    "M4": {"a": 20, "c": 19, "b": 18, "d": 17, "f": 16, "g": 15},
    "M5": {"d": 20, "b": 19, "c": 18, "a": 17, "e": 16},
    "M6": {"b": 20, "c": 19, "e": 18, "f": 17, "x": None},
}


def meets(season: Mapping[str, Mapping[str, int | Fraction | None]]) -> list[Meet]:
    """Meetings from {meet: {player: league points or None for fun}}, positions in listed order."""
    return [
        Meet(
            meet,
            tuple(
                MeetResult(p, None if v is None else F(v), None if v is None else i)
                for i, (p, v) in enumerate(results.items(), start=1)
            ),
        )
        for meet, results in season.items()
    ]


def by_player(
    players: Mapping[str, Sequence[int | Fraction | None]],
) -> dict[str, dict[str, int | Fraction | None]]:
    """{player: [result at M1, M2, ...] (None: absent)} -> {meet: {player: points}}."""
    count = max(len(r) for r in players.values())
    return {
        f"M{i + 1}": {p: r[i] for p, r in players.items() if i < len(r) and r[i] is not None}
        for i in range(count)
    }


def lines(table: SeasonTable) -> list[tuple[str, int, Fraction, bool, bool]]:
    return [(r.player, r.place, r.points, r.qualified, r.playoff) for r in table.rows]


ONE = SeasonConfig(min_competitors=1)
"""For the focused 3F cases: a meeting of a few players still counts (1E is tested apart)."""


def test_the_best_four_results_count() -> None:
    """UKPL 3E: "A player's top four meeting scores throughout the season will count ... The other
    scores will be discarded". With M6 void (1E):
    a: 20, 19, 19, 20, 17 -> 20 + 20 + 19 + 19 = 78 (17 discarded);
    b: 19, 20, 18, 18, 19 -> 20 + 19 + 19 + 18 = 76;
    c: 18, 17, 20, 19, 18 -> 20 + 19 + 18 + 18 = 75;
    d: 17, 18, 16, 17, 20 -> 20 + 18 + 17 + 17 = 72;
    e: 16, 15, 17, 16 -> 64 (four results, all count);
    f: 15, 16 -> 31; g: 16, 15 -> 31 (two results). f and g tie for 6th and share it."""
    table = season_table(meets(SEASON))
    assert lines(table) == [
        ("a", 1, 78, False, False),
        ("b", 2, 76, False, False),
        ("c", 3, 75, False, False),
        ("d", 4, 72, False, False),
        ("e", 5, 64, False, False),
        ("f", 6, 31, False, False),
        ("g", 6, 31, False, False),
    ]
    a = table.rows[0]
    assert a.counted == (20, 20, 19, 19)
    assert a.results == (("M1", 20), ("M2", 19), ("M3", 19), ("M4", 20), ("M5", 17))


def test_a_meeting_with_fewer_than_five_region_competitors_does_not_count() -> None:
    """UKPL 1E: "at least five competitors from that region must take part". M6 has four region
    players (x is a guest and does not count), so it is void: b's 20 there is not in the table.
    With min_competitors=4 it counts: b's results 19, 20, 18, 18, 19, 20 -> 20+20+19+19 = 78, the
    same as a, and c's 18, 17, 20, 19, 18, 19 -> 20+19+19+18 = 76."""
    season = meets(SEASON)
    assert [region_competitors(m) for m in season] == [6, 6, 5, 6, 5, 4]
    table = season_table(season)
    assert (table.meets, table.void) == (("M1", "M2", "M3", "M4", "M5"), ("M6",))
    counting = season_table(season, SeasonConfig(min_competitors=4))
    assert counting.void == ()
    assert lines(counting)[:3] == [
        ("a", 1, 78, False, False),
        ("b", 1, 78, False, False),
        ("c", 3, 76, False, False),
    ]


def test_players_from_other_regions_are_shown_apart() -> None:
    """UKPL 1C and 3C: x plays "for fun"; only region players get league points, so x is not ranked
    but listed apart with the counting meetings x played (M3; M6 is void)."""
    table = season_table(meets(SEASON))
    assert "x" not in [r.player for r in table.rows]
    assert table.for_fun == (ForFunRow("x", ("M3",)),)


def test_the_most_a_player_can_score_is_80() -> None:
    """UKPL 3E: "the maximum league score possible for a player is 80 (4x20) points": six wins give
    80, not 120."""
    table = season_table(meets(by_player({"w": [20] * 6})), ONE)
    assert table.rows[0].points == 80


@pytest.mark.parametrize(("qualifiers", "marks"), [(5, [True] * 5 + [False] * 2), (0, [False] * 7)])
def test_finals_places_are_highlighted(qualifiers: int, marks: list[bool]) -> None:
    """UKPL 1G and 3G: "highlight the grand final qualification places"; with 5 places a-e
    qualify; f and g tie for 6th, below the line, share it without a play-off. 0 = not set."""
    table = season_table(meets(SEASON), SeasonConfig(qualifiers=qualifiers))
    assert [r.qualified for r in table.rows] == marks
    assert not any(r.playoff for r in table.rows)


def test_a_tie_for_a_finals_place_goes_to_the_fifth_best_result() -> None:
    """UKPL 3F: tied "for a finals qualifying place, the player's fifth ... best scores will be
    taken into consideration". With M6 counting (min_competitors=4) a and b have 78 each and one
    finals place: a's fifth best is 17 (20, 20, 19, 19, 17), b's 18 (20, 20, 19, 19, 18, 18):
    b 1st and qualifies, a 2nd."""
    config = SeasonConfig(min_competitors=4, qualifiers=1)
    assert lines(season_table(meets(SEASON), config))[:2] == [
        ("b", 1, 78, True, False),
        ("a", 2, 78, False, False),
    ]


def test_then_the_sixth_best_result() -> None:
    """UKPL 3F: "and then if required sixth". p and q: 80 each, fifth best 10 each; sixth 5 > 3:
    p qualifies for the one place."""
    season = by_player({"p": [20, 20, 20, 20, 10, 5], "q": [20, 20, 20, 20, 3, 10]})
    table = season_table(meets(season), SeasonConfig(min_competitors=1, qualifiers=1))
    assert lines(table) == [("p", 1, 80, True, False), ("q", 2, 80, False, False)]


def test_still_tied_is_marked_for_a_play_off_and_shares_the_place() -> None:
    """UKPL 3F: "If after this the result is still tied then a sudden death playoff (one game on
    one machine)". Two places; r, s, t have 70 each (places 1-3). Fifth best: r 10, s 8, t 8: r is
    1st and qualifies; s and t are equal on the sixth too (5), still tied for the 2nd place: both
    marked for the play-off, sharing 2nd, neither yet qualified."""
    season = by_player(
        {
            "r": [20, 20, 20, 10, 10],
            "s": [20, 20, 20, 10, 8, 5],
            "t": [20, 20, 15, 15, 8, 5],
        }
    )
    table = season_table(meets(season), SeasonConfig(min_competitors=1, qualifiers=2))
    assert lines(table) == [
        ("r", 1, 70, True, False),
        ("s", 2, 70, False, True),
        ("t", 2, 70, False, True),
    ]


@pytest.mark.parametrize(
    ("tie_break", "expected"),
    [
        ("qualifying", [("w", 1), ("x", 1), ("y", 3), ("z", 4)]),
        ("all", [("w", 1), ("x", 2), ("y", 3), ("z", 4)]),
    ],
)
def test_which_ties_the_countback_decides(
    tie_break: TieBreakScope, expected: list[tuple[str, int]]
) -> None:
    """UKPL 3F with docs/rules.md (tie-break scope). Two places; w, x, y, z have 60 each (places
    1-4), a tie for a finals place. Fifth best: w 10, x 10, y 5, z 3 -> w and x share 1st-2nd,
    then y, z. w and x both qualify whatever their order, so with "qualifying" (the text: "for a
    finals qualifying place") they stay tied; with "all" the sixth best decides: w 4 > x 2."""
    season = by_player(
        {
            "w": [15, 15, 15, 15, 10, 4],
            "x": [15, 15, 15, 15, 10, 2],
            "y": [15, 15, 15, 15, 5],
            "z": [15, 15, 15, 15, 3],
        }
    )
    config = SeasonConfig(min_competitors=1, qualifiers=2, tie_break=tie_break)
    table = season_table(meets(season), config)
    assert [(r.player, r.place) for r in table.rows] == expected
    assert [r.qualified for r in table.rows] == [True, True, False, False]


@pytest.mark.parametrize(("tie_break", "places"), [("qualifying", [1, 1]), ("all", [1, 2])])
def test_a_tie_away_from_the_line(tie_break: TieBreakScope, places: list[int]) -> None:
    """UKPL 3F with docs/rules.md: with M6 counting, a and b tie on 78 for 1st; with three places
    both qualify. "qualifying": not a tie for a finals place, they share 1st. "all": b's fifth best
    18 beats a's 17, b 1st, a 2nd. Never a play-off: no finals place depends on it."""
    config = SeasonConfig(min_competitors=4, qualifiers=3, tie_break=tie_break)
    rows = season_table(meets(SEASON), config).rows
    order = ["a", "b"] if tie_break == "qualifying" else ["b", "a"]
    assert [(r.player, r.place, r.qualified, r.playoff) for r in rows[:2]] == [
        (order[0], places[0], True, False),
        (order[1], places[1], True, False),
    ]


@pytest.mark.parametrize(
    ("missing", "expected"),
    [
        ("zero", [("p", 1, 80, False, True), ("q", 1, 80, False, True)]),
        ("lowest", [("q", 1, 80, True, False), ("p", 2, 80, False, False)]),
    ],
)
def test_a_missing_fifth_result(missing: MissingResult, expected: list[tuple[object, ...]]) -> None:
    """UKPL 3F with docs/rules.md (the missing result). One place; p played four meetings (20
    each), q five, the fifth below 20th place: 0 league points (3D). "zero": p's missing fifth is
    0 = q's 0, sixth 0 = 0, play-off. "lowest": a result beats no result: q qualifies."""
    season = by_player({"p": [20, 20, 20, 20], "q": [20, 20, 20, 20, 0]})
    season["M6"] = {"filler": 5}  # a sixth meeting held
    config = SeasonConfig(min_competitors=1, qualifiers=1, missing=missing)
    assert lines(season_table(meets(season), config))[:2] == expected


@pytest.mark.parametrize("missing", ["zero", "lowest"])
def test_a_season_of_four_meetings_has_no_fifth_result(missing: MissingResult) -> None:
    """UKPL 1B (a minimum of four meetings) with 3F: in a four-meeting season nobody has a fifth
    or sixth result, so under either reading a tie at the line goes straight to the play-off."""
    season = by_player({"p": [20, 19, 18, 17], "q": [17, 18, 19, 20]})
    config = SeasonConfig(min_competitors=1, qualifiers=1, missing=missing)
    assert lines(season_table(meets(season), config)) == [
        ("p", 1, 74, False, True),
        ("q", 1, 74, False, True),
    ]


def test_the_number_counted_is_a_setting() -> None:
    """UKPL 3E says four; the league has counted three (Scotland) by region and season. counted=3:
    a's best three 20 + 20 + 19 = 59; the countback then starts at the fourth best."""
    config = SeasonConfig(counted=3)
    row = season_table(meets(SEASON), config).rows[0]
    assert (row.player, row.points, row.counted) == ("a", 59, (20, 20, 19))
    assert countback_key([F(v) for v in (20, 19, 19, 20, 17)], config) == (19, 17)


def test_season_points_and_countback_helpers() -> None:
    """UKPL 3E: 20 + 19 + 18 + 16.5 = 73.5 of six results; 3F: the fifth and sixth best, 12 and 3;
    with only five results the sixth is missing: 0, or -1 (below any result) for "lowest"."""
    results = [F(v) for v in ("16.5", "3", "20", "12", "19", "18")]
    assert season_points(results) == F(147, 2)
    assert countback_key(results) == (12, 3)
    assert countback_key(results[1:]) == (3, 0)
    assert countback_key(results[1:], SeasonConfig(missing="lowest")) == (3, -1)


def test_shared_meeting_points_add_exactly() -> None:
    """UKPL 3D/3F: shared league points are exact averages (three tied 20th get 1/3 each, published
    0.33). Results 20, 19, 18, 1/3, 1/3: the best four add to exactly 57 + 1/3 = 172/3."""
    results = [F(20), F(19), F(18), F(1, 3), F(1, 3)]
    assert season_points(results) == F(172, 3)


def test_from_the_meeting_engine() -> None:
    """UKPL 3C, 3D: a meeting engine's standings become a season meeting: a 20, b 19; the guest g
    plays for fun; z registered but without a score did not compete and is left out."""
    guest = Player("g", "Guest", guest=True)
    t = build(
        UKPL_MEETING, [("TZ", "g", 900), ("TZ", "a", 300), ("TZ", "b", 200)], players=[guest, "z"]
    )
    meet = meet_from_standings("M1", t.standings, t.players)
    assert [(r.player, r.league_points, r.position) for r in meet.results] == [
        ("a", 20, 1),
        ("b", 19, 2),
        ("g", None, None),
    ]
    assert region_competitors(meet) == 2


def test_bad_input() -> None:
    """UKPL 3D: league points run from 0 to 20; a meeting and a player's result at it appear once."""
    with pytest.raises(InvalidScore, match="a has 21 league points at meeting M1"):
        season_table(meets({"M1": {"a": 21}}))
    with pytest.raises(DuplicateRegistration, match="Meeting M1 is given twice"):
        season_table([*meets({"M1": {"a": 1}}), *meets({"M1": {"b": 1}})])
    twice = Meet("M1", (MeetResult("a", F(1)), MeetResult("a", F(2))))
    with pytest.raises(DuplicateRegistration, match="Player a has two results at meeting M1"):
        season_table([twice])


def test_settings() -> None:
    """UKPL 3E/3F defaults: four counted, countback of two (5th, 6th), tie-break for a finals place
    only, a missing result is 0; 1E: five competitors; 1G: no places until set. CLI text works."""
    assert parse_season_settings({}) == SeasonConfig(4, 0, 5, 2, "qualifying", "zero")
    config = parse_season_settings({"counted": "3", "qualifiers": "8", "tie_break": "ALL"})
    assert (config.counted, config.qualifiers, config.tie_break) == (3, 8, "all")
    with pytest.raises(SettingsError, match="counted must be a whole number from 1 to 6"):
        parse_season_settings({"counted": "7"})
    with pytest.raises(SettingsError, match="missing must be one of zero, lowest"):
        parse_season_settings({"missing": "skip"})
    with pytest.raises(SettingsError, match="has no setting 'qualifyers'"):
        parse_season_settings({"qualifyers": "8"})


def test_docstring_examples() -> None:
    """The examples in the module's docstrings (UKPL 3E, 3F) hold."""
    assert doctest.testmod(scoring.ukpl.season).failed == 0


# --- properties -------------------------------------------------------------------------------

POINTS = st.sampled_from([F(v) for v in (0, 0, 1, 5, 12, 16, 17, 18, 19, 20)] + [F(33, 2)])


@st.composite
def seasons(draw: st.DrawFn) -> tuple[list[Meet], SeasonConfig]:
    players = [f"p{i}" for i in range(draw(st.integers(1, 8)))]
    season = {}
    for m in range(draw(st.integers(1, 6))):
        attending = draw(st.lists(st.sampled_from(players), unique=True))
        season[f"M{m + 1}"] = {p: draw(POINTS) for p in attending}
    config = SeasonConfig(
        counted=draw(st.integers(1, 6)),
        qualifiers=draw(st.integers(0, 5)),
        min_competitors=draw(st.integers(1, 3)),
        tie_break=draw(st.sampled_from(["qualifying", "all"])),
        missing=draw(st.sampled_from(["zero", "lowest"])),
    )
    return meets(season), config


@settings(max_examples=200, deadline=None)
@given(seasons())
def test_season_points_are_the_sum_of_the_best_k(case: tuple[list[Meet], SeasonConfig]) -> None:
    """UKPL 3E: every row's points are the sum of its `counted` best results of the counting
    meetings, at most 20 each."""
    season, config = case
    for row in season_table(season, config).rows:
        best = sorted((v for _, v in row.results), reverse=True)[: config.counted]
        assert row.points == sum(best) == sum(row.counted)
        assert row.points <= 20 * config.counted


@settings(max_examples=200, deadline=None)
@given(seasons(), st.randoms(use_true_random=False))
def test_order_of_meetings_and_results_does_not_matter(
    case: tuple[list[Meet], SeasonConfig], rnd: random.Random
) -> None:
    """UKPL 3E/3F: the table depends on results, not on the order meetings or rows were given
    (only each row's results follow the meetings' order)."""
    season, config = case
    shuffled = [Meet(m.id, tuple(rnd.sample(m.results, len(m.results)))) for m in season]
    rnd.shuffle(shuffled)

    def key(table: SeasonTable) -> list[tuple[object, ...]]:
        return [
            (r.player, r.place, r.points, r.counted, sorted(r.results), r.qualified, r.playoff)
            for r in table.rows
        ]

    assert key(season_table(shuffled, config)) == key(season_table(season, config))


@settings(max_examples=200, deadline=None)
@given(seasons())
def test_places_qualifiers_and_play_offs(case: tuple[list[Meet], SeasonConfig]) -> None:
    """UKPL 3F/1G: more points never places lower; with "all" the place is 1 + the players ahead on
    (points, fifth, sixth); at most `qualifiers` qualify, and with the play-off players they fill
    every place when there are enough players; a play-off is only ever at the line."""
    season, config = case
    table = season_table(season, config)
    rows = table.rows
    key = {r.player: (r.points, *countback_key([v for _, v in r.results], config)) for r in rows}
    for row in rows:
        assert all(o.place > row.place for o in rows if o.points < row.points)
        if config.tie_break == "all":
            assert row.place == 1 + sum(1 for o in rows if key[o.player] > key[row.player])
        if row.playoff:
            assert (
                row.place
                <= config.qualifiers
                < row.place + sum(1 for o in rows if o.place == row.place) - 1
            )
    qualified = sum(r.qualified for r in rows)
    assert qualified <= config.qualifiers
    assert qualified + sum(r.playoff for r in rows) >= min(config.qualifiers, len(rows))
    assert [r.place for r in rows] == sorted(r.place for r in rows)
