"""Players and machines from the TD's desk: CSV imports, withdrawals, and the registration details
(IFPA number, country or region) the views leave out.

    POST /api/t/{t}/players/import             TD: CSV of players (``display/desk_csv.py``)
    POST /api/t/{t}/machines/import            TD: CSV of machines
    GET  /api/t/{t}/registrations              every player and machine as registered

A late entry is a plain ``POST /api/t/{t}/players`` (display/api.py) at any time the format takes
one; a withdrawal is ``POST /api/t/{t}/players/{number}/withdraw`` (display/hall_corrections.py),
which this module's registrations show. Every import is one write: all of the file's rows are
recorded, or none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display import desk_csv
from display.api import live_or_404, services, signed_in, stamp, write, written
from display.store import Record


def numbers(views: dict[str, Any], name: str) -> set[str]:
    """Ids already in view ``name`` (``players`` or ``machines``: documents keyed by id)."""
    doc = views.get(name)
    return set(doc) if isinstance(doc, dict) else set()


def registrations(records: Iterable[Record]) -> dict[str, dict[str, Any]]:
    """Player number -> the player as registered (``player_added``: name, guest, ifpa, country or
    region…) plus ``withdrawn`` (the reason) when a ``player_withdrawn`` record names them."""
    found: dict[str, dict[str, Any]] = {}
    for record in records:
        data = record.data
        if data.get("type") == "player_added" and isinstance(data.get("player"), dict):
            player = dict(data["player"])
            found[str(player.get("number"))] = player
        elif data.get("type") == "player_withdrawn" and str(data.get("player")) in found:
            found[str(data["player"])]["withdrawn"] = data.get("reason") or "withdrawn"
    return found


async def import_players(request: Request) -> Response:
    live = live_or_404(request)
    principal = await signed_in(request, live.id, td_only=True)
    fmt = str(live.views.get("tournament", {}).get("format", ""))
    region_key = "region" if fmt.startswith("ukpl") else "country"
    text = desk_csv.decode(await request.body())
    found = desk_csv.players(text, numbers(live.views, "players"), region_key)
    records = [stamp(principal, {"type": "player_added", "player": p}) for p in found]
    seq, replayed = await write(request, live.id, records)
    return written(seq, replayed, {"players": [p["number"] for p in found]})


async def import_machines(request: Request) -> Response:
    live = live_or_404(request)
    principal = await signed_in(request, live.id, td_only=True)
    text = desk_csv.decode(await request.body())
    found = desk_csv.machines(text, numbers(live.views, "machines"))
    records = [stamp(principal, {"type": "machine_added", "machine": m}) for m in found]
    seq, replayed = await write(request, live.id, records)
    return written(seq, replayed, {"machines": [m["id"] for m in found]})


def machine_details(records: Iterable[Record]) -> dict[str, dict[str, Any]]:
    """Machine id -> the machine as added (``machine_added``: name, manufacturer, year)."""
    found: dict[str, dict[str, Any]] = {}
    for record in records:
        machine = record.data.get("machine")
        if record.data.get("type") == "machine_added" and isinstance(machine, dict):
            found[str(machine.get("id"))] = dict(machine)
    return found


async def list_registrations(request: Request) -> Response:
    live = live_or_404(request)
    records = await services(request).store.read(live.id)
    return JSONResponse(
        {
            "version": live.version,
            "players": registrations(records),
            "machines": machine_details(records),
        }
    )


routes = [
    Route("/api/t/{tournament}/players/import", import_players, methods=["POST"]),
    Route("/api/t/{tournament}/machines/import", import_machines, methods=["POST"]),
    Route("/api/t/{tournament}/registrations", list_registrations, methods=["GET"]),
]
