"""Applying one record to a ``CountryState`` (the record table is in
``display.competitions.epc_country.kind``).

Each handler reads the record's fields, asks ``scoring.epc.country.entries`` whether the rules
accept the entry (the stage, who is in a match, which machines are for the 4-ball game, ...), keeps
what it returns, and ``apply`` re-derives the tables, so anything the tables refuse (a bad score, a
fifth score, a late arrival of 5 minutes, a play-off that settles no tie) refuses the record too.
What stays here is the record's shape: a field of the wrong type, a late arrival without its match,
a stage that does not exist, a void naming no standing entry. Nothing is half-applied: a refused
record leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TypeVar

from display.competitions.base import EVERY_VIEW
from display.competitions.epc_country.state import (
    CountryState,
    Entry,
    FourBallEntry,
    GameEntry,
    PenaltyEntry,
    PlayoffEntry,
    derive,
    parse_settings,
    settings_dict,
    teams_with_results,
    undecided,
)
from display.types import FormatSettings, Record, Touched
from scoring.epc.country import entries
from scoring.epc.country.entries import ScoreEntry, stage_of
from scoring.epc.country.model import CountryMachine, Late, Penalty, SlamTilt, Stage
from scoring.errors import EntryNotAllowed, InvalidScore

T = TypeVar("T")
Handler = Callable[[CountryState, int, Record], tuple[CountryState, Touched]]
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


def rebuild(state: CountryState, settings: FormatSettings) -> CountryState:
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
    machines = entries.add_machine(state.machines, machine)
    return replace(state, machines=machines), {"machines", "country/four_ball"}


def _team_added(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    t = record["team"]
    teams = entries.add_team(
        state.config,
        state.team_players,
        state.stage,
        state.teams,
        team_id=str(t["id"]),
        name=str(t["name"]),
        seed=t.get("seed"),
        players=tuple(str(p).strip() for p in t["players"]),
        reserve=bool(record.get("reserve")),
    )
    return replace(state, teams=teams), {"teams", "tournament", *TABLES}


def _team_replaced(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    swap = entries.replace_team(
        state.config,
        state.stage,
        state.derived.draw,
        state.teams,
        record["withdrawn"],
        record["reserve"],
        teams_with_results(state),
        by=str(record["by"]),
        reason=str(record.get("reason", "")),
    )
    return replace(state, replacements=(*state.replacements, swap)), {"teams", *TABLES}


def _match_game(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    fid = str(record["fixture"])
    scores = [
        ScoreEntry(s["team"], str(s.get("player") or "").strip(), s["score"])
        for s in record["scores"]
    ]
    fixture = state.fixture(fid)
    game = entries.match_game(
        state.config,
        state.stage,
        fixture,
        state.teams,
        state.machines,
        [e.game for e in state.games_of(fid)],
        [p.penalty for p in state.penalties_of(fid)],
        record["machine"],
        scores,
    )
    touched = FINAL_TABLES if stage_of(fixture) == "final" else TABLES
    return replace(state, games={**state.games, seq: GameEntry(seq, fid, game)}), set(touched)


def _four_ball(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    game = entries.four_ball_game(
        state.stage,
        state.teams,
        state.machines,
        state.derived.draw,
        record["team"],
        record["machine"],
        record["score"],
    )
    return replace(state, four_ball={**state.four_ball, seq: FourBallEntry(seq, game)}), set(TABLES)


def _penalty(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    late = record["type"] == "late_recorded"
    fid = record.get("fixture")
    team = state.team(record["team"])
    by, reason = str(record["by"]), str(record.get("reason", ""))
    if fid is None:
        if late:
            raise EntryNotAllowed("A late arrival is recorded for a match: give its fixture.")
        tilts = [p.penalty for p in state.penalties_of(None)]
        tilt = entries.four_ball_slam_tilt(state.stage, state.derived.draw, team, tilts, by, reason)
        entry = PenaltyEntry(seq, None, "qualifying", tilt)
        return replace(state, penalties={**state.penalties, seq: entry}), set(TABLES)
    fixture = state.fixture(fid)
    earlier = [p.penalty for p in state.penalties_of(str(fid))]
    opponent = entries.disqualify(state.stage, fixture, team, earlier)
    penalty: Penalty = (
        Late(team.id, opponent, _minutes(record), by, reason)
        if late
        else SlamTilt(team.id, opponent, by, reason)
    )
    stage = stage_of(fixture)
    entry = PenaltyEntry(seq, str(fid), stage, penalty)
    touched = FINAL_TABLES if stage == "final" else TABLES
    return replace(state, penalties={**state.penalties, seq: entry}), set(touched)


def _minutes(record: Record) -> int:
    """A late arrival's ``minutes``: a whole number of 0 or more (the rules judge it: more than
    ``late_minutes`` forfeits the match)."""
    minutes = record.get("minutes")
    if not isinstance(minutes, int) or isinstance(minutes, bool) or minutes < 0:
        raise InvalidScore(f"Minutes late must be a whole number, not {minutes!r}.")
    return minutes


def _playoff(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    stage: Stage = "final" if record.get("stage") == "final" else "qualifying"
    machine = record.get("machine")
    game = entries.playoff(
        state.stage,
        stage,
        state.derived.draw,
        state.teams,
        undecided(state, stage),
        [(item["team"], item["score"]) for item in record["scores"]],
    )
    on = None if machine is None else entries.machine_of(state.machines, machine, four_ball=True).id
    entry = PlayoffEntry(seq, stage, game, on)
    touched = FINAL_TABLES if stage == "final" else TABLES
    return replace(state, playoffs={**state.playoffs, seq: entry}), set(touched)


def _stage_advanced(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    to = record.get("stage")
    if to == "final":
        table, left = state.derived.qualifying, undecided(state, "qualifying")
        field = entries.start_final(state.stage, table, left, record.get("finalists"))
        return replace(state, stage="final", finalists=field), {EVERY_VIEW}
    if to == "complete":
        entries.check_final_over(state.stage, state.derived.final, undecided(state, "final"))
        return replace(state, stage="complete"), {"tournament", "country/final"}
    raise EntryNotAllowed(f"A stage is advanced to final or complete, not {to!r}.")


def voided_target(record: Record) -> int:
    """The seq of the record a ``record_voided`` voids: its ``voids`` field (``seq`` in logs
    written before it was renamed: an export writes each record's own seq beside its fields, and
    a field of that name stood in its place)."""
    return int(record["voids"] if "voids" in record else record["seq"])


def _voided(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    target = voided_target(record)
    entry: Entry | None = None
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
    entries.check_void(state.stage, stage)
    return new, set(FINAL_TABLES if stage == "final" else TABLES)


def _stage_reopened(state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
    """``stage_reopened``: stage (the one before the current), reason (``entries.reopen_stage``)."""
    games = [g for g in state.games.values() if stage_of(state.fixture(g.fixture)) == "final"]
    others = [e for e in state.penalties.values() if e.stage == "final"]
    playoffs = [e for e in state.playoffs.values() if e.stage == "final"]
    final_results = len(games) + len(others) + len(playoffs)
    stage = entries.reopen_stage(state.stage, record.get("stage"), final_results)
    if stage == "qualifying":
        return replace(state, stage=stage, finalists=()), {EVERY_VIEW}
    return replace(state, stage=stage), {EVERY_VIEW}


def _without(recorded: Mapping[int, T], seq: int) -> dict[int, T]:
    return {k: v for k, v in recorded.items() if k != seq}


def _entry_stage(state: CountryState, entry: Entry) -> Stage:
    if isinstance(entry, GameEntry):
        return stage_of(state.fixture(entry.fixture))
    if isinstance(entry, PenaltyEntry | PlayoffEntry):
        return entry.stage
    return "qualifying"


ELSEWHERE = {
    "score_recorded": "A Country Competition records a match's two machines at once, or a 4-ball "
    "game: use the Team entry page (/t/<tournament>/team-entry), not the steward page.",
    "player_added": "A Country Competition registers teams of players: add a team "
    "(POST /api/t/<tournament>/country/teams) instead of a single player.",
}
"""Records of the per-machine formats that the generic endpoints may send here: refused (409) with
where to go instead, rather than failing as an unknown record."""

HANDLERS: dict[str, Handler] = {
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
    "stage_reopened": _stage_reopened,
}
__all__ = ["HANDLERS", "apply", "rebuild"]
