"""The TD's desk: create a tournament from a competition template, then run it (settings, players,
machines, stewards, hall display profiles, the displays connected now, exports). The pages are thin, as every page: they
call the JSON API below and in the ``desk_*`` modules.

    GET  /api/templates                  every competition template, available or not
    POST /api/tournaments/from-template  TD: {id, name, template, settings?}: a new tournament
    GET  /desk                           the desk: sign in, tournaments, new, import a log
    GET  /t/{t}/desk                     one tournament's desk
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from display import competitions
from display.desk import (
    catalog,
    displays,
    imports,
    players,
    profiles,
    progress,
    stewards,
    whatif,
)
from display.errors import ApiError
from display.http import exports, pages, qr, venue_time
from display.http.endpoint import body, signed_in, stamp, write, written
from display.http.schemas import Id, Name, TimeZone
from display.services import Services
from display.types import FormatSettings


class FromTemplateIn(BaseModel):
    """A new tournament: its ``id`` and ``name``, the ``template`` and settings to change."""

    model_config = ConfigDict(extra="forbid")
    id: Id
    name: Name
    template: str = Field(max_length=40)
    settings: FormatSettings = {}
    time_zone: TimeZone = None


async def list_templates(request: Request) -> Response:
    """Every competition template, available or not (``catalog.catalog``)."""
    return JSONResponse({"templates": catalog.catalog(competitions.formats())})


async def create_from_template(request: Request) -> Response:
    """TD: a new tournament from a template, its settings over the template's. Raises ApiError
    404 ``unknown_template``, 409 ``not_available`` (a format this server does not run)."""
    principal = await signed_in(request, None, td_only=True)
    data = await body(request, FromTemplateIn)
    template = catalog.find(data.template)
    if template is None:
        raise ApiError(404, "unknown_template", f"There is no template {data.template!r}.")
    if template.format not in competitions.formats():
        raise ApiError(
            409,
            "not_available",
            f"{template.name} needs the {template.format} format, which this server does not run "
            "yet.",
        )
    record = {
        "type": "tournament_created",
        "name": data.name,
        "format": template.format,
        "settings": {**template.settings(), **data.settings},
        "template": template.id,
    }
    if data.time_zone:  # else the server's, when shown (display/http/venue_time.py)
        record["time_zone"] = data.time_zone
    seq, replayed = await write(request, data.id, [stamp(principal, record)], create=True)
    return written(seq, replayed, {"id": data.id, "format": template.format})


async def desk_home(request: Request) -> Response:
    """The desk: sign in, the tournaments, a new one, a log import."""
    svc = pages.services(request)
    found = await svc.listing()
    return pages.render(
        request,
        "desk_home.html",
        tournaments=sorted(found, key=lambda t: t["id"]),
        # the sessions' times in their tournament's zone, the TD's (every tournament) in the server's
        config={
            "server_zone": venue_time.server_zone(),
            "zones": {t["id"]: venue_time.zone_of(zone_meta(svc, t["id"])) for t in found},
        },
        server_zone=venue_time.server_zone(),
    )


def zone_meta(svc: Services, tid: str) -> dict[str, object]:
    """A listed tournament's meta as ``venue_time.zone_of`` reads it: a loaded one's own, else
    the time zone its summary keeps (``display/live/summaries.py``)."""
    live = svc.replica.tournaments.get(tid)
    return live.meta if live is not None else svc.replica.summaries.meta(tid)


async def desk_tournament(request: Request) -> Response:
    """One tournament's desk; the 404 page for an unknown one."""
    tournament = pages.tournament_or_none(request)
    if tournament is None:
        return pages.not_found(request)
    config = {
        "tournament": tournament["id"],
        "players_url": qr.players_url(request, tournament),
        "templates": {t.format: t.id for t in competitions.templates()},
    }
    return pages.render(request, "desk.html", tournament=tournament, config=config)


routes: list[BaseRoute] = [
    Route("/api/templates", list_templates, methods=["GET"]),
    Route("/api/tournaments/from-template", create_from_template, methods=["POST"]),
    Route("/desk", desk_home, methods=["GET"]),
    Route("/t/{tournament}/desk", desk_tournament, methods=["GET"]),
    *players.routes,
    *stewards.routes,
    *profiles.routes,
    *displays.routes,
    *whatif.routes,
    *progress.routes,
    *imports.routes,
    *exports.routes,
    *qr.routes,
]
