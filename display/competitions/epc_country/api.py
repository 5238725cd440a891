"""HTTP endpoints of the Country Competition (``/api/t/{tid}/country/...``); each writes records
through ``display.http.endpoint.write`` (validated against the live state, appended at V+1, Idempotency-Key
honoured). Bodies and answers are listed in ``display.competitions.epc_country.kind``'s docstring.
"""

from __future__ import annotations

import contextlib
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from display.competitions.epc_country.records import voided_target
from display.competitions.epc_country.state import CountryState
from display.errors import ApiError
from display.http import endpoint, preconditions
from display.http.schemas import Body, Id, Name
from display.live.tournament import LiveTournament
from display.types import Record
from scoring.epc.country import finalists
from scoring.errors import EntryNotAllowed

KIND_NAME = "epc_country"
Text = Annotated[str, Field(max_length=200)]
Score = Annotated[object, Field(description="whole number, 0 … 9007199254740991")]
"""A score as the steward typed it: any JSON value, so that the rules (not the schema) refuse a bad
one, with the rules' message (``scoring.epc.country.match.check_score``)."""
Answer = dict[str, object]
"""The fields a write's answer adds to ``{"version": n}``."""


class Raw(BaseModel):
    """A JSON object of any fields, to choose between one team and ``{"teams": [...]}``."""

    model_config = ConfigDict(extra="allow")


class TeamIn(Body):
    """A team: ``seed`` 1..20 for the draw, absent for a reserve team; ``players`` by name."""

    id: Id
    name: Name
    seed: int | None = Field(None, ge=1, le=1000)
    players: list[Name] = Field(min_length=1, max_length=8)


class TeamsIn(Body):
    """Several teams at once: all registered, or none."""

    teams: list[TeamIn] = Field(min_length=1, max_length=200)


class ReplacementIn(Body):
    """A reserve team takes a withdrawn team's seed and group."""

    withdrawn: Id
    reserve: Id
    reason: Text = ""


class CountryMachineIn(Body):
    """A machine; ``four_ball`` marks one of the two 4-ball machines."""

    id: Id
    name: Name
    four_ball: bool = False


class CountryMachinesIn(Body):
    """Several machines at once."""

    machines: list[CountryMachineIn] = Field(min_length=1, max_length=100)


class ScoreLine(Body):
    """One player's score in a match game (``player``: a name of the team's, may be empty)."""

    team: Id
    player: Annotated[str, Field(max_length=80)] = ""
    score: Score


class GameIn(Body):
    """One machine of a match: four scores, two from each team."""

    machine: Id
    scores: list[ScoreLine] = Field(min_length=1, max_length=8)


class GamesIn(Body):
    """One match's games: one machine, or both at once (written together or not at all)."""

    fixture: Annotated[str, Field(min_length=1, max_length=40)]
    games: list[GameIn] = Field(min_length=1, max_length=2)


class FourBallIn(Body):
    """A team's one-player 4-ball game."""

    team: Id
    machine: Id
    score: Score


class PenaltyIn(Body):
    """``late`` (a match; ``minutes`` after the call) or ``slam_tilt`` (a match, or without
    ``fixture`` the team's 4-ball game)."""

    type: Literal["late", "slam_tilt"]
    team: Id
    fixture: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    minutes: int | None = Field(None, ge=0, le=100_000)
    reason: Annotated[str, Field(min_length=1, max_length=200)]


class PlayoffScore(Body):
    """One tied team's play-off score."""

    team: Id
    score: Score


class PlayoffIn(Body):
    """A play-off game between tied teams; ``stage`` defaults to the stage now on."""

    stage: Literal["qualifying", "final"] | None = None
    scores: list[PlayoffScore] = Field(min_length=2, max_length=20)
    machine: Id | None = None


class StageIn(Body):
    """The stage to advance to."""

    stage: Literal["final", "complete"]


class ReopenIn(Body):
    """The stage before the current one to reopen (EPC 2009, EPC Country Competition; the final's
    start, or its completion, taken back), and why."""

    stage: Literal["qualifying", "final"]
    reason: Annotated[str, Field(min_length=1, max_length=200)]


