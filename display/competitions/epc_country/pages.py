"""Pages of the Country Competition: the team-entry page (stewards, TD) and the phones' page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from display import competitions
from display.http.pages import not_found, render, tournament_or_none, tournament_page

PHONE_VIEWS = ("country_groups", "four_ball", "country_final")


def _country(request: Request) -> dict[str, object] | None:
    tournament = tournament_or_none(request)
    if tournament is None or tournament.get("format") != "epc-country":
        return None
    return tournament


team_entry = tournament_page(
    "Stewards and the TD enter a match's two machines, a 4-ball game or a play-off; the TD also records penalties, voids and advances the stage (EPC 2009, EPC Country Competition).",
    "competitions/epc_country/entry.html",
    _country,
)


async def phones(request: Request) -> Response:
    """The teams' page for phones: groups, matches, the 4-ball board and the final; ``team``
    highlights one team."""
    tournament = _country(request)
    if tournament is None:
        return not_found(request)
    config = {"tournament": tournament["id"], "team": request.query_params.get("team")}
    plugins = [competitions.view_scripts()[name] for name in PHONE_VIEWS]
    return render(
        request,
        "competitions/epc_country/phone.html",
        tournament=tournament,
        config=config,
        plugins=plugins,
    )


routes: list[BaseRoute] = [
    Route("/t/{tournament}/team-entry", team_entry, methods=["GET"]),
    Route("/t/{tournament}/country", phones, methods=["GET"]),
]
