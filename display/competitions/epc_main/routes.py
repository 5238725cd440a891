"""API endpoints and pages of the EPC stages (main tournament, Classic, Kids).

Every endpoint is TD-only, writes one record through ``display.http.endpoint.write`` (validated against the
live state, compare-and-append, ``Idempotency-Key``) and answers 201 ``{"version", "record"}``.
Stage scores need no endpoint of their own: stewards push them with ``POST /api/t/{t}/scores``
(the kind reads a score after qualifying as a stage game).

| endpoint                          | body                                   | record            |
|-----------------------------------|----------------------------------------|-------------------|
| POST /api/t/{t}/epc/stage         | {stage, machines?, pairs?, override?}  | stage_advanced    |
| POST /api/t/{t}/epc/pairs         | {pairs: [[seed, seed], …]}             | pairs_set         |
| POST /api/t/{t}/epc/registrations | {player, round, present?}              | registered        |
| POST /api/t/{t}/epc/rounds        | {round}                                | round_started     |
| POST /api/t/{t}/epc/playoffs      | {tie, order: [players best first]}     | playoff_recorded  |
| POST /api/t/{t}/epc/close         | {}                                     | qualifying_closed |
| POST /api/t/{t}/epc/faults        | {machine, repairable, replacement?, replacement_name?} | machine_fault |
| POST /api/t/{t}/epc/reopen        | {stage, reason}                        | stage_reopened    |
| POST /api/t/{t}/epc/reseed        | {reason}                               | reseeded          |

Pages: ``/t/{t}/stages`` (the TD's stage desk: sign in, then a button for every step) and
``/t/{t}/epc`` (the same live stage picture for players' phones, without the buttons).
"""

from __future__ import annotations

from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from display.errors import ApiError
from display.http.endpoint import body, live_or_404, services, signed_in, stamp, write, written
from display.http.pages import tournament_page
from display.http.schemas import Body, Id, Name

EPC_FORMATS = ("epc-main", "epc-classic", "epc-kids")


class StageIn(Body):
    """The next stage and, where it has them, its machines and the TD's pairs; ``override``
    starts the quarter-finals although qualifying games are in progress."""

    stage: str = Field(max_length=20)
    machines: list[Id] | dict[str, Id] | None = None
    pairs: list[list[int]] | None = None
    override: bool | None = None


class PairsIn(Body):
    """Quarter-final partners by seed, ``[[seed, seed], …]`` (EPC 2009, EPC Quarter-Finals)."""

    pairs: list[list[int]] = Field(min_length=1, max_length=512)


class RegistrationIn(Body):
    """A qualifier or stand-by re-registered for quarter-final ``round`` 1 or 2 (``present`` False
    takes the mark back) (EPC 2009, EPC Quarter-Finals)."""

    player: Id
    round: int = Field(ge=1, le=2)
    present: bool = True


class RoundIn(Body):
    """Quarter-final ``round`` 1 (group B) or 2 (group A) starts: each vacancy goes to the next
    stand-by present (EPC 2009, EPC Quarter-Finals)."""

    round: int = Field(ge=1, le=2)


class PlayoffIn(Body):
    """The tied players of ``tie`` (``PLAYOFF_TIES``: "qualifying", "quarterfinal" or a four-player
    game's key) in their play-off order, best first."""

    tie: str = Field(max_length=20)
    order: list[Id] = Field(min_length=1, max_length=64)


class CloseIn(Body):
    """Nothing: Classic or Kids qualifying closes now."""

    pass


class FaultIn(Body):
    """A Classic machine fault: ``repairable`` (scores stand), else closed, or replaced when it
    has fewer than 10 scores and a ``replacement`` is given (EPC 2009, EPC Classic Tournament)."""

    machine: Id
    repairable: bool = False
    replacement: Id | None = None
    replacement_name: Name | None = None


class ReopenIn(Body):
    """The stage before the current one, and why it is reopened (for the audit page)."""

    stage: str = Field(max_length=20)
    reason: str = Field(min_length=1, max_length=200)


