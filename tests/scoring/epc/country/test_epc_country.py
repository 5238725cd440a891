"""EPC 2009 country competition, worked by hand from the rule text (epc-2009-rules.txt, "EPC COUNTRY
COMPETITION 2009 RULES"; cited below as "EPC 2009, EPC Country Competition").

Matches are built from places, not invented points: ``played(home, away, (1, 2), (1, 3))`` means
home's two players finished 1st and 2nd on the first machine and 1st and 3rd on the second; the
scores behind the places are 40000/30000/20000/10000, so the engine ranks real scores. With places
scoring 9, 5, 2, 0, a team's machine points by its players' places are:
(1, 2) = 14, (1, 3) = 11, (1, 4) = 9, (2, 3) = 7, (2, 4) = 5, (3, 4) = 2; the other team gets
16 minus that.
"""

from __future__ import annotations

import ast
import random
import re
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.epc.country import (
    CountryConfig,
    Finalist,
    FinalTable,
    FourBallGame,
    GameScore,
    Late,
    Match,
    MatchGame,
    Playoff,
    PlayoffNeeded,
    QualifyingTable,
    Replacement,
    SlamTilt,
    final_group,
    final_table,
    finalists,
    fixtures,
    four_ball_schedule,
    four_ball_table,
    game_result,
    groups,
    match_result,
    qualifying_table,
)
from scoring.errors import (
    DuplicateRegistration,
    EntryNotAllowed,
    InvalidScore,
    SettingsError,
    UnknownPlayer,
)

CONFIG = CountryConfig()
TEAMS = tuple(f"T{i:02}" for i in range(1, 21))
GROUPS = groups(CONFIG, TEAMS)
SCORE = {1: 40_000, 2: 30_000, 3: 20_000, 4: 10_000}
FIELD = tuple(Finalist(f"F{i}", 1000 * (7 - i), i) for i in range(1, 7))
"""Six finalists F1..F6; qualifying 4-ball scores 6000, 5000, ... 1000 (F6 lowest)."""


def game(home: str, away: str, machine: str, places: tuple[int, int]) -> MatchGame:
    """One machine where home's players took ``places`` and away's players the other two."""
    rest = [p for p in SCORE if p not in places]
    scores = [GameScore(home, SCORE[p]) for p in places] + [GameScore(away, SCORE[p]) for p in rest]
    return MatchGame(machine, tuple(scores))


def played(home: str, away: str, first: tuple[int, int], second: tuple[int, int]) -> Match:
    return Match(home, away, (game(home, away, "m1", first), game(home, away, "m2", second)))


def seed_order_four_ball(**scores: int) -> list[FourBallGame]:
    """4-ball scores 2000, 1900, ... 100 for T01..T20 (so 17, 14, 12, ... 1, then 0 from T14),
    alternating the two machines; keyword arguments override a team's score."""
    return [
        FourBallGame(t, f"4B-{i % 2 + 1}", scores.get(t, 2100 - 100 * i))
        for i, t in enumerate(TEAMS, start=1)
    ]


def qualify(matches: list[Match], four_ball: list[FourBallGame], **kw: object) -> QualifyingTable:
    config = CountryConfig(**kw.pop("config", {}))  # type: ignore[arg-type]
    return qualifying_table(config, GROUPS, matches, four_ball, **kw)  # type: ignore[arg-type]


def places(table: QualifyingTable | FinalTable) -> list[tuple[str, int, str]]:
    return [(r.team, r.place, r.decided_by) for r in table.rows]


# --- Groups, reserves and fixtures -------------------------------------------------------------


def test_groups_from_seeds() -> None:
    """EPC 2009, EPC Country Competition: "Group A - 1st, 6th, 11th & 16th seeds", B 2/7/12/17,
    C 3/8/13/18, D 4/9/14/19, "Group E – 5th, 10th, 15th & 20th seeds"."""
    assert [(g.name, g.teams, g.seeds) for g in GROUPS] == [
        ("A", ("T01", "T06", "T11", "T16"), (1, 6, 11, 16)),
        ("B", ("T02", "T07", "T12", "T17"), (2, 7, 12, 17)),
        ("C", ("T03", "T08", "T13", "T18"), (3, 8, 13, 18)),
        ("D", ("T04", "T09", "T14", "T19"), (4, 9, 14, 19)),
        ("E", ("T05", "T10", "T15", "T20"), (5, 10, 15, 20)),
    ]


def test_a_reserve_team_takes_the_withdrawn_seed() -> None:
    """EPC 2009, EPC Country Competition: "Belgium 3, UK C Team" are the reserves; a team that
    cannot play is "where possible replaced by a reserve team". Belgium 3 takes seed 7 (group B);
    then UK C Team replaces Belgium 3 in turn."""
    reserves = ("Belgium 3", "UK C Team")
    first = Replacement("T07", "Belgium 3", by="TD", reason="flight delayed")
    again = Replacement("Belgium 3", "UK C Team", by="TD", reason="player ill")
    assert groups(CONFIG, TEAMS, reserves, [first])[1].teams == ("T02", "Belgium 3", "T12", "T17")
    assert groups(CONFIG, TEAMS, reserves, [first, again])[1].teams[1] == "UK C Team"


