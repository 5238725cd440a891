"""FWPL playoffs, worked by hand from fwpl-rules.txt sections 6.1-6.6."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest
from fwpl_builders import ordered

from scoring import SettingsError
from scoring.fwpl import (
    NotInGroup,
    PlayoffConfig,
    PlayoffMatch,
    PlayoffMatchResult,
    PlayoffNeeded,
    SeasonRow,
    division_result,
    first_groups,
    next_groups,
    playoff_divisions,
    playoff_match,
    playoff_sizes,
)

# FWPL 6.1, the table as printed: league size -> players per division.
TABLE_6_1 = [
    (8, (8,)), (12, (8,)), (16, (8,)),  # "16 or fewer players ... the top 8"
    (17, (12,)), (24, (12,)),  # "between 16 and 24 ... the top 12"
    (25, (8, 8)), (32, (8, 8)),  # "between 25 and 32 ... top 8 ... A ... next 8 ... B"
    (33, (8, 12)), (40, (8, 12)),  # "between 33 and 40 ... top 8 ... next 12"
    (41, (12, 12)), (48, (12, 12)),  # "between 41 and 48 ... top 12 ... next 12"
]  # fmt: skip


@pytest.mark.parametrize(("league", "divisions"), TABLE_6_1)
def test_playoff_divisions_follow_the_table(league: int, divisions: tuple[int, ...]) -> None:
    """FWPL 6.1: the division table, row by row (both ends of each row)."""
    assert playoff_sizes(league) == divisions


def test_sixteen_players_fall_in_two_rows() -> None:
    """FWPL 6.1 with docs/rules.md: 16 is both "16 or fewer" (8, default) and "between 16 and
    24" (12, ``cut_at_16=12``)."""
    assert playoff_sizes(16, PlayoffConfig(cut_at_16=12)) == (12,)
    with pytest.raises(SettingsError):
        PlayoffConfig(cut_at_16=10)


@pytest.mark.parametrize(("league", "divisions"), [(20, (8,)), (10, (4,)), (48, (12, 12))])
def test_the_formula_reading(league: int, divisions: tuple[int, ...]) -> None:
    """FWPL 6.1: "the top half of the players rounded down to the nearest multiple of four": 20
    -> 10 -> 8; 10 -> 5 -> 4 (a final only); 48 -> 24 -> 12 + 12 as the table splits it."""
    assert playoff_sizes(league, PlayoffConfig(cut="formula")) == divisions


def test_the_table_keeps_the_fifty_percent_minimum_and_the_formula_does_not() -> None:
    """FWPL 6.2: "No less than 50% of the players will qualify". The table qualifies at least
    half of every league of 8 to 48; the formula gives 20 players only 8."""
    for league in range(8, 49):
        assert 2 * sum(playoff_sizes(league)) >= league, league
    assert 2 * sum(playoff_sizes(20, PlayoffConfig(cut="formula"))) < 20


def test_leagues_outside_the_table() -> None:
    """FWPL 6.1 with docs/rules.md. Under 8 (6 or 7 players, 1: "six or more players"): a final
    of the top 4 (at least half qualify), or no playoffs. Over 48: the table's pattern, 4 more
    per 8 players: 49-56 -> 28 = 8 + 8 + 12, 57-64 -> 32 = 8 + 12 + 12; or an error."""
    assert playoff_sizes(6) == (4,)
    assert playoff_sizes(7, PlayoffConfig(small_league="none")) == ()
    assert playoff_sizes(49) == (8, 8, 12)
    assert playoff_sizes(57) == (8, 12, 12)
    with pytest.raises(SettingsError):
        playoff_sizes(49, PlayoffConfig(large_league="error"))


def season(points: Sequence[int]) -> list[SeasonRow]:
    """Season rows p1, p2, ... with ``points`` (best first, as season_standings orders them)."""
    places = [1 + sum(q > p for q in points) for p in points]
    return [
        SeasonRow(f"p{i}", place, Fraction(p), 10, 0, Fraction(0))
        for i, (p, place) in enumerate(zip(points, places, strict=True), start=1)
    ]


