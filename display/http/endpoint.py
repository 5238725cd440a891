"""What every endpoint needs, the core's and each competition's: the request's services, its
JSON body, who signed in, stamping and writing records through the writer, the 201 answer, the
path's tournament. Endpoints import these, never one another."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

import orjson
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from display.errors import ApiError
from display.http import player_auth
from display.http.auth import Principal
from display.log.writer import Precondition
from display.services import Services


def services(request: Request) -> Services:
    svc: Services = request.app.state.services
    return svc


async def body(request: Request, model: type[BaseModel] | tuple[type[BaseModel], ...]) -> Any:
    raw = await request.body()
    try:
        data = orjson.loads(raw or b"{}")
    except orjson.JSONDecodeError as exc:
        raise ApiError(400, "invalid_json", f"The request body is not valid JSON ({exc}).") from exc
    models = model if isinstance(model, tuple) else (model,)
    if len(models) > 1 and isinstance(data, dict):
        key = next((k for k in ("players", "machines") if k in data), None)
        chosen = models[1] if key else models[0]
        return chosen.model_validate(data)
    return models[0].model_validate(data)


async def signed_in(request: Request, tournament: str | None, td_only: bool = False) -> Principal:
    principal = await services(request).auth.principal(request.headers.get("authorization"))
    if principal is None:
        if await player_auth.is_player_session(services(request).auth, request):
            raise ApiError(
                403, "players_may_not", "A player's sign-in cannot do this; a steward or TD can."
            )
        raise ApiError(
            401, "sign_in_required", "Sign in first: this needs a steward or TD sign-in."
        )
    if td_only and principal.role != "td":
        raise ApiError(403, "td_only", "Only the tournament director (TD) can do this.")
    if tournament is not None and not principal.may_write(tournament):
        raise ApiError(403, "wrong_tournament", "Your sign-in is for another tournament.")
    return principal


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


async def write(
    request: Request,
    tournament: str,
    new_records: list[dict[str, Any]],
    create: bool = False,
    precondition: Precondition | None = None,
) -> tuple[int, bool]:
    """Commit ``new_records`` through the writer (``display/log/writer.py``) with the request's
    ``Idempotency-Key``, bound to its path and body; returns (version of the last, replayed?)."""
    committed = await services(request).writer.commit(
        tournament,
        new_records,
        key=request.headers.get("idempotency-key") or None,
        fingerprint=await request_fingerprint(request),
        precondition=precondition,
        create=create,
    )
    return committed.version, committed.replayed


async def request_fingerprint(request: Request) -> str:
    """What an Idempotency-Key is bound to: the path and the body."""
    return hashlib.sha256(request.url.path.encode() + b"\0" + await request.body()).hexdigest()


def written(seq: int, replayed: bool, payload: dict[str, Any], status: int = 201) -> Response:
    headers = {"Idempotent-Replayed": "true"} if replayed else {}
    return JSONResponse({"version": seq, **payload}, status_code=status, headers=headers)


def stamp(principal: Principal, record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "by": f"{principal.role}:{principal.name}", "at": now()}


def live_or_404(request: Request) -> Any:
    tid = request.path_params["tournament"]
    live = services(request).replica.tournaments.get(tid)
    if live is None or live.kind is None:
        raise ApiError(404, "unknown_tournament", f"There is no tournament {tid}.")
    return live
