"""FWPL game points, worked by hand from fwpl-rules.txt sections 2.4, 3.2, 7.3, 8.1-8.7."""

from __future__ import annotations

from fractions import Fraction

import pytest
from fwpl_builders import game

from scoring import InvalidScore
from scoring.fwpl import (
    FwplConfig,
    Game,
    GameResult,
    GameRow,
    GameScore,
    NotInGroup,
    PlayoffNeeded,
    final_score,
    game_points,
    serious_penalty_game,
)


def points(result: GameResult) -> dict[str, tuple[int | None, int]]:
    return {row.player: (row.place, row.points) for row in result.rows}


def test_four_players_both_bonus_points_to_the_top_two() -> None:
    """FWPL 3.2: four players score 7, 5, 3, 1. 100 > 50 + 30 = 80, so the first bonus point goes
    to the winner (8); 50 > 30 + 10 = 40, so the second goes to 2nd (6). 8 + 6 + 3 + 1 = 18."""
    result = game_points(game("TZ", ("a", 100), ("b", 50), ("c", 30), ("d", 10)))
    assert points(result) == {"a": (1, 8), "b": (2, 6), "c": (3, 3), "d": (4, 1)}


def test_four_players_both_bonus_points_to_third_and_fourth() -> None:
    """FWPL 3.2: 60 does not exceed 35 + 30 = 65, so the first bonus point goes to 3rd (3 + 1);
    35 does not exceed 30 + 10 = 40, so the second goes to 4th (1 + 1): 7, 5, 4, 2."""
    result = game_points(game("TZ", ("a", 60), ("b", 35), ("c", 30), ("d", 10)))
    assert points(result) == {"a": (1, 7), "b": (2, 5), "c": (3, 4), "d": (4, 2)}


@pytest.mark.parametrize(
    ("top", "expected"),
    [
        (300, {"a": (1, 8), "b": (2, 4), "c": (3, 1)}),
        (150, {"a": (1, 7), "b": (2, 4), "c": (3, 2)}),
    ],
)
def test_three_players(top: int, expected: dict[str, tuple[int, int]]) -> None:
    """FWPL 3.2: three players score 7, 4, 1; the bonus point goes to the winner "if he exceeds
    the sum of the second- and third-place player's scores", else to 3rd. 300 > 100 + 50 = 150:
    a gets 8. 150 only equals 150, which does not exceed it: c gets 1 + 1 = 2."""
    assert points(game_points(game("TZ", ("a", top), ("b", 100), ("c", 50)))) == expected


@pytest.mark.parametrize(("top", "winner", "loser"), [(301, 8, 1), (300, 7, 2)])
def test_two_players(top: int, winner: int, loser: int) -> None:
    """FWPL 3.2: two players score 7 and 1; the bonus point goes to the winner "if his score
    exceeds three times the loser's": 301 > 3 x 100 gives 8/1; 300 is not over 300, so 7/2."""
    result = game_points(game("TZ", ("a", top), ("b", 100)))
    assert points(result) == {"a": (1, winner), "b": (2, loser)}


def test_equal_scores_need_the_play_off_order() -> None:
    """FWPL 3.2: "Any ties in machine score will be resolved by a one-ball playoff". Without the
    play-off recorded the game cannot be scored. With b winning it: b 7, a 4, and as 100 does not
    exceed 100 + 50 the bonus goes to 3rd, c: 1 + 1 = 2."""
    tied = game("TZ", ("a", 100), ("b", 100), ("c", 50))
    with pytest.raises(PlayoffNeeded, match="a, b"):
        game_points(tied)
    decided = Game(tied.machine, tied.scores, playoff=("b", "a"))
    assert points(game_points(decided)) == {"b": (1, 7), "a": (2, 4), "c": (3, 2)}


def test_a_forfeit_scores_zero_and_the_game_is_scored_on_the_eligible_scores() -> None:
    """FWPL 2.4: d is not present: 0 points, and "game points will be assigned based on the
    number of eligible (non-forfeiting) scores": three scores, 7/4/1, 300 > 100 + 50 gives a the
    bonus: 8, 4, 1, 0 (13 points, not the 18 of a four-player game)."""
    result = game_points(game("TZ", ("a", 300), ("b", 100), ("c", 50)), group=("a", "b", "c", "d"))
    assert points(result) == {"a": (1, 8), "b": (2, 4), "c": (3, 1), "d": (None, 0)}
    assert result.rows[-1] == GameRow("d", None, None, 0, forfeit=True)


