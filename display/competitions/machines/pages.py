"""The hall's pages: the queue page (stewards run the queues; players see theirs and, when the TD
allows it, join and leave) and the audit page (every record with who, when and why).

Both are thin like the other pages (``display/http/pages.py``): a template, a small JSON config, and a
script that draws from the live views (queue) or the public log (audit).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from display.http.pages import not_found as missing
from display.http.pages import render, tournament_or_none


async def queue_page(request: Request) -> Response:
    """``/t/{tid}/queue``; ``machine``: open that machine's queue; ``player``: show that
    player's place first."""
    tournament = tournament_or_none(request)
    if tournament is None:
        return missing(request)
    query = request.query_params
    config = {
        "tournament": tournament["id"],
        "machine": query.get("machine"),
        "player": query.get("player"),
    }
    return render(request, "queue.html", tournament=tournament, config=config)


async def audit_page(request: Request) -> Response:
    """``/t/{tid}/audit``; ``player`` and ``machine`` filter the records shown."""
    tournament = tournament_or_none(request)
    if tournament is None:
        return missing(request)
    query = request.query_params
    config = {
        "tournament": tournament["id"],
        "player": query.get("player") or "",
        "machine": query.get("machine") or "",
    }
    return render(request, "audit.html", tournament=tournament, config=config)


routes = [
    Route("/t/{tournament}/queue", queue_page, methods=["GET"]),
    Route("/t/{tournament}/audit", audit_page, methods=["GET"]),
]