@pytest.mark.parametrize(
    ("seeds", "reserves", "swaps", "error", "message"),
    [
        (TEAMS[:19], (), (), EntryNotAllowed, "needs 20 seeded teams .5 groups of 4.; 19"),
        ((*TEAMS[:19], "T01"), (), (), DuplicateRegistration, "named twice: T01"),
        (TEAMS, ("B3",), [("T99", "B3")], EntryNotAllowed, "T99 is not in the draw"),
        (TEAMS, ("B3",), [("T01", "UKC")], EntryNotAllowed, "reserve teams left are B3"),
        (TEAMS, ("B3",), [("T01", "B3"), ("T02", "B3")], EntryNotAllowed, "left are none"),
    ],
)
def test_draw_errors(
    seeds: tuple[str, ...],
    reserves: tuple[str, ...],
    swaps: list[tuple[str, str]],
    error: type[Exception],
    message: str,
) -> None:
    """EPC 2009, EPC Country Competition: 5 groups of 4 from 20 seeds; each reserve replaces once."""
    with pytest.raises(error, match=message):
        groups(CONFIG, seeds, reserves, [Replacement(w, r, "TD", "late") for w, r in swaps])


def test_group_fixtures_round_by_round() -> None:
    """EPC 2009, EPC Country Competition: "there will be 3 matches against the other teams from
    your group". Group A by the circle method: round 1 T01 v T16 and T06 v T11, round 2 T01 v T11
    and T16 v T06, round 3 T01 v T06 and T11 v T16 (top seeds last)."""
    a = [(f.round, f.home, f.away) for f in fixtures(CONFIG, GROUPS) if f.group == "A"]
    assert a == [
        (1, "T01", "T16"),
        (1, "T06", "T11"),
        (2, "T01", "T11"),
        (2, "T16", "T06"),
        (3, "T01", "T06"),
        (3, "T11", "T16"),
    ]


def test_at_most_ten_teams_at_once_and_seven_machines_each() -> None:
    """EPC 2009, EPC Country Competition: "there will be at most 10 teams playing at any one
    time"; "each team will play on seven of these machines". 5 groups x 6 matches = 30 matches in
    slots of 10 / 2 = 5 matches: 6 slots. Each team: 3 matches x 2 machines + 1 4-ball = 7."""
    plan = fixtures(CONFIG, GROUPS)
    assert len(plan) == 30
    assert [sum(1 for f in plan if f.slot == s) for s in range(1, 7)] == [5] * 6
    for team in TEAMS:
        assert 2 * sum(1 for f in plan if team in (f.home, f.away)) + 1 == 7


def test_four_ball_schedule_uses_free_slots() -> None:
    """EPC 2009, EPC Country Competition: "those teams not playing in the match format will be
    able to play on the 4 ball game"; "All teams have been allocated a machine and a time". Slot 1
    has the first match of each group (T01 v T16, T02 v T17, ...), so the other ten teams play
    4-ball then, five on each machine; T01 plays it in slot 2."""
    plan = fixtures(CONFIG, GROUPS)
    slots = four_ball_schedule(GROUPS, plan)
    assert len(slots) == 20
    busy = {(f.slot, t) for f in plan for t in (f.home, f.away)}
    assert all((s.slot, s.team) not in busy for s in slots)
    first = [s for s in slots if s.slot == 1]
    assert {s.team for s in first} == {"T06", "T11", "T07", "T12", "T08"} | {
        "T13",
        "T09",
        "T14",
        "T10",
        "T15",
    }
    assert [sum(1 for s in first if s.machine == m) for m in (1, 2)] == [5, 5]
    assert next(s for s in slots if s.team == "T01").slot == 2


def test_final_fixtures_every_pair_once() -> None:
    """EPC 2009, EPC Country Competition, Final: "each team will play each other once": 6 teams,
    5 rounds of 3 matches = 15 = C(6, 2); 6 teams play at once, within the 10, so a slot a round."""
    plan = fixtures(CONFIG, [final_group(FIELD)])
    assert len(plan) == 15
    assert {frozenset((f.home, f.away)) for f in plan} == {
        frozenset(p) for p in combinations([f.team for f in FIELD], 2)
    }
    assert [f.slot for f in plan] == [r for r in range(1, 6) for _ in range(3)]


# --- One match ---------------------------------------------------------------------------------


def test_match_points_are_the_sum_of_the_players_places() -> None:
    """EPC 2009, EPC Country Competition: "1st 9 points, 2nd 5 points, 3rd 2 points and 4th zero".
    Machine 1: home 1st and 4th = 9 + 0 = 9, away 2nd and 3rd = 5 + 2 = 7. Machine 2: home 2nd
    and 3rd = 7, away 1st and 4th = 9. Match: home 9 + 7 = 16, away 7 + 9 = 16; 32 in all."""
    result = match_result(CONFIG, played("T01", "T16", (1, 4), (2, 3)))
    assert (result.home_points, result.away_points, result.winner) == (16, 16, None)
    assert [(r.team, r.place, r.points) for r in result.games[0].rows] == [
        ("T01", 1, 9),
        ("T16", 2, 5),
        ("T16", 3, 2),
        ("T01", 4, 0),
    ]


