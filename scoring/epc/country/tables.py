"""Tables of the EPC 2009 country competition: the 4-ball game, the groups, qualifying and the final.

EPC 2009, EPC Country Competition. A team's qualifying total is its group match points (at most
3 x 28 = 84) plus its 4-ball points (at most 17); the six best totals go to the final, a tie for
sixth going to the better 4-ball score and then to a play-off game. The final is a round robin of
the six (at most 5 x 28 = 140); ties for places up to 4th go to a 4-ball play-off game, ties for
5th or 6th to countback, then to the qualifying 4-ball score. Every table is rebuilt from the
records given; nothing is kept between calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from scoring.epc.country.match import MatchResult, check_score, match_result
from scoring.epc.country.model import (
    CountryConfig,
    FourBallGame,
    Group,
    Match,
    Penalty,
    Playoff,
    PlayoffNeeded,
    SlamTilt,
    points_at,
)
from scoring.epc.country.ties import Step, place_teams
from scoring.errors import EntryNotAllowed, UnknownPlayer
from scoring.ranking import player_key, rank, tied_points


@dataclass(frozen=True, slots=True)
class FourBallRow:
    """A team's 4-ball line (EPC 2009, EPC Country Competition, "The 4 ball game"). ``place`` and
    ``machine`` are None without a counting game: not played ("no points will be awarded") or a
    slam tilt (``penalty``; "the team score will be entered as zero"); both score 0 and 0 points."""

    team: str
    machine: str | None
    score: int
    place: int | None
    points: Fraction
    penalty: SlamTilt | None = None


@dataclass(frozen=True, slots=True)
class FourBallTable:
    """Every team's 4-ball line, ranked games first. EPC 2009, EPC Country Competition."""

    rows: tuple[FourBallRow, ...]


@dataclass(frozen=True, slots=True)
class GroupRow:
    """A team's match points in its group, places shared when equal. EPC 2009, EPC Country
    Competition ("Within each group, there will be 3 matches")."""

    team: str
    place: int
    points: Fraction
    played: int


@dataclass(frozen=True, slots=True)
class GroupTable:
    """One group's match table. EPC 2009, EPC Country Competition."""

    name: str
    rows: tuple[GroupRow, ...]


@dataclass(frozen=True, slots=True)
class QualifyingRow:
    """A team's qualifying line (EPC 2009, EPC Country Competition). ``total`` = ``match_points`` +
    ``four_ball_points``; ``four_ball_score`` is 0 without a counting game. ``qualified``: in the
    final's six, None while a play-off for the cut is pending. ``decided_by``: see
    ``scoring.epc.country.ties.Placed``."""

    team: str
    group: str
    place: int
    match_points: Fraction
    four_ball_points: Fraction
    total: Fraction
    four_ball_score: int
    played: int
    qualified: bool | None
    decided_by: str


@dataclass(frozen=True, slots=True)
class QualifyingTable:
    """Qualifying, best first, with the group and 4-ball tables, every decided match and the
    play-offs still needed. EPC 2009, EPC Country Competition."""

    rows: tuple[QualifyingRow, ...]
    groups: tuple[GroupTable, ...]
    four_ball: FourBallTable
    results: tuple[MatchResult, ...]
    playoffs_needed: tuple[PlayoffNeeded, ...]


@dataclass(frozen=True, slots=True)
class Finalist:
    """A team in the final with its qualifying 4-ball score, the final's last tie-break (EPC 2009,
    EPC Country Competition: "the 4 ball game score from the qualifying round will decide")."""

    team: str
    four_ball_score: int
    qualifying_place: int = 0


@dataclass(frozen=True, slots=True)
class FinalRow:
    """A finalist's line (EPC 2009, EPC Country Competition, Final). ``won``: matches with more
    points than the opponents. ``decided_by``: see ``scoring.epc.country.ties.Placed``."""

    team: str
    place: int
    points: Fraction
    played: int
    won: int
    decided_by: str


@dataclass(frozen=True, slots=True)
class FinalTable:
    """The final, best first, its decided matches and the play-offs still needed. EPC 2009, EPC
    Country Competition."""

    rows: tuple[FinalRow, ...]
    results: tuple[MatchResult, ...]
    playoffs_needed: tuple[PlayoffNeeded, ...]