def test_a_and_b_divisions() -> None:
    """FWPL 6.1: 26 players: "the top 8 players participating in the A division playoffs, and the
    next 8 players participating in the B division"."""
    a, b = playoff_divisions(season(range(126, 100, -1)))
    assert (a.name, a.seeds) == ("A", tuple(f"p{i}" for i in range(1, 9)))
    assert (b.name, b.seeds) == ("B", tuple(f"p{i}" for i in range(9, 17)))


def test_a_tie_across_the_cut_needs_a_play_off() -> None:
    """FWPL 6.1: "Ties will be settled by single ball play on a random machine". Ten players; p8
    and p9 both have 50, across the cut at 8: the cut waits for their play-off; p9 wins it and
    takes seed 8. The tie of p2 and p3 (inside the cut) needs none."""
    rows = season([90, 80, 80, 70, 65, 60, 55, 50, 50, 40])
    with pytest.raises(PlayoffNeeded, match="p8, p9"):
        playoff_divisions(rows)
    (division,) = playoff_divisions(rows, tiebreaks=[("p9", "p8")])
    assert division.seeds == ("p1", "p2", "p3", "p4", "p5", "p6", "p7", "p9")


def test_an_announced_withdrawal_moves_everyone_up() -> None:
    """FWPL 6.6: "all lower-seeded players advance one spot, and the highest ranked player that
    did not qualify for the playoffs is now qualified". p3 withdraws: p4..p9 move up, p9 is in.
    Players without a place (a forfeited season) neither count nor qualify."""
    rows = season(range(100, 90, -1))
    (division,) = playoff_divisions(rows, withdrawn={"p3"})
    assert division.seeds == ("p1", "p2", "p4", "p5", "p6", "p7", "p8", "p9")
    out = [SeasonRow("x", None, Fraction(500), 3, 12, Fraction(0), "forfeited"), *rows]
    assert playoff_divisions(out)[0].seeds[0] == "p1"


def test_brackets_by_seed() -> None:
    """FWPL 6.3: "Group 1 Player # 1, 4, 5 and 8 Group 2 Player # 2, 3, 6 and 7"; twelve: "Group 1
    Player # 5, 8, 9, 12 Group 2 Player # 6, 7, 10, 11"; "For semifinal rounds, Players 1 and 4
    will play the winners of group 1; players 2 and 3 will play the winners of Group 2"."""
    seeds = [f"s{i}" for i in range(1, 13)]
    assert first_groups(seeds[:8]) == (("s1", "s4", "s5", "s8"), ("s2", "s3", "s6", "s7"))
    assert first_groups(seeds) == (("s5", "s8", "s9", "s12"), ("s6", "s7", "s10", "s11"))
    semis = next_groups(seeds, [["s9", "s5"], ["s7", "s11"]], "quarterfinal")
    assert semis == (("s1", "s4", "s5", "s9"), ("s2", "s3", "s7", "s11"))
    with pytest.raises(SettingsError):
        first_groups(seeds[:6])


Tiebreaks = tuple[tuple[str, ...], ...]


def match(
    group: str, *orders: str, missing: frozenset[str] = frozenset(), tiebreaks: Tiebreaks = ()
) -> PlayoffMatch:
    """A playoff match of players named by letters; each order is one game's finishing order."""
    games = tuple(ordered(f"M{i}", order) for i, order in enumerate(orders, start=1))
    return PlayoffMatch(tuple(group), games, missing, tiebreaks)


def rows(result: PlayoffMatchResult) -> list[tuple[str, int, int, bool]]:
    return [(r.player, r.points, r.place, r.advances) for r in result.rows]


def test_papa_points_over_three_games() -> None:
    """FWPL 6.3: "4-2-1-0 points awarded for 1st-4th place", no bonus points, three games, top
    two advance. abcd, cadb, dcba: a 4 + 2 + 0 = 6, b 2 + 0 + 1 = 3, c 1 + 4 + 2 = 7, d 0 + 1 + 4 =
    5: c and a go through."""
    result = playoff_match(match("abcd", "abcd", "cadb", "dcba"))
    assert rows(result) == [("c", 7, 1, True), ("a", 6, 2, True), ("d", 5, 3, False), ("b", 3, 4, False)]  # fmt: skip