@pytest.mark.parametrize(
    ("match_points", "per_match", "qualifying", "final"),
    [("sum_of_places", 28, 84, 140), ("best_place", 18, 54, 90)],
)
def test_only_the_sum_of_places_gives_the_stated_maxima(
    match_points: str, per_match: int, qualifying: int, final: int
) -> None:
    """EPC 2009, EPC Country Competition: "Over the 3 matches, this will give a team a maximum of
    84 points"; the final: "140 being the maximum". Winning 1st and 2nd on both machines: by the
    sum of places 2 x (9 + 5) = 28 a match, 3 x 28 = 84, 5 x 28 = 140 (the text's numbers). By the
    better place only, 2 x 9 = 18, 54 and 90, which contradicts the text (docs/rules.md)."""
    config = CountryConfig(match_points=match_points)  # type: ignore[arg-type]
    won = [played("T01", t, (1, 2), (1, 2)) for t in ("T06", "T11", "T16")]
    assert match_result(config, won[0]).home_points == per_match == config.max_match_points
    table = qualifying_table(config, GROUPS, won, [])
    assert table.rows[0].match_points == qualifying
    field = [Finalist(f"F{i}", 0) for i in range(1, 7)]
    sweep = [played("F1", f"F{i}", (1, 2), (1, 2)) for i in range(2, 7)]
    assert final_table(config, field, sweep).rows[0].points == final


@pytest.mark.parametrize(
    ("ties", "home", "away"),
    [("shared", 9, 7), ("high", 11, 9), ("low", 7, 5)],
)
def test_equal_scores_in_a_match_game(ties: str, home: int, away: int) -> None:
    """EPC 2009, EPC Country Competition (silent on equal scores; ``game_ties``). A and B tie for
    1st (500), A is 3rd (300), B 4th (100). "shared": (9 + 5) / 2 = 7 each, A 7 + 2 = 9, B 7 + 0 =
    7, still 16. "high": 9 each, A 11, B 9 (20 in the game). "low": 5 each, A 7, B 5 (12)."""
    config = CountryConfig(game_ties=ties)  # type: ignore[arg-type]
    scores = (GameScore("A", 500), GameScore("B", 500), GameScore("A", 300), GameScore("B", 100))
    result = game_result(config, MatchGame("m1", scores), ("A", "B"))
    assert (result.points("A"), result.points("B")) == (home, away)


def test_three_way_tie_shares_three_places() -> None:
    """EPC 2009, EPC Country Competition with ``game_ties="shared"``: three equal scores for 2nd
    share (5 + 2 + 0) / 3 = 7/3 each; the 1st (A) has 9. A: 9 + 7/3 = 34/3, B: 2 x 7/3 = 14/3."""
    scores = (GameScore("A", 9), GameScore("A", 1), GameScore("B", 1), GameScore("B", 1))
    result = game_result(CONFIG, MatchGame("m1", scores), ("A", "B"))
    assert (result.points("A"), result.points("B")) == (Fraction(34, 3), Fraction(14, 3))


@pytest.mark.parametrize(
    ("match", "error", "message"),
    [
        (Match("T01", "T01"), EntryNotAllowed, "against itself"),
        (Match("T01", "T06", (game("T01", "T06", "m1", (1, 2)),)), EntryNotAllowed, "1 were"),
        (
            Match("T01", "T06", (game("T01", "T11", "m1", (1, 2)),) * 2),
            EntryNotAllowed,
            "two from each team; it has T01, T01, T11, T11",
        ),
        (
            Match(
                "T01",
                "T06",
                (MatchGame("m1", (GameScore("T01", -5),) * 2 + (GameScore("T06", 1),) * 2),) * 2,
            ),
            InvalidScore,
            "whole number",
        ),
    ],
)
def test_bad_matches_are_refused(match: Match, error: type[Exception], message: str) -> None:
    """EPC 2009, EPC Country Competition: two machines, "two players from each team" on each."""
    with pytest.raises(error, match=message):
        match_result(CONFIG, match)


# --- Penalties ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("award", "points"), [("both_machines", 28), ("one_machine", 14)])
def test_a_late_team_forfeits_the_match(award: str, points: int) -> None:
    """EPC 2009, EPC Country Competition, Timekeeping: more than 5 minutes late, "they will be
    disqualified from that match and the opposing team will get the top 2 scores. The disqualified
    team will get zero points". Top two on both machines 2 x (9 + 5) = 28 (default), on one 14."""
    late = Late("T17", "T02", 7, by="Referee Ann", reason="called 18:20, arrived 18:27")
    config = CountryConfig(forfeit_award=award)  # type: ignore[arg-type]
    result = match_result(config, Match("T02", "T17"), [late])
    assert (result.home_points, result.away_points, result.outcome) == (points, 0, "forfeit")
    assert result.penalties == (late,)
    assert (result.penalties[0].by, result.penalties[0].reason) == ("Referee Ann", late.reason)


def test_five_minutes_late_is_in_time() -> None:
    """EPC 2009, EPC Country Competition, Timekeeping: only "more than 5 minutes" forfeits."""
    with pytest.raises(EntryNotAllowed, match=r"arrived 5 minutes .* more than 5 minutes late"):
        match_result(CONFIG, Match("T02", "T17"), [Late("T17", "T02", 5, "Ann", "5 min")])


def test_both_teams_late_both_score_zero() -> None:
    """EPC 2009, EPC Country Competition, Timekeeping: each late team "will get zero points"."""
    both = [Late("T17", "T02", 6, "Ann", "late"), Late("T02", "T17", 9, "Ann", "later")]
    result = match_result(CONFIG, Match("T02", "T17"), both)
    assert (result.home_points, result.away_points, result.winner) == (0, 0, None)


