"""UKPL meeting pages: the TD's adjustments page and the players' season table.

``/t/{t}/adjust``: a TD signs in and records adjustments with who and why (UKPL 2E, 6A, 6C,
7A-7D), multiplayer games (2F), past meetings' results (3E), and withdraws a wrong one; the page
follows the meeting live. ``/t/{t}/season``: the region's season table on a phone (3E-3G).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from display.competitions.ukpl.state import UkplState
from display.http.pages import services, tournament_or_none, tournament_page


def meeting_or_none(request: Request) -> dict[str, object] | None:
    """The summary of the path's tournament if it is a UKPL meeting, else None."""
    tournament = tournament_or_none(request)
    if tournament is None:
        return None
    live = services(request).replica.tournaments[tournament["id"]]
    return tournament if isinstance(live.state, UkplState) else None


adjust_page = tournament_page(
    "The TD's adjustments page (UKPL 2E, 6A, 6C, 7A-7D); the 404 page if not a UKPL meeting.",
    "competitions/ukpl/adjust.html",
    meeting_or_none,
)

season_page = tournament_page(
    "The season table for phones; ``player``: open that player's line.",
    "competitions/ukpl/season.html",
    meeting_or_none,
    ("player",),
)


routes = [
    Route("/t/{tournament}/adjust", adjust_page, methods=["GET"]),
    Route("/t/{tournament}/season", season_page, methods=["GET"]),
]
