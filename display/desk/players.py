"""Players and machines from the TD's desk: CSV imports, withdrawals, and the registration details
(IFPA number, country or region) the views leave out.

    POST /api/t/{t}/players/import             TD: CSV or .xlsx of players (``display/desk/csv.py``)
    POST /api/t/{t}/machines/import            TD: CSV or .xlsx of machines
    POST /api/t/{t}/entries                    TD: one late entry {number, name, guest, ifpa,
                                               country or region, tag} (JSON)
    GET  /api/t/{t}/registrations              every player and machine as registered

A late entry may also be a plain ``POST /api/t/{t}/players`` (display/http/api.py), without the IFPA
number and country; either works at any time the format takes one. A withdrawal is ``POST /api/t/{t}/players/{number}/withdraw`` (display/competitions/machines/corrections.py),
which this module's registrations show. Every import is one write: all of the file's rows are
recorded, or none.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display import competitions
from display.desk import csv as desk_csv
from display.desk import xlsx as desk_xlsx
from display.http import names
from display.http.endpoint import body, live_or_404, services, signed_in, stamp, write, written
from display.live.tournament import LiveTournament
from display.log.store import Record as StoredRecord
from display.types import Doc, Registration


def numbers(views: dict[str, Doc], name: str) -> set[str]:
    """Ids already in view ``name`` (``players`` or ``machines``: documents keyed by id)."""
    doc = views.get(name)
    return set(doc) if isinstance(doc, dict) else set()


def registrations(records: Iterable[StoredRecord]) -> dict[str, Registration]:
    """Player number -> the player as registered (``player_added``: name, guest, ifpa, country or
    region…) plus ``withdrawn`` (the reason) when a ``player_withdrawn`` record names them."""
    found: dict[str, Registration] = {}
    for record in records:
        data = record.data
        if data.get("type") == "player_added" and isinstance(data.get("player"), dict):
            player = dict(data["player"])
            found[str(player.get("number"))] = player
        elif data.get("type") == "player_withdrawn" and str(data.get("player")) in found:
            found[str(data["player"])]["withdrawn"] = data.get("reason") or "withdrawn"
    return found


async def table(request: Request) -> desk_csv.Table:
    """The uploaded file's table: an Excel workbook's first sheet (``display/desk/xlsx.py``,
    known by its zip signature whatever the Content-Type says), else CSV text."""
    raw = await request.body()
    if desk_xlsx.is_workbook(raw):
        return await asyncio.to_thread(desk_xlsx.sheet_rows, raw)  # unzipping and XML: off the loop
    return desk_csv.decode(raw)


async def import_players(request: Request) -> Response:
    """``POST /api/t/{t}/players/import`` (TD, CSV body): one ``player_added`` per row, all in one
    write or none; 201 ``{version, players: [number, …]}``. ApiError 422 for a bad row."""
    live = live_or_404(request)
    principal = await signed_in(request, live.id, td_only=True)
    found = desk_csv.players(
        await table(request), numbers(live.views, "players"), _region_key(live)
    )
    records = [stamp(principal, {"type": "player_added", "player": p}) for p in found]
    before = names.existing_names(live.views.get("players"))
    seq, replayed = await write(request, live.id, records)
    return written(
        seq, replayed, with_warnings({"players": [p["number"] for p in found]}, found, before)
    )


def with_warnings(answer: Doc, added: Iterable[Registration], before: dict[str, str]) -> Doc:
    """``answer`` with ``warnings``: the possible duplicates among ``added`` players (their names
    equal to an earlier one's once composed and case-folded, ``display.http.names``), if any."""
    warnings = names.duplicate_warnings([(str(p["number"]), str(p["name"])) for p in added], before)
    return {**answer, "warnings": warnings} if warnings else answer


class EntryIn(BaseModel):
    """A late entry as the desk's form sends it."""

    model_config = ConfigDict(extra="forbid")
    number: str = Field(max_length=32)
    name: str = Field(max_length=80)
    guest: bool = False
    ifpa: str = Field("", max_length=20)
    country: str = Field("", max_length=80)
    tag: str = Field(
        "", max_length=40, description="city, club or nickname, to tell namesakes apart"
    )


async def add_entry(request: Request) -> Response:
    """``POST /api/t/{t}/entries`` (``EntryIn``, TD): one late entry with its IFPA number and
    country (a UKPL meeting: region, UKPL 1C); 201 ``{version, player}``. ApiError 422."""
    live = live_or_404(request)
    principal = await signed_in(request, live.id, td_only=True)
    data = await body(request, EntryIn)
    cell = {**data.model_dump(), "guest": "yes" if data.guest else "", "place": data.country}
    found = desk_csv.player(0, cell, numbers(live.views, "players"), {}, _region_key(live))
    before = names.existing_names(live.views.get("players"))
    seq, replayed = await write(
        request, live.id, [stamp(principal, {"type": "player_added", "player": found})]
    )
    return written(seq, replayed, with_warnings({"player": found}, [found], before))


def _region_key(live: LiveTournament) -> str:
    """What a player's registration place is called in this tournament's competition: a UKPL
    meeting's players belong to a region (UKPL 1C), others record a country."""
    return competitions.player_place(live.format)


async def import_machines(request: Request) -> Response:
    """``POST /api/t/{t}/machines/import`` (TD, CSV body): one ``machine_added`` per row, all or
    none; 201 ``{version, machines: [id, …]}``. ApiError 422 for a bad row."""
    live = live_or_404(request)
    principal = await signed_in(request, live.id, td_only=True)
    found = desk_csv.machines(await table(request), numbers(live.views, "machines"))
    records = [stamp(principal, {"type": "machine_added", "machine": m}) for m in found]
    seq, replayed = await write(request, live.id, records)
    return written(seq, replayed, {"machines": [m["id"] for m in found]})


def machine_details(records: Iterable[StoredRecord]) -> dict[str, Registration]:
    """Machine id -> the machine as added (``machine_added``: name, manufacturer, year)."""
    found: dict[str, Registration] = {}
    for record in records:
        machine = record.data.get("machine")
        if record.data.get("type") == "machine_added" and isinstance(machine, dict):
            found[str(machine.get("id"))] = dict(machine)
    return found


async def list_registrations(request: Request) -> Response:
    """``GET /api/t/{t}/registrations``: ``{version, players, machines}``, each by number or id as
    registered (``registrations``, ``machine_details``)."""
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
    Route("/api/t/{tournament}/entries", add_entry, methods=["POST"]),
    Route("/api/t/{tournament}/registrations", list_registrations, methods=["GET"]),
]