@pytest.mark.parametrize(("lone", "expected"), [("winner", 7), ("winner_bonus", 8), ("none", 0)])
def test_a_game_with_one_eligible_score(lone: str, expected: int) -> None:
    """FWPL 2.4 with docs/rules.md: three of four forfeit, and 3.2 has no one-player scale. The
    default gives the winner's 7 (no score to compare a bonus with); the other readings 8 or 0."""
    result = game_points(
        game("TZ", ("a", 5000), ("b", None), ("c", None), ("d", None)), FwplConfig(lone_score=lone)
    )
    assert points(result)["a"] == (1, expected)
    assert [row.points for row in result.rows[1:]] == [0, 0, 0]


def test_playing_an_unallowable_extra_ball_costs_25_percent() -> None:
    """FWPL 8.1: "his final machine score is reduced by 25%": a's 1,000 counts as 750, behind b's
    800. b, a, c: 800 does not exceed 750 + 100 = 850, so the bonus goes to c: 7, 4, 2."""
    lines = (GameScore("a", 1000, penalty="extra_ball"), GameScore("b", 800), GameScore("c", 100))
    result = game_points(Game("TZ", lines))
    assert points(result) == {"b": (1, 7), "a": (2, 4), "c": (3, 2)}
    assert result.rows[1].score == 750


def test_a_deathsave_scores_zero_but_still_places() -> None:
    """FWPL 8.7: a "will receive a machine score of zero on that game", but it is not a forfeit:
    b, c, a; 100 > 50 + 0, so b gets the bonus: 8, 4, and a 1 for 3rd."""
    lines = (GameScore("a", 5000, penalty="deathsave"), GameScore("b", 100), GameScore("c", 50))
    assert points(game_points(Game("TZ", lines))) == {"b": (1, 8), "c": (2, 4), "a": (3, 1)}


def test_interference_forfeits_the_game() -> None:
    """FWPL 8.2 ("machine score of zero"), 8.3 (a serious violation) and 8.5 ("Forfeit the current
    game with a machine score of zero"): a gets 0 and b and c play a two-player game; 100 is not
    over 3 x 50, so the bonus goes to c: 7 and 2."""
    lines = (GameScore("a", 5000, penalty="serious"), GameScore("b", 100), GameScore("c", 50))
    result = game_points(Game("TZ", lines))
    assert points(result) == {"b": (1, 7), "c": (2, 2), "a": (None, 0)}
    assert result.rows[-1].forfeit


def test_a_compensatory_game_is_added_less_the_leading_balls() -> None:
    """FWPL 7.3: "the displayed score from the new game is added to the displayed score from the
    original game", and the leading balls' score is subtracted: 40,000 + 25,000 - 10,000 =
    55,000. With an 8.1 penalty as well: 3/4 of 55,000 = 41,250."""
    entry = GameScore("a", 40_000, compensatory=25_000, subtract=10_000)
    assert final_score(entry) == 55_000
    penalised = GameScore("a", 40_000, compensatory=25_000, subtract=10_000, penalty="extra_ball")
    assert final_score(penalised) == Fraction(41_250)
    assert final_score(GameScore("a", 40_000, compensatory=25_000)) == 65_000


@pytest.mark.parametrize(
    "entry",
    [GameScore("a", -1), GameScore("a", True), GameScore("a", 10, subtract=11)],
)
def test_bad_scores_are_refused(entry: GameScore) -> None:
    """FWPL 3 (scores as recorded on the sheet): a machine score is a whole number >= 0, and a
    7.3 subtraction cannot exceed the scores it is taken from."""
    with pytest.raises(InvalidScore):
        final_score(entry)


def test_scores_must_come_from_the_group() -> None:
    """FWPL 4.2: "players within each group compete directly with each other": a score from
    outside the group, a second score, or a fifth player is refused."""
    with pytest.raises(NotInGroup, match="not in the group"):
        game_points(game("TZ", ("a", 1), ("x", 2)), group=("a", "b", "c"))
    with pytest.raises(NotInGroup, match="twice"):
        game_points(game("TZ", ("a", 1), ("a", 2)))
    with pytest.raises(NotInGroup, match="at most four"):
        game_points(game("TZ", *((p, i) for i, p in enumerate("abcde"))))


def test_a_serious_penalty_without_a_current_game_hits_the_best_game() -> None:
    """FWPL 8.5: with no game in progress, the penalty falls on "the game of the current match for
    which the violator has the highest league points. If there is more than one such game, the
    last such game". a scores 3, 8, 5, 8: the fourth game (index 3)."""
    results = [
        GameResult(f"M{i}", (GameRow("a", Fraction(1), 1, pts),))
        for i, pts in enumerate((3, 8, 5, 8))
    ]
    assert serious_penalty_game(results, "a") == 3
    with pytest.raises(NotInGroup):
        serious_penalty_game(results, "b")
