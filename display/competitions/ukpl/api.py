"""The UKPL meeting endpoints: players with their region, adjustments with who and why,
multiplayer games, and past meetings' results for the season table. Every write goes through
``display.http.endpoint.write`` (validated by the ``ukpl`` kind, compare-and-append, Idempotency-Key).

    POST /api/t/{t}/ukpl/players                   TD       players with region (UKPL 1C)
    POST /api/t/{t}/ukpl/players/{p}/guest         TD       a guest made a region player, or
                                                            back (UKPL 1C, 3C)
    POST /api/t/{t}/adjustments                    TD       one adjustment (2E, 6A, 6C, 7A-7D)
    POST /api/t/{t}/adjustments/{seq}/withdraw     TD       withdraw one, with a reason and
                                                            If-Match: its version
    POST /api/t/{t}/multiplayer                    steward  one multiplayer game (2F)
    POST /api/t/{t}/season/results                 TD       a past meeting's results (3E)
    POST /api/t/{t}/season/results/{meet}/remove   TD       take an import out again
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from display.competitions.ukpl.imports import rows_from_csv
from display.competitions.ukpl.schemas import (
    AdjustmentIn,
    MultiplayerIn,
    ReclassifyIn,
    RegionPlayerIn,
    RegionPlayersIn,
    RemoveResultsIn,
    ResultsIn,
    SubstituteIn,
    WithdrawIn,
)
from display.competitions.ukpl.state import UkplState, adjustment_version
from display.errors import ApiError
from display.http import preconditions
from display.http.endpoint import body, services, signed_in, stamp, write, written
from display.log.store import version_number
from display.types import Record


def meeting_or_error(request: Request) -> str:
    """The path's tournament id if it is a UKPL meeting; ApiError 404 / 409 otherwise."""
    tid = str(request.path_params["tournament"])
    live = services(request).replica.tournaments.get(tid)
    if live is None or live.kind is None:
        raise ApiError(404, "unknown_tournament", f"There is no tournament {tid}.")
    if not isinstance(live.state, UkplState):
        raise ApiError(409, "not_ukpl", f"Tournament {tid} is not a UKPL meeting.")
    return tid


async def add_players(request: Request) -> Response:
    """``POST /api/t/{t}/ukpl/players`` (``RegionPlayerIn`` or ``{"players": [...]}``, TD): one
    ``player_added`` each with its region, a guest when another region's (UKPL 1C, 3C); 201
    ``{version, players}``."""
    tid = meeting_or_error(request)
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, (RegionPlayerIn, RegionPlayersIn))
    players = data.players if isinstance(data, RegionPlayersIn) else [data]
    new = [
        stamp(principal, {"type": "player_added", "player": p.model_dump(exclude_none=True)})
        for p in players
    ]
    seq, replayed = await write(request, tid, new)
    return written(seq, replayed, {"players": [p.number for p in players]})


async def reclassify(request: Request) -> Response:
    """``POST /api/t/{t}/ukpl/players/{p}/guest`` (``ReclassifyIn``: ``{"guest", "reason"}``,
    TD): one ``player_reclassified`` record; the meeting's machine points are worked out again
    with the new N (UKPL rules 1C, 3B, 3C). 201 ``{version, player, guest}``; 404 for no such
    player, 409 when they already are a guest (or a region player)."""
    tid = meeting_or_error(request)
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, ReclassifyIn)
    player = str(request.path_params["player"])
    record = {
        "type": "player_reclassified",
        "player": player,
        "guest": data.guest,
        "reason": data.reason,
    }
    seq, replayed = await write(request, tid, [stamp(principal, record)])
    return written(seq, replayed, {"player": player, "guest": data.guest})


async def adjust(request: Request) -> Response:
    """``POST /api/t/{t}/adjustments`` (``AdjustmentIn``, TD): one adjustment record (UKPL 2E, 6A,
    6C, 7A-7D); a substitution is the hall's machine replacement (``substitution``). 201 ``{version,
    adjustment: seq, type}``."""
    tid = meeting_or_error(request)
    principal = await signed_in(request, tid, td_only=True)
    data = (await body(request, AdjustmentIn)).root
    if isinstance(data, SubstituteIn):
        records = substitution(data)
    else:
        records = [data.model_dump(exclude_none=True)]
    seq, replayed = await write(request, tid, [stamp(principal, r) for r in records])
    return written(seq, replayed, {"adjustment": seq, "type": data.type})


