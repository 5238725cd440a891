"""The core JSON API: sign-in, tournaments, players, machines, settings, stewards, scores, views
and the log. Reads need no sign-in; writes need a TD or steward token and accept
``Idempotency-Key``. Every write is validated against the replica at version V and appended at V+1
only if the log is still at V (architecture principle 2); the answer is sent after Redis acknowledged.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display import competitions
from display.errors import ApiError
from display.http import names, throttle
from display.http.endpoint import (
    body,
    live_or_404,
    services,
    signed_in,
    stamp,
    write,
    written,
    written_record,
)
from display.http.schemas import (
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
from display.live.tournament import LiveTournament
from display.log.store import version_number
from display.types import Json
from scoring.rollover import true_score


async def sign_in(request: Request) -> Response:
    """``POST /api/session`` (``SignIn``): ``{token, role, tournament}``, and a steward's
    ``name`` as issued (matched without regard to case). ApiError 401 on a wrong one, 429."""
    data = await body(request, SignIn)
    secret = data.password if data.role == "td" else data.pin
    if not secret:
        raise ApiError(422, "invalid_request", "Give the password (TD) or PIN (steward).")
    if data.role == "steward" and (not data.tournament or not data.name):
        raise ApiError(422, "invalid_request", "A steward signs in with tournament, name and PIN.")
    auth, name = services(request).auth, data.name
    if data.role == "steward" and data.tournament:
        name = await auth.steward_name(data.tournament, name)  # "sam" is steward "Sam"
    account = throttle.account_for(request, data.role, data.tournament, name)
    async with throttle.guard(request, account):  # 429 while guessing; failures listed for the TD
        token = await auth.sign_in(data.role, secret, data.tournament, name)
    answer = {"token": token, "role": data.role, "tournament": data.tournament}
    return JSONResponse({**answer, "name": name} if data.role == "steward" else answer)


async def list_formats(request: Request) -> Response:
    """``GET /api/formats``: ``{"formats": [name, …]}``, every format this server runs, sorted."""
    return JSONResponse({"formats": competitions.formats()})


async def create_tournament(request: Request) -> Response:
    """``POST /api/tournaments`` (``TournamentIn``, TD): appends ``tournament_created``; 201
    ``{version, id}``. ApiError 409 ``duplicate`` for an id in use; SettingsError (422) for an
    unknown format or setting."""
    principal = await signed_in(request, None, td_only=True)
    data = await body(request, TournamentIn)
    created = {"type": "tournament_created", "name": data.name, "format": data.format,
               "settings": data.settings}  # fmt: skip
    if data.time_zone:  # else the server's, when shown (display/http/venue_time.py)
        created["time_zone"] = data.time_zone
    record = stamp(principal, created)
    seq, replayed = await write(request, data.id, [record], create=True)
    return written(seq, replayed, {"id": data.id})


async def list_tournaments(request: Request) -> Response:
    """``GET /api/tournaments``: ``{"tournaments": [TournamentSummary, …]}``."""
    return JSONResponse({"tournaments": await services(request).listing()})


async def get_tournament(request: Request) -> Response:
    """``GET /api/t/{tournament}``: its ``TournamentSummary``. ApiError 404."""
    svc = services(request)
    return JSONResponse(svc.summary(live_or_404(request).id))


async def add_players(request: Request) -> Response:
    """``POST /api/t/{tournament}/players`` (``PlayerIn`` or ``{"players": [...]}``, TD): one
    ``player_added`` each, in one append; 201 ``{version, players: [number, …]}``.
    DuplicateRegistration (409) for a number already registered."""
    tid = request.path_params["tournament"]
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, (PlayerIn, PlayersIn))
    players = data.players if isinstance(data, PlayersIn) else [data]
    new = [stamp(principal, {"type": "player_added", "player": p.model_dump()}) for p in players]
    live = services(request).replica.tournaments.get(tid)
    before = names.existing_names(live.views.get("players") if live is not None else None)
    seq, replayed = await write(request, tid, new)
    warnings = names.duplicate_warnings([(p.number, p.name) for p in players], before)
    answer = {"players": [p.number for p in players]}
    return written(seq, replayed, {**answer, "warnings": warnings} if warnings else answer)


async def add_machines(request: Request) -> Response:
    """``POST /api/t/{tournament}/machines`` (``MachineIn`` or ``{"machines": [...]}``, TD): one
    ``machine_added`` each, in one append; 201 ``{version, machines: [id, …]}``.
    DuplicateRegistration (409) for an id already in the tournament."""
    tid = request.path_params["tournament"]
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, (MachineIn, MachinesIn))
    machines = data.machines if isinstance(data, MachinesIn) else [data]
    new = [
        stamp(principal, {"type": "machine_added", "machine": m.model_dump(exclude_none=True)})
        for m in machines
    ]
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
    """``POST /api/t/{tournament}/stewards`` (``StewardIn``, TD): a new 6-digit PIN for the steward,
    replacing an earlier one; 201 ``{tournament, name, pin}``. Not a log record."""
    tid = live_or_404(request).id
    await signed_in(request, tid, td_only=True)
    data = await body(request, StewardIn)
    pin = await services(request).auth.issue_steward(tid, data.name)
    return JSONResponse({"tournament": tid, "name": data.name, "pin": pin}, status_code=201)


async def push_score(request: Request) -> Response:
    """``POST /api/t/{tournament}/scores`` (``ScoreIn``, steward or TD): appends ``score_recorded``;
    201 ``{version, record}``. The format's rules refuse with a ScoringError (404 unknown player or
    machine, 409 ``EntryNotAllowed``, 422 ``InvalidScore``)."""
    tid = request.path_params["tournament"]
    principal = await signed_in(request, tid, for_write=True)
    data = await body(request, ScoreIn)
    fields = {"player": data.player, "machine": data.machine, "score": data.score}
    if data.rollovers is not None:
        fields = {**fields, **rolled_over(live_or_404(request), data)}
    record = stamp(principal, {"type": "score_recorded", **fields})
    seq, replayed = await write(request, tid, [record])
    return await written_record(request, tid, record, seq, replayed)


def rolled_over(live: LiveTournament, data: ScoreIn) -> dict[str, Json]:
    """A score entered as displayed with roll-overs: the true score (``scoring.rollover``) and
    both as entered, from the digits the ``machines`` view gives the machine. A machine not in
    the view is left to the rules (they refuse it). Raises RolloverNotDeclared, InvalidScore."""
    listed = (live.views.get("machines") or {}).get(data.machine)
    if not isinstance(listed, dict):
        return {"displayed": data.score, "rollovers": data.rollovers}
    name = str(listed.get("name") or data.machine)
    score = true_score(data.score, data.rollovers, listed.get("digits"), name)
    return {"score": score, "displayed": data.score, "rollovers": data.rollovers}


async def get_views(request: Request) -> Response:
    """``GET /api/t/{tournament}/views``: ``{version, views: {name: view}}``."""
    live = live_or_404(request)
    return JSONResponse({"version": live.published, "views": live.views})


async def get_view(request: Request) -> Response:
    """``GET /api/t/{tournament}/views/{name}``: ``{version, view}``. ApiError 404 ``unknown_view``,
    ``unknown_tournament``."""
    live = live_or_404(request)
    name = request.path_params["name"]
    if name not in live.views:
        raise ApiError(404, "unknown_view", f"There is no view {name}.")
    return JSONResponse({"version": live.published, "view": live.views[name]})


async def get_log(request: Request) -> Response:
    """``GET /api/t/{tournament}/log?after=V``: ``{records: [{seq, …record}, …]}``, up to 10,000
    records after version V (default 0). ApiError 400 when ``after`` is not a version number."""
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