def four_ball_table(
    config: CountryConfig,
    teams: Iterable[str],
    games: Iterable[FourBallGame],
    penalties: Iterable[Penalty] = (),
) -> FourBallTable:
    """Rank every team's 4-ball score together, whichever of the two machines it was played on
    (EPC 2009, EPC Country Competition, "The 4 ball game": 1st=17, 2nd=14, 3rd=12, 4th=10, 5th=9
    ... 13th=1, 14th-20th=zero; "All completed games on the broken down machine will still count").

    ``teams``: every team; a team without a game scores 0. A ``SlamTilt`` with ``opponent`` None
    enters the team's score as zero: it is unranked and gets 0 points. Equal scores per
    ``config.four_ball_ties``. Raises UnknownPlayer for a team not in ``teams``, EntryNotAllowed
    for a second game by one team, InvalidScore for a bad score.
    """
    known = tuple(dict.fromkeys(teams))
    played: dict[str, FourBallGame] = {}
    for game in games:
        _known(game.team, known)
        check_score(game.score, f"the 4-ball game of {game.team}")
        if game.team in played:
            first = played[game.team]
            raise EntryNotAllowed(
                f"{game.team} has already played its 4-ball game ({first.score} on "
                f"{first.machine}); each team plays it once."
            )
        played[game.team] = game
    tilted = {p.team: p for p in penalties if isinstance(p, SlamTilt) and p.opponent is None}
    for team in tilted:
        _known(team, known)
    counting = {t: g.score for t, g in played.items() if t not in tilted}
    scale = partial(points_at, config.four_ball_points)
    rows: list[FourBallRow] = []
    for group in rank(counting, value=counting.__getitem__, order=player_key):
        points = tied_points(group.place, group.size, scale, config.four_ball_ties)
        rows.extend(
            FourBallRow(t, played[t].machine, counting[t], group.place, points) for t in group.items
        )
    for team in sorted(set(known) - counting.keys(), key=player_key):
        rows.append(FourBallRow(team, None, 0, None, Fraction(0), tilted.get(team)))
    return FourBallTable(tuple(rows))


def qualifying_table(
    config: CountryConfig,
    groups: Iterable[Group],
    matches: Iterable[Match],
    four_ball: Iterable[FourBallGame],
    penalties: Iterable[Penalty] = (),
    playoffs: Iterable[Playoff] = (),
) -> QualifyingTable:
    """Group matches and 4-ball games -> the qualifying table (EPC 2009, EPC Country Competition:
    "The six teams with the highest ranking points will go on to the finals. If there is a tie for
    sixth place, the team with the highest score on the 4 ball "team game" will prevail and ... a
    single game per team on one of the 4 ball machines shall decide the position").

    ``matches``: between two teams of one group, at most one each (``match_result``; unplayed
    matches count 0). ``penalties``: ``Late``/``SlamTilt`` records for matches and 4-ball games.
    ``playoffs``: one-game play-offs for the cut, in the order played. A tie that straddles the
    cut (covers 6th and 7th) is ordered by 4-ball score, then by play-off; rows say so in
    ``decided_by``. Other ties per ``config.qualifying_ties``. Raises UnknownPlayer,
    EntryNotAllowed (a match across groups, a second result, an unmatched play-off), InvalidScore.
    """
    groups = tuple(groups)
    group_of = {team: g.name for g in groups for team in g.teams}
    penalties = tuple(penalties)
    results = _results(config, group_of, matches, penalties)
    points, played = _tally(group_of, results)
    table = four_ball_table(config, group_of, four_ball, penalties)
    by_team = {r.team: r for r in table.rows}
    totals = {t: points[t] + by_team[t].points for t in group_of}
    four_ball_step = Step("four_ball", lambda tied: {t: by_team[t].score for t in tied})

    def plan(place: int, last: int) -> tuple[tuple[Step, ...], bool]:
        if place <= config.finalists < last:  # a tie for sixth
            return (four_ball_step,), True
        return ((four_ball_step,) if config.qualifying_ties == "four_ball" else ()), False

    placed, needed = place_teams(totals, plan, playoffs)
    rows = tuple(
        QualifyingRow(
            p.team,
            group_of[p.team],
            p.place,
            points[p.team],
            by_team[p.team].points,
            totals[p.team],
            by_team[p.team].score,
            played[p.team],
            None if p.pending else p.place <= config.finalists,
            p.decided_by,
        )
        for p in placed
    )
    tables = tuple(_group_table(g, points, played) for g in groups)
    return QualifyingTable(rows, tables, table, results, needed)


def finalists(table: QualifyingTable) -> tuple[Finalist, ...]:
    """The qualified teams, best first, with their 4-ball scores (EPC 2009, EPC Country
    Competition: "The six teams with the highest ranking points will go on to the finals").
    Raises EntryNotAllowed while a play-off for the cut is still needed."""
    if any(row.qualified is None for row in table.rows):
        tie = table.playoffs_needed[0]
        raise EntryNotAllowed(
            f"The final's teams are not settled: {' and '.join(tie.teams)} need a play-off game "
            f"for places {tie.place}-{tie.last_place}."
        )
    return tuple(Finalist(r.team, r.four_ball_score, r.place) for r in table.rows if r.qualified)


