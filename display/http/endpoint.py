"""What every endpoint needs, the core's and each competition's: the request's services, its
JSON body, who signed in, stamping and writing records through the writer, the 201 answer, the
path's tournament. Endpoints import these, never one another."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TypeVar, overload

import orjson
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from display.errors import ApiError
from display.http import player_auth
from display.http.auth import Principal
from display.live.tournament import LiveTournament
from display.log.store import IdempotencyMismatch
from display.log.writer import Precondition, signed_out
from display.services import Services
from display.types import Record
from scoring.errors import ScoringError

Model = TypeVar("Model", bound=BaseModel)
Other = TypeVar("Other", bound=BaseModel)


def services(request: Request) -> Services:
    """The server's ``Services`` (``display.app`` puts them on the app's state at start-up)."""
    svc: Services = request.app.state.services  # Starlette's state is untyped
    return svc


@overload
async def body(request: Request, model: type[Model]) -> Model: ...
@overload
async def body(request: Request, model: tuple[type[Model], type[Other]]) -> Model | Other: ...
async def body(
    request: Request, model: type[BaseModel] | tuple[type[BaseModel], type[BaseModel]]
) -> BaseModel:
    """The request's JSON body (none: ``{}``) validated as ``model``; a pair ``(one, many)``
    takes ``many`` when the body holds ``players`` or ``machines`` (a list of them), else
    ``one``. Raises ApiError 415 ``not_json`` for a body sent as another media type (a form, a
    text: RFC 9110 15.5.16; no ``Content-Type`` at all is taken as JSON), 400 ``invalid_json``
    (also for an object naming a key twice, which parsers read differently: RFC 8259 4),
    pydantic's ValidationError (422)."""
    raw = await request.body()
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if raw and media and not (media == "application/json" or media.endswith("+json")):
        raise ApiError(
            415, "not_json", f"Send the body as application/json (it came as {media[:100]})."
        )
    try:
        data = orjson.loads(raw or b"{}")
        if raw.count(b":") > 1:  # an object with more than one key: look for a repeated one
            json.loads(raw, object_pairs_hook=_unique_keys)
    except orjson.JSONDecodeError as exc:
        raise ApiError(400, "invalid_json", f"The request body is not valid JSON ({exc}).") from exc
    except DuplicateKey as exc:
        raise ApiError(
            400, "invalid_json", f"The request body names {str(exc)[:100]!r} twice."
        ) from None
    models = model if isinstance(model, tuple) else (model,)
    if len(models) > 1 and isinstance(data, dict):
        key = next((k for k in ("players", "machines") if k in data), None)
        chosen = models[1] if key else models[0]
        return chosen.model_validate(data)
    return models[0].model_validate(data)


class DuplicateKey(ValueError):
    """A JSON object names a key twice (its message: the key)."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """``json.loads``'s object hook: the object, or DuplicateKey for a key named twice."""
    found: dict[str, object] = {}
    for key, value in pairs:
        if key in found:
            raise DuplicateKey(key)
        found[key] = value
    return found


async def staff(request: Request, for_write: bool = False) -> Principal | None:
    """The steward or TD who signed the request (its ``Authorization: Bearer`` token), or None.

    The session goes with the request's ``write`` to the writer, which checks it in the append
    itself (on a store that ``checks_sessions``). ``for_write``: the endpoint's only effect is
    that ``write``, so a principal this process read within ``SEEN_EVERY`` seconds stands
    without a read of its own (``display/http/auth.py``, "Sessions"); an endpoint that reads,
    or changes anything else, leaves it False."""
    svc = services(request)
    header = request.headers.get("authorization")
    checked = svc.store.checks_sessions
    principal = await svc.auth.principal(header, recent=for_write and checked)
    if principal is not None and checked:
        request.state.write_session = svc.auth.session_key(header)
    return principal


async def signed_in(
    request: Request, tournament: str | None, td_only: bool = False, *, for_write: bool = False
) -> Principal:
    """Who signed the request (``staff``; ``for_write`` as there), allowed to write to
    ``tournament`` (None: any) and, with ``td_only``, the TD. Raises ApiError 401
    ``sign_in_required``, 403 ``players_may_not`` (a player's token), ``td_only``,
    ``wrong_tournament``."""
    principal = await staff(request, for_write)
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
    """Server time for a record's ``at``: ISO 8601 UTC to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


async def write(
    request: Request,
    tournament: str,
    new_records: Sequence[Record],
    create: bool = False,
    precondition: Precondition | None = None,
) -> tuple[int, bool]:
    """Commit ``new_records`` through the writer (``display/log/writer.py``) with the request's
    ``Idempotency-Key``, bound to its path and body, and its session (``staff``), which the
    append checks; returns (version of the last, replayed?). A write refused while its session
    has ended is answered 401 (``signed_out``), so a sign-in that ended learns nothing of the
    tournament from the refusal."""
    svc = services(request)
    session: str | None = getattr(request.state, "write_session", None)
    try:
        committed = await svc.writer.commit(
            tournament,
            new_records,
            key=request.headers.get("idempotency-key") or None,
            fingerprint=await request_fingerprint(request),
            precondition=precondition,
            create=create,
            session=session,
        )
    except (ApiError, ScoringError, IdempotencyMismatch):  # a refusal, not Redis failing
        if session is not None and not await svc.auth.session_exists(session):
            raise signed_out() from None
        raise
    return committed.version, committed.replayed


async def request_fingerprint(request: Request) -> str:
    """What an Idempotency-Key is bound to: the path and the body."""
    return hashlib.sha256(request.url.path.encode() + b"\0" + await request.body()).hexdigest()


def written(seq: int, replayed: bool, payload: Mapping[str, object], status: int = 201) -> Response:
    """The answer to a write: ``{"version": seq, **payload}`` with ``status``, and
    ``Idempotent-Replayed: true`` when an earlier request with its key wrote it."""
    headers = {"Idempotent-Replayed": "true"} if replayed else {}
    return JSONResponse({"version": seq, **payload}, status_code=status, headers=headers)


async def written_record(
    request: Request, tournament: str, record: Record, seq: int, replayed: bool
) -> Response:
    """``written`` for a write of one ``record`` at ``seq``: ``{"version", "record"}``. A replay
    answers with the record first written under its key (read from the log); a fresh write has
    it in hand."""
    stored = await services(request).store.record(tournament, seq) if replayed else record
    return written(seq, replayed, {"record": stored})


def stamp(principal: Principal, record: Record) -> Record:
    """``record`` with its audit fields: ``by`` (``role:name``) and ``at`` (``now()``)."""
    return {**record, "by": f"{principal.role}:{principal.name}", "at": now()}


def live_or_404(request: Request) -> LiveTournament:
    """The path's ``{tournament}``, created. Raises ApiError 404 ``unknown_tournament``."""
    tid = request.path_params["tournament"]
    live = services(request).replica.tournaments.get(tid)
    if live is None or live.kind is None:
        raise ApiError(404, "unknown_tournament", f"There is no tournament {tid}.")
    return live