def test_slam_tilt_disqualifies_from_the_match_despite_the_scores() -> None:
    """EPC 2009, EPC Country Competition, Slam Tilts: "Should a slam tilt result from shaking or
    nudging the machine, the team will be disqualified from that match". T12 led 28-4 on the
    scores; disqualified, it scores 0 and T07 gets the top two places on both machines, 28."""
    tilt = SlamTilt("T12", "T07", by="Referee Bo", reason="shook Twilight Zone")
    result = match_result(CONFIG, played("T12", "T07", (1, 2), (1, 2)), [tilt])
    assert (result.home_points, result.away_points, result.games) == (0, 28, ())
    assert result.penalties == (tilt,)


def test_slam_tilt_in_the_four_ball_game_scores_zero() -> None:
    """EPC 2009, EPC Country Competition, Slam Tilts: "If this happens on the 4 ball game, the
    team score will be entered as zero". T01 (2000) is set aside with 0 and no points; T02 (1900)
    moves up to 1st and 17 points, T03 to 14."""
    tilt = SlamTilt("T01", None, by="Referee Bo", reason="nudged 4-ball machine 1")
    rows = four_ball_table(CONFIG, TEAMS, seed_order_four_ball(), [tilt]).rows
    assert [(r.team, r.place, r.points) for r in rows[:2]] == [("T02", 1, 17), ("T03", 2, 14)]
    assert rows[-1] == type(rows[-1])("T01", None, 0, None, Fraction(0), tilt)


# --- The 4-ball game ---------------------------------------------------------------------------


def test_four_ball_points_for_twenty_teams() -> None:
    """EPC 2009, EPC Country Competition: "1st=17 points, 2nd=14 points, 3rd=12 points, 4th=10
    ... 13th=1 point, 14th-20th=zero points", all scores ranked together whichever of the two
    machines ("All teams will play one of the 2 games")."""
    rows = four_ball_table(CONFIG, TEAMS, seed_order_four_ball()).rows
    assert [r.points for r in rows] == [17, 14, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1] + [0] * 7
    assert [r.team for r in rows] == list(TEAMS)
    assert {r.machine for r in rows[:2]} == {"4B-1", "4B-2"}


def test_games_on_a_broken_machine_still_count() -> None:
    """EPC 2009, EPC Country Competition: "Should one of the games break down, all play will
    continue on the other machine ... All completed games on the broken down machine will still
    count." T01 and T02 played 4B-1 before it broke; later teams all play 4B-2; T01 stays 1st."""
    games = [
        FourBallGame(t, "4B-1" if t in ("T01", "T02") else "4B-2", g.score)
        for t, g in zip(TEAMS, seed_order_four_ball(), strict=True)
    ]
    rows = four_ball_table(CONFIG, TEAMS, games).rows
    assert [(r.team, r.machine, r.points) for r in rows[:3]] == [
        ("T01", "4B-1", 17),
        ("T02", "4B-1", 14),
        ("T03", "4B-2", 12),
    ]


@pytest.mark.parametrize(("ties", "points"), [("high", 9), ("shared", Fraction(17, 2)), ("low", 8)])
def test_equal_four_ball_scores(ties: str, points: Fraction) -> None:
    """EPC 2009, EPC Country Competition (``four_ball_ties``): T05 and T06 both score 1600 and
    share 5th. "high": 5th's 9 each; "shared": (9 + 8) / 2 = 17/2; "low": 6th's 8. T07 is 7th: 7."""
    config = CountryConfig(four_ball_ties=ties)  # type: ignore[arg-type]
    rows = four_ball_table(config, TEAMS, seed_order_four_ball(T06=1600)).rows
    assert [(r.team, r.place, r.points) for r in rows[4:7]] == [
        ("T05", 5, points),
        ("T06", 5, points),
        ("T07", 7, 7),
    ]


def test_a_team_that_never_played_the_four_ball_scores_zero() -> None:
    """EPC 2009, EPC Country Competition: "If by the end of qualifying a team has not played their
    4 ball game ... their score will be recorded as zero"; "no points will be awarded". T01 did
    not play: unranked, 0; T02 is 1st with 17."""
    rows = four_ball_table(CONFIG, TEAMS, seed_order_four_ball()[1:]).rows
    assert rows[0].team == "T02" and rows[0].points == 17
    assert (rows[-1].team, rows[-1].score, rows[-1].place, rows[-1].points) == ("T01", 0, None, 0)


def test_one_four_ball_game_per_team() -> None:
    """EPC 2009, EPC Country Competition: "one 4 ball team game"; a team plays it once."""
    games = [FourBallGame("T01", "4B-1", 500), FourBallGame("T01", "4B-2", 900)]
    with pytest.raises(EntryNotAllowed, match=r"T01 has already played its 4-ball game \(500"):
        four_ball_table(CONFIG, TEAMS, games)
    with pytest.raises(UnknownPlayer, match="no team 'Atlantis'"):
        four_ball_table(CONFIG, TEAMS, [FourBallGame("Atlantis", "4B-1", 1)])


# --- Qualifying --------------------------------------------------------------------------------