def tie_for_second(tiebreaks: Tiebreaks = ()) -> PlayoffMatch:
    """adbc, bacd, cdab: a 4 + 2 + 1 = 7, b 1 + 4 + 0 = 5, c 0 + 1 + 4 = 5, d 2 + 0 + 2 = 4."""
    return match("abcd", "adbc", "bacd", "cdab", tiebreaks=tiebreaks)


def test_a_tie_for_the_last_place_through_needs_a_tie_breaker() -> None:
    """FWPL 6.5: b and c tie on 5 for 2nd, and only one goes through: by default they play a
    tie-breaker game; c wins it and advances."""
    with pytest.raises(PlayoffNeeded, match="b, c"):
        playoff_match(tie_for_second())
    result = playoff_match(tie_for_second((("c", "b"),)))
    assert rows(result) == [("a", 7, 1, True), ("c", 5, 2, True), ("b", 5, 3, False), ("d", 4, 4, False)]  # fmt: skip


def test_the_head_to_head_countback_reading() -> None:
    """FWPL 6.5 with docs/rules.md, ``ties="countback"``: b finished ahead of c in games 1 and 2,
    c ahead of b in game 3: 2 to 1, b goes through without an extra game."""
    result = playoff_match(tie_for_second(), config=PlayoffConfig(ties="countback"))
    assert [r.player for r in result.rows if r.advances] == ["a", "b"]


def tie_for_third(tiebreaks: Tiebreaks = ()) -> PlayoffMatch:
    """abcd, adbc, bacd: a 4 + 4 + 2 = 10, b 2 + 1 + 4 = 7, c 1 + 0 + 1 = 2, d 0 + 2 + 0 = 2."""
    return match("abcd", "abcd", "adbc", "bacd", tiebreaks=tiebreaks)


def test_a_tie_among_the_eliminated_needs_nothing_but_a_final_tie_does() -> None:
    """FWPL 6.3 and 6.5: in a semi-final c and d, level on 2, are both out: they share 3rd. In the
    final 3rd and 4th place are decided, so the same tie needs a tie-breaker (d wins it)."""
    semi = playoff_match(tie_for_third())
    assert rows(semi)[2:] == [("c", 2, 3, False), ("d", 2, 3, False)]
    with pytest.raises(PlayoffNeeded):
        playoff_match(tie_for_third(), advance=None)
    final = playoff_match(tie_for_third((("a", "d", "c"),)), advance=None)
    assert [(r.player, r.place) for r in final.rows] == [("a", 1), ("b", 2), ("d", 3), ("c", 4)]


def test_a_missing_player_leaves_a_three_player_round() -> None:
    """FWPL 6.6: d is not present at the start, "immediately disqualified from the match. A three
    player round will be played with points awarded of 4, 2 and 1 and only one player will be
    eliminated". abc, bac, acb: a 4 + 2 + 4 = 10, b 2 + 4 + 1 = 7, c 1 + 1 + 2 = 4."""
    result = playoff_match(match("abcd", "abc", "bac", "acb", missing=frozenset({"d"})))
    assert rows(result) == [("a", 10, 1, True), ("b", 7, 2, True), ("c", 4, 3, False), ("d", 0, 4, False)]  # fmt: skip
    assert result.rows[-1].missing
    with pytest.raises(NotInGroup, match="disqualified"):
        playoff_match(match("abcd", "abcd", missing=frozenset({"d"})))


def test_nobody_advances_before_the_third_game() -> None:
    """FWPL 6.3: a match is three games; after two nothing is decided."""
    result = playoff_match(match("abcd", "abcd", "abcd"))
    assert not result.complete
    assert not any(r.advances for r in result.rows)