class ReseedIn(Body):
    """Why the quarter-finals' seeding is made again from the qualifying standings as they are now
    (EPC 2009, EPC Quarter-Finals; for the audit page)."""

    reason: str = Field(min_length=1, max_length=200)


async def _one(request: Request, model: type[BaseModel], kind: str) -> Response:
    tid = request.path_params["tournament"]
    principal = await signed_in(request, tid, td_only=True)
    fmt = live_or_404(request).views.get("tournament", {}).get("format")
    if fmt not in EPC_FORMATS:
        raise ApiError(409, "wrong_format", f"Tournament {tid} is a {fmt}; this is for the EPC.")
    data = await body(request, model)
    fields = {k: v for k, v in data.model_dump().items() if v is not None}
    record = stamp(principal, {"type": kind, **fields})
    seq, replayed = await write(request, tid, [record])
    stored = await services(request).store.record(tid, seq)
    return written(seq, replayed, {"record": stored})


async def advance_stage(request: Request) -> Response:
    """TD: start the next stage (EPC 2009: quarter-finals, semi-finals, finals, complete)."""
    return await _one(request, StageIn, "stage_advanced")


async def set_pairs(request: Request) -> Response:
    """TD: the quarter-final partners by seed (EPC 2009, EPC Quarter-Finals)."""
    return await _one(request, PairsIn, "pairs_set")


async def register(request: Request) -> Response:
    """TD: a qualifier or stand-by re-registered for a round (EPC 2009, EPC Quarter-Finals)."""
    return await _one(request, RegistrationIn, "registered")


async def start_round(request: Request) -> Response:
    """TD: a quarter-final round's deadline passed; vacancies are filled."""
    return await _one(request, RoundIn, "round_started")


async def playoff(request: Request) -> Response:
    """TD: the order of tied players after their play-off, best first."""
    return await _one(request, PlayoffIn, "playoff_recorded")


async def close(request: Request) -> Response:
    """TD: close qualifying now (EPC 2009, EPC Classic Tournament; Kids; for the main event, EPC
    Qualifying: games started before the close may finish, then the quarter-finals start)."""
    return await _one(request, CloseIn, "qualifying_closed")


async def fault(request: Request) -> Response:
    """TD: a Classic machine fault (EPC 2009, EPC Classic Tournament)."""
    return await _one(request, FaultIn, "machine_fault")


async def reopen(request: Request) -> Response:
    """TD: reopen the stage before the current one (EPC 2009: the stages run in order)."""
    return await _one(request, ReopenIn, "stage_reopened")


async def reseed(request: Request) -> Response:
    """TD: make the quarter-final seeding again from the qualifying standings now."""
    return await _one(request, ReseedIn, "reseeded")


stages_page = tournament_page(
    "The stages page: the TD's desk (buttons for every stage record).",
    "competitions/epc_main/stages.html",
    public=False,
)

public_stages_page = tournament_page(
    "The stages page as the players' picture, without buttons.",
    "competitions/epc_main/stages.html",
    public=True,
)


routes = [
    Route("/api/t/{tournament}/epc/stage", advance_stage, methods=["POST"]),
    Route("/api/t/{tournament}/epc/pairs", set_pairs, methods=["POST"]),
    Route("/api/t/{tournament}/epc/registrations", register, methods=["POST"]),
    Route("/api/t/{tournament}/epc/rounds", start_round, methods=["POST"]),
    Route("/api/t/{tournament}/epc/playoffs", playoff, methods=["POST"]),
    Route("/api/t/{tournament}/epc/close", close, methods=["POST"]),
    Route("/api/t/{tournament}/epc/faults", fault, methods=["POST"]),
    Route("/api/t/{tournament}/epc/reopen", reopen, methods=["POST"]),
    Route("/api/t/{tournament}/epc/reseed", reseed, methods=["POST"]),
    Route("/t/{tournament}/stages", stages_page, methods=["GET"]),
    Route("/t/{tournament}/epc", public_stages_page, methods=["GET"]),
]