def test_qualifying_total_is_match_points_plus_four_ball_points() -> None:
    """EPC 2009, EPC Country Competition: a team's ranking points are its match points plus its
    4-ball points. T01 wins all three group matches 1st and 2nd on both machines: 3 x 28 = 84, plus
    17 for the best 4-ball score = 101. T06, T11 and T16 each take 3rd and 4th on both machines,
    (3, 4) twice = 2 + 2 = 4, and share 2nd in group A."""
    won = [played("T01", t, (1, 2), (1, 2)) for t in ("T06", "T11", "T16")]
    table = qualify(won, seed_order_four_ball())
    top = table.rows[0]
    assert (top.team, top.match_points, top.four_ball_points, top.total, top.played) == (
        "T01",
        84,
        17,
        101,
        3,
    )
    assert [(r.team, r.place, r.points, r.played) for r in table.groups[0].rows] == [
        ("T01", 1, 84, 3),
        ("T06", 2, 4, 1),
        ("T11", 2, 4, 1),
        ("T16", 2, 4, 1),
    ]


def test_tie_for_sixth_goes_to_the_better_four_ball_score() -> None:
    """EPC 2009, EPC Country Competition: "If there is a tie for sixth place, the team with the
    highest score on the 4 ball "team game" will prevail". 4-ball in seed order (T01 17, T02 14,
    T03 12, T04 10, T05 9, T06 8, ... T12 2). T17 beats T12 with (1, 3) and (1, 2): T17 11 + 14 =
    25, T12 (2, 4) + (3, 4) = 5 + 2 = 7. Totals: T17 25, T01 17, T02 14, T03 12, T04 10, then T05
    9 and T12 2 + 7 = 9 tie for 6th-7th. T05's 4-ball 1600 beats T12's 900: T05 6th, in the final;
    T12 7th, out."""
    table = qualify([played("T17", "T12", (1, 3), (1, 2))], seed_order_four_ball())
    assert places(table)[:8] == [
        ("T17", 1, "points"),
        ("T01", 2, "points"),
        ("T02", 3, "points"),
        ("T03", 4, "points"),
        ("T04", 5, "points"),
        ("T05", 6, "four_ball"),
        ("T12", 7, "four_ball"),
        ("T06", 8, "points"),
    ]
    assert [r.qualified for r in table.rows[5:7]] == [True, False]
    assert sum(1 for r in table.rows if r.qualified) == 6
    assert table.playoffs_needed == ()


SIXTH_TIE = [played("T16", "T11", (1, 2), (1, 2))]
"""T16 takes 1st and 2nd on both machines: T16 28, T11 (3, 4) twice = 4."""
EQUAL_FOUR_BALL = seed_order_four_ball(T06=1600)
"""T05 and T06 both 1600: they share 4-ball 5th and its 9 points (``four_ball_ties="high"``)."""


def test_tie_for_sixth_with_equal_four_ball_scores_needs_a_playoff() -> None:
    """EPC 2009, EPC Country Competition: "in the unlikely event that there is still a tie, a
    single game per team on one of the 4 ball machines shall decide the position". Totals: T16 28,
    T01 17, T02 14, T03 12, T04 10, T05 9, T06 9 (both 1600 on the 4-ball): a tie for 6th-7th the
    4-ball cannot break. Both share 6th, neither is yet in or out, and a play-off is asked for."""
    table = qualify(SIXTH_TIE, EQUAL_FOUR_BALL)
    assert places(table)[5:7] == [("T05", 6, "tied"), ("T06", 6, "tied")]
    assert [r.qualified for r in table.rows[5:7]] == [None, None]
    assert table.playoffs_needed == (PlayoffNeeded(("T05", "T06"), 6, 7),)
    with pytest.raises(EntryNotAllowed, match="T05 and T06 need a play-off game for places 6-7"):
        finalists(table)


def test_the_playoff_game_decides_sixth_and_is_recorded_as_such() -> None:
    """EPC 2009, EPC Country Competition: the play-off game decides the position. T06 scores
    60000, T05 50000: T06 is 6th and in the final, by "playoff"; T05 7th. A first play-off that
    ties (50000 each) leaves the tie and a second game decides it."""
    decider = Playoff((("T05", 50_000), ("T06", 60_000)))
    for games in ([decider], [Playoff((("T05", 50_000), ("T06", 50_000))), decider]):
        table = qualify(SIXTH_TIE, EQUAL_FOUR_BALL, playoffs=games)
        assert places(table)[5:7] == [("T06", 6, "playoff"), ("T05", 7, "playoff")]
        assert table.playoffs_needed == ()
    assert [(f.team, f.four_ball_score) for f in finalists(table)] == [
        ("T16", 500),
        ("T01", 2000),
        ("T02", 1900),
        ("T03", 1800),
        ("T04", 1700),
        ("T06", 1600),
    ]


def test_a_playoff_that_matches_no_tie_is_refused() -> None:
    """EPC 2009, EPC Country Competition: a play-off is played only for a tie that needs one."""
    with pytest.raises(EntryNotAllowed, match="play-off T01 v T02 matches no tie"):
        qualify(SIXTH_TIE, EQUAL_FOUR_BALL, playoffs=[Playoff((("T01", 1), ("T02", 2)))])


@pytest.mark.parametrize(
    ("ties", "expected"),
    [
        ("share", [("T07", 8, "tied"), ("T11", 8, "tied")]),
        ("four_ball", [("T07", 8, "four_ball"), ("T11", 9, "four_ball")]),
    ],
)
def test_ties_away_from_the_cut(ties: str, expected: list[tuple[str, int, str]]) -> None:
    """EPC 2009, EPC Country Competition names a tie-break only for 6th (``qualifying_ties``). In
    the play-off case above T07 (4-ball 7) and T11 (3 + 4 = 7) tie for 8th. "share": both 8th.
    "four_ball": T07's 1400 beats T11's 1000, so T07 8th and T11 9th. No play-off either way."""
    table = qualify(SIXTH_TIE, EQUAL_FOUR_BALL, config={"qualifying_ties": ties})
    assert places(table)[7:9] == expected
    assert len(table.playoffs_needed) == 1


