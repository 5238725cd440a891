"""Exports: the results as CSV, an IFPA submission CSV, a printable results page, the whole log as
JSON lines (which ``display/desk/imports.py`` replays into a fresh server).

    GET /api/t/{t}/export/results.csv   every player: place, details, total, each machine
    GET /api/t/{t}/export/ifpa.csv      places and names/IFPA numbers, for IFPA
    GET /api/t/{t}/export/log.jsonl     every record, one JSON object a line, with its seq (and
                                        its chain hash ``h``: docs/integrity.md)
    GET /t/{t}/results                  the results, laid out for printing

The final place is the ``placings`` view's where a kind has one (the EPC main tournament once the
quarter-finals start: EPC 2009, EPC Quarter-Finals), else the ``standings`` view's. Registration
details (IFPA number, country or region, withdrawn) come from the log. Exports are public, as the
views and the log are.

IFPA CSV: one row per ranked player, best first, columns ``Position``, ``Player Name``,
``IFPA Number``, the fields IFPA keeps for a tournament result (its public API's results give
each entrant's position, player name and IFPA player id). Equal places stay equal, as IFPA
records them. Left out, per IFPA's sanctioning definitions (ifpapinball.com/definitions: players
without "a chance to win" the event "should not be included in the results submitted to IFPA"):
players with no place, i.e. UKPL guests (UKPL 1C, 3C) and players who never played. A player
without an IFPA number is listed with it blank; IFPA matches them by name or registers them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from display import competitions
from display.desk.players import registrations
from display.errors import ApiError
from display.http import pages, venue_time
from display.http.endpoint import live_or_404, services
from display.live.tournament import LiveTournament
from display.log.store import Record as StoredRecord
from display.types import Doc, Registration
from scoring.ranking import player_key

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


Views = dict[str, Doc]
"""A tournament's views by name (``LiveTournament.views``)."""
Table = tuple[list[str], list[list[object]]]
"""A CSV's header and rows, each row a cell per column (None: blank)."""


def final_rows(views: Views) -> list[tuple[str, Doc]]:
    """(player, row) best first: ranked rows by place then number, then unranked rows by total.
    The row is the ``standings`` row with ``place`` from ``placings`` where that view has one."""
    standings = (views.get("standings") or {}).get("rows") or {}
    placings = (views.get("placings") or {}).get("rows") or {}
    merged: dict[str, Doc] = {}
    for number in {*standings, *placings}:
        row = dict(standings.get(number) or {})
        if number in placings:
            row["place"] = placings[number].get("place")
        merged[number] = {k: v for k, v in row.items() if v is not None}

    def order(item: tuple[str, Doc]) -> tuple[bool, int, float, tuple[object, ...]]:
        number, row = item
        place = row.get("place")
        ranked = isinstance(place, int)
        by_place = place if isinstance(place, int) else 0
        return (not ranked, by_place, -(row.get("total") or 0), player_key(number))

    return sorted(merged.items(), key=order)


def _cell(value: object) -> object:
    """A CSV cell; text that a spreadsheet would run as a formula is quoted with an apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return "" if value is None else value


def to_csv(header: list[str], rows: Iterable[Sequence[object]]) -> str:
    """``header`` and ``rows`` as CSV text (RFC 4180, CRLF), formula-like text defused."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([_cell(v) for v in row] for row in rows)
    return out.getvalue()


def results_table(views: Views, regs: dict[str, Registration]) -> Table:
    """The results CSV as (header, rows): place, number, name, IFPA number, country or region,
    guest, withdrawn, total, league points (UKPL 3D), band (EPC 2009, EPC Qualifying cut),
    machines played, then each machine's score and points."""
    players = views.get("players") or {}
    machines = sorted((views.get("machines") or {}).items(), key=lambda m: m[1].get("order", 0))
    place = competitions.player_place((views.get("tournament") or {}).get("format"))
    header = ["Place", "Number", "Name", "IFPA", place.capitalize(), "Guest"]
    header += ["Withdrawn", "Total", "League points", "Band", "Played"]
    for _, machine in machines:
        header += [f"{machine.get('name')} score", f"{machine.get('name')} points"]
    rows: list[list[object]] = []
    for number, row in final_rows(views):
        reg = regs.get(number, {})
        listed = players.get(number)
        who = listed if isinstance(listed, dict) else {}
        line: list[object] = [
            row.get("place"),
            number,
            who.get("name") or reg.get("name", ""),
            reg.get("ifpa", ""),
            reg.get(place, ""),
            "yes" if who.get("guest") or reg.get("guest") else "",
            reg.get("withdrawn", ""),
            row.get("total"),
            row.get("league_points"),
            row.get("band", ""),
            row.get("played"),
        ]
        for mid, _ in machines:
            entry = ((views.get(f"machine/{mid}") or {}).get("rows") or {}).get(number) or {}
            line += [entry.get("score"), entry.get("points")]
        rows.append(line)
    return header, rows


