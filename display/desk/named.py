"""What the desk's named hall settings (display profiles, named displays) share: removing one by
a record, after checking that it is there."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from display.errors import ApiError
from display.http.endpoint import live_or_404, signed_in, stamp, write, written


async def remove_named(
    request: Request, view: str, record_type: str, missing: ApiError
) -> Response:
    """TD: write ``{"type": record_type, "name": <path's name>}`` and answer 200 ``{"name"}``,
    when the path's ``{name}`` is a key of the tournament's ``view``. Raises ``missing`` (an
    ApiError, 404 in practice) when it is not, and ApiError 401/403 for anyone but the TD."""
    tid, name = request.path_params["tournament"], request.path_params["name"]
    principal = await signed_in(request, tid, td_only=True)
    if name not in live_or_404(request).views.get(view, {}):
        raise missing
    seq, replayed = await write(
        request, tid, [stamp(principal, {"type": record_type, "name": name})]
    )
    return written(seq, replayed, {"name": name}, status=200)