@pytest.mark.parametrize(
    ("match", "error", "message"),
    [
        (played("T01", "T02", (1, 2), (1, 2)), EntryNotAllowed, "group matches are between"),
        (played("T01", "Atlantis", (1, 2), (1, 2)), UnknownPlayer, "no team 'Atlantis'"),
    ],
)
def test_matches_only_within_a_group(match: Match, error: type[Exception], message: str) -> None:
    """EPC 2009, EPC Country Competition: "3 matches against the other teams from your group"."""
    with pytest.raises(error, match=message):
        qualify([match], [])


def test_a_match_has_one_result() -> None:
    """EPC 2009, EPC Country Competition: each pair in a group meets once."""
    m = played("T01", "T06", (1, 2), (1, 2))
    with pytest.raises(EntryNotAllowed, match="T06 v T01 already has a result"):
        qualify([m, Match("T06", "T01", m.games)], [])


def test_a_forfeit_counts_in_qualifying_without_a_match_record() -> None:
    """EPC 2009, EPC Country Competition, Timekeeping: T17 is late for T02; T02 28, T17 0, both
    with one match played. With the seed-order 4-ball: T02 14 + 28 = 42 leads."""
    late = Late("T17", "T02", 12, by="Ann", reason="not in the hall")
    table = qualify([], seed_order_four_ball(), penalties=[late])
    assert (table.rows[0].team, table.rows[0].total, table.rows[0].played) == ("T02", 42, 1)
    assert table.results[0].penalties == (late,)


# --- The final ---------------------------------------------------------------------------------

# F1 beats F2, F3 and F4 20-12 with (1, 4) + (1, 3) = 9 + 11; F2 and F3 beat the teams below them
# 18-14 with (1, 4) twice; F1 and F2 beat F5 20-12 and F6 21-11 ((1, 2) + (2, 3) = 14 + 7); F3
# and F4 beat F5 20-12 but lose to F6 13-19 (F6: (1, 2) + (2, 4) = 14 + 5); F5 beats F6 22-10
# ((1, 3) twice = 11 + 11).
# F1 = 3 x 20 + 20 + 21 = 101; F2 = 12 + 18 + 18 + 20 + 21 = 89; F3 = 12 + 14 + 18 + 20 + 13 = 77;
# F4 = 12 + 14 + 14 + 20 + 13 = 73; F5 = 4 x 12 + 22 = 70; F6 = 11 + 11 + 19 + 19 + 10 = 70.
# Sum 101 + 89 + 77 + 73 + 70 + 70 = 480 = 15 matches x 32. Wins: F5 1 (F6), F6 2 (F3, F4).
FINAL = [
    *(played("F1", t, (1, 4), (1, 3)) for t in ("F2", "F3", "F4", "F5")),
    played("F2", "F3", (1, 4), (1, 4)),
    played("F2", "F4", (1, 4), (1, 4)),
    played("F3", "F4", (1, 4), (1, 4)),
    played("F2", "F5", (1, 4), (1, 3)),
    played("F3", "F5", (1, 4), (1, 3)),
    played("F4", "F5", (1, 4), (1, 3)),
    played("F1", "F6", (1, 2), (2, 3)),
    played("F2", "F6", (1, 2), (2, 3)),
    played("F6", "F3", (1, 2), (2, 4)),
    played("F6", "F4", (1, 2), (2, 4)),
    played("F5", "F6", (1, 3), (1, 3)),
]


@pytest.mark.parametrize(
    ("countback", "fifth", "sixth"),
    [("head_to_head", "F5", "F6"), ("matches_won", "F6", "F5")],
)
def test_tie_for_fifth_goes_to_countback(countback: str, fifth: str, sixth: str) -> None:
    """EPC 2009, EPC Country Competition, Final: "A tie for 5th or 6th will be decided on countback
    from the head to head matches in the finals" (``countback``). F5 and F6 both have 70 (worked
    above). "head_to_head": their direct match went F5 22-10, so F5 is 5th. "matches_won": F6 won
    2 matches, F5 1, so F6 is 5th."""
    config = CountryConfig(countback=countback)  # type: ignore[arg-type]
    table = final_table(config, FIELD, FINAL)
    assert [(r.team, r.points) for r in table.rows] == [
        ("F1", 101),
        ("F2", 89),
        ("F3", 77),
        ("F4", 73),
        (fifth, 70),
        (sixth, 70),
    ]
    assert places(table)[4:] == [(fifth, 5, countback), (sixth, 6, countback)]
    won = {r.team: r.won for r in table.rows}
    assert (won["F5"], won["F6"]) == (1, 2)
    assert table.playoffs_needed == ()