def substitution(data: SubstituteIn) -> list[Record]:
    """UKPL 6A through the hall's machine status: the substitute added first when it is new."""
    records: list[Record] = []
    substitute = data.substitute
    if not isinstance(substitute, str):
        records.append({"type": "machine_added", "machine": substitute.model_dump()})
        substitute = substitute.id
    records.append(
        {
            "type": "machine_status_changed",
            "machine": data.machine,
            "status": "replaced",
            "replacement": substitute,
            "note": data.reason,
        }
    )
    return records


async def withdraw(request: Request) -> Response:
    """TD: withdraw adjustment ``{seq}`` with ``{"reason"}`` and ``If-Match: "<its version>"``
    (``adjustment_version``; 428 without it, 412 ``entry_changed`` when another TD withdrew it
    meanwhile). Answers ``{"version", "withdrawn", "adjustment": {"seq", "version"}}`` and the
    new version as the ``ETag``."""
    tid = meeting_or_error(request)
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, WithdrawIn)
    number = version_number(request.path_params["seq"])
    if number is None:
        raise ApiError(404, "unknown_adjustment", "Adjustments are numbered.")
    record = {"type": "adjustment_withdrawn", "adjustment": number, "reason": data.reason}
    check = preconditions.precondition(
        request.headers.get("if-match"),
        lambda state: adjustment_version(state, number),
        "adjustment",
    )
    seq, replayed = await write(request, tid, [stamp(principal, record)], precondition=check)
    answer = written(
        seq, replayed, {"withdrawn": number, "adjustment": {"seq": number, "version": seq}}
    )
    return preconditions.tagged(answer, seq)


async def multiplayer(request: Request) -> Response:
    """``POST /api/t/{t}/multiplayer`` (``MultiplayerIn``, steward or TD): one game of 2-6 players
    on one machine, entered together (UKPL 2F); 201 ``{version, game: seq}``."""
    tid = meeting_or_error(request)
    principal = await signed_in(request, tid)
    data = await body(request, MultiplayerIn)
    scores = [{"player": s.player, "score": s.score} for s in data.scores]
    record = {"type": "multiplayer_game_recorded", "machine": data.machine, "scores": scores}
    seq, replayed = await write(request, tid, [stamp(principal, record)])
    return written(seq, replayed, {"game": seq})


async def import_results(request: Request) -> Response:
    """``POST /api/t/{t}/season/results`` (``ResultsIn``, TD): a past meeting's published results
    for the season table (UKPL 3E); 201 ``{version, meet, rows: count}``. ApiError 422 unless
    exactly one of ``rows`` and ``csv`` is given, or for no rows."""
    tid = meeting_or_error(request)
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, ResultsIn)
    if (data.rows is None) == (data.csv is None):
        raise ApiError(422, "invalid_request", "Give the results as rows or as csv, one of them.")
    if data.rows is not None:
        rows = [r.model_dump(exclude_none=True) for r in data.rows]
    else:
        rows = rows_from_csv(data.csv or "")
    if not rows:
        raise ApiError(422, "invalid_request", f"Meeting {data.meet} has no results to import.")
    record = {"type": "season_results_imported", "meet": data.meet, "rows": rows}
    if data.held:
        record["held"] = data.held
    seq, replayed = await write(request, tid, [stamp(principal, record)])
    return written(seq, replayed, {"meet": data.meet, "rows": len(rows)})


async def remove_results(request: Request) -> Response:
    """``POST /api/t/{t}/season/results/{meet}/remove`` (``RemoveResultsIn``, TD): take meeting
    ``meet``'s import out of the season table again; 201 ``{version, meet}``."""
    tid = meeting_or_error(request)
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, RemoveResultsIn)
    meet = request.path_params["meet"]
    record = {"type": "season_results_removed", "meet": meet, "reason": data.reason}
    seq, replayed = await write(request, tid, [stamp(principal, record)])
    return written(seq, replayed, {"meet": meet})


routes = [
    Route("/api/t/{tournament}/ukpl/players", add_players, methods=["POST"]),
    Route("/api/t/{tournament}/ukpl/players/{player}/guest", reclassify, methods=["POST"]),
    Route("/api/t/{tournament}/adjustments", adjust, methods=["POST"]),
    Route("/api/t/{tournament}/adjustments/{seq}/withdraw", withdraw, methods=["POST"]),
    Route("/api/t/{tournament}/multiplayer", multiplayer, methods=["POST"]),
    Route("/api/t/{tournament}/season/results", import_results, methods=["POST"]),
    Route("/api/t/{tournament}/season/results/{meet}/remove", remove_results, methods=["POST"]),
]
