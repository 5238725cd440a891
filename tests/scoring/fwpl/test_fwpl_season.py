"""An FWPL season, worked by hand from fwpl-rules.txt sections 2.4, 2.5, 3.1, 3.3, 4.3, 8.5.

Every match here uses steep scores (fwpl_builders.STEEP), so a night is worth, by finishing place:
four players 8, 6, 3, 1 a game = 32, 24, 12, 4, plus match bonus (32 is not >= 24 + 12: 3rd gets
one; 24 >= 12 + 4: 2nd gets one): 32, 25, 13, 4. Three players 8, 4, 1 a game = 32, 16, 4, plus
match bonus (32 > 16 + 4: 1st): 33, 16, 4.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from fwpl_builders import night

from scoring import UnknownPlayer
from scoring.fwpl import (
    FwplConfig,
    Game,
    GameScore,
    LeaguePlayer,
    Match,
    NightPoints,
    NotInGroup,
    SeasonForfeited,
    SeasonStandings,
    Week,
    absence_average,
    absence_credit,
    season_standings,
)

SEVEN = [LeaguePlayer(f"p{i}", f"Player {i}", ifpa_rank=i) for i in range(1, 8)]
WEEK_1 = Week(
    (night(("p1", "p2", "p3", "p4"), ("p4", "p3", "p2", "p1")), night(("p5", "p6", "p7")))
)
WEEK_2 = Week(
    (night(("p5", "p4", "p3"), ("p3", "p4", "p5")), night(("p6", "p2", "p7"), ("p7", "p2", "p6")))
)


def table(standings: SeasonStandings) -> list[tuple[str, int | None, Fraction]]:
    return [(row.player, row.place, row.points) for row in standings.rows]


def test_two_weeks_of_standings_and_ladders() -> None:
    """FWPL 3.1, 3.3, 4.3, 2.4. Week 1 (IFPA order p1..p7; groups 4 + 3): p4 32, p3 25, p2 13,
    p1 4; p5 33, p6 16, p7 4. Week 2 ladder by points: p5 33, p4 32, p3 25, p6 16, p2 13, then p1
    and p7 on 4, p1 above as on last week's ladder. In week 2 p1 is absent: 50% of the average
    night (4) = 2. p3 33, p4 16, p5 4; p7 33, p2 16, p6 4. Totals: p3 25 + 33 = 58, p4 32 + 16 =
    48, p5 33 + 4 = 37, p7 4 + 33 = 37, p2 13 + 16 = 29, p6 16 + 4 = 20, p1 4 + 2 = 6. p5 and p7
    tie: p5 was higher on last week's ladder. Places 1, 2, 3, 3, 5, 6, 7."""
    standings = season_standings(SEVEN, [WEEK_1, WEEK_2])
    assert standings.ladders[0] == ("p1", "p2", "p3", "p4", "p5", "p6", "p7")
    assert standings.ladders[1] == ("p5", "p4", "p3", "p6", "p2", "p1", "p7")
    assert table(standings) == [
        ("p3", 1, 58),
        ("p4", 2, 48),
        ("p5", 3, 37),
        ("p7", 3, 37),
        ("p2", 5, 29),
        ("p6", 6, 20),
        ("p1", 7, 6),
    ]
    assert standings.next_ladder == ("p3", "p4", "p5", "p7", "p2", "p6", "p1")
    p1 = standings.rows[-1]
    assert (p1.nights, p1.forfeits, p1.credit) == (1, 4, 2)


@pytest.mark.parametrize(("credits", "expected"), [(1, 6), (2, 8)])
def test_the_absence_credit_is_given_once(credits: int, expected: int) -> None:
    """FWPL 2.4: "A player who forfeits all scores for one night will receive 50% of their
    average ... Any subsequent forfeits will receive no points." p1 misses weeks 2 and 3: 4 + 2 +
    0 = 6. With ``absence_credits=2`` the second absence also earns 50% of 4 (credited nights are
    not in the average): 8. Either way 8 forfeits."""
    config = FwplConfig(absence_credits=credits)
    row = season_standings(SEVEN, [WEEK_1, WEEK_2, WEEK_2], config).rows[-1]
    assert (row.player, row.points, row.forfeits) == ("p1", expected, 8)


FOUR = [LeaguePlayer(p, p.upper()) for p in ("a", "b", "c", "z")]
ABC = Week((night(("a", "b", "c")),))


@pytest.mark.parametrize(
    ("setting", "rows"),
    [
        ("unranked", [("a", 1, 99), ("b", 2, 48), ("c", 3, 12), ("z", None, 0)]),
        ("ranked", [("a", 1, 99), ("b", 2, 48), ("c", 3, 12), ("z", 4, 0)]),
        ("removed", [("a", 1, 99), ("b", 2, 48), ("c", 3, 12)]),
    ],
)
def test_twelve_forfeits_forfeit_the_season(setting: str, rows: list[tuple[object, ...]]) -> None:
    """FWPL 2.5: "If a player accumulates twelve (12) countable forfeits during a season, he/she
    automatically forfeits the season". z misses three nights of four games: 12. a, b, c play
    three nights of 33, 16, 4. z's row per ``forfeited_season`` (docs/rules.md); z is never on
    the ladder again."""
    config = FwplConfig(forfeited_season=setting)
    after_two = season_standings(FOUR, [ABC, ABC], config)
    assert {r.player: r.status for r in after_two.rows}["z"] == "active"
    standings = season_standings(FOUR, [ABC, ABC, ABC], config)
    assert table(standings) == rows
    assert standings.next_ladder == ("a", "b", "c")
    assert standings.ladders[3] == ("a", "b", "c")


