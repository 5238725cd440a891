"""An FWPL season: standings over the weeks, absences, forfeits, and next week's ladder.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. In short:

- 3.1 and 4.3: season standings are the sum of each night's league points (game points and match
  bonus points, 3.3); they seed the next week's ladder (``scoring.fwpl.ladder``);
- 2.4: a player who forfeits all scores of a night (absent, announced or not) gets 50% of their
  average "up to that date" as their score for the session, once (``FwplConfig.absence_*``);
  every game missed is a forfeit, also for a late joiner's weeks before joining (countable unless
  the LO designates otherwise, ``LeaguePlayer.missed_countable``);
- 2.5: twelve countable forfeits forfeit the season: the player plays no more and leaves the
  ladder (their table row per ``FwplConfig.forfeited_season``);
- 8.5: a third serious offence (a ``"serious"`` penalty, or one the LO rules automatic) forfeits
  the season and wipes the player's scores.

Every forfeit counts the same here, whatever its cause (absence, late arrival, an 8.5 penalty):
2.4 calls all forfeits countable unless the LO designates otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from scoring.errors import UnknownPlayer
from scoring.fwpl.config import FwplConfig
from scoring.fwpl.errors import NotInGroup, SeasonForfeited
from scoring.fwpl.ladder import LeaguePlayer, initial_ladder, ranked_ladder
from scoring.fwpl.night import Match, MatchRow, match_result
from scoring.ranking import rank
from scoring.rounding import round_half_up

SeasonStatus = Literal["active", "forfeited", "wiped"]

ABSENCE_SHARE = Fraction(1, 2)
"""FWPL 2.4: "50% of their average scores up to that date"."""

THIRD_OFFENCE = 3
"""FWPL 8.5: "Third offense: Forfeit of season. The player's scores are wiped"."""


@dataclass(frozen=True, slots=True)
class Week:
    """One league night (FWPL 3.1, 3.3). ``matches``: every group's match. ``third_offence``:
    players the LO rules an automatic third offence this week (FWPL 8.5: violence, vandalism)."""

    matches: tuple[Match, ...] = ()
    third_offence: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class NightPoints:
    """A night a player played, for the 2.4 average: ``game_points`` (bonus points included),
    ``match_bonus`` and ``games`` (games with an eligible score). FWPL 2.4."""

    game_points: int
    match_bonus: int
    games: int


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One player's season (FWPL 2.4, 2.5, 4.3). ``points``: league points including absence
    credit (exact); ``place``: 1, 2, 2, 4 by points, None if unranked; ``nights``: nights played;
    ``forfeits``: countable forfeits (2.5); ``credit``: the 2.4 absence credit included in
    ``points``; ``status``: ``"active"``, ``"forfeited"`` (2.5) or ``"wiped"`` (8.5)."""

    player: str
    place: int | None
    points: Fraction
    nights: int
    forfeits: int
    credit: Fraction
    status: SeasonStatus = "active"


@dataclass(frozen=True, slots=True)
class SeasonStandings:
    """Season table (ranked rows in ladder order, then unranked) and ``ladders``: the ladder of
    each week, week 1 first, ending with next week's. FWPL 3.1, 4.3."""

    rows: tuple[SeasonRow, ...]
    ladders: tuple[tuple[str, ...], ...]

    @property
    def next_ladder(self) -> tuple[str, ...]:
        """The ladder for the coming week (FWPL 4.2, 4.3); cut it with ``split_groups``."""
        return self.ladders[-1]


@dataclass(slots=True)
class _Record:
    points: Fraction = Fraction(0)
    credit: Fraction = Fraction(0)
    credits_used: int = 0
    forfeits: int = 0
    offences: int = 0
    history: list[NightPoints] = field(default_factory=list)
    credited: list[Fraction] = field(default_factory=list)
    status: SeasonStatus = "active"