def final_table(
    config: CountryConfig,
    field: Iterable[Finalist],
    matches: Iterable[Match],
    penalties: Iterable[Penalty] = (),
    playoffs: Iterable[Playoff] = (),
) -> FinalTable:
    """The final's matches -> its table (EPC 2009, EPC Country Competition, Final: "each team will
    play each other once"; "Should there be a tie at the end of the final for any places up to 4th,
    there will be a 4 ball play off game ... A tie for 5th or 6th will be decided on countback from
    the head to head matches in the finals, should there still be a tie the 4 ball game score from
    the qualifying round will decide the place").

    ``field``: the finalists (``finalists``). Ties for places up to ``config.playoff_places`` need
    a play-off game (``playoffs``, in the order played; reported in ``playoffs_needed`` until
    given). Lower ties: ``config.countback``, then the qualifying 4-ball score, then (the text is
    silent) a play-off game as well. Raises as ``qualifying_table``.
    """
    teams = {f.team: f for f in field}
    group_of = dict.fromkeys(teams, "the final")
    results = _results(config, group_of, matches, penalties, final=True)
    points, played = _tally(group_of, results)
    won = {t: sum(1 for r in results if r.winner == t) for t in teams}

    def head_to_head(tied: tuple[str, ...]) -> Mapping[str, Fraction]:
        among = [r for r in results if r.home in tied and r.away in tied]
        return {
            t: sum((r.points(t) for r in among if t in (r.home, r.away)), Fraction(0)) for t in tied
        }

    countback = (
        Step("head_to_head", head_to_head)
        if config.countback == "head_to_head"
        else Step("matches_won", lambda tied: {t: won[t] for t in tied})
    )
    four_ball_step = Step("four_ball", lambda tied: {t: teams[t].four_ball_score for t in tied})

    def plan(place: int, last: int) -> tuple[tuple[Step, ...], bool]:
        if place <= config.playoff_places:
            return (), True
        return (countback, four_ball_step), True

    placed, needed = place_teams(points, plan, playoffs)
    rows = tuple(
        FinalRow(p.team, p.place, points[p.team], played[p.team], won[p.team], p.decided_by)
        for p in placed
    )
    return FinalTable(rows, results, needed)


def _known(team: str, known: Iterable[str]) -> None:
    if team not in known:
        raise UnknownPlayer(f"There is no team {team!r} in this competition.")


def _results(
    config: CountryConfig,
    group_of: Mapping[str, str],
    matches: Iterable[Match],
    penalties: Iterable[Penalty],
    final: bool = False,
) -> tuple[MatchResult, ...]:
    """Each match decided once, from its scores or its penalties, in a stable order."""
    penalties = tuple(penalties)
    decided: dict[frozenset[str], Match] = {}
    for match in matches:
        _pair(group_of, match.home, match.away)
        key = frozenset((match.home, match.away))
        if key in decided:
            raise EntryNotAllowed(f"{match.home} v {match.away} already has a result.")
        decided[key] = match
    for p in penalties:
        _known(p.team, group_of)
        if p.opponent is None:
            if final:
                raise EntryNotAllowed(
                    f"The final has no 4-ball game for {p.team} to be penalised in; a play-off "
                    "game spoiled by a slam tilt is entered with a score of 0."
                )
            continue
        _pair(group_of, p.team, p.opponent)
        decided.setdefault(frozenset((p.team, p.opponent)), Match(p.team, p.opponent))
    ordered = sorted(decided.values(), key=lambda m: (player_key(m.home), player_key(m.away)))
    return tuple(match_result(config, m, penalties) for m in ordered)


def _pair(group_of: Mapping[str, str], home: str, away: str) -> None:
    _known(home, group_of)
    _known(away, group_of)
    if group_of[home] != group_of[away]:
        raise EntryNotAllowed(
            f"{home} (group {group_of[home]}) and {away} (group {group_of[away]}) do not meet: "
            "group matches are between teams of one group."
        )


def _tally(
    group_of: Mapping[str, str], results: Iterable[MatchResult]
) -> tuple[dict[str, Fraction], dict[str, int]]:
    points = dict.fromkeys(group_of, Fraction(0))
    played = dict.fromkeys(group_of, 0)
    for r in results:
        for team in (r.home, r.away):
            points[team] += r.points(team)
            played[team] += 1
    return points, played


def _group_table(
    group: Group, points: Mapping[str, Fraction], played: Mapping[str, int]
) -> GroupTable:
    ranked = rank(group.teams, value=points.__getitem__, order=player_key)
    rows = tuple(GroupRow(t, g.place, points[t], played[t]) for g in ranked for t in g.items)
    return GroupTable(group.name, rows)