def test_no_scores_after_forfeiting_the_season() -> None:
    """FWPL 2.5: "may not play in the league again until the next season begins"."""
    late = Week((night(("a", "b", "c", "z")),))
    with pytest.raises(SeasonForfeited):
        season_standings(FOUR, [ABC, ABC, ABC, late])


@pytest.mark.parametrize(("countable", "forfeits"), [(True, 8), (False, 0)])
def test_a_late_joiner_accumulates_forfeits(countable: bool, forfeits: int) -> None:
    """FWPL 2.4: "Players who join a league after the first game of a season will accumulate
    forfeits for the games they did not play. It is left to the LO's discretion to determine if
    these forfeits are 'countable'". z joins in week 3: 2 nights x 4 games = 8, or 0 if the LO
    says so. z is on the ladder from week 3, with 0 points at the bottom."""
    players = [*FOUR[:3], LeaguePlayer("z", "Z", joined_week=3, missed_countable=countable)]
    standings = season_standings(players, [ABC, ABC])
    z = standings.rows[-1]
    assert (z.player, z.forfeits, z.place, z.points) == ("z", forfeits, None, 0)
    assert standings.ladders[1] == ("a", "b", "c")
    assert standings.next_ladder == ("a", "b", "c", "z")
    with pytest.raises(NotInGroup, match="week 3"):
        season_standings(players, [Week((night(("a", "b", "z")),))])


@pytest.mark.parametrize(("no_average", "credit"), [("keep_credit", 2), ("use_credit", 0)])
def test_an_absence_before_any_average(no_average: str, credit: int) -> None:
    """FWPL 2.4 with docs/rules.md: z misses week 1, when there is no average "up to that date"
    (credit 0), plays week 2 (last of four: 4), misses week 3. Keeping the once-only credit
    (default) gives 50% of 4 = 2 in week 3; spending it in week 1 gives nothing."""
    week_2 = Week((night(("a", "b", "c", "z")),))
    config = FwplConfig(absence_no_average=no_average)
    z = season_standings(FOUR, [ABC, week_2, ABC], config).rows[-1]
    assert (z.player, z.points, z.credit) == ("z", 4 + credit, credit)


@pytest.mark.parametrize(("missed", "credit"), [("not_absences", 2), ("absences", 0)])
def test_a_late_joiners_missed_nights(missed: str, credit: int) -> None:
    """FWPL 2.4 with docs/rules.md: z joins in week 2 (plays last of four: 4) and misses week
    3. By default the week before joining is not an absence, so week 3 earns 50% of 4 = 2. With
    ``joiner_missed_nights="absences"`` (and a credit spent without an average) week 1 used it."""
    players = [*FOUR[:3], LeaguePlayer("z", "Z", joined_week=2)]
    config = FwplConfig(joiner_missed_nights=missed, absence_no_average="use_credit")
    weeks = [ABC, Week((night(("a", "b", "c", "z")),)), ABC]
    assert season_standings(players, weeks, config).rows[-1].credit == credit


@pytest.mark.parametrize(
    ("basis", "average"),
    [("night_total", 18), ("night_games", Fraction(35, 2)), ("per_game", 20)],
)
def test_the_average_behind_the_absence_credit(basis: str, average: Fraction) -> None:
    """FWPL 2.4 with docs/rules.md, "average scores up to that date": nights of 20 game points +
    1 match bonus in 4 games and 15 + 0 in 3 games. Per night with match bonus: (21 + 15) / 2 = 18;
    without: (20 + 15) / 2 = 17.5; per game: 35 / 7 = 5, x 4 games = 20. The credit is half."""
    config = FwplConfig(absence_basis=basis)
    history = [NightPoints(20, 1, 4), NightPoints(15, 0, 3)]
    assert absence_average(history, config) == average
    assert absence_credit(Fraction(average), config) == Fraction(average) / 2
    assert absence_average([], config) is None


@pytest.mark.parametrize(
    ("rounding", "credit"), [("exact", Fraction(19, 4)), ("half_up", 5), ("down", 4)]
)
def test_absence_credit_rounding(rounding: str, credit: Fraction) -> None:
    """FWPL 2.4: 50% of an average of 9.5 is 4.75: kept exact (default), 5 rounded half up, 4
    rounded down."""
    assert absence_credit(Fraction(19, 2), FwplConfig(absence_rounding=rounding)) == credit


def test_a_third_serious_offence_wipes_the_season() -> None:
    """FWPL 8.5: "Third offense: Forfeit of season. The player's scores are wiped". c commits a
    serious violation in three games of week 1 (each a forfeit of that game, 8.5 first and
    second offences); afterwards c has no points, no place and no ladder spot. An LO ruling of an
    automatic third offence (violence) does the same to b."""
    base = night(("a", "b", "c"))
    games = tuple(
        Game(g.machine, tuple(GameScore(s.player, s.score, penalty="serious") if s.player == "c"
                              and i < 3 else s for s in g.scores))
        for i, g in enumerate(base.games)
    )  # fmt: skip
    week = Week((Match(base.group, games),), third_offence=frozenset({"b"}))
    standings = season_standings(FOUR[:3], [week])
    rows = {r.player: (r.place, r.points, r.status) for r in standings.rows}
    assert rows == {"a": (1, 33, "active"), "b": (None, 0, "wiped"), "c": (None, 0, "wiped")}
    assert standings.next_ladder == ("a",)


def test_scores_only_from_members_and_once_a_week() -> None:
    """FWPL 3.1 and 4.2: every player is in one group a week, and only members play."""
    with pytest.raises(UnknownPlayer):
        season_standings(FOUR, [Week((night(("a", "b", "x")),))])
    with pytest.raises(NotInGroup, match="two groups"):
        season_standings(FOUR, [Week((night(("a", "b", "c")), night(("a", "z", "b"))))])