def ifpa_table(views: Views, regs: dict[str, Registration]) -> Table:
    """The IFPA submission as (header, rows): ranked players only (module docstring)."""
    players = views.get("players") or {}
    rows: list[list[object]] = [
        [row["place"], (players.get(number) or {}).get("name") or regs.get(number, {}).get("name"),
         regs.get(number, {}).get("ifpa", "")]
        for number, row in final_rows(views)
        if isinstance(row.get("place"), int)
    ]  # fmt: skip
    return ["Position", "Player Name", "IFPA Number"], rows


async def _inputs(request: Request) -> tuple[LiveTournament, list[StoredRecord]]:
    live = live_or_404(request)
    return live, await services(request).store.read(live.id)


def _download(text: str, name: str, media_type: str) -> Response:
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(text, media_type=media_type, headers=headers)


async def results_csv(request: Request) -> Response:
    """Every player's results as CSV (``results_table``)."""
    live, records = await _inputs(request)
    header, rows = results_table(live.views, registrations(records))
    return _download(to_csv(header, rows), f"{live.id}-results.csv", "text/csv; charset=utf-8")


async def ifpa_csv(request: Request) -> Response:
    """The IFPA submission CSV (``ifpa_table``). Raises ApiError 409 ``no_places`` while nobody
    has a place."""
    live, records = await _inputs(request)
    header, rows = ifpa_table(live.views, registrations(records))
    if not rows:
        raise ApiError(409, "no_places", "Nobody has a place yet, so there is nothing to submit.")
    return _download(to_csv(header, rows), f"{live.id}-ifpa.csv", "text/csv; charset=utf-8")


async def log_jsonl(request: Request) -> Response:
    """The whole log as JSON lines: each record with its ``seq`` (and ``h``)."""
    live, records = await _inputs(request)
    # ``h``: the record's chain hash (display/log/store.py), so ``backglass verify --file`` can check it
    text = b"".join(
        orjson.dumps({"seq": r.seq, **r.data, **({"h": r.h} if r.h else {})}) + b"\n"
        for r in records
    )
    return _download(text.decode(), f"{live.id}.log.jsonl", "application/x-ndjson")


async def printable(request: Request) -> Response:
    """The results laid out for paper: the overall table, then every machine's table."""
    tournament = pages.tournament_or_none(request)
    if tournament is None:
        return pages.not_found(request)
    live, records = await _inputs(request)
    header, rows = results_table(live.views, registrations(records))
    machines = sorted(
        (live.views.get("machines") or {}).items(), key=lambda m: m[1].get("order", 0)
    )
    tables = [(machine.get("name"), _machine_rows(live.views, mid)) for mid, machine in machines]
    return pages.render(
        request,
        "desk_results.html",
        tournament=tournament,
        header=header,
        rows=rows,
        tables=tables,
        # the venue's time with its zone (display/http/venue_time.py), as on every page
        printed=venue_time.venue_time(
            datetime.now(UTC), venue_time.zone_of(live.meta), with_date=True
        ),
    )


def _machine_rows(views: Views, mid: str) -> list[tuple[object, str, object, object, object]]:
    """Machine ``mid``'s table for the printed page: place, number, name, score, points."""
    players = views.get("players") or {}
    rows = ((views.get(f"machine/{mid}") or {}).get("rows")) or {}
    ordered = sorted(
        rows.items(),
        key=lambda r: (r[1].get("place") is None, r[1].get("place") or 0, -r[1].get("score", 0)),
    )
    return [
        (row.get("place"), number, (players.get(number) or {}).get("name", ""), row.get("score"),
         row.get("points"))
        for number, row in ordered
    ]  # fmt: skip


routes = [
    Route("/api/t/{tournament}/export/results.csv", results_csv, methods=["GET"]),
    Route("/api/t/{tournament}/export/ifpa.csv", ifpa_csv, methods=["GET"]),
    Route("/api/t/{tournament}/export/log.jsonl", log_jsonl, methods=["GET"]),
    Route("/t/{tournament}/results", printable, methods=["GET"]),
]
