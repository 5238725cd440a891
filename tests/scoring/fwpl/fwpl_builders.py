"""Small builders for FWPL tests: games and matches from finishing orders."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.fwpl import Game, GameScore, Match

STEEP = (10_000, 1_000, 100, 10)
"""Scores far apart: in a game of four, 10,000 > 1,000 + 100 and 1,000 > 100 + 10, so both bonus
points go to 1st and 2nd (FWPL 3.2): 8, 6, 3, 1. In a game of three: 8, 4, 1."""


def game(machine: str, *lines: tuple[str, int | None]) -> Game:
    """A game from ``(player, score)`` lines; a score of None is a forfeit."""
    return Game(machine, tuple(GameScore(p, s) for p, s in lines))


def ordered(machine: str, order: Sequence[str], scores: Sequence[int] = STEEP) -> Game:
    """A game the players of ``order`` finish in that order, with ``scores``."""
    return Game(machine, tuple(GameScore(p, s) for p, s in zip(order, scores, strict=False)))


def night(group: Sequence[str], order: Sequence[str] | None = None) -> Match:
    """A four-game match of ``group`` (seeding order) where every game ends in ``order``."""
    finish = list(order or group)
    return Match(tuple(group), tuple(ordered(f"M{i}", finish) for i in range(1, 5)))
