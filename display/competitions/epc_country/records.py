"""Applying one record to a ``CountryState`` (the record table is in ``display.competitions.epc_country.kind``).

Each handler checks what the rule engine cannot see (the stage, who is in a match, which machines
are for the 4-ball game), returns the new inputs, and ``apply`` re-derives the tables, so anything
the engine refuses (a bad score, a fifth score, a late arrival of 5 minutes, a play-off that settles
no tie) refuses the record too. Nothing is half-applied: a refused record leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from display.competitions.base import EVERY_VIEW
from display.competitions.epc_country.state import (
    CountryMachine,
    CountryState,
    FourBallEntry,
    GameEntry,
    PenaltyEntry,
    PlayoffEntry,
    Stage,
    Team,
    derive,
    four_ball_tilt,
    parse_settings,
    settings_dict,
    stage_of,
    undecided,
)
from scoring.epc.country import (
    FourBallGame,
    GameScore,
    Late,
    MatchGame,
    Playoff,
    Replacement,
    SlamTilt,
    finalists,
    game_result,
)
from scoring.errors import (
    DuplicateRegistration,
    EntryNotAllowed,
    InvalidScore,
    UnknownMachine,
    UnknownPlayer,
)

T = TypeVar("T")
Record = Mapping[str, Any]
Touched = set[str]
TABLES = {"country/groups", "country/fixtures", "country/four_ball", "country/playoffs"}
FINAL_TABLES = {"country/final", "country/fixtures", "country/playoffs"}


def apply(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    """``record`` applied at ``seq`` -> (new state, views touched). Raises a ScoringError when the
    rules refuse it, ValueError for a record type this kind does not know."""
    handler = HANDLERS.get(record["type"])
    if record["type"] in ELSEWHERE:
        raise EntryNotAllowed(ELSEWHERE[record["type"]])
    if handler is None:
        raise ValueError(f"unknown record type {record['type']!r}")
    new, touched = handler(state, seq, record)
    if record["type"] != "settings_changed":  # a rebuild replays the rest under the new settings
        new = derive(replace(new, log=(*state.log, (seq, record))))
    return new, touched


def rebuild(state: CountryState, settings: Mapping[str, Any]) -> CountryState:
    """Every record replayed under changed ``settings`` (raises as the first record they break)."""
    config, team_players = parse_settings(settings)
    fresh = derive(CountryState(config, team_players))
    for seq, record in state.log:
        fresh, _ = apply(fresh, seq, record)
    return fresh


def _settings_changed(
    state: CountryState, seq: int, record: Record
) -> tuple[CountryState, Touched]:
    return rebuild(state, {**settings_dict(state), **record["settings"]}), {EVERY_VIEW}


def _machine_added(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    m = record["machine"]
    machine = CountryMachine(str(m["id"]), str(m["name"]), bool(m.get("four_ball", False)))
    if machine.id in state.machines:
        raise DuplicateRegistration(f"There is already a machine {machine.id}.")
    return replace(state, machines={**state.machines, machine.id: machine}), {
        "machines",
        "country/four_ball",
    }


def _team_added(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    t = record["team"]
    seed = t.get("seed")
    team = Team(str(t["id"]), str(t["name"]), seed, tuple(str(p).strip() for p in t["players"]))
    _open(state, "qualifying", "Teams are registered before the final")
    if team.id in state.teams:
        raise DuplicateRegistration(
            f"There is already a team {team.id} ({state.teams[team.id].name})."
        )
    if bool(record.get("reserve")) != (seed is None):
        raise EntryNotAllowed("A reserve team has no seed; every other team has one.")
    if seed is not None:
        if (
            not isinstance(seed, int)
            or isinstance(seed, bool)
            or not 1 <= seed <= state.seeds_needed
        ):
            raise EntryNotAllowed(
                f"A seed is a whole number from 1 to {state.seeds_needed}, not {seed!r}."
            )
        holder = next((o for o in state.teams.values() if o.seed == seed), None)
        if holder is not None:
            raise DuplicateRegistration(f"Seed {seed} is already {holder.name} ({holder.id}).")
    names = [p for p in team.players if p]
    if len(names) != state.team_players or len(set(names)) != len(names):
        raise EntryNotAllowed(
            f"A team registers {state.team_players} players with different names; {team.name} has "
            f"{', '.join(team.players) or 'none'}."
        )
    return replace(state, teams={**state.teams, team.id: team}), {"teams", "tournament", *TABLES}


def _team_replaced(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    _open(state, "qualifying", "Teams are replaced before the final")
    if state.derived.draw is None:
        raise EntryNotAllowed(
            f"Replace a team once the draw has all {state.seeds_needed} seeded teams; until then "
            "give the reserve team the free seed."
        )
    withdrawn, reserve = state.team(record["withdrawn"]), state.team(record["reserve"])
    if _has_results(state, withdrawn.id):
        raise EntryNotAllowed(
            f"{withdrawn.name} has results recorded; a reserve team replaces a team that has not "
            "played (void its results first)."
        )
    swap = Replacement(withdrawn.id, reserve.id, str(record["by"]), str(record.get("reason", "")))
    return replace(state, replacements=(*state.replacements, swap)), {"teams", *TABLES}


def _match_game(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    fid = str(record["fixture"])
    fixture = state.fixture(fid)
    stage = stage_of(fixture)
    _open(state, stage, f"{fixture.home} v {fixture.away} is a {stage} match")
    where = f"{fixture.home} v {fixture.away}"
    if state.penalties_of(fid):
        raise EntryNotAllowed(
            f"{where} was decided by a penalty; void the penalty to enter scores."
        )
    earlier = state.games_of(fid)
    if len(earlier) == 2:
        raise EntryNotAllowed(f"{where} already has both machines' games; void one to correct it.")
    machine = _machine(state, record["machine"], four_ball=False)
    if any(e.game.machine == machine for e in earlier):
        raise EntryNotAllowed(f"{where} already has a game on {state.machines[machine].name}.")
    scores = tuple(_game_score(state, fixture.home, fixture.away, s) for s in record["scores"])
    game = MatchGame(machine, scores)
    game_result(state.config, game, (fixture.home, fixture.away))  # four scores, two a team
    playing = [s.player for s in scores if s.player]
    before = {s.player for e in earlier for s in e.game.scores if s.player}
    again = sorted({p for p in playing if playing.count(p) > 1} | (set(playing) & before))
    if again:
        raise EntryNotAllowed(
            f"{', '.join(again)} cannot play twice in {where}: two different players of each team "
            "play on each machine, both machines at once."
        )
    entry = GameEntry(seq, fid, game)
    touched = FINAL_TABLES if stage == "final" else TABLES
    return replace(state, games={**state.games, seq: entry}), set(touched)


def _four_ball(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    _open(state, "qualifying", "The 4-ball game is part of qualifying")
    team = _drawn(state, record["team"])
    machine = _machine(state, record["machine"], four_ball=True)
    game = FourBallGame(team.id, machine, record["score"])
    return replace(state, four_ball={**state.four_ball, seq: FourBallEntry(seq, game)}), set(TABLES)


def _penalty(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    team = state.team(record["team"])
    by, reason = str(record["by"]), str(record.get("reason", ""))
    fid = record.get("fixture")
    if fid is None:
        if record["type"] == "late_recorded":
            raise EntryNotAllowed("A late arrival is recorded for a match: give its fixture.")
        _open(state, "qualifying", "The 4-ball game is part of qualifying")
        _drawn(state, team.id)
        if four_ball_tilt(state, team.id):
            raise EntryNotAllowed(f"{team.name}'s 4-ball game is already entered as zero.")
        entry = PenaltyEntry(seq, None, "qualifying", SlamTilt(team.id, None, by, reason))
        return replace(state, penalties={**state.penalties, seq: entry}), set(TABLES)
    fixture = state.fixture(fid)
    stage = stage_of(fixture)
    _open(state, stage, f"{fixture.home} v {fixture.away} is a {stage} match")
    if team.id not in (fixture.home, fixture.away):
        raise EntryNotAllowed(f"{team.name} does not play in {fixture.home} v {fixture.away}.")
    if any(p.penalty.team == team.id for p in state.penalties_of(str(fid))):
        raise EntryNotAllowed(
            f"{team.name} is already disqualified from {fixture.home} v {fixture.away}."
        )
    opponent = fixture.away if team.id == fixture.home else fixture.home
    if record["type"] == "late_recorded":
        minutes = record.get("minutes")
        if not isinstance(minutes, int) or isinstance(minutes, bool) or minutes < 0:
            raise InvalidScore(f"Minutes late must be a whole number, not {minutes!r}.")
        penalty: Late | SlamTilt = Late(team.id, opponent, minutes, by, reason)
    else:
        penalty = SlamTilt(team.id, opponent, by, reason)
    entry = PenaltyEntry(seq, str(fid), stage, penalty)
    touched = FINAL_TABLES if stage == "final" else TABLES
    return replace(state, penalties={**state.penalties, seq: entry}), set(touched)


def _playoff(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    stage: Stage = "final" if record.get("stage") == "final" else "qualifying"
    _open(state, stage, f"This is a {stage} play-off")
    left = undecided(state, stage)
    if state.derived.draw is None or left:
        raise EntryNotAllowed(
            f"Play-off games come once every {stage} match has a result; {len(left)} still to play."
        )
    scores = []
    for item in record["scores"]:
        team = _drawn(state, item["team"]) if stage == "qualifying" else state.team(item["team"])
        scores.append((team.id, item["score"]))
    machine = record.get("machine")
    if machine is not None:
        machine = _machine(state, machine, four_ball=True)
    entry = PlayoffEntry(seq, stage, Playoff(tuple(scores)), machine)
    touched = FINAL_TABLES if stage == "final" else TABLES
    return replace(state, playoffs={**state.playoffs, seq: entry}), set(touched)


def _stage_advanced(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    to = record.get("stage")
    if to == "final":
        _open(state, "qualifying", "The final has already started")
        table = state.derived.qualifying
        left = undecided(state, "qualifying")
        if table is None or left:
            count = len(left) if table else "all"
            raise EntryNotAllowed(
                f"The final starts when every group match has a result; {count} still to play "
                f"({', '.join(left[:5])}{', …' if len(left) > 5 else ''})."
            )
        field = finalists(table)  # EntryNotAllowed while the tie for sixth awaits a play-off
        named = record.get("finalists")
        if named is not None and list(named) != [f.team for f in field]:
            raise EntryNotAllowed(
                f"The final's teams would now be {', '.join(f.team for f in field)}, not "
                f"{', '.join(named)} as when the stage was advanced."
            )
        return replace(state, stage="final", finalists=field), {EVERY_VIEW}
    if to == "complete":
        _open(state, "final", "Only a final can be completed")
        left = undecided(state, "final")
        final = state.derived.final
        if left or final is None or final.playoffs_needed:
            need = f"{len(left)} matches" if left else "a play-off game"
            raise EntryNotAllowed(f"The final is not over: {need} still to play.")
        return replace(state, stage="complete"), {"tournament", "country/final"}
    raise EntryNotAllowed(f"A stage is advanced to final or complete, not {to!r}.")


def _voided(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    target = int(record["seq"])
    entry: GameEntry | FourBallEntry | PenaltyEntry | PlayoffEntry | None = None
    if target in state.games:
        entry, new = state.games[target], replace(state, games=_without(state.games, target))
    elif target in state.four_ball:
        entry = state.four_ball[target]
        new = replace(state, four_ball=_without(state.four_ball, target))
    elif target in state.penalties:
        entry = state.penalties[target]
        new = replace(state, penalties=_without(state.penalties, target))
    elif target in state.playoffs:
        entry = state.playoffs[target]
        new = replace(state, playoffs=_without(state.playoffs, target))
    if entry is None:
        raise EntryNotAllowed(
            f"Record {target!r} is not a game, 4-ball game, penalty or play-off that can be voided "
            "(or it was voided already)."
        )
    stage = _entry_stage(state, entry)
    _open(state, stage, "That record belongs to a stage that is over")
    return new, set(FINAL_TABLES if stage == "final" else TABLES)


def _without(entries: Mapping[int, T], seq: int) -> dict[int, T]:
    return {k: v for k, v in entries.items() if k != seq}


def _entry_stage(state: CountryState, entry: Any) -> Stage:
    if isinstance(entry, GameEntry):
        return stage_of(state.fixture(entry.fixture))
    if isinstance(entry, PenaltyEntry | PlayoffEntry):
        return entry.stage
    return "qualifying"


def _open(state: CountryState, stage: Stage, what: str) -> None:
    if state.stage != stage:
        now = {"qualifying": "qualifying is on", "final": "the final is on"}.get(
            state.stage, "the competition is complete"
        )
        raise EntryNotAllowed(f"{what}, and {now}.")


def _drawn(state: CountryState, team_id: object) -> Team:
    team = state.team(team_id)
    if team.id not in state.in_draw():
        why = "the draw is not made yet" if state.derived.draw is None else "it is not in the draw"
        raise EntryNotAllowed(f"{team.name} cannot play: {why}.")
    return team


def _machine(state: CountryState, machine_id: object, four_ball: bool) -> str:
    machine = state.machines.get(str(machine_id))
    if machine is None:
        raise UnknownMachine(f"There is no machine {machine_id!r} in this competition.")
    if machine.four_ball != four_ball:
        need = "one of the 4-ball machines" if four_ball else "a 3-ball match machine"
        raise EntryNotAllowed(f"{machine.name} is not {need}.")
    return machine.id


def _game_score(state: CountryState, home: str, away: str, item: Mapping[str, Any]) -> GameScore:
    team = state.team(item["team"])
    player = str(item.get("player") or "").strip()
    if team.id not in (home, away):
        raise EntryNotAllowed(f"{team.name} does not play in {home} v {away}.")
    if player and player not in team.players:
        raise UnknownPlayer(f"{player} is not a player of {team.name} ({', '.join(team.players)}).")
    return GameScore(team.id, item["score"], player)


def _has_results(state: CountryState, team: str) -> bool:
    fixtures = state.derived.fixtures
    in_games = any(
        team in (fixtures[e.fixture].home, fixtures[e.fixture].away) for e in state.games.values()
    )
    return (
        in_games
        or any(e.game.team == team for e in state.four_ball.values())
        or any(p.penalty.team == team for p in state.penalties.values())
    )


ELSEWHERE = {
    "score_recorded": "A Country Competition records a match's two machines at once, or a 4-ball "
    "game: use the team-entry page (/t/{tid}/team-entry), not the steward page.",
    "player_added": "A Country Competition registers teams of players: add a team "
    "(POST /api/t/{tid}/country/teams) instead of a single player.",
}
"""Records of the per-machine formats that the generic endpoints may send here: refused (409) with
where to go instead, rather than failing as an unknown record."""

HANDLERS: dict[str, Callable[[CountryState, int, Record], tuple[CountryState, Touched]]] = {
    "settings_changed": _settings_changed,
    "machine_added": _machine_added,
    "team_added": _team_added,
    "team_replaced": _team_replaced,
    "match_game_recorded": _match_game,
    "four_ball_recorded": _four_ball,
    "late_recorded": _penalty,
    "slam_tilt_recorded": _penalty,
    "playoff_recorded": _playoff,
    "stage_advanced": _stage_advanced,
    "record_voided": _voided,
}
__all__ = ["HANDLERS", "apply", "rebuild"]