SEEDS8 = tuple(f"s{i}" for i in range(1, 9))
SF1 = PlayoffMatch(
    ("s1", "s4", "s5", "s8"),
    tuple(ordered(f"M{i}", o) for i, o in enumerate(
        (("s1", "s4", "s5", "s8"), ("s5", "s1", "s8", "s4"), ("s8", "s5", "s4", "s1")))),
)  # fmt: skip
SF2 = PlayoffMatch(("s2", "s3", "s6", "s7"), tuple(ordered(f"M{i}", ("s2", "s3", "s6", "s7")) for i in range(3)))  # fmt: skip
FINAL = PlayoffMatch(("s1", "s2", "s3", "s5"), tuple(ordered(f"M{i}", ("s3", "s5", "s1", "s2")) for i in range(3)))  # fmt: skip


def test_an_eight_player_division_round_by_round() -> None:
    """FWPL 6.3. Semi-final 1 (1-4-5-8): s1 4 + 2 + 0 = 6, s4 2 + 0 + 1 = 3, s5 1 + 4 + 2 = 7, s8
    0 + 1 + 4 = 5: s5 and s1 through. Semi-final 2 (2-3-6-7) always s2, s3, s6, s7: s2 and s3.
    The final (s1, s2, s3, s5 in seed order) always s3, s5, s1, s2: places 1-4 in that order.
    The four semi-final losers share 5th."""
    assert division_result(SEEDS8, []).next_groups == (SF1.group, SF2.group)
    halfway = division_result(SEEDS8, [SF1])
    assert (halfway.round, halfway.next_groups) == ("semifinal", (SF2.group,))
    before_final = division_result(SEEDS8, [SF1, SF2])
    assert (before_final.round, before_final.next_groups) == ("final", (FINAL.group,))
    done = division_result(SEEDS8, [SF1, SF2, FINAL])
    assert done.round == "done"
    assert done.places == (
        ("s3", 1), ("s5", 2), ("s1", 3), ("s2", 4), ("s4", 5), ("s6", 5), ("s7", 5), ("s8", 5),
    )  # fmt: skip


def test_lower_places_by_points() -> None:
    """FWPL 6.3 with docs/rules.md, ``lower_places="by_points"``: the semi-final losers by their
    semi-final points: s8 5 (5th), s4 3 and s6 3 (6th, shared), s7 0 (8th)."""
    done = division_result(SEEDS8, [SF1, SF2, FINAL], PlayoffConfig(lower_places="by_points"))
    assert done.places[4:] == (("s8", 5), ("s4", 6), ("s6", 6), ("s7", 8))


def test_a_twelve_player_division_starts_with_quarter_finals() -> None:
    """FWPL 6.3: "The top four players will receive a bye through the quarterfinal round".
    Quarter-final 1 always s9, s12, s5, s8; quarter-final 2 always s6, s11, s7, s10: the semi-
    finals are s1, s4, s9, s12 and s2, s3, s6, s11; the four losers share 9th."""
    seeds = tuple(f"s{i}" for i in range(1, 13))
    qf1 = PlayoffMatch(("s5", "s8", "s9", "s12"), tuple(ordered(f"M{i}", ("s9", "s12", "s5", "s8")) for i in range(3)))  # fmt: skip
    qf2 = PlayoffMatch(("s6", "s7", "s10", "s11"), tuple(ordered(f"M{i}", ("s6", "s11", "s7", "s10")) for i in range(3)))  # fmt: skip
    result = division_result(seeds, [qf1, qf2])
    assert result.round == "semifinal"
    assert result.next_groups == (("s1", "s4", "s9", "s12"), ("s2", "s3", "s6", "s11"))
    assert result.places == (("s5", 9), ("s7", 9), ("s8", 9), ("s10", 9))


def test_a_match_outside_the_bracket_is_refused() -> None:
    """FWPL 6.3: the groups are set by seed; a match of other players does not belong."""
    stray = PlayoffMatch(("s1", "s2", "s3", "s4"), SF2.games)
    with pytest.raises(NotInGroup):
        division_result(SEEDS8, [SF1, SF2, FINAL, stray])