def absence_average(
    history: Sequence[NightPoints], config: FwplConfig, credited: Sequence[Fraction] = ()
) -> Fraction | None:
    """The average a whole-night forfeit earns 50% of, per ``config.absence_basis``; None when
    ``history`` (the nights played before) is empty. ``credited``: the credits of earlier
    credited nights, counted as nights of that many points (``games_per_match`` games each)
    when ``config.absence_average`` is ``"with_credits"``. FWPL 2.4 ("their average scores up
    to that date"). Raises nothing.

    >>> absence_average([NightPoints(20, 1, 4), NightPoints(15, 0, 3)], FwplConfig())
    Fraction(18, 1)
    >>> with_credits = FwplConfig(absence_average="with_credits")
    >>> absence_average([NightPoints(16, 0, 4)], with_credits, [Fraction(8)])
    Fraction(12, 1)
    """
    if not history:
        return None
    extra = list(credited) if config.absence_average == "with_credits" else []
    if config.absence_basis == "per_game":
        games = sum(night.games for night in history) + config.games_per_match * len(extra)
        points = sum(night.game_points for night in history) + sum(extra, Fraction(0))
        return Fraction(points * config.games_per_match, games)
    with_bonus = config.absence_basis == "night_total"
    total = sum(n.game_points + (n.match_bonus if with_bonus else 0) for n in history)
    return Fraction(total + sum(extra, Fraction(0)), len(history) + len(extra))


def absence_credit(average: Fraction, config: FwplConfig) -> Fraction:
    """50% of ``average``, rounded per ``config.absence_rounding`` (``"exact"``, ``"half_up"`` or
    ``"down"`` to whole points). FWPL 2.4. Raises nothing.

    >>> absence_credit(Fraction(37, 2), FwplConfig(absence_rounding="half_up"))
    Fraction(9, 1)
    """
    credit = average * ABSENCE_SHARE
    if config.absence_rounding == "half_up":
        return round_half_up(credit, 0)
    if config.absence_rounding == "down":
        return Fraction(math.floor(credit))
    return credit


def _absent(record: _Record, config: FwplConfig) -> None:
    if record.credits_used >= config.absence_credits:
        return  # 2.4: "Any subsequent forfeits will receive no points."
    average = absence_average(record.history, config, record.credited)
    if average is None:
        record.credits_used += config.absence_no_average == "use_credit"
        return
    credit = absence_credit(average, config)
    record.points += credit
    record.credit += credit
    record.credits_used += 1
    record.credited.append(credit)


def _played(record: _Record, match: Match, row: MatchRow, complete: bool, cfg: FwplConfig) -> None:
    record.points += row.total
    record.forfeits += row.forfeits
    record.offences += sum(
        s.penalty == "serious" for g in match.games for s in g.scores if s.player == row.player
    )
    if row.played:
        record.history.append(NightPoints(row.game_points, row.match_bonus, row.played))
    elif complete:
        _absent(record, cfg)


def _week_rows(week: Week, config: FwplConfig) -> dict[str, tuple[Match, MatchRow, bool]]:
    rows: dict[str, tuple[Match, MatchRow, bool]] = {}
    for match in week.matches:
        result = match_result(match, config)
        for row in result.rows:
            if row.player in rows:
                raise NotInGroup(f"Player {row.player} is in two groups in one week.")
            rows[row.player] = (match, row, result.complete)
    return rows


