"""Properties the FWPL rules keep for any input (hypothesis): points add up to the scale, groups
partition the players present, the ladder is a total order, replays and input order do not
matter."""

from __future__ import annotations

import random
from fractions import Fraction

from fwpl_builders import night
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.fwpl import (
    FwplConfig,
    Game,
    GameScore,
    LeaguePlayer,
    Match,
    PlayoffMatch,
    Week,
    game_points,
    group_sizes,
    initial_ladder,
    match_result,
    playoff_match,
    ranked_ladder,
    season_standings,
    split_groups,
)

# FWPL 3.2: all points of a game by number of eligible scores (place points + bonus points);
# one score: 7 (default ``lone_score``).
GAME_TOTAL = {0: 0, 1: 7, 2: 7 + 1 + 1, 3: 7 + 4 + 1 + 1, 4: 7 + 5 + 3 + 1 + 2}
BONUS_TOTAL = {0: 0, 1: 0, 2: 1, 3: 1, 4: 2}


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game of 2-4 players with small scores (ties common, settled by a full play-off order),
    some forfeits and penalties."""
    players = draw(st.lists(st.sampled_from("abcd"), min_size=2, max_size=4, unique=True))
    lines = [
        GameScore(
            p,
            draw(st.none() | st.integers(0, 6)),
            penalty=draw(st.sampled_from(["none", "none", "extra_ball", "deathsave", "serious"])),
        )
        for p in players
    ]
    return Game("M", tuple(lines), playoff=tuple(draw(st.permutations(players))))


@settings(max_examples=300, deadline=None)
@given(games())
def test_game_points_add_up_to_the_scale(game: Game) -> None:
    """FWPL 3.2 and 2.4: the eligible scores share 8 (two), 13 (three) or 18 (four) points, with
    one (two or three players) or two (four) bonus points; every eligible score gets at least 1,
    a forfeit 0; places follow the final scores."""
    result = game_points(game)
    placed = [row for row in result.rows if row.place is not None]
    assert sum(row.points for row in result.rows) == GAME_TOTAL[len(placed)]
    assert sum(row.bonus for row in result.rows) == BONUS_TOTAL[len(placed)]
    assert [row.place for row in placed] == list(range(1, len(placed) + 1))
    assert all(row.points >= 1 for row in placed)
    assert all(row.points == 0 for row in result.rows if row.place is None)
    scores = [row.score for row in placed]
    assert scores == sorted((s for s in scores if s is not None), reverse=True)


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 80).filter(lambda n: n != 5), st.data())
def test_groups_partition_the_players_present(size: int, data: st.DataObject) -> None:
    """FWPL 4.1 and 4.2: the groups, read top down, are exactly the present players in ladder
    order; sizes are 3 or 4, as many fours as possible, the threes (at most three) at the
    bottom."""
    ladder = [f"p{i}" for i in range(size)]
    sizes = group_sizes(size)
    groups = split_groups(ladder)
    assert [p for group in groups for p in group] == ladder
    assert [len(g) for g in groups] == list(sizes)
    assert set(sizes) <= {3, 4}
    assert sizes == tuple(sorted(sizes, reverse=True))
    assert sizes.count(3) <= 3


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from([f"p{i}" for i in range(12)]), st.integers(0, 5)))
def test_the_ladder_is_a_total_order(points: dict[str, int]) -> None:
    """FWPL 4.3: every player has one rung, by points, whatever order the points come in; equal
    points never leave two players unordered (``ladder_ties``)."""
    initial = [f"p{i}" for i in range(12)]
    names = {p: p.upper() for p in initial}
    for ties in ("previous", "initial", "name"):
        config = FwplConfig(ladder_ties=ties)
        forward = ranked_ladder(points, initial[::-1], initial, names, config.ladder_ties)
        shuffled = dict(reversed(points.items()))
        backward = ranked_ladder(shuffled, initial[::-1], initial, names, config.ladder_ties)
        assert forward == backward
        assert sorted(forward) == sorted(points)
        assert [points[p] for p in forward] == sorted(points.values(), reverse=True)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 50) | st.none(), min_size=1, max_size=10), st.randoms())
def test_initial_ladder_ignores_input_order(ranks: list[int | None], rnd: random.Random) -> None:
    """FWPL 4.3: the week-1 ladder depends on IFPA ranks and names only."""
    players = [LeaguePlayer(str(i), f"N{i % 3}", r) for i, r in enumerate(ranks)]
    shuffled = list(players)
    rnd.shuffle(shuffled)
    assert initial_ladder(shuffled) == initial_ladder(players)


@st.composite
def matches(draw: st.DrawFn) -> Match:
    """A complete match of a group of 3 or 4 with random scores and forfeits."""
    group = tuple(draw(st.sampled_from(["abc", "abcd"])))
    played = []
    for i in range(4):
        lines = tuple(GameScore(p, draw(st.none() | st.integers(0, 30))) for p in group)
        played.append(Game(f"M{i}", lines, playoff=group))
    return Match(group, tuple(played))


@settings(max_examples=300, deadline=None)
@given(matches(), st.sampled_from(["bonus", "fifth_game"]))
def test_match_bonus_points_add_up(match: Match, reading: str) -> None:
    """FWPL 3.3: the fifth game pays the bonus points of a game of the eligible players (two for
    four, one for two or three; ``"fifth_game"``: its full points too); excluded players (three or
    more forfeits) get none; a night's total is its game points plus match bonus."""
    config = FwplConfig(match_bonus=reading)
    result = match_result(match, config)
    eligible = [row for row in result.rows if row.eligible]
    expected = (GAME_TOTAL if reading == "fifth_game" else BONUS_TOTAL)[len(eligible)]
    assert sum(row.match_bonus for row in result.rows) == expected
    assert all(row.match_bonus == 0 for row in result.rows if not row.eligible)
    assert all(row.total == row.game_points + row.match_bonus for row in result.rows)
    assert sum(row.game_points for row in result.rows) == sum(
        row.points for game in result.games for row in game.rows
    )


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_playoff_points_add_up(data: st.DataObject) -> None:
    """FWPL 6.3 and 6.6: each game pays 4 + 2 + 1 + 0 = 7 with four players, 4 + 2 + 1 = 7 with
    three; a missing player gets 0."""
    missing = frozenset(data.draw(st.sampled_from(["", "d"])))
    present = [p for p in "abcd" if p not in missing]
    played = tuple(
        Game(f"M{i}", tuple(GameScore(p, s) for p, s in zip(order, (40, 30, 20, 10), strict=False)))
        for i, order in enumerate(data.draw(st.permutations(present)) for _ in range(3))
    )
    result = playoff_match(PlayoffMatch(tuple("abcd"), played, missing, (tuple("abcd"),)))
    assert sum(row.points for row in result.rows) == 7 * 3
    assert sum(row.advances for row in result.rows) == 2


