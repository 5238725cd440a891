"""The JSON API. Reads need no sign-in; writes need a TD or steward token and accept
``Idempotency-Key``. Every write is validated against the replica at version V and appended at V+1
only if the log is still at V (architecture principle 2); the answer is sent after Redis acknowledged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display import desk_records, hall_auth, kinds, regression, throttle
from display.auth import Principal
from display.errors import ApiError
from display.schemas import (
    MachineIn,
    MachinesIn,
    PlayerIn,
    PlayersIn,
    ScoreIn,
    SettingsIn,
    SignIn,
    StewardIn,
    TournamentIn,
)
from display.store import VersionConflict, audit_problem, version_number
from scoring.errors import ScoringError
from scoring.tournament import check_score

if TYPE_CHECKING:  # services imports the replica, which imports the kinds, which import us
    from display.services import Services

MAX_ATTEMPTS = 20


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
        if await hall_auth.is_player_session(services(request).auth, request):
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
    precondition: Callable[[Any], None] | None = None,
) -> tuple[int, bool]:
    """``_write``; but when the rules or the precondition refuse a request whose Idempotency-Key
    a copy of it used meanwhile (the copy held the write lock, or another process won the
    compare-and-append), it answers as the copy did: the key is checked before anything else."""
    try:
        return await _write(request, tournament, new_records, create, precondition)
    except (ApiError, ScoringError) as refusal:
        key = request.headers.get("idempotency-key")
        if not key or (isinstance(refusal, ApiError) and refusal.status not in (403, 409, 412)):
            raise
        svc = services(request)
        seq = await svc.store.replayed(tournament, key, await request_fingerprint(request))
        if seq is None:
            raise
        await svc.replica.wait_for(tournament, seq)
        return seq, True


async def request_fingerprint(request: Request) -> str:
    """What an Idempotency-Key is bound to: the path and the body."""
    return hashlib.sha256(request.url.path.encode() + b"\0" + await request.body()).hexdigest()


async def _write(
    request: Request,
    tournament: str,
    new_records: list[dict[str, Any]],
    create: bool = False,
    precondition: Callable[[Any], None] | None = None,
) -> tuple[int, bool]:
    """Validate and append ``new_records``; returns (version of the last, replayed?).

    Records every kind shares (``desk_records``: display profiles) are validated there, the rest
    by the tournament's kind. Raises ScoringError (4xx) if the rules refuse, ApiError 404 for an
    unknown tournament. ``precondition(state)`` (e.g. an ``If-Match`` check) runs under the write
    lock against the kind's state each attempt validates against, after the Idempotency-Key
    check, and refuses by raising (ApiError 412…). A record without ``by``/``at`` (``stamp``) or a
    correction, void or penalty without ``reason`` is a programming error (RuntimeError).
    """
    for record in new_records:  # never bad input: the schemas require a reason, stamp() the rest
        if (problem := audit_problem(record)) is not None:
            raise RuntimeError(f"write() was given {problem}")
    svc = services(request)
    key = request.headers.get("idempotency-key") or None
    if key is not None and not 1 <= len(key) <= 200:
        raise ApiError(
            400, "invalid_idempotency_key", "An Idempotency-Key has 1 to 200 characters."
        )
    fingerprint = await request_fingerprint(request)
    if key is not None:
        seq = await svc.store.replayed(tournament, key, fingerprint)
        if seq is not None:
            await svc.replica.wait_for(tournament, seq)
            return seq, True
    async with svc.replica.write_lock(tournament):
        regression.refuse(svc, tournament)  # 503 while the store lost records (store-loss.md)
        for _ in range(MAX_ATTEMPTS):
            live = svc.replica.tournaments.get(tournament)
            if create:
                if live is not None:
                    raise ApiError(409, "duplicate", f"Tournament {tournament} already exists.")
                kinds.create(new_records[0])
                version = 0
            else:
                if live is None or live.kind is None:
                    raise ApiError(
                        404, "unknown_tournament", f"There is no tournament {tournament}."
                    )
                version, state, shared, touched = live.version, live.state, live.shared, set()
                if precondition is not None:  # under the lock: two writers cannot both pass
                    precondition(state)
                for offset, record in enumerate(new_records, start=1):
                    if desk_records.handles(record["type"]):  # shared by every kind (profiles)
                        shared, more = desk_records.apply(shared, record)
                    else:
                        state, more = live.kind.apply(state, version + offset, record)
                    touched |= more
            # Rules once per push: while the append is in flight the tail leaves this log to us (no
            # await between the append's answer and the ingest below, so it cannot slip in).
            svc.replica.appending.add(tournament)
            try:
                try:
                    appended = await svc.store.append(
                        tournament, version, new_records, key, fingerprint, register=create,
                        prev_hash=None if create else live.head_hash,
                    )  # fmt: skip
                finally:
                    svc.replica.appending.discard(tournament)
            except VersionConflict as conflict:
                if create:
                    raise ApiError(409, "duplicate", f"Tournament {tournament} exists.") from None
                await svc.replica.wait_for(tournament, conflict.version)
                continue
            if appended.replayed:  # a concurrent retry with the same key got in first
                await svc.replica.wait_for(tournament, appended.seq)
            elif not create:
                batch = appended.records(new_records)
                applied = (state, touched) if shared is live.shared else None
                svc.replica.ingest(tournament, batch, applied=applied)
            else:
                await svc.replica.wait_for(tournament, appended.seq)
            return appended.seq, appended.replayed
    raise ApiError(503, "busy", "The server is very busy; send the same request again.")


def written(seq: int, replayed: bool, payload: dict[str, Any], status: int = 201) -> Response:
    headers = {"Idempotent-Replayed": "true"} if replayed else {}
    return JSONResponse({"version": seq, **payload}, status_code=status, headers=headers)


def stamp(principal: Principal, record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "by": f"{principal.role}:{principal.name}", "at": now()}


async def sign_in(request: Request) -> Response:
    data = await body(request, SignIn)
    secret = data.password if data.role == "td" else data.pin
    if not secret:
        raise ApiError(422, "invalid_request", "Give the password (TD) or PIN (steward).")
    if data.role == "steward" and (not data.tournament or not data.name):
        raise ApiError(422, "invalid_request", "A steward signs in with tournament, name and PIN.")
    account = throttle.account_for(request, data.role, data.tournament, data.name)
    async with throttle.guard(request, account):  # 429 while guessing; failures listed for the TD
        token = await services(request).auth.sign_in(data.role, secret, data.tournament, data.name)
    return JSONResponse({"token": token, "role": data.role, "tournament": data.tournament})


async def list_formats(request: Request) -> Response:
    return JSONResponse({"formats": kinds.formats()})


async def create_tournament(request: Request) -> Response:
    principal = await signed_in(request, None, td_only=True)
    data = await body(request, TournamentIn)
    record = stamp(
        principal,
        {"type": "tournament_created", "name": data.name, "format": data.format,
         "settings": data.settings},
    )  # fmt: skip
    seq, replayed = await write(request, data.id, [record], create=True)
    return written(seq, replayed, {"id": data.id})


async def list_tournaments(request: Request) -> Response:
    svc = services(request)
    return JSONResponse({"tournaments": [svc.summary(tid) for tid in svc.replica.tournaments]})


async def get_tournament(request: Request) -> Response:
    svc = services(request)
    return JSONResponse(svc.summary(live_or_404(request).id))


def live_or_404(request: Request) -> Any:
    tid = request.path_params["tournament"]
    live = services(request).replica.tournaments.get(tid)
    if live is None or live.kind is None:
        raise ApiError(404, "unknown_tournament", f"There is no tournament {tid}.")
    return live


async def add_players(request: Request) -> Response:
    tid = request.path_params["tournament"]
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, (PlayerIn, PlayersIn))
    players = data.players if isinstance(data, PlayersIn) else [data]
    new = [stamp(principal, {"type": "player_added", "player": p.model_dump()}) for p in players]
    seq, replayed = await write(request, tid, new)
    return written(seq, replayed, {"players": [p.number for p in players]})


async def add_machines(request: Request) -> Response:
    tid = request.path_params["tournament"]
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, (MachineIn, MachinesIn))
    machines = data.machines if isinstance(data, MachinesIn) else [data]
    new = [stamp(principal, {"type": "machine_added", "machine": m.model_dump()}) for m in machines]
    seq, replayed = await write(request, tid, new)
    return written(seq, replayed, {"machines": [m.id for m in machines]})


async def change_settings(request: Request) -> Response:
    """TD: change settings mid-tournament (e.g. close Classic qualifying); standings are rebuilt
    from every entry under the new settings, and refused if an entry would then break a rule."""
    tid = request.path_params["tournament"]
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, SettingsIn)
    record = stamp(principal, {"type": "settings_changed", "settings": data.settings})
    seq, replayed = await write(request, tid, [record])
    return written(seq, replayed, {"settings": data.settings})


async def add_steward(request: Request) -> Response:
    tid = live_or_404(request).id
    await signed_in(request, tid, td_only=True)
    data = await body(request, StewardIn)
    pin = await services(request).auth.issue_steward(tid, data.name)
    return JSONResponse({"tournament": tid, "name": data.name, "pin": pin}, status_code=201)


async def push_score(request: Request) -> Response:
    tid = request.path_params["tournament"]
    principal = await signed_in(request, tid)
    data = await body(request, ScoreIn)
    check_score(data.score)
    record = stamp(
        principal,
        {"type": "score_recorded", "player": data.player, "machine": data.machine,
         "score": data.score},
    )  # fmt: skip
    seq, replayed = await write(request, tid, [record])
    # A replay answers with the record first written under its key; a fresh write has it in hand.
    stored = await services(request).store.record(tid, seq) if replayed else record
    return written(seq, replayed, {"record": stored})


async def get_views(request: Request) -> Response:
    live = live_or_404(request)
    return JSONResponse({"version": live.version, "views": live.views})


async def get_view(request: Request) -> Response:
    live = live_or_404(request)
    name = request.path_params["name"]
    if name not in live.views:
        raise ApiError(404, "unknown_view", f"There is no view {name}.")
    return JSONResponse({"version": live.version, "view": live.views[name]})


async def get_log(request: Request) -> Response:
    live = live_or_404(request)
    after = version_number(request.query_params.get("after", "0"))
    if after is None:  # no "-1", "²", 10^30 for Redis
        raise ApiError(400, "invalid_request", "after must be a version number: 0, 1, 2 …")
    found = await services(request).store.read(live.id, after, count=10_000)
    return JSONResponse({"records": [{"seq": r.seq, **r.data} for r in found]})


routes = [
    Route("/api/session", sign_in, methods=["POST"]),
    Route("/api/formats", list_formats, methods=["GET"]),
    Route("/api/tournaments", list_tournaments, methods=["GET"]),
    Route("/api/tournaments", create_tournament, methods=["POST"]),
    Route("/api/t/{tournament}", get_tournament, methods=["GET"]),
    Route("/api/t/{tournament}/players", add_players, methods=["POST"]),
    Route("/api/t/{tournament}/machines", add_machines, methods=["POST"]),
    Route("/api/t/{tournament}/stewards", add_steward, methods=["POST"]),
    Route("/api/t/{tournament}/settings", change_settings, methods=["POST"]),
    Route("/api/t/{tournament}/scores", push_score, methods=["POST"]),
    Route("/api/t/{tournament}/views", get_views, methods=["GET"]),
    Route("/api/t/{tournament}/views/{name:path}", get_view, methods=["GET"]),
    Route("/api/t/{tournament}/log", get_log, methods=["GET"]),
]