def test_a_drawn_countback_goes_to_the_qualifying_four_ball_score() -> None:
    """EPC 2009, EPC Country Competition, Final: "should there still be a tie the 4 ball game score
    from the qualifying round will decide the place". F5 v F6 drawn 16-16 ((1, 4) + (2, 3) = 9 + 7
    each way), and F6 now loses to each of F1-F4 12-20 ((2, 3) + (2, 4) = 7 + 5), as F5 does. F5 =
    4 x 12 + 16 = 64 = F6; head to head 16-16 and no wins for either, so the qualifying 4-ball
    decides: F5 2000 > F6 1000. With both 4-ball scores 0 the text runs out: a play-off is asked."""
    final = [m for m in FINAL if "F6" not in (m.home, m.away)]
    final += [played("F5", "F6", (1, 4), (2, 3))]
    final += [played(t, "F6", (1, 4), (1, 3)) for t in ("F1", "F2", "F3", "F4")]
    for countback in ("head_to_head", "matches_won"):
        config = CountryConfig(countback=countback)
        table = final_table(config, FIELD, final)
        assert places(table)[4:] == [("F5", 5, "four_ball"), ("F6", 6, "four_ball")]
        assert [r.points for r in table.rows[4:]] == [64, 64]
    level = [Finalist(f.team, 0 if f.team in ("F5", "F6") else f.four_ball_score) for f in FIELD]
    assert final_table(CONFIG, level, final).playoffs_needed == (PlayoffNeeded(("F5", "F6"), 5, 6),)


def test_a_tie_for_first_needs_a_four_ball_playoff() -> None:
    """EPC 2009, EPC Country Competition, Final: "Should there be a tie ... for any places up to
    4th, there will be a 4 ball play off game". Change FINAL so F1 v F2 is drawn 16-16 and F1 beats
    F3 and F4 only 18-14 ((1, 4) twice): F1 = 16 + 18 + 18 + 20 + 21 = 93 and F2 = 16 + 18 + 18 +
    20 + 21 = 93. No countback for 1st: a play-off is needed; F2's 52000 beats F1's 41000."""
    final = [m for m in FINAL if {m.home, m.away} not in ({"F1", "F2"}, {"F1", "F3"}, {"F1", "F4"})]
    final += [played("F1", "F2", (1, 4), (2, 3))]
    final += [played("F1", t, (1, 4), (1, 4)) for t in ("F3", "F4")]
    table = final_table(CONFIG, FIELD, final)
    assert [(r.team, r.place, r.points) for r in table.rows[:2]] == [("F1", 1, 93), ("F2", 1, 93)]
    assert table.playoffs_needed == (PlayoffNeeded(("F1", "F2"), 1, 2),)
    decided = final_table(
        CONFIG, FIELD, final, playoffs=[Playoff((("F1", 41_000), ("F2", 52_000)))]
    )
    assert places(decided)[:2] == [("F2", 1, "playoff"), ("F1", 2, "playoff")]


def test_a_playoff_leaving_a_tie_for_fifth_goes_to_countback() -> None:
    """EPC 2009, EPC Country Competition, Final: before any match all six have 0 and tie for 1st-6th,
    a tie up to 4th: one play-off game, F1 700, F2 600, F3 500, F4 400, F5 and F6 50 each. F5 and
    F6's tie is now for 5th, which countback decides: no match between them, 0-0; the qualifying
    4-ball 2000 > 1000 puts F5 5th."""
    game = Playoff(
        (*((f.team, 100 * (7 - i)) for i, f in enumerate(FIELD[:4])), ("F5", 50), ("F6", 50))
    )
    table = final_table(CONFIG, FIELD, [], playoffs=[game])
    assert places(table) == [
        ("F1", 1, "playoff"),
        ("F2", 2, "playoff"),
        ("F3", 3, "playoff"),
        ("F4", 4, "playoff"),
        ("F5", 5, "four_ball"),
        ("F6", 6, "four_ball"),
    ]


def test_final_forfeit_and_wrong_teams() -> None:
    """EPC 2009, EPC Country Competition, Timekeeping applies in the final too: F6 late for F1,
    F1 28 and a win. A non-finalist cannot play in the final."""
    late = Late("F6", "F1", 8, by="Ann", reason="late back from dinner")
    table = final_table(CONFIG, FIELD, [], penalties=[late])
    assert (table.rows[0].team, table.rows[0].points, table.rows[0].won) == ("F1", 28, 1)
    with pytest.raises(UnknownPlayer, match="no team 'T07'"):
        final_table(CONFIG, FIELD, [played("F1", "T07", (1, 2), (1, 2))])


# --- Settings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"countback": "coin"}, "countback must be one of head_to_head, matches_won"),
        ({"forfeit_award": "all"}, "forfeit_award must be one of both_machines, one_machine"),
        ({"game_ties": "random"}, "game_ties must be one of high, low, shared"),
        ({"match_places": (9, 5, 2)}, "match_places must be 4 whole points"),
        ({"four_ball_points": (1, 17)}, "never rising"),
        ({"finalists": 0}, "finalists must be a whole number from 1"),
    ],
)
def test_bad_settings(settings: dict[str, object], message: str) -> None:
    """EPC 2009, EPC Country Competition: every choice is a checked setting."""
    with pytest.raises(SettingsError, match=message):
        CountryConfig(**settings)  # type: ignore[arg-type]


def test_settings_accept_text() -> None:
    """EPC 2009, EPC Country Competition: settings typed as text are read like JSON values."""
    config = CountryConfig(finalists="6", countback="MATCHES_WON")  # type: ignore[arg-type]
    assert (config.finalists, config.countback) == (6, "matches_won")


# --- Properties --------------------------------------------------------------------------------

scores = st.integers(0, 3)  # a small range so equal scores are common


