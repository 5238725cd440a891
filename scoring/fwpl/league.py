"""An FWPL season as its entries have built it, and the rules of running the season itself.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. ``League`` holds what was
entered (members, machines, each night's groups and games, the playoffs, the tie-breaker machines
drawn); everything else (game points, match bonus, the season table, the ladder, the bracket) is
computed from it by the other modules. Every value is frozen: a rule function returns a new
``League`` and never changes the one it was given, so a caller can try an entry and drop it.

The season's own rules here (the nights are ``league_night``'s, the playoffs ``bracket``'s):

- 2 and 2.4: members only, no guests; a member joins from a week not yet started (a late joiner's
  earlier weeks are forfeits, ``season``);
- 2: the LO sets the season's length (``weeks``); Backglass fixes the night settings once week 1
  has started (they decide results already shown) and the playoff settings once the playoffs
  start (docs/rules.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Literal

from scoring.errors import DuplicateRegistration, EntryNotAllowed, SettingsError
from scoring.fwpl.config import FwplConfig, PlayoffConfig
from scoring.fwpl.games import Game, GameScore
from scoring.fwpl.ladder import LeaguePlayer
from scoring.fwpl.night import Match, MatchResult, match_result
from scoring.fwpl.playoff_cut import Division
from scoring.fwpl.season import SeasonStandings, Week, season_standings

Phase = Literal["registration", "night", "between", "playoffs"]
"""``registration``, ``night``, ``between`` (nights) or ``playoffs`` (``League.phase``)."""


@dataclass(frozen=True)
class Slot:
    """One game of a group or playoff match as entered so far (FWPL 5, 6.4). ``machine``:
    assigned (a night's first game, FWPL 5; a playoff match's, 6.4), picked, or None while nobody
    has chosen; ``chosen_at``: seq of the entry that set it (a later chooser of a busy machine
    waits); ``picked_by``: who chose it; ``lines``: scores entered; ``playoff``: one-ball
    play-off order (FWPL 3.2); ``last_ball``: the group is on ball 3 (FWPL 5: others may pick
    this machine); ``version``: seq of the last entry that set or changed a played game's result
    (the one that completed it, a correction, a penalty), which a correction names; ``dead``:
    machines this game was on when play could not continue (FWPL 7.3), in order; ``voided``:
    the scores entered on them, kept for the record and counted nowhere."""

    machine: str | None = None
    chosen_at: int = 0
    picked_by: str | None = None
    lines: tuple[GameScore, ...] = ()
    playoff: tuple[str, ...] = ()
    last_ball: bool = False
    version: int = 0
    dead: tuple[str, ...] = ()
    voided: tuple[GameScore, ...] = ()

    def game(self) -> Game:
        """The slot as a ``Game`` to score (FWPL 3.2); no machine yet is the empty name."""
        return Game(self.machine or "", self.lines, self.playoff)

    def line(self, player: str) -> GameScore | None:
        """``player``'s line on this game (FWPL 3.2), None before it is entered."""
        return next((line for line in self.lines if line.player == player), None)


@dataclass(frozen=True)
class Group:
    """A group's match on one night (FWPL 4.2): ``players`` in seeding order, ``games`` played
    (in order), ``open`` the next game (machine, scores entered so far)."""

    players: tuple[str, ...]
    games: tuple[Slot, ...] = ()
    open: Slot = Slot()

    def match(self) -> Match:
        """The games played as a ``Match`` to score (FWPL 3.3)."""
        return Match(self.players, tuple(slot.game() for slot in self.games))


@dataclass(frozen=True)
class Night:
    """One league night (FWPL 3.1, 5). ``seed`` drew the first machines; ``absent``: announced
    absences, left out of the groups (3.1); ``third_offence``: players the LO ruled an automatic
    third offence (8.5); ``unplayable``: machines declared unplayable for the rest of the night
    (7.3)."""

    week: int
    seed: int
    absent: tuple[str, ...]
    groups: tuple[Group, ...]
    closed: bool = False
    third_offence: frozenset[str] = frozenset()
    unplayable: frozenset[str] = frozenset()

    def week_data(self) -> Week:
        """The night as the season table reads it (FWPL 3.1, 8.5)."""
        return Week(tuple(group.match() for group in self.groups), self.third_offence)


@dataclass(frozen=True)
class PlayoffGroup:
    """A playoff match (FWPL 6.3) once started: ``division``, ``players`` in seed order,
    ``missing`` (6.6, disqualified), games, the open game and the 6.5 tie-breaker orders."""

    division: str
    players: tuple[str, ...]
    missing: frozenset[str] = frozenset()
    games: tuple[Slot, ...] = ()
    open: Slot = Slot()
    tiebreaks: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Playoffs:
    """The playoffs (FWPL 6): divisions with seeds, who withdrew (6.6), the cut's play-off orders
    (6.1) and the matches started."""

    divisions: tuple[Division, ...]
    withdrawn: tuple[str, ...] = ()
    tiebreaks: tuple[tuple[str, ...], ...] = ()
    matches: tuple[PlayoffGroup, ...] = ()


@dataclass(frozen=True)
class Draw:
    """A tie-breaker machine drawn at random (FWPL 6.1, 6.5) for ``players``."""

    players: tuple[str, ...]
    machine: str
    reason: str