def _play_week(
    week_no: int,
    week: Week,
    roster: dict[str, LeaguePlayer],
    records: dict[str, _Record],
    config: FwplConfig,
) -> None:
    seen = _week_rows(week, config)
    for number in sorted(set(seen) - set(roster)):
        raise UnknownPlayer(f"Player {number} is not a member of this league.")
    for number, member in roster.items():
        record = records[number]
        if record.status != "active":
            if number in seen:
                raise SeasonForfeited(f"Player {number} is out of this season ({record.status}).")
            continue
        if member.joined_week > week_no:
            if number in seen:
                raise NotInGroup(f"Player {number} joins the league in week {member.joined_week}.")
            record.forfeits += config.games_per_match * member.missed_countable
            if config.joiner_missed_nights == "absences":
                _absent(record, config)
        elif number in seen:
            _played(record, *seen[number], config)
        else:
            record.forfeits += config.games_per_match
            _absent(record, config)
        if record.offences >= THIRD_OFFENCE or number in week.third_offence:
            record.status, record.points, record.credit = "wiped", Fraction(0), Fraction(0)
        elif record.forfeits >= config.season_forfeit_limit:
            record.status = "forfeited"


def _ladder(
    week_no: int,
    roster: dict[str, LeaguePlayer],
    records: dict[str, _Record],
    previous: Sequence[str],
    initial: Sequence[str],
    config: FwplConfig,
) -> tuple[str, ...]:
    points = {
        p: records[p].points
        for p, member in roster.items()
        if records[p].status == "active" and member.joined_week <= week_no
    }
    names = {p: member.name for p, member in roster.items()}
    if week_no == 1:
        return tuple(p for p in initial if p in points)
    return ranked_ladder(points, previous, initial, names, config.ladder_ties)


def season_standings(
    players: Sequence[LeaguePlayer], weeks: Sequence[Week], config: FwplConfig | None = None
) -> SeasonStandings:
    """Replay a season: each week's matches (``match_result``), absences and forfeits (2.4, 2.5,
    8.5), then the standings and the ladder of every week. FWPL 2.4, 2.5, 3.1, 3.3, 4.3, 8.5.

    A member not in any match of a week forfeits all its games (an announced or unannounced
    absence); so does one whose every game was a forfeit. Rows: players ranked by points
    (active, and forfeited ones with ``forfeited_season="ranked"``) in ladder order with places
    1, 2, 2, 4; then unranked rows (forfeited, wiped, not yet joined) in week-1 order; with
    ``"removed"`` forfeited players are left out. Raises UnknownPlayer (a score from a
    non-member), NotInGroup (a player twice in a week, or before joining), SeasonForfeited (a
    score after forfeiting the season), and what ``match_result`` raises.
    """
    config = config or FwplConfig()
    roster = {p.number: p for p in players}
    initial = initial_ladder(roster.values())
    records = {p: _Record() for p in roster}
    ladders = [_ladder(1, roster, records, (), initial, config)]
    for week_no, week in enumerate(weeks, start=1):
        _play_week(week_no, week, roster, records, config)
        ladders.append(_ladder(week_no + 1, roster, records, ladders[-1], initial, config))
    return SeasonStandings(_rows(roster, records, ladders, initial, config), tuple(ladders))


def _rows(
    roster: dict[str, LeaguePlayer],
    records: dict[str, _Record],
    ladders: Sequence[Sequence[str]],
    initial: Sequence[str],
    config: FwplConfig,
) -> tuple[SeasonRow, ...]:
    played_weeks = max(1, len(ladders) - 1)
    ranked_status = {"active", "forfeited"} if config.forfeited_season == "ranked" else {"active"}
    ranked = {
        p: records[p].points
        for p in initial
        if records[p].status in ranked_status and roster[p].joined_week <= played_weeks
    }
    names = {p: member.name for p, member in roster.items()}
    order = ranked_ladder(ranked, ladders[-1], initial, names, config.ladder_ties)
    places = {p: g.place for g in rank(order, value=ranked.__getitem__) for p in g.items}
    rest = [p for p in initial if p not in ranked]
    if config.forfeited_season == "removed":
        rest = [p for p in rest if records[p].status != "forfeited"]
    return tuple(
        SeasonRow(
            player=p,
            place=places.get(p),
            points=records[p].points,
            nights=len(records[p].history),
            forfeits=records[p].forfeits,
            credit=records[p].credit,
            status=records[p].status,
        )
        for p in (*order, *rest)
    )
