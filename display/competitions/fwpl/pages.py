"""FWPL pages: the stewards' league entry page (a group's game on a phone) and the players' league
page (tonight's groups and standings, the season table, the playoffs). Both draw everything from
the live views with ``live.js``, like the other pages (``display/http/pages.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from display.http import pages

HALL_VIEWS = "fwpl_groups,fwpl_night,fwpl_season,fwpl_bracket"
"""The display plugins of a league night, in rotation order (``static/competitions/fwpl/views/fwpl_*.js``)."""


def _page(template: str) -> Callable[[Request], Awaitable[Response]]:
    async def page(request: Request) -> Response:
        tournament = pages.tournament_or_none(request)
        if tournament is None:
            return pages.not_found(request)
        if tournament.get("format") != "fwpl-league":
            return pages.render(
                request, "competitions/fwpl/not_league.html", status=404, tournament=tournament
            )
        config = {"tournament": tournament["id"], "player": request.query_params.get("player")}
        return pages.render(
            request, template, tournament=tournament, config=config, hall_views=HALL_VIEWS
        )

    return page


routes = [
    Route("/t/{tournament}/league-entry", _page("competitions/fwpl/entry.html"), methods=["GET"]),
    Route("/t/{tournament}/league", _page("competitions/fwpl/league.html"), methods=["GET"]),
]