@st.composite
def random_match(draw: st.DrawFn, home: str, away: str) -> Match:
    games = tuple(
        MatchGame(m, tuple(GameScore(t, draw(scores)) for t in (home, home, away, away)))
        for m in ("m1", "m2")
    )
    return Match(home, away, games)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_match_always_gives_32_points(data: st.DataObject) -> None:
    """EPC 2009, EPC Country Competition: each game gives 9 + 5 + 2 + 0 = 16 (ties shared), so a
    match gives 2 x 16 = 32, each team 0..28."""
    result = match_result(CONFIG, data.draw(random_match("A", "B")))
    assert result.home_points + result.away_points == 32
    assert 0 <= result.home_points <= 28 and 0 <= result.away_points <= 28


@settings(max_examples=60, deadline=None)
@given(st.data(), st.randoms(use_true_random=False))
def test_qualifying_bounds_and_order(data: st.DataObject, rnd: random.Random) -> None:
    """EPC 2009, EPC Country Competition: at most 84 match points per team ("a maximum of 84"),
    a group's 6 matches give 6 x 32 = 192 without forfeits and fewer with; the table does not
    depend on the order the records arrive in."""
    matches = [data.draw(random_match(f.home, f.away)) for f in fixtures(CONFIG, GROUPS)]
    late = [Late(m.away, m.home, 6, "Ann", "late") for m in matches if data.draw(st.booleans())]
    forfeited = {frozenset((p.team, p.opponent)) for p in late}
    four = [FourBallGame(t, "4B-1", data.draw(scores)) for t in TEAMS]
    table = qualifying_table(CONFIG, GROUPS, matches, four, late)
    for group, drawn in zip(table.groups, GROUPS, strict=True):
        lost = 4 * sum(1 for pair in forfeited if pair <= set(drawn.teams))  # 28 + 0, not 32
        assert sum(r.points for r in group.rows) == 192 - lost
    assert all(0 <= r.match_points <= 84 and r.total <= 101 for r in table.rows)
    rnd.shuffle(matches)
    rnd.shuffle(four)
    assert qualifying_table(CONFIG, GROUPS, matches, four, late) == table


@settings(max_examples=60, deadline=None)
@given(st.data(), st.randoms(use_true_random=False))
def test_final_bounds_and_ties(data: st.DataObject, rnd: random.Random) -> None:
    """EPC 2009, EPC Country Competition, Final: "140 being the maximum"; 15 matches give 480.
    Places never go down a row; teams sharing a place are exactly those in a needed play-off."""
    matches = [
        data.draw(random_match(f.home, f.away)) for f in fixtures(CONFIG, [final_group(FIELD)])
    ]
    table = final_table(CONFIG, FIELD, matches)
    assert sum(r.points for r in table.rows) == 480
    assert all(0 <= r.points <= 140 for r in table.rows)
    assert [r.place for r in table.rows] == sorted(r.place for r in table.rows)
    shared = {r.team for r in table.rows if sum(1 for o in table.rows if o.place == r.place) > 1}
    assert shared == {t for need in table.playoffs_needed for t in need.teams}
    rnd.shuffle(matches)
    assert final_table(CONFIG, FIELD, matches) == table


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 6), st.integers(2, 7), st.integers(2, 12))
def test_fixtures_meet_every_pair_once_within_capacity(count: int, size: int, at_once: int) -> None:
    """EPC 2009, EPC Country Competition: each team plays every other team of its group once, at
    most ``teams_at_once`` teams play at one time, and no team is in two matches at once; group
    k holds seeds k, k + n, k + 2n, ..."""
    config = CountryConfig(groups=count, group_size=size, teams_at_once=at_once)
    drawn = groups(config, [f"T{i}" for i in range(1, count * size + 1)])
    assert all(g.teams == tuple(f"T{s}" for s in g.seeds) for g in drawn)
    assert all(s % count == k % count for k, g in enumerate(drawn, start=1) for s in g.seeds)
    plan = fixtures(config, drawn)
    for g in drawn:
        mine = [frozenset((f.home, f.away)) for f in plan if f.group == g.name]
        assert sorted(mine, key=sorted) == sorted(
            map(frozenset, combinations(g.teams, 2)), key=sorted
        )
    for slot in {f.slot for f in plan}:
        playing = [t for f in plan if f.slot == slot for t in (f.home, f.away)]
        assert len(playing) == len(set(playing)) <= at_once


# --- Purity and citations (test_purity.py does not list these modules yet) --------------------

MODULES = sorted((Path(__file__).resolve().parents[4] / "scoring" / "epc" / "country").glob("*.py"))


def test_the_country_modules_are_found() -> None:
    assert {p.name for p in MODULES} >= {"__init__.py", "match.py", "model.py", "tables.py"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_country_modules_are_pure_and_cite_their_section(path: Path) -> None:
    """no I/O, clock or randomness; every public rule definition cites "EPC
    2009, EPC Country Competition"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {
        a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    imported |= {
        n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert imported & {"asyncio", "redis", "starlette", "display", "time", "random"} == set()
    cite = re.compile(r"EPC\s+2009,\s+EPC\s+Country\s+Competition")
    public = [
        n
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.ClassDef) and not n.name.startswith("_")
    ]
    public += [
        m
        for c in public
        if isinstance(c, ast.ClassDef)
        for m in c.body
        if isinstance(m, ast.FunctionDef) and not m.name.startswith("_")
    ]
    missing = [n.name for n in public if not cite.search(ast.get_docstring(n) or "")]
    assert missing == []
