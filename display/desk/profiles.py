"""Hall display profiles through the API: named screen setups a display picks by URL
(``/t/{id}/display?profile=<name>``) and follows live (records in ``display/live/shared.py``).

    GET    /api/t/{t}/profiles          the profiles, the views a display can show, the themes
    PUT    /api/t/{t}/profiles/{name}   TD: set one {views, seconds, theme, qr, distance, diagonal}
    DELETE /api/t/{t}/profiles/{name}   TD: remove one
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display.desk.named import remove_named
from display.errors import ApiError
from display.http import pages
from display.http.endpoint import body, live_or_404, signed_in, stamp, write, written
from display.live import shared as shared_records
from display.types import Record


class ProfileIn(BaseModel):
    """A screen profile: the views in order, seconds per page, the theme, the QR code shown, and
    optionally the reading distance (metres) and screen diagonal (inches) its text is sized for."""

    model_config = ConfigDict(extra="forbid")
    views: list[str] = Field(min_length=1, max_length=shared_records.MAX_VIEWS)
    seconds: float = 12
    theme: str = "dark"
    qr: bool = True
    distance: float | None = None
    diagonal: float | None = None


def display_views(request: Request) -> list[str]:
    """The views a hall display of this tournament's format can show (``pages.offered_views``):
    the desk offers these only, and a profile naming another is refused."""
    fmt = live_or_404(request).views.get("tournament", {}).get("format")
    return pages.offered_views(fmt)


async def list_profiles(request: Request) -> Response:
    """The profiles, the views a display can show and the themes (module docstring)."""
    live = live_or_404(request)
    return JSONResponse(
        {
            "profiles": live.views.get("profiles", {}),
            "views": display_views(request),
            "themes": list(shared_records.THEMES),
        }
    )


async def set_profile(request: Request) -> Response:
    """TD: set profile ``{name}``. Raises SettingsError (422) for a view no display shows."""
    tid, name = request.path_params["tournament"], request.path_params["name"]
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, ProfileIn)
    record: Record = {"type": "profile_set", "name": name, **data.model_dump(exclude_none=True)}
    if float(record["seconds"]).is_integer():
        record["seconds"] = int(record["seconds"])
    doc = shared_records.profile(
        record, display_views(request)
    )  # refuses unknown views here, not on replay
    seq, replayed = await write(request, tid, [stamp(principal, record)])
    return written(seq, replayed, {"name": name, "profile": doc})


async def remove_profile(request: Request) -> Response:
    """TD: remove profile ``{name}``. Raises ApiError 404 ``unknown_profile``."""
    name = request.path_params["name"]
    missing = ApiError(404, "unknown_profile", f"There is no display profile {name}.")
    return await remove_named(request, "profiles", "profile_removed", missing)


routes = [
    Route("/api/t/{tournament}/profiles", list_profiles, methods=["GET"]),
    Route("/api/t/{tournament}/profiles/{name}", set_profile, methods=["PUT"]),
    Route("/api/t/{tournament}/profiles/{name}", remove_profile, methods=["DELETE"]),
]
