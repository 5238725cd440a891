"""One FWPL game: final machine scores, finishing order and game points.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. In short:

- 3.2: two players 7/1, three 7/4/1, four 7/5/3/1, plus bonus points: the winner's if he exceeds
  three times the loser (two players) or the sum of 2nd and 3rd (else 3rd's); in four-player
  games a second one to 2nd if he exceeds the sum of 3rd and 4th (else 4th's). Equal machine
  scores are ordered by a one-ball play-off, recorded as ``Game.playoff``;
- 2.4: a forfeiting player (not present) scores zero points, and the game is scored on the number
  of eligible scores; a game left with one eligible score follows ``FwplConfig.lone_score``;
- 7.3: a compensatory game's displayed score is added to the original, less the leading balls'
  and any incidental points the LO has subtracted;
- 8.1: playing one's own unallowable extra ball on or after the last allowable ball reduces the
  final machine score by 25% (kept exact: 3/4 of the score, no rounding needed to compare);
- 8.7: a deathsave or bangback gives a machine score of zero; the score still counts (last place);
- 8.2-8.5: interference (playing an opponent's ball, an intentional slam tilt) and other serious
  violations forfeit the current game "with a machine score of zero": no points, like 2.4.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from types import MappingProxyType
from typing import Literal

from scoring.errors import InvalidScore
from scoring.fwpl.config import FwplConfig, LoneScore
from scoring.fwpl.errors import NotInGroup, PlayoffNeeded
from scoring.model import MAX_SCORE
from scoring.ranking import player_key

Penalty = Literal["none", "extra_ball", "deathsave", "serious"]

EXTRA_BALL_KEEPS = Fraction(3, 4)
"""FWPL 8.1: "his final machine score is reduced by 25%"."""

PLACE_POINTS: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {2: (7, 1), 3: (7, 4, 1), 4: (7, 5, 3, 1)}
)
"""FWPL 3.2: game points by place for two, three and four eligible scores (read-only)."""


@dataclass(frozen=True, slots=True)
class GameScore:
    """One player's line on one game (FWPL 2.4, 3.2, 7.3, 8.x).

    ``score``: the displayed machine score, a whole number; None records a forfeit (2.4: not
    present and eligible). ``compensatory``: the displayed score of a compensatory game (7.3), or
    None. ``subtract``: points the LO subtracts from it, the leading balls' and incidental points
    (7.3). ``penalty``: ``"extra_ball"`` (8.1, score x 3/4), ``"deathsave"`` (8.7, score 0, still
    placed), ``"serious"`` (8.2-8.5, game forfeited with score 0), or ``"none"``. ``late``: the
    player joined this game late (2.3; last in play order, no machine choice, 5.2).
    """

    player: str
    score: int | None
    compensatory: int | None = None
    subtract: int = 0
    penalty: Penalty = "none"
    late: bool = False


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a group on one machine (FWPL 3.2, 5). ``playoff``: the order of a one-ball
    play-off between equal machine scores, winner first; it need only name the tied players."""

    machine: str
    scores: tuple[GameScore, ...]
    playoff: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameRow:
    """One player's result in a game (FWPL 3.2). ``score`` is the final machine score (exact;
    None for a forfeit); ``place`` 1.. among eligible scores (None for a forfeit); ``points``
    includes ``bonus``; ``forfeit`` marks 2.4 and 8.5 forfeits."""

    player: str
    score: Fraction | None
    place: int | None
    points: int
    bonus: int = 0
    forfeit: bool = False
    late: bool = False


@dataclass(frozen=True, slots=True)
class GameResult:
    """A scored game: placed rows in finishing order, then forfeits. FWPL 3.2."""

    machine: str
    rows: tuple[GameRow, ...]

    @property
    def order(self) -> tuple[str, ...]:
        """Placed players, winner first (FWPL 5, 5.2: the order the next game builds on)."""
        return tuple(row.player for row in self.rows if row.place is not None)