@dataclass(frozen=True)
class League:
    """One FWPL season as entered (FWPL 2, 3.1, 4, 6). ``players`` (members by number) and
    ``machines`` (id -> name) keep the order they were added in; never mutate them (a change
    makes a new League). ``weeks``: the season's length the LO set (FWPL 2)."""

    config: FwplConfig
    playoff_config: PlayoffConfig
    weeks: int
    players: Mapping[str, LeaguePlayer] = field(default_factory=dict)
    machines: Mapping[str, str] = field(default_factory=dict)
    nights: tuple[Night, ...] = ()
    playoffs: Playoffs | None = None
    draws: tuple[Draw, ...] = ()

    @property
    def night(self) -> Night | None:
        """The night in progress (started, not closed), else None. FWPL 3.1."""
        return self.nights[-1] if self.nights and not self.nights[-1].closed else None

    @property
    def upcoming(self) -> int:
        """The week the next night to start plays (FWPL 3.1: weeks in order, from 1)."""
        return len(self.nights) + 1

    @property
    def phase(self) -> Phase:
        """``registration``, ``night``, ``between`` (nights) or ``playoffs`` (FWPL 3.1, 6)."""
        if self.playoffs is not None:
            return "playoffs"
        if not self.nights:
            return "registration"
        return "night" if self.night is not None else "between"

    def standings(self, upto: int | None = None) -> SeasonStandings:
        """The season table over the first ``upto`` nights (all by default). FWPL 3.1-3.3.
        Raises what ``season_standings`` raises."""
        nights = self.nights if upto is None else self.nights[:upto]
        return season(
            tuple(self.players.values()), tuple(n.week_data() for n in nights), self.config
        )

    def with_night(self, night: Night) -> League:
        """This league with ``night`` replacing the night of its week (or added as the next).
        FWPL 3.1."""
        nights = list(self.nights)
        if night.week <= len(nights):
            nights[night.week - 1] = night
        else:
            nights.append(night)
        return replace(self, nights=tuple(nights))


def with_group(night: Night, index: int, group: Group) -> Night:
    """``night`` with ``group`` as its group ``index`` (0-based). FWPL 4.2."""
    groups = list(night.groups)
    groups[index] = group
    return replace(night, groups=tuple(groups))


@lru_cache(maxsize=512)
def season(
    players: tuple[LeaguePlayer, ...], weeks: tuple[Week, ...], config: FwplConfig
) -> SeasonStandings:
    """``season_standings`` (FWPL 2.4, 2.5, 3.1, 3.3, 4.3) memoised by content: replaying entries
    and rebuilding views ask for the same tables many times over."""
    return season_standings(players, weeks, config)


@lru_cache(maxsize=2048)
def result(match: Match, config: FwplConfig) -> MatchResult:
    """``match_result`` (FWPL 3.2, 3.3) memoised by content."""
    return match_result(match, config)


def joining_week(
    league: League, number: str, joined_week: int | None = None, guest: bool = False
) -> int:
    """The week a new member ``number`` joins from (FWPL 2.4, a late joiner): ``joined_week``, or
    by default the next week not yet started; earlier weeks are forfeits (``season``). An FWPL
    league has members only, so a ``guest`` is refused. Raises DuplicateRegistration (a number
    already a member), EntryNotAllowed (a guest, a week already started)."""
    if number in league.players:
        raise DuplicateRegistration(f"Player number {number} is already a member.")
    if guest:
        raise EntryNotAllowed("An FWPL league has members only, no guests.")
    upcoming = league.upcoming
    joined = joined_week or upcoming
    if joined < upcoming:
        raise EntryNotAllowed(
            f"Week {joined} has already started; a new member joins in week {upcoming} or later."
        )
    return joined


def join(league: League, member: LeaguePlayer) -> League:
    """``member`` joins the league from ``member.joined_week`` (FWPL 2.4, 4.3: their IFPA rank
    seeds week 1). Raises what ``joining_week`` raises."""
    joining_week(league, member.number, member.joined_week)
    return replace(league, players={**league.players, member.number: member})


def check_machine(league: League, machine: str) -> None:
    """Raise DuplicateRegistration if id ``machine`` is already one of the league's machines
    (FWPL 5: the machines a group picks from)."""
    if machine in league.machines:
        raise DuplicateRegistration(f"Machine {machine} is already in this league.")


def add_machine(league: League, machine: str, name: str) -> League:
    """A machine at the venue (FWPL 5: the machines a group picks from), id ``machine``.
    Raises what ``check_machine`` raises."""
    check_machine(league, machine)
    return replace(league, machines={**league.machines, machine: name})


def change_settings(
    league: League, config: FwplConfig, playoff_config: PlayoffConfig, weeks: int
) -> League:
    """New settings (FWPL 2: the LO sets the season; 6: the playoffs). Before week 1 any may
    change; afterwards only ``weeks`` (not below the nights played) and the playoff settings
    until the playoffs start, since the others decide results already shown (docs/rules.md).
    Raises SettingsError."""
    if league.nights:
        fixed = [
            f.name
            for f in fields(FwplConfig)
            if getattr(config, f.name) != getattr(league.config, f.name)
        ]
        if fixed:
            raise SettingsError(
                f"Setting {fixed[0]} is fixed once week 1 has started (it decides results "
                "already played)."
            )
    if league.playoffs is not None and (playoff_config, weeks) != (
        league.playoff_config,
        league.weeks,
    ):
        raise SettingsError("The playoffs have started; their settings are fixed.")
    if weeks < len(league.nights):
        raise SettingsError(
            f"{len(league.nights)} weeks have been played; weeks cannot be {weeks}."
        )
    return replace(league, config=config, playoff_config=playoff_config, weeks=weeks)
