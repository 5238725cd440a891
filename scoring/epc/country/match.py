"""One match of the EPC 2009 country competition: two machines' scores -> each team's points, with
the penalties that decide a match without (or despite) play.

EPC 2009, EPC Country Competition: "two teams play each other on two machines, with two players from
each team playing a four player, three ball game"; "1st 9 points, 2nd 5 points, 3rd 2 points and
4th zero points". A team's points are the sum over both machines of its players' points
(``CountryConfig.match_points``), so a match always gives 2 x (9+5+2+0) = 32 between the teams.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Literal

from scoring.epc.country.model import CountryConfig, Late, Match, MatchGame, Penalty, points_at
from scoring.errors import EntryNotAllowed, InvalidScore
from scoring.model import MAX_SCORE
from scoring.ranking import player_key, rank, tied_points

Outcome = Literal["played", "forfeit"]


@dataclass(frozen=True, slots=True)
class GameRow:
    """One player's line in a match game: place 1-4 among the four scores and its points (EPC
    2009, EPC Country Competition). Equal scores share a place; points per ``game_ties``."""

    team: str
    player: str
    score: int
    place: int
    points: Fraction


@dataclass(frozen=True, slots=True)
class GameResult:
    """One machine of a match, best score first. EPC 2009, EPC Country Competition."""

    machine: str
    rows: tuple[GameRow, ...]

    def points(self, team: str) -> Fraction:
        """``team``'s points from this machine: the sum of its players' points, or only the
        better one's with ``match_points="best_place"``. EPC 2009, EPC Country Competition."""
        return sum((r.points for r in self.rows if r.team == team), Fraction(0))


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A decided match (EPC 2009, EPC Country Competition). ``outcome``: ``"played"``, or
    ``"forfeit"`` when a penalty disqualified one or both teams (``penalties`` holds the records,
    with ``by`` and ``reason``); ``games`` is empty then, as the penalty and not the scores
    decides the match."""

    home: str
    away: str
    home_points: Fraction
    away_points: Fraction
    outcome: Outcome = "played"
    games: tuple[GameResult, ...] = ()
    penalties: tuple[Penalty, ...] = ()

    def points(self, team: str) -> Fraction:
        """Match points of ``team`` (one of the two). EPC 2009, EPC Country Competition."""
        if team not in (self.home, self.away):
            raise ValueError(f"{team} did not play in {self.home} v {self.away}")
        return self.home_points if team == self.home else self.away_points

    @property
    def winner(self) -> str | None:
        """The team with more points, None when level (16-16, or both disqualified). Used by
        ``countback="matches_won"``. EPC 2009, EPC Country Competition."""
        if self.home_points == self.away_points:
            return None
        return self.home if self.home_points > self.away_points else self.away


def check_score(score: object, where: str) -> int:
    """``score`` if it is a whole number 0 .. 2**53-1, else InvalidScore naming ``where``. EPC
    2009, EPC Country Competition: every score is a machine's display, "verified by a tournament
    official"."""
    if isinstance(score, int) and not isinstance(score, bool) and 0 <= score <= MAX_SCORE:
        return score
    raise InvalidScore(f"A score in {where} must be a whole number from 0 to {MAX_SCORE}.")


def game_result(config: CountryConfig, game: MatchGame, teams: tuple[str, str]) -> GameResult:
    """Rank one machine's four scores and give each player the points of their place (EPC 2009,
    EPC Country Competition: "1st 9 points, 2nd 5 points, 3rd 2 points and 4th zero points").

    ``teams``: the match's two teams; the game must hold exactly two scores from each, else
    EntryNotAllowed; a bad score raises InvalidScore. Equal scores share a place and split its
    points per ``config.game_ties``. With ``match_points="best_place"`` a team's second player
    keeps the place but scores 0.

    >>> from scoring.epc.country.model import GameScore as S
    >>> game = MatchGame("m", (S("A", 40), S("B", 30), S("A", 20), S("B", 10)))
    >>> g = game_result(CountryConfig(), game, ("A", "B"))
    >>> (g.points("A"), g.points("B"))
    (Fraction(11, 1), Fraction(5, 1))
    """
    where = f"{teams[0]} v {teams[1]} on {game.machine}"
    counts = [sum(1 for s in game.scores if s.team == t) for t in teams]
    if counts != [2, 2] or len(game.scores) != 4:
        found = ", ".join(s.team for s in game.scores) or "no scores"
        raise EntryNotAllowed(f"{where} needs four scores, two from each team; it has {found}.")
    for s in game.scores:
        check_score(s.score, where)
    scale = partial(points_at, config.match_places)
    groups = rank(game.scores, value=lambda s: s.score, order=lambda s: player_key(s.team))
    rows: list[GameRow] = []
    counted: set[str] = set()  # teams whose better-placed player is already in ``rows``
    for group in groups:
        points = tied_points(group.place, group.size, scale, config.game_ties)
        for s in group.items:
            zero = config.match_points == "best_place" and s.team in counted
            rows.append(
                GameRow(s.team, s.player, s.score, group.place, Fraction(0) if zero else points)
            )
            counted.add(s.team)
    return GameResult(game.machine, tuple(rows))


def match_result(
    config: CountryConfig, match: Match, penalties: Iterable[Penalty] = ()
) -> MatchResult:
    """A match's points from its two machines, or from the penalties that decide it (EPC 2009, EPC
    Country Competition; Timekeeping; Slam Tilts).

    ``match.games``: two machines of four scores each (``game_result``). ``penalties``: records for
    this match (others are ignored). A ``Late`` team (more than ``config.late_minutes`` minutes) or
    one with a ``SlamTilt`` in this match "will be disqualified from that match": it scores 0 and
    its opponents get the "top 2 scores" (``config.forfeit_award``: 28, or 14); the match's scores,
    if any, are set aside. Both teams disqualified: 0 each. Raises EntryNotAllowed for a team
    playing itself, a Late record of 5 minutes or less, or a played match without two machines.
    """
    home, away = match.home, match.away
    if home == away:
        raise EntryNotAllowed(f"{home} cannot play a match against itself.")
    pair = {home, away}
    mine = tuple(p for p in penalties if p.opponent is not None and {p.team, p.opponent} == pair)
    for p in mine:
        if isinstance(p, Late) and p.minutes <= config.late_minutes:
            raise EntryNotAllowed(
                f"{p.team} arrived {p.minutes} minutes after the call; a team forfeits a match only "
                f"when more than {config.late_minutes} minutes late."
            )
    out = {p.team for p in mine}
    if out:
        award = Fraction(
            config.machine_best * (2 if config.forfeit_award == "both_machines" else 1)
        )
        points = [Fraction(0) if team in out else award for team in (home, away)]
        return MatchResult(home, away, points[0], points[1], "forfeit", (), mine)
    if len(match.games) != 2:
        raise EntryNotAllowed(
            f"{home} v {away} is played on two machines; {len(match.games)} were entered."
        )
    games = tuple(game_result(config, g, (home, away)) for g in match.games)
    return MatchResult(
        home,
        away,
        sum((g.points(home) for g in games), Fraction(0)),
        sum((g.points(away) for g in games), Fraction(0)),
        "played",
        games,
    )
