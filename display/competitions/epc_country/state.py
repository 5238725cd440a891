"""The live state of an EPC Country Competition: the records applied so far and the tables the rule
engine (``scoring.epc.country``) computes from them.

Pure: ``CountryState`` is frozen; the record handlers in ``display.competitions.epc_country.records``
return a new state (the rules of each entry are ``scoring.epc.country.entries``') and ``derive``
recomputes every table from the inputs, so a state is the same function of its records however it
was reached (architecture principle 1). A competition is small (20 teams, 30 group matches, 15
final matches), so everything is recomputed on each record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace

from display.types import FormatSettings, Record
from scoring.epc.country import (
    CountryConfig,
    Finalist,
    FinalTable,
    Fixture,
    FourBallGame,
    FourBallSlot,
    Group,
    Match,
    MatchGame,
    Penalty,
    Playoff,
    QualifyingTable,
    Replacement,
    SlamTilt,
    final_group,
    final_table,
    fixtures,
    four_ball_schedule,
    groups,
    qualifying_table,
)
from scoring.epc.country.entries import stage_of, team_of, teams_in_draw
from scoring.epc.country.errors import UnknownFixture
from scoring.epc.country.model import CountryMachine, Stage, Team
from scoring.errors import SettingsError
from scoring.settings import check_known, whole_number

TITLE = "EPC Country Competition"
FINAL = "final"
"""The name of the final's group (``scoring.epc.country.final_group``) and the prefix of its fixture
ids."""

CONFIG_KEYS = tuple(f.name for f in fields(CountryConfig))
TEAM_PLAYERS = 4
"""Players in a team by default. EPC 2009, EPC Country Competition: two players of each team on each
of a match's two machines ("Two members from each team will again play in matches on two machines
simultaneously"), the 4-ball game "1 ball per player" and the final's two-team play-off "8 balls
total, 1 ball per player": four members."""


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One machine of a match as recorded (``match_game_recorded`` at ``seq``)."""

    seq: int
    fixture: str
    game: MatchGame


@dataclass(frozen=True, slots=True)
class FourBallEntry:
    """A team's 4-ball game as recorded (``four_ball_recorded`` at ``seq``)."""

    seq: int
    game: FourBallGame


@dataclass(frozen=True, slots=True)
class PenaltyEntry:
    """A ``late_recorded`` or ``slam_tilt_recorded`` record: its match (None: the 4-ball game) and
    the stage that match belongs to."""

    seq: int
    fixture: str | None
    stage: Stage
    penalty: Penalty


@dataclass(frozen=True, slots=True)
class PlayoffEntry:
    """A ``playoff_recorded`` record: the stage whose tie it settles and the machine it was on."""

    seq: int
    stage: Stage
    playoff: Playoff
    machine: str | None


Entry = GameEntry | FourBallEntry | PenaltyEntry | PlayoffEntry
"""A record a ``record_voided`` can name: a match game, 4-ball game, penalty or play-off."""


@dataclass(frozen=True, slots=True)
class Derived:
    """What the rule engine makes of the inputs. ``draw`` and the tables are None until the draw
    has every seeded team; ``final`` is None before the final."""

    draw: tuple[Group, ...] | None = None
    fixtures: Mapping[str, Fixture] = field(default_factory=dict)
    schedule: tuple[FourBallSlot, ...] = ()
    qualifying: QualifyingTable | None = None
    final: FinalTable | None = None


@dataclass(frozen=True, slots=True)
class CountryState:
    """Everything a Country Competition has recorded, and ``derived`` from it. ``log``: every record
    applied after ``tournament_created`` with its seq, replayed when the settings change."""

    config: CountryConfig
    team_players: int = TEAM_PLAYERS
    teams: Mapping[str, Team] = field(default_factory=dict)
    machines: Mapping[str, CountryMachine] = field(default_factory=dict)
    replacements: tuple[Replacement, ...] = ()
    games: Mapping[int, GameEntry] = field(default_factory=dict)
    four_ball: Mapping[int, FourBallEntry] = field(default_factory=dict)
    penalties: Mapping[int, PenaltyEntry] = field(default_factory=dict)
    playoffs: Mapping[int, PlayoffEntry] = field(default_factory=dict)
    stage: Stage = "qualifying"
    finalists: tuple[Finalist, ...] = ()
    log: tuple[tuple[int, Record], ...] = ()
    derived: Derived = field(default_factory=Derived)

    @property
    def seeds_needed(self) -> int:
        """Seeded teams the draw takes: 5 groups x 4 = 20."""
        return self.config.seeds

    def team(self, team_id: object) -> Team:
        """The team ``team_id``; UnknownTeam if there is none (``entries.team_of``)."""
        return team_of(self.teams, team_id)

    def fixture(self, fixture_id: object) -> Fixture:
        """The match ``fixture_id`` of the draw (or the final); UnknownFixture if there is none."""
        found = self.derived.fixtures.get(str(fixture_id))
        if found is None:
            hint = "" if self.derived.draw else " The draw is not made yet."
            raise UnknownFixture(f"There is no match {fixture_id!r}.{hint}")
        return found

    def in_draw(self) -> tuple[str, ...]:
        """Team ids of the draw, group by group (empty before the draw is complete)."""
        return teams_in_draw(self.derived.draw)

    def games_of(self, fixture_id: str) -> tuple[GameEntry, ...]:
        """The recorded machines of a match, in the order recorded."""
        return tuple(e for e in self.games.values() if e.fixture == fixture_id)

    def penalties_of(self, fixture_id: str | None) -> tuple[PenaltyEntry, ...]:
        """Penalties recorded for a match (None: for 4-ball games)."""
        return tuple(p for p in self.penalties.values() if p.fixture == fixture_id)