class VoidIn(Body):
    """The record (by its seq) to void, and why."""

    seq: int = Field(ge=1)
    reason: Annotated[str, Field(min_length=1, max_length=200)]


def country(request: Request) -> LiveTournament:
    """The path's live tournament if it runs the Country Competition (its ``state`` a
    ``CountryState``), else ApiError 404."""
    live: LiveTournament = endpoint.live_or_404(request)
    if getattr(live.kind, "name", None) != KIND_NAME:
        raise ApiError(
            404, "not_country", f"{live.id} is not an EPC Country Competition tournament."
        )
    return live


async def _write(
    request: Request, td_only: bool, records: list[Record], payload: Answer
) -> Response:
    live = country(request)
    principal = await endpoint.signed_in(request, live.id, td_only=td_only)
    stamped = [endpoint.stamp(principal, r) for r in records]
    seq, replayed = await endpoint.write(request, live.id, stamped)
    return endpoint.written(seq, replayed, payload)


async def add_teams(request: Request) -> Response:
    """TD: register one team or ``{"teams": [...]}`` (``team_added`` records)."""
    country(request)
    raw = await endpoint.body(request, Raw)
    teams = (
        TeamsIn.model_validate(raw.model_extra).teams
        if "teams" in (raw.model_extra or {})
        else [TeamIn.model_validate(raw.model_extra)]
    )
    records = [
        {
            "type": "team_added",
            "team": t.model_dump(exclude_none=True),
            "reserve": t.seed is None,
        }
        for t in teams
    ]
    return await _write(request, True, records, {"teams": [t.id for t in teams]})


async def replace_team(request: Request) -> Response:
    """TD: a reserve team takes a withdrawn team's seed (``team_replaced``)."""
    country(request)
    data = await endpoint.body(request, ReplacementIn)
    record = {"type": "team_replaced", **data.model_dump()}
    return await _write(request, True, [record], {"withdrawn": data.withdrawn})


async def add_machines(request: Request) -> Response:
    """TD: machines, the 4-ball ones flagged (``machine_added``)."""
    country(request)
    data = await endpoint.body(request, (CountryMachineIn, CountryMachinesIn))
    machines = data.machines if isinstance(data, CountryMachinesIn) else [data]
    records = [{"type": "machine_added", "machine": m.model_dump()} for m in machines]
    return await _write(request, True, records, {"machines": [m.id for m in machines]})


async def record_games(request: Request) -> Response:
    """Steward: one or both machines of a match (``match_game_recorded`` each)."""
    country(request)
    data = await endpoint.body(request, GamesIn)
    records = [
        {
            "type": "match_game_recorded",
            "fixture": data.fixture,
            "machine": g.machine,
            "scores": [s.model_dump() for s in g.scores],
        }
        for g in data.games
    ]
    return await _write(request, False, records, {"fixture": data.fixture})


async def record_four_ball(request: Request) -> Response:
    """Steward: a team's 4-ball game (``four_ball_recorded``)."""
    country(request)
    data = await endpoint.body(request, FourBallIn)
    record = {"type": "four_ball_recorded", **data.model_dump()}
    return await _write(request, False, [record], {"team": data.team})


async def record_penalty(request: Request) -> Response:
    """TD: a late team or a slam tilt (``late_recorded``, ``slam_tilt_recorded``)."""
    country(request)
    data = await endpoint.body(request, PenaltyIn)
    record: Record = {"type": f"{data.type}_recorded", "team": data.team}
    if data.fixture is not None:
        record["fixture"] = data.fixture
    if data.type == "late":
        if data.minutes is None:
            raise ApiError(422, "invalid_request", "Say how many minutes late the team was.")
        record["minutes"] = data.minutes
    record["reason"] = data.reason
    return await _write(request, True, [record], {"team": data.team})