@st.composite
def seasons(draw: st.DrawFn) -> tuple[list[LeaguePlayer], list[Week]]:
    """Six to nine players over one to three weeks (so nobody reaches 12 forfeits and is then
    grouped again); each week up to two are absent and the rest play in groups cut from a random
    ladder, every game in a random order."""
    players = [
        LeaguePlayer(f"p{i}", f"N{i}", draw(st.none() | st.integers(1, 99)))
        for i in range(draw(st.integers(6, 9)))
    ]
    weeks = []
    for _ in range(draw(st.integers(1, 3))):
        ladder = draw(st.permutations([p.number for p in players]))
        absent = draw(st.sets(st.sampled_from(ladder), max_size=2))
        if len(ladder) - len(absent) == 5:
            absent = set()
        groups = split_groups(ladder, absent)
        weeks.append(Week(tuple(night(g, draw(st.permutations(g))) for g in groups)))
    return players, weeks


@settings(max_examples=100, deadline=None)
@given(seasons())
def test_season_points_are_nights_plus_absence_credit(
    season: tuple[list[LeaguePlayer], list[Week]],
) -> None:
    """FWPL 3.3, 4.3 and 2.4: a player's season points are the sum of their nights' totals plus
    their absence credit; the table does not depend on the order players were registered in; the
    next ladder lists the active players by points."""
    players, weeks = season
    standings = season_standings(players, weeks)
    for row in standings.rows:
        nights = sum(
            r.total for week in weeks for m in week.matches for r in match_result(m).rows
            if r.player == row.player
        )  # fmt: skip
        assert row.points == Fraction(nights) + row.credit
    assert season_standings(players[::-1], weeks).rows == standings.rows
    points = {row.player: row.points for row in standings.rows}
    ladder_points = [points[p] for p in standings.next_ladder]
    assert ladder_points == sorted(ladder_points, reverse=True)
