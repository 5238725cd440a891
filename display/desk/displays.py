"""The hall displays on the TD's desk: which are connected, what each is told to show, and the
addresses the hall's pages are reached on.

    GET    /api/t/{t}/displays          TD: {displays: [connected], assigned: {name: ...},
                                        urls: {display, standings, steward: [LAN URLs]}, lan: bool}
    PUT    /api/t/{t}/displays/{name}   TD: show {profile} or {views, seconds} on display {name}
    DELETE /api/t/{t}/displays/{name}   TD: give display {name} back to its own URL

A display is listed while its websocket is open to this process (``live/displays.py``: per process;
with several workers each lists its own). What it shows is set by a ``display_assigned`` record
(``live/shared.py``), which every display of that name follows live, on any process.
"""

from __future__ import annotations

import ipaddress

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display.desk.named import remove_named
from display.desk.profiles import display_views
from display.errors import ApiError
from display.http.endpoint import body, live_or_404, services, signed_in, stamp, write, written
from display.http.lan import serve_urls
from display.live import shared as shared_records
from display.types import Record

HALL_PAGES = ("display", "standings", "steward")
"""The pages people in the hall open, whose LAN addresses the desk shows."""


class AssignIn(BaseModel):
    """What display ``{name}`` shows: a ``profile`` to follow, or ``views`` (with ``seconds`` a
    page) of its own; exactly one of the two."""

    model_config = ConfigDict(extra="forbid")
    profile: str | None = None
    views: list[str] | None = Field(default=None, min_length=1, max_length=shared_records.MAX_VIEWS)
    seconds: float = 12


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def hall_urls(request: Request, tid: str) -> tuple[dict[str, list[str]], bool]:
    """The URLs of the hall's pages of ``tid`` by page, and whether they are LAN addresses the
    server is reached on now (False: the desk was opened on this computer's loopback, so the LAN
    ones work only if the server listens on every address, ``serve --host 0.0.0.0``).
    ``BACKGLASS_PUBLIC_URL``, when set, is the one base (display/http/lan.py)."""
    public = services(request).settings.public_url
    server = request.scope.get("server") or ("127.0.0.1", 8000)
    host, port = str(server[0]), int(server[1] or 80)
    if public:
        bases, reached = [public.rstrip("/") + "/"], True
    else:
        bases = serve_urls("0.0.0.0", port)
        reached = not _loopback(host)
    urls = {page: [f"{b}t/{tid}/{page}" for b in bases] for page in HALL_PAGES}
    return urls, reached


async def list_displays(request: Request) -> Response:
    """TD: the connected displays, their assignments and the hall's URLs (module docstring)."""
    tid = request.path_params["tournament"]
    await signed_in(request, tid, td_only=True)
    live = live_or_404(request)
    urls, reached = hall_urls(request, tid)
    connected = [c.doc() for c in services(request).displays.listing(tid)]
    return JSONResponse(
        {
            "displays": connected,
            "assigned": live.views.get("displays", {}),
            "urls": urls,
            "lan": reached,
        }
    )


async def assign(request: Request) -> Response:
    """TD: display ``{name}`` shows a profile or views (a ``display_assigned`` record). Raises
    SettingsError (422) for an unknown profile or view, or neither or both given."""
    tid, name = request.path_params["tournament"], request.path_params["name"]
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, AssignIn)
    record: Record = {"type": "display_assigned", "name": name}
    if data.profile is not None:
        record["profile"] = data.profile
        if data.profile not in live_or_404(request).views.get("profiles", {}):
            raise ApiError(404, "unknown_profile", f"There is no display profile {data.profile}.")
    if data.views is not None:
        seconds = int(data.seconds) if float(data.seconds).is_integer() else data.seconds
        record.update(views=data.views, seconds=seconds)
    doc = shared_records.assignment(record, display_views(request))  # refuses here, not on replay
    seq, replayed = await write(request, tid, [stamp(principal, record)])
    return written(seq, replayed, {"name": name, "shows": doc})


async def release(request: Request) -> Response:
    """TD: display ``{name}`` goes back to its URL's views (``display_released``). Raises
    ApiError 404 ``unknown_display`` when nothing was set for it."""
    name = request.path_params["name"]
    missing = ApiError(404, "unknown_display", f"Nothing was set for display {name}.")
    return await remove_named(request, "displays", "display_released", missing)


routes = [
    Route("/api/t/{tournament}/displays", list_displays, methods=["GET"]),
    Route("/api/t/{tournament}/displays/{name}", assign, methods=["PUT"]),
    Route("/api/t/{tournament}/displays/{name}", release, methods=["DELETE"]),
]
