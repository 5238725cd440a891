"""FWPL match bonus points and forfeits over a night, worked by hand from fwpl-rules.txt
sections 2.4 and 3.3."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from fwpl_builders import game, night, ordered

from scoring.fwpl import FwplConfig, Match, MatchResult, NotInGroup, match_result


def bonus(result: MatchResult) -> dict[str, tuple[int, int | None, int]]:
    """player -> (game points, fifth-game place, match bonus points)."""
    return {r.player: (r.game_points, r.place, r.match_bonus) for r in result.rows}


def test_four_player_match_bonus() -> None:
    """FWPL 3.3. Every game ends a, b, c, d with steep scores: 8, 6, 3, 1 (3.2), so the totals
    after four games are 32, 24, 12, 4. As a fifth game of four: 32 is not >= 24 + 12 = 36, so
    the first match bonus point goes to 3rd (c); 24 >= 12 + 4 = 16, so the second goes to 2nd (b).
    """
    result = match_result(night("abcd"))
    assert bonus(result) == {"a": (32, 1, 0), "b": (24, 2, 1), "c": (12, 3, 1), "d": (4, 4, 0)}
    assert [r.total for r in result.rows] == [32, 25, 13, 4]


def test_the_fifth_game_full_points_reading() -> None:
    """FWPL 3.3 with docs/rules.md, ``match_bonus="fifth_game"``: the fifth game also pays its
    place points 7, 5, 3, 1; with the bonus points above: a 7, b 5 + 1, c 3 + 1, d 1."""
    result = match_result(night("abcd"), FwplConfig(match_bonus="fifth_game"))
    assert [(r.player, r.match_bonus) for r in result.rows] == [
        ("a", 7),
        ("b", 6),
        ("c", 4),
        ("d", 1),
    ]


def exactly_the_sum() -> Match:
    """A four-player night whose fifth game has 1st = 2nd + 3rd and 2nd = 3rd + 4th: every game
    a 1,000, b 300, c 200, d 150. 1,000 > 300 + 200: a gets the first bonus point (8); 300 is not
    over 200 + 150 = 350: the second goes to d (1 + 1). Per game 8, 5, 3, 2; totals 32, 20, 12,
    8."""
    scores = (1000, 300, 200, 150)
    return Match(tuple("abcd"), tuple(ordered(f"M{i}", "abcd", scores) for i in range(4)))


def test_equals_or_exceeds_in_four_player_groups() -> None:
    """FWPL 3.3: "if he equals or exceeds the sum of the second and third place players' scores".
    32 = 20 + 12 and 20 = 12 + 8: both match bonus points go to a and b (3.2's "exceeds" would
    give them to c and d)."""
    result = match_result(exactly_the_sum())
    assert bonus(result) == {"a": (32, 1, 1), "b": (20, 2, 1), "c": (12, 3, 0), "d": (8, 4, 0)}


def three_player_night(group: Sequence[str] = "abc") -> Match:
    """Totals a 26 = b 19 + c 7 (3.2, three players, bonus to 1st only if over 2nd + 3rd):

    game 1 and 2: a 300, b 200, c 100: 300 is not over 300, so c gets the bonus: 7, 4, 2;
    game 3: a 400, b 200, c 100: 400 > 300: 8, 4, 1;
    game 4: b 300, a 200, c 100: 300 is not over 300: b 7, a 4, c 2.
    a 7 + 7 + 8 + 4 = 26; b 4 + 4 + 4 + 7 = 19; c 2 + 2 + 1 + 2 = 7.
    """
    games = (
        game("M1", ("a", 300), ("b", 200), ("c", 100)),
        game("M2", ("a", 300), ("b", 200), ("c", 100)),
        game("M3", ("a", 400), ("b", 200), ("c", 100)),
        game("M4", ("b", 300), ("a", 200), ("c", 100)),
    )
    return Match(tuple(group), games)


@pytest.mark.parametrize(("gte", "to"), [("four", "c"), ("all", "a")])
def test_three_player_fifth_game_uses_exceeds(gte: str, to: str) -> None:
    """FWPL 3.3 with docs/rules.md: "there is a difference in four player groups" only, so a
    three-player fifth game keeps 3.2's "exceeds": 26 is not over 19 + 7 = 26, the bonus point goes
    to 3rd (c). With ``match_bonus_gte="all"``, 26 >= 26 gives it to a."""
    result = match_result(three_player_night(), FwplConfig(match_bonus_gte=gte))
    assert {r.player: r.match_bonus for r in result.rows} == {"a": 0, "b": 0, "c": 0} | {to: 1}


@pytest.mark.parametrize(("size", "to"), [("eligible", "c"), ("scheduled", "a")])
def test_a_four_player_group_with_a_player_excluded(size: str, to: str) -> None:
    """FWPL 3.3 with docs/rules.md: d is in the group but forfeits all four games ("Players who
    forfeit three or more games in a match are not eligible ... and these players will be
    excluded"). The three others play the night above: 26 vs 19 + 7. Counting the three eligible
    (default) the fifth game is a three-player one: "exceeds", c gets it; counting the scheduled
    group of four: "equals or exceeds", a gets it. d gets no match bonus and no place."""
    result = match_result(three_player_night("abcd"), FwplConfig(match_bonus_size=size))
    assert {r.player: r.match_bonus for r in result.rows} == {"a": 0, "b": 0, "c": 0, "d": 0} | {
        to: 1
    }
    d = result.row("d")
    assert (d.eligible, d.place, d.forfeits, d.absent) == (False, None, 4, True)


def test_three_forfeits_exclude_but_two_do_not() -> None:
    """FWPL 3.3: "forfeit three or more games". d plays game 1 only (4 players: a 8, b 6, c 3,
    d 1) and forfeits three (3 players, steep: 8, 4, 1): totals a 32, b 18, c 6, d 1; d is out, and
    of the three eligible 32 > 18 + 6, so a gets the match bonus point. Had d forfeited only two,
    d would be in the fifth game."""
    games = (ordered("M1", "abcd"), *(ordered(f"M{i}", "abc") for i in (2, 3, 4)))
    result = match_result(Match(tuple("abcd"), games))
    assert bonus(result) == {"a": (32, 1, 1), "b": (18, 2, 0), "c": (6, 3, 0), "d": (1, None, 0)}
    two = (ordered("M1", "abcd"), ordered("M2", "abcd"), *(ordered(f"M{i}", "abc") for i in (3, 4)))
    assert match_result(Match(tuple("abcd"), two)).row("d").eligible


def firsts_decide() -> Match:
    """x, b, c (seeded so) with b and c level on 13, b with one first place and c with none:

    game 1: b 1,000, x 300, c 200: 1,000 > 500: b 8, x 4, c 1;
    games 2, 3: x 300, c 200, b 150: 300 is not over 350: x 7, c 4, b 2;
    game 4: x 1,000, c 200, b 150: x 8, c 4, b 1.
    x 4 + 7 + 7 + 8 = 26; b 8 + 2 + 2 + 1 = 13; c 1 + 4 + 4 + 4 = 13.
    """
    games = (
        game("M1", ("b", 1000), ("x", 300), ("c", 200)),
        game("M2", ("x", 300), ("c", 200), ("b", 150)),
        game("M3", ("x", 300), ("c", 200), ("b", 150)),
        game("M4", ("x", 1000), ("c", 200), ("b", 150)),
    )
    return Match(("x", "c", "b"), games)


def test_equal_totals_go_to_the_most_first_places() -> None:
    """FWPL 3.3: "In the event of a tie, the player with the most first place finishes will
    receive the higher position". b (one first) is 2nd, c (none) 3rd, although c is the better
    seed. 26 is not over 13 + 13, so the match bonus point goes to the 3rd placed, c."""
    result = match_result(firsts_decide())
    assert bonus(result) == {"x": (26, 1, 0), "b": (13, 2, 0), "c": (13, 3, 1)}


def countback() -> Match:
    """x, b, c with b and c level on 16 and one first place each; c has two second places, b one:

    game 1: x 1,000, b 300, c 200: x 8, b 4, c 1;
    game 2: x 300, c 200, b 150: 300 is not over 350: x 7, c 4, b 2;
    game 3: b 1,000, c 300, x 200: b 8, c 4, x 1;
    game 4: c 300, x 200, b 150: c 7, x 4, b 2.
    x 8 + 7 + 1 + 4 = 20; b 4 + 2 + 8 + 2 = 16; c 1 + 4 + 4 + 7 = 16.
    """
    games = (
        game("M1", ("x", 1000), ("b", 300), ("c", 200)),
        game("M2", ("x", 300), ("c", 200), ("b", 150)),
        game("M3", ("b", 1000), ("c", 300), ("x", 200)),
        game("M4", ("c", 300), ("x", 200), ("b", 150)),
    )
    return Match(("x", "b", "c"), games)


@pytest.mark.parametrize(
    ("ties", "decided", "third"),
    [("countback", (), "b"), ("seed", (), "c"), ("seed", ("c", "b"), "b")],
)
def test_equal_totals_and_equal_first_places(
    ties: str, decided: tuple[str, ...], third: str
) -> None:
    """FWPL 3.3 with docs/rules.md: b and c have 16 and one first each. 20 is not over 16 + 16,
    so the match bonus point goes to whoever is 3rd. Countback (default): c has more seconds
    (2 to 1) and is 2nd, b 3rd. ``match_ties="seed"``: the better seed, b, is 2nd and c 3rd,
    unless the LO recorded an order (c before b)."""
    match = countback()
    result = match_result(Match(match.group, match.games, decided), FwplConfig(match_ties=ties))
    assert {r.player: r.match_bonus for r in result.rows if r.match_bonus} == {third: 1}
    assert result.rows[2].player == third


def test_no_match_bonus_before_the_fourth_game() -> None:
    """FWPL 3.3: "After all four games of a match are played": with three games in, no match
    bonus yet and no fifth-game places; rows stay in seeding order."""
    full = night("abcd", "dcba")
    result = match_result(Match(full.group, full.games[:3]))
    assert not result.complete
    assert [(r.player, r.game_points, r.place, r.match_bonus) for r in result.rows] == [
        ("a", 3, None, 0),
        ("b", 9, None, 0),
        ("c", 18, None, 0),
        ("d", 24, None, 0),
    ]


def test_a_match_has_four_games_and_one_player_once() -> None:
    """FWPL 4: "A match consists of four games"; a fifth game or a player listed twice is
    refused."""
    full = night("abcd")
    with pytest.raises(NotInGroup, match="4 games"):
        match_result(Match(full.group, (*full.games, full.games[0])))
    with pytest.raises(NotInGroup, match="twice"):
        match_result(Match(("a", "a", "b"), ()))
