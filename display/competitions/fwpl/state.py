"""The state of one FWPL league season in the server, and what follows from it.

``League`` holds what the log's records established (members, machines, each night's groups and
games, the playoffs); everything else (game points, match bonus, the season table, the ladder,
the bracket) is computed from it by ``scoring.fwpl``. States are immutable: ``apply`` in
``display.competitions.fwpl.kind`` returns a new one, so the API can try a record on the live state without
changing it. Season tables are memoised by content (``season``), since every view and every
record needs them and a league's weeks rarely change once played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from scoring.errors import SettingsError
from scoring.fwpl import (
    Division,
    FwplConfig,
    Game,
    GameScore,
    LeaguePlayer,
    Match,
    MatchResult,
    PlayoffConfig,
    SeasonStandings,
    Week,
    match_result,
    season_standings,
)
from scoring.settings import check_known, whole_number

TITLE = "Flip Well Pinball League"
FORMAT = "fwpl-league"
PLAYOFF_PREFIX = "playoff_"
LEAGUE_SETTINGS = tuple(FwplConfig.__dataclass_fields__)
PLAYOFF_SETTINGS = tuple(PLAYOFF_PREFIX + name for name in PlayoffConfig.__dataclass_fields__)
DEFAULT_WEEKS = 8
"""FWPL 2: "The LO must designate ... length of season"; eight weeks unless the LO sets ``weeks``."""


@dataclass(frozen=True)
class Slot:
    """One game of a group or playoff match as recorded so far. ``machine``: assigned (a night's
    first game, FWPL 5; a playoff match's, 6.4), picked, or None while nobody has chosen;
    ``chosen_at``: seq of the record that set it (a later chooser of a busy machine waits);
    ``picked_by``: who chose it; ``lines``: scores entered; ``playoff``: one-ball play-off order
    (FWPL 3.2); ``last_ball``: the group is on ball 3 (FWPL 5: others may pick this machine);
    ``version``: seq of the last record that set or changed a played game's result (the one that
    completed it, a correction, a penalty), named by a correction's ``If-Match``."""

    machine: str | None = None
    chosen_at: int = 0
    picked_by: str | None = None
    lines: tuple[GameScore, ...] = ()
    playoff: tuple[str, ...] = ()
    last_ball: bool = False
    version: int = 0

    def game(self) -> Game:
        return Game(self.machine or "", self.lines, self.playoff)

    def line(self, player: str) -> GameScore | None:
        return next((line for line in self.lines if line.player == player), None)


@dataclass(frozen=True)
class Group:
    """A group's match on one night (FWPL 4.2): ``players`` in seeding order, ``games`` played
    (in order), ``open`` the next game (machine, scores entered so far)."""

    players: tuple[str, ...]
    games: tuple[Slot, ...] = ()
    open: Slot = Slot()

    def match(self) -> Match:
        return Match(self.players, tuple(slot.game() for slot in self.games))


@dataclass(frozen=True)
class Night:
    """One league night (FWPL 3.1, 5). ``seed`` drew the first machines; ``absent``: announced
    absences, left out of the groups (3.1); ``third_offence``: players the LO ruled an automatic
    third offence (8.5)."""

    week: int
    seed: int
    absent: tuple[str, ...]
    groups: tuple[Group, ...]
    closed: bool = False
    third_offence: frozenset[str] = frozenset()

    def week_data(self) -> Week:
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
    """One FWPL season as the log has built it. ``players`` and ``machines`` keep the order they
    were added in; never mutate them (a change makes a new League)."""

    config: FwplConfig
    playoff_config: PlayoffConfig
    weeks: int
    settings: Mapping[str, Any]
    players: Mapping[str, LeaguePlayer] = field(default_factory=dict)
    machines: Mapping[str, str] = field(default_factory=dict)
    nights: tuple[Night, ...] = ()
    playoffs: Playoffs | None = None
    draws: tuple[Draw, ...] = ()

    @property
    def night(self) -> Night | None:
        """The night in progress (started, not closed), else None."""
        return self.nights[-1] if self.nights and not self.nights[-1].closed else None

    @property
    def phase(self) -> str:
        """``registration``, ``night``, ``between`` (nights), ``playoffs`` or ``complete``."""
        if self.playoffs is not None:
            return "playoffs"
        if not self.nights:
            return "registration"
        return "night" if self.night is not None else "between"

    def standings(self, upto: int | None = None) -> SeasonStandings:
        """The season table over the first ``upto`` nights (all by default). FWPL 3.1-3.3."""
        nights = self.nights if upto is None else self.nights[:upto]
        return season(
            tuple(self.players.values()), tuple(n.week_data() for n in nights), self.config
        )

    def with_night(self, night: Night) -> League:
        """This league with ``night`` replacing the night of its week (or added as the next)."""
        nights = list(self.nights)
        if night.week <= len(nights):
            nights[night.week - 1] = night
        else:
            nights.append(night)
        return replace(self, nights=tuple(nights))


def with_group(night: Night, index: int, group: Group) -> Night:
    groups = list(night.groups)
    groups[index] = group
    return replace(night, groups=tuple(groups))


@lru_cache(maxsize=512)
def season(
    players: tuple[LeaguePlayer, ...], weeks: tuple[Week, ...], config: FwplConfig
) -> SeasonStandings:
    """``season_standings`` memoised by content: replaying records and rebuilding views ask for
    the same tables many times over."""
    return season_standings(players, weeks, config)


@lru_cache(maxsize=2048)
def result(match: Match, config: FwplConfig) -> MatchResult:
    """``match_result`` memoised by content."""
    return match_result(match, config)


def parse_settings(raw: Mapping[str, Any]) -> tuple[FwplConfig, PlayoffConfig, int, dict[str, Any]]:
    """A league's settings: every ``FwplConfig`` field by name, every ``PlayoffConfig`` field with
    the prefix ``playoff_`` (``playoff_cut``, ``playoff_ties``, …), and ``weeks`` (season length,
    FWPL 2). Returns the two configs, the weeks and the settings as used (every value, defaults
    included). Raises SettingsError for an unknown name or a bad value."""
    check_known(TITLE, raw, (*LEAGUE_SETTINGS, *PLAYOFF_SETTINGS, "weeks"))
    league = {k: v for k, v in raw.items() if k in LEAGUE_SETTINGS}
    playoff = {k[len(PLAYOFF_PREFIX) :]: v for k, v in raw.items() if k in PLAYOFF_SETTINGS}
    try:
        config, playoff_config = FwplConfig(**league), PlayoffConfig(**playoff)
    except TypeError as exc:  # pragma: no cover - check_known has refused unknown names
        raise SettingsError(str(exc)) from None
    weeks = whole_number("weeks", raw.get("weeks", DEFAULT_WEEKS), 1, 104)
    used: dict[str, Any] = {name: getattr(config, name) for name in LEAGUE_SETTINGS}
    used.update({PLAYOFF_PREFIX + k: getattr(playoff_config, k) for k in playoff_fields()})
    used["weeks"] = weeks
    return config, playoff_config, weeks, used


def playoff_fields() -> Iterable[str]:
    return PlayoffConfig.__dataclass_fields__


def new_league(settings: Mapping[str, Any]) -> League:
    """An empty season with ``settings`` (see ``parse_settings``)."""
    config, playoff_config, weeks, used = parse_settings(settings)
    return League(config, playoff_config, weeks, used)
