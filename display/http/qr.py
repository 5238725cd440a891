"""The QR code that opens the players' page: ``GET /t/{t}/qr.svg`` (an SVG image made by segno).

It encodes ``BACKGLASS_PUBLIC_URL`` when set, else the address the requesting screen itself used
(``request.base_url``; ``display/http/lan.py``), plus
``/t/{t}/standings``, so a hall display opened by the server's LAN address
(``http://192.168.1.10:8000/…``) shows a code the phones on that LAN can open, with no setting and
no internet. A display opened as ``localhost`` would encode ``localhost``; the desk warns of that.
"""

from __future__ import annotations

import io

import segno
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from display import competitions
from display.http import pages
from display.http.lan import public_base
from display.services import TournamentSummary


def players_url(request: Request, tournament: TournamentSummary) -> str:
    """The players' page of ``tournament`` (its format's own, e.g. the league page for FWPL) as
    the requesting screen reaches this server."""
    page = competitions.players_page(tournament.get("format"))
    return f"{public_base(request)}/t/{tournament['id']}/{page}"


def svg(text: str) -> str:
    """``text`` as a QR code: a standalone SVG that scales to whatever size it is drawn at (a
    viewBox, no width or height), black on white with the quiet zone the standard asks for."""
    out = io.BytesIO()
    code = segno.make(text, error="m")
    code.save(
        out, kind="svg", scale=1, border=4, omitsize=True, xmldecl=False, dark="#000", light="#fff"
    )
    return out.getvalue().decode()


async def qr_code(request: Request) -> Response:
    """The players' page's QR code as SVG (module docstring); the 404 page for an unknown
    tournament."""
    tournament = pages.tournament_or_none(request)
    if tournament is None:
        return pages.not_found(request)
    headers = {"Cache-Control": "no-cache"}
    return Response(
        svg(players_url(request, tournament)), media_type="image/svg+xml", headers=headers
    )


routes = [Route("/t/{tournament}/qr.svg", qr_code, methods=["GET"])]
