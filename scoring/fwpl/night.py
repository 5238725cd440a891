"""One FWPL match (a group's night): game points, forfeits and match bonus points.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. In short:

- 3.3: after the four games each player's league points of the night are treated as the scores
  of a "fifth" game, scored like a game (``FwplConfig.match_bonus``: its bonus points, default, or
  its full points), with "equals or exceeds" instead of "exceeds" in four-player groups; equal
  totals go to "the player with the most first place finishes" (then ``FwplConfig.match_ties``);
- 3.3: players who forfeit three or more games of the match are left out of that calculation
  and get no match bonus points;
- 2.4: a forfeit scores zero; a player who forfeits every game of the night has an absence
  (``MatchRow.absent``; the season gives the 50%-of-average credit, ``scoring.fwpl.season``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from scoring.fwpl.config import FwplConfig
from scoring.fwpl.errors import NotInGroup
from scoring.fwpl.games import Game, GameResult, bonus_points, game_points, place_points

EXCLUDING_FORFEITS = 3
"""FWPL 3.3: "Players who forfeit three or more games in a match are not eligible"."""


@dataclass(frozen=True, slots=True)
class Match:
    """A group's games of one night (FWPL 3.3, 4). ``group``: the players in seeding (ladder)
    order; ``games``: the games played so far, in order; ``decided``: the LO's order for match
    totals that the 3.3 tie-breaks leave equal (best first; optional, see
    ``FwplConfig.match_ties``)."""

    group: tuple[str, ...]
    games: tuple[Game, ...] = ()
    decided: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One player's night (FWPL 3.3). ``seed``: 1-based position in the group; ``game_points``:
    sum over the games (bonus points included); ``played``/``forfeits``: games with and without an
    eligible score; ``firsts``, ``seconds``...: ``finishes[k]`` counts places k+1; ``eligible``:
    in the match bonus calculation (fewer than three forfeits); ``place``: in the fifth game (None
    if excluded or the match is unfinished); ``match_bonus``: points from the fifth game."""

    player: str
    seed: int
    game_points: int
    played: int
    forfeits: int
    finishes: tuple[int, int, int, int]
    eligible: bool
    place: int | None = None
    match_bonus: int = 0

    @property
    def total(self) -> int:
        """League points of the night: game points + match bonus points. FWPL 3.3."""
        return self.game_points + self.match_bonus

    @property
    def absent(self) -> bool:
        """Forfeited every game of a finished night (FWPL 2.4 "forfeits all scores for one
        night"): no game played, no match bonus."""
        return self.played == 0 and self.forfeits > 0


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A scored match. ``rows``: fifth-game order once complete (excluded players last, by seed),
    else seed order. ``complete``: all ``games_per_match`` games played. FWPL 3.3."""

    games: tuple[GameResult, ...]
    rows: tuple[MatchRow, ...]
    complete: bool

    def row(self, player: str) -> MatchRow:
        """The row of ``player``. FWPL 3.3. Raises NotInGroup if not in this match."""
        for row in self.rows:
            if row.player == player:
                return row
        raise NotInGroup(f"Player {player} is not in this group.")


def _tally(group: Sequence[str], results: Sequence[GameResult]) -> list[MatchRow]:
    rows = []
    for seed, player in enumerate(group, start=1):
        mine = [row for result in results for row in result.rows if row.player == player]
        finishes = [0, 0, 0, 0]
        for row in mine:
            if row.place is not None:
                finishes[row.place - 1] += 1
        forfeits = sum(row.forfeit for row in mine)
        rows.append(
            MatchRow(
                player=player,
                seed=seed,
                game_points=sum(row.points for row in mine),
                played=len(mine) - forfeits,
                forfeits=forfeits,
                finishes=(finishes[0], finishes[1], finishes[2], finishes[3]),
                eligible=forfeits < EXCLUDING_FORFEITS,
            )
        )
    return rows


def fifth_game_order(
    rows: Sequence[MatchRow], config: FwplConfig | None = None, decided: Sequence[str] = ()
) -> tuple[MatchRow, ...]:
    """The eligible ``rows`` in fifth-game order, best first. FWPL 3.3: most league points; equal
    totals: "the player with the most first place finishes will receive the higher position";
    then (``match_ties="countback"``) most seconds, then thirds; then ``decided`` (the LO's order,
    best first); then the better seed. Raises nothing.
    """
    countback = (config or FwplConfig()).match_ties == "countback"
    ruling = {p: i for i, p in enumerate(decided)}

    def key(row: MatchRow) -> tuple[int, ...]:
        finishes = row.finishes[:3] if countback else row.finishes[:1]
        return (
            -row.game_points,
            *(-count for count in finishes),
            ruling.get(row.player, len(ruling)),
            row.seed,
        )

    return tuple(sorted((row for row in rows if row.eligible), key=key))


def match_bonus(
    order: Sequence[MatchRow], group_size: int, config: FwplConfig | None = None
) -> Mapping[str, tuple[int, int]]:
    """Player -> (fifth-game place, match bonus points) for ``order`` (``fifth_game_order``).
    FWPL 3.3: the night's totals are "machine scores for a fifth game", scored as in 3.2 but with
    "equals or exceeds" in four-player groups (``match_bonus_gte``; which size counts:
    ``match_bonus_size``, the eligible players or ``group_size``). ``match_bonus="bonus"`` gives
    the fifth game's bonus points only, ``"fifth_game"`` its place points too. Raises nothing.
    """
    config = config or FwplConfig()
    size = len(order) if config.match_bonus_size == "eligible" else group_size
    at_least = config.match_bonus_gte == "all" or size == 4
    values = [row.game_points for row in order]
    bonus = bonus_points(values, at_least=at_least, lone=config.lone_score)
    base = place_points(len(order), config.lone_score)
    full = config.match_bonus == "fifth_game"
    return {row.player: (i + 1, bonus[i] + (base[i] if full else 0)) for i, row in enumerate(order)}


def match_result(match: Match, config: FwplConfig | None = None) -> MatchResult:
    """Score a group's night. FWPL 3.2 per game (``game_points``; a group member without a line
    forfeits, 2.4), then, once all ``games_per_match`` games are in, 3.3 match bonus points for
    the players with fewer than three forfeits. Raises NotInGroup (a score from outside the group,
    or more games than a match has), InvalidScore, PlayoffNeeded (``game_points``).

    >>> from scoring.fwpl.games import GameScore
    >>> g = Game("TZ", (GameScore("a", 900), GameScore("b", 500), GameScore("c", 100)))
    >>> r = match_result(Match(("a", "b", "c"), (g,) * 4))
    >>> [(row.player, row.game_points, row.match_bonus) for row in r.rows]
    [('a', 32, 1), ('b', 16, 0), ('c', 4, 0)]
    """
    config = config or FwplConfig()
    if len(set(match.group)) != len(match.group):
        raise NotInGroup(f"Group {', '.join(match.group)} lists a player twice.")
    if len(match.games) > config.games_per_match:
        raise NotInGroup(
            f"A match has {config.games_per_match} games; {len(match.games)} were recorded."
        )
    results = tuple(game_points(game, config, match.group) for game in match.games)
    rows = _tally(match.group, results)
    complete = len(results) == config.games_per_match
    if not complete:
        return MatchResult(results, tuple(rows), complete)
    order = fifth_game_order(rows, config, match.decided)
    fifth = match_bonus(order, len(match.group), config)
    placed = [
        replace(row, place=fifth[row.player][0], match_bonus=fifth[row.player][1]) for row in order
    ]
    excluded = [row for row in rows if not row.eligible]
    return MatchResult(results, (*placed, *excluded), complete)
