"""Steward credentials and sessions through the API (the TD's desk). Credentials stay out of the
log, which is public (``display/http/auth.py``).

    POST   /api/t/{t}/stewards            TD: issue a PIN (display/http/api.py)
    GET    /api/t/{t}/stewards            TD: stewards, when issued, who is signed in
    DELETE /api/t/{t}/stewards/{name}     TD: revoke: the PIN stops working, sessions end at once
    GET    /api/sessions                  TD: every session signed in now (TD and stewards)
    DELETE /api/session                   sign out (the caller's own session)
    DELETE /api/sessions/{id}             TD: end any session the desk lists
    GET    /api/t/{t}/sign-in-failures    TD: recent wrong PINs of its stewards and players
    GET    /api/sign-in-failures          TD: recent wrong TD passwords (and unknown tournaments)
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display.errors import ApiError
from display.http import throttle
from display.http.endpoint import live_or_404, services, signed_in
from display.http.player_auth import PlayerPins


async def list_stewards(request: Request) -> Response:
    """``GET /api/t/{t}/stewards`` (TD): ``{stewards: [...]}``: name, PIN issued, sessions."""
    tid = live_or_404(request).id
    await signed_in(request, tid, td_only=True)
    return JSONResponse({"stewards": await services(request).auth.stewards(tid)})


async def revoke_steward(request: Request) -> Response:
    """``DELETE /api/t/{t}/stewards/{name}`` (TD): the PIN stops working and the steward's sessions
    end at once; ``{tournament, name, revoked: true}``. ApiError 404 ``unknown_steward``."""
    tid = live_or_404(request).id
    await signed_in(request, tid, td_only=True)
    name = request.path_params["name"]
    if not await services(request).auth.revoke_steward(tid, name):
        raise ApiError(404, "unknown_steward", f"There is no steward {name} in {tid}.")
    return JSONResponse({"tournament": tid, "name": name, "revoked": True})


async def list_sessions(request: Request) -> Response:
    """``GET /api/sessions`` (TD): ``{sessions: [...]}``, every session now, oldest first."""
    await signed_in(request, None, td_only=True)
    return JSONResponse({"sessions": await services(request).auth.sessions()})


async def end_session(request: Request) -> Response:
    """``DELETE /api/sessions/{id}`` (TD): end any listed session (``GET /api/sessions`` gives
    each its id): its token stops working at once. ApiError 404 when there is none."""
    await signed_in(request, None, td_only=True)
    if not await services(request).auth.end_listed(request.path_params["session"]):
        raise ApiError(404, "unknown_session", "That session has ended already.")
    return JSONResponse({"ended": True})


async def sign_out(request: Request) -> Response:
    """``DELETE /api/session``: end the caller's own session, a TD's, a steward's or a player's
    (the token stops working at once). ApiError 401 when not signed in."""
    auth, authorization = services(request).auth, request.headers.get("authorization")
    ended = await auth.end_session(authorization)
    if not ended:
        ended = await PlayerPins(auth.redis, auth.prefix).end(authorization)
    if not ended:
        raise ApiError(401, "sign_in_required", "You are not signed in.")
    return JSONResponse({"signed_out": True})


async def list_failures(request: Request) -> Response:
    """TD: recent wrong sign-ins to this tournament, newest first (``display/http/throttle.py``)."""
    tid = live_or_404(request).id
    await signed_in(request, tid, td_only=True)
    return JSONResponse({"failures": await throttle.of(request).failures(tid)})


async def list_td_failures(request: Request) -> Response:
    """TD: recent wrong TD passwords and sign-ins to unknown tournaments, newest first."""
    await signed_in(request, None, td_only=True)
    return JSONResponse({"failures": await throttle.of(request).failures(None)})


routes = [
    Route("/api/t/{tournament}/stewards", list_stewards, methods=["GET"]),
    Route("/api/t/{tournament}/stewards/{name}", revoke_steward, methods=["DELETE"]),
    Route("/api/sessions", list_sessions, methods=["GET"]),
    Route("/api/session", sign_out, methods=["DELETE"]),
    Route("/api/sessions/{session}", end_session, methods=["DELETE"]),
    Route("/api/t/{tournament}/sign-in-failures", list_failures, methods=["GET"]),
    Route("/api/sign-in-failures", list_td_failures, methods=["GET"]),
]