def fixture_id(fixture: Fixture, number: int) -> str:
    """A stable id: ``A-2-1`` (group A, round 2, its first match), ``final-3-2`` in the final."""
    group = FINAL if stage_of(fixture) == "final" else fixture.group
    return f"{group}-{fixture.round}-{number}"


def parse_settings(settings: FormatSettings) -> tuple[CountryConfig, int]:
    """Tournament settings -> (``CountryConfig``, players per team). Raises SettingsError.

    Every ``CountryConfig`` field is a setting (its docstring gives each default and the rule text
    behind it), plus ``team_players`` (``TEAM_PLAYERS``)."""
    check_known(TITLE, settings, (*CONFIG_KEYS, "team_players"))
    team_players = whole_number("team_players", settings.get("team_players", TEAM_PLAYERS), 2, 8)
    values: FormatSettings = {
        k: tuple(v) if isinstance(v, list) else v for k, v in settings.items()
    }
    values.pop("team_players", None)
    try:
        return CountryConfig(**values), team_players
    except TypeError as exc:  # pragma: no cover - check_known admits only known fields
        raise SettingsError(str(exc)) from None


def settings_dict(state: CountryState) -> FormatSettings:
    """The settings in force, as JSON values (tuples as lists)."""
    out: FormatSettings = {}
    for name in CONFIG_KEYS:
        value = getattr(state.config, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    out["team_players"] = state.team_players
    return out


def derive(state: CountryState) -> CountryState:
    """``state`` with every table recomputed from its inputs. Raises the rule engine's errors when
    the inputs break a rule (the record that made them so is then refused)."""
    config = state.config
    seeded = sorted((t for t in state.teams.values() if t.seed is not None), key=_seed)
    if len(seeded) < state.seeds_needed:
        return replace(state, derived=Derived())
    reserves = [t.id for t in state.teams.values() if t.seed is None]
    draw = groups(config, [t.id for t in seeded], reserves, state.replacements)
    plan = fixtures(config, draw)
    found = _numbered(plan)
    schedule = four_ball_schedule(draw, plan)
    qualifying = qualifying_table(
        config,
        draw,
        _matches(state, found, "qualifying"),
        [e.game for e in state.four_ball.values()],
        [p.penalty for p in state.penalties.values() if p.stage == "qualifying"],
        [p.playoff for p in state.playoffs.values() if p.stage == "qualifying"],
    )
    final = None
    if state.finalists:
        found = {**found, **_numbered(fixtures(config, [final_group(state.finalists)]))}
        final = final_table(
            config,
            state.finalists,
            _matches(state, found, "final"),
            [p.penalty for p in state.penalties.values() if p.stage == "final"],
            [p.playoff for p in state.playoffs.values() if p.stage == "final"],
        )
    return replace(state, derived=Derived(draw, found, schedule, qualifying, final))


def decided(state: CountryState, fixture_ids: Iterable[str] | None = None) -> set[str]:
    """Ids of the matches that have a result: both machines recorded, or a penalty."""
    out = set()
    for fid in fixture_ids if fixture_ids is not None else state.derived.fixtures:
        if len(state.games_of(fid)) == 2 or state.penalties_of(fid):
            out.add(fid)
    return out


def undecided(state: CountryState, stage: Stage) -> list[str]:
    """Ids of the stage's matches without a result yet, in fixture order."""
    done = decided(state)
    return [
        fid for fid, f in state.derived.fixtures.items() if stage_of(f) == stage and fid not in done
    ]


def teams_with_results(state: CountryState) -> frozenset[str]:
    """Ids of the teams with a result recorded: a match game (either team of its match), a 4-ball
    game, or a penalty against them (a reserve replaces only a team without any)."""
    fixtures = state.derived.fixtures
    in_games = {
        team
        for e in state.games.values()
        for team in (fixtures[e.fixture].home, fixtures[e.fixture].away)
    }
    four_ball = {e.game.team for e in state.four_ball.values()}
    return frozenset(in_games | four_ball | {p.penalty.team for p in state.penalties.values()})


def four_ball_tilt(state: CountryState, team: str) -> PenaltyEntry | None:
    """The slam tilt that zeroes ``team``'s 4-ball game, if any."""
    return next(
        (
            p
            for p in state.penalties_of(None)
            if isinstance(p.penalty, SlamTilt) and p.penalty.team == team
        ),
        None,
    )


def _seed(team: Team) -> int:
    return team.seed or 0


def _numbered(plan: tuple[Fixture, ...]) -> dict[str, Fixture]:
    counts: dict[tuple[str, int], int] = {}
    out: dict[str, Fixture] = {}
    for f in plan:
        n = counts[(f.group, f.round)] = counts.get((f.group, f.round), 0) + 1
        out[fixture_id(f, n)] = f
    return out


def _matches(state: CountryState, found: Mapping[str, Fixture], stage: Stage) -> list[Match]:
    """Matches of ``stage`` with both machines recorded (a match with one is still being played)."""
    out = []
    for fid, f in found.items():
        games = state.games_of(fid)
        if stage_of(f) == stage and len(games) == 2:
            out.append(Match(f.home, f.away, tuple(e.game for e in games)))
    return out