async def record_playoff(request: Request) -> Response:
    """Steward: a play-off game between tied teams (``playoff_recorded``)."""
    state: CountryState = country(request).state
    data = await endpoint.body(request, PlayoffIn)
    stage = data.stage or ("final" if state.stage != "qualifying" else "qualifying")
    record: Record = {
        "type": "playoff_recorded",
        "stage": stage,
        "scores": [s.model_dump() for s in data.scores],
    }
    if data.machine is not None:
        record["machine"] = data.machine
    return await _write(request, False, [record], {"stage": stage})


async def advance_stage(request: Request) -> Response:
    """TD: start the final (the record names the finalists) or complete it (``stage_advanced``)."""
    state: CountryState = country(request).state
    data = await endpoint.body(request, StageIn)
    record: Record = {"type": "stage_advanced", "stage": data.stage}
    payload: Answer = {"stage": data.stage}
    table = state.derived.qualifying
    if data.stage == "final" and table is not None and state.stage == "qualifying":
        with contextlib.suppress(EntryNotAllowed):  # the record is then refused with the reason
            record["finalists"] = payload["finalists"] = [f.team for f in finalists(table)]
    return await _write(request, True, [record], payload)


async def reopen_stage(request: Request) -> Response:
    """TD: reopen the stage before the current one (``stage_reopened``): ``{"stage", "reason"}``;
    409 while the final has results recorded (void them first)."""
    country(request)
    data = await endpoint.body(request, ReopenIn)
    record = {"type": "stage_reopened", "stage": data.stage, "reason": data.reason}
    return await _write(request, True, [record], {"stage": data.stage})


def record_version(state: CountryState, target: int) -> int | None:
    """The version of record ``target`` (a game, 4-ball game, penalty or play-off), named by a
    void's ``If-Match``: its own seq while it stands (such records are never changed, only voided
    and entered again), the seq of the ``record_voided`` that voided it, None for neither."""
    if any(target in entries for entries in (state.games, state.four_ball, state.penalties,
                                             state.playoffs)):  # fmt: skip
        return target
    voids = (
        seq for seq, r in state.log if r["type"] == "record_voided" and voided_target(r) == target
    )
    return next(voids, None)


async def void_record(request: Request) -> Response:
    """TD: void a game, 4-ball game, penalty or play-off (``record_voided``): ``{"seq", "reason"}``
    with ``If-Match: "<its version>"`` (``record_version``; 428 without it, 412
    ``entry_changed`` when another TD voided it meanwhile). Answers ``{"version", "voided",
    "entry": {"seq", "version"}}`` and the new version as the ``ETag``."""
    live = country(request)
    data = await endpoint.body(request, VoidIn)
    principal = await endpoint.signed_in(request, live.id, td_only=True)
    record = endpoint.stamp(
        principal, {"type": "record_voided", "voids": data.seq, "reason": data.reason}
    )
    check = preconditions.precondition(
        request.headers.get("if-match"), lambda state: record_version(state, data.seq), "record"
    )
    seq, replayed = await endpoint.write(request, live.id, [record], precondition=check)
    answer = {"voided": data.seq, "entry": {"seq": data.seq, "version": seq}}
    return preconditions.tagged(endpoint.written(seq, replayed, answer), seq)


PREFIX = "/api/t/{tournament}/country"
routes: list[BaseRoute] = [
    Route(f"{PREFIX}/teams", add_teams, methods=["POST"]),
    Route(f"{PREFIX}/replacements", replace_team, methods=["POST"]),
    Route(f"{PREFIX}/machines", add_machines, methods=["POST"]),
    Route(f"{PREFIX}/games", record_games, methods=["POST"]),
    Route(f"{PREFIX}/four-ball", record_four_ball, methods=["POST"]),
    Route(f"{PREFIX}/penalties", record_penalty, methods=["POST"]),
    Route(f"{PREFIX}/playoffs", record_playoff, methods=["POST"]),
    Route(f"{PREFIX}/stage", advance_stage, methods=["POST"]),
    Route(f"{PREFIX}/void", void_record, methods=["POST"]),
    Route(f"{PREFIX}/reopen", reopen_stage, methods=["POST"]),
]