def _whole(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SCORE:
        raise InvalidScore(f"A {name} must be a whole number from 0 to {MAX_SCORE}, not {value!r}.")
    return value


def final_score(entry: GameScore) -> Fraction | None:
    """The final machine score of ``entry``, exact; None for a forfeit. FWPL 7.3 (original +
    compensatory - subtracted), then 8.1 (x 3/4), 8.7 (0, still placed), 8.2-8.5 (forfeit).
    Raises InvalidScore for a score that is not a whole number in 0 .. 2**53-1, or for a
    subtraction larger than the two games' total.

    >>> final_score(GameScore("a", 1000, compensatory=600, subtract=200, penalty="extra_ball"))
    Fraction(1050, 1)
    """
    if entry.score is None or entry.penalty == "serious":
        return None
    total = _whole("machine score", entry.score) - _whole("subtraction", entry.subtract)
    if entry.compensatory is not None:
        total += _whole("compensatory score", entry.compensatory)
    if total < 0:
        raise InvalidScore(
            f"Player {entry.player}: {entry.subtract:,} subtracted is more than the scores "
            f"({entry.score:,} + {entry.compensatory or 0:,})."
        )
    if entry.penalty == "deathsave":
        return Fraction(0)
    return total * EXTRA_BALL_KEEPS if entry.penalty == "extra_ball" else Fraction(total)


def finishing_order(
    scores: Mapping[str, Fraction | int], playoff: Sequence[str] = ()
) -> tuple[str, ...]:
    """Players best first by ``scores``; equal scores in the order of ``playoff`` (winner first).
    FWPL 3.2 ("Any ties in machine score will be resolved by a one-ball playoff"). Raises
    PlayoffNeeded naming the tied players when ``playoff`` does not list them all.
    """
    tiebreak = {player: i for i, player in enumerate(playoff)}
    order = sorted(scores, key=lambda p: (-scores[p], tiebreak.get(p, len(tiebreak))))
    for first, second in pairwise(order):
        if scores[first] == scores[second] and (first not in tiebreak or second not in tiebreak):
            tied = sorted((p for p in scores if scores[p] == scores[first]), key=player_key)
            raise PlayoffNeeded(
                f"Players {', '.join(tied)} have the same score ({scores[first]}); record the "
                "order of their one-ball play-off."
            )
    return tuple(order)


def _beats(top: Fraction | int, others: Fraction | int, at_least: bool) -> bool:
    return top >= others if at_least else top > others


def bonus_points(
    values: Sequence[Fraction | int], at_least: bool = False, lone: LoneScore = "winner"
) -> tuple[int, ...]:
    """Bonus points per place for ``values`` in finishing order (best first). FWPL 3.2: two
    players, the winner's if over three times the loser's, else the loser's; three, the winner's
    if over the sum of 2nd and 3rd, else 3rd's; four, that one plus 2nd's if over the sum of 3rd
    and 4th, else 4th's. ``at_least``: "equals or exceeds" (FWPL 3.3, fifth games). One value:
    1 only with ``lone="winner_bonus"`` (FWPL 2.4). Raises ValueError for more than four.

    >>> bonus_points([80, 60, 30, 20]), bonus_points([30, 10, 10], at_least=True)
    ((0, 1, 1, 0), (1, 0, 0))
    """
    n = len(values)
    if n > 4:
        raise ValueError(f"a game has at most four players, not {n}")
    bonus = [0] * n
    if n == 1:
        bonus[0] = int(lone == "winner_bonus")
    elif n == 2:
        bonus[0 if _beats(values[0], 3 * values[1], at_least) else 1] += 1
    elif n >= 3:
        bonus[0 if _beats(values[0], values[1] + values[2], at_least) else 2] += 1
    if n == 4:
        bonus[1 if _beats(values[1], values[2] + values[3], at_least) else 3] += 1
    return tuple(bonus)


def place_points(eligible: int, lone: LoneScore = "winner") -> tuple[int, ...]:
    """Game points by place for ``eligible`` scores, before bonus points. FWPL 3.2 (7/1, 7/4/1,
    7/5/3/1); FWPL 2.4 for one score: 7 (``lone`` "winner" or "winner_bonus") or 0 ("none").
    Raises ValueError outside 0..4.
    """
    if eligible == 1:
        return (0,) if lone == "none" else (7,)
    if eligible == 0:
        return ()
    if eligible not in PLACE_POINTS:
        raise ValueError(f"a game has at most four players, not {eligible}")
    return PLACE_POINTS[eligible]


def group_entries(game: Game, group: Sequence[str] | None = None) -> dict[str, GameScore]:
    """Player -> line of ``game``; a member of ``group`` without a line forfeits (FWPL 2.4, "not
    present and eligible"). Raises NotInGroup for a player twice, outside ``group`` (FWPL 4.2),
    or more than four players."""
    entries: dict[str, GameScore] = {}
    for entry in game.scores:
        if entry.player in entries or (group is not None and entry.player not in group):
            where = "twice" if entry.player in entries else "but is not in the group"
            raise NotInGroup(f"Player {entry.player} has a score on {game.machine} {where}.")
        entries[entry.player] = entry
    for player in group or ():
        entries.setdefault(player, GameScore(player, None))
    if len(entries) > 4:
        raise NotInGroup(f"{game.machine} has {len(entries)} players; a group has at most four.")
    return entries


def game_points(
    game: Game, config: FwplConfig | None = None, group: Sequence[str] | None = None
) -> GameResult:
    """Score one game. FWPL 3.2 (places and bonus points), 2.4 (forfeits score 0 and the game is
    scored on the eligible scores), 7.3 and 8.x (``final_score``).

    ``group``: the group's players; any of them without a line on ``game`` forfeits it. Raises
    NotInGroup (a player twice, outside ``group``, or more than four), InvalidScore,
    PlayoffNeeded (equal final scores without a recorded play-off order).

    >>> r = game_points(Game("TZ", (GameScore("a", 90), GameScore("b", 40), GameScore("c", 30))))
    >>> [(row.player, row.points) for row in r.rows]
    [('a', 8), ('b', 4), ('c', 1)]
    """
    lone = (config or FwplConfig()).lone_score
    entries = group_entries(game, group)
    finals = {p: final_score(e) for p, e in entries.items()}
    scores = {p: s for p, s in finals.items() if s is not None}
    order = finishing_order(scores, game.playoff)
    base = place_points(len(order), lone)
    bonus = bonus_points([scores[p] for p in order], lone=lone)
    rows = [
        GameRow(p, scores[p], i + 1, base[i] + bonus[i], bonus[i], late=entries[p].late)
        for i, p in enumerate(order)
    ]
    rows.extend(
        GameRow(p, None, None, 0, forfeit=True, late=entries[p].late)
        for p in sorted(set(entries) - set(scores), key=player_key)
    )
    return GameResult(game.machine, tuple(rows))


def serious_penalty_game(results: Sequence[GameResult], player: str) -> int:
    """Index in ``results`` (the match's games so far) of the game an 8.5 penalty falls on when
    the group has no game in progress: the one where ``player`` has the most league points, the
    last of equals. FWPL 8.5. Raises NotInGroup when ``player`` has no game in ``results``.
    """
    mine = [
        (row.points, i) for i, result in enumerate(results) for row in result.rows
        if row.player == player
    ]  # fmt: skip
    if not mine:
        raise NotInGroup(f"Player {player} has played no game in this match.")
    return max(mine)[1]
