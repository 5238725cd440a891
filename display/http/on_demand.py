"""A request naming a tournament loads it first, if this process does not hold it in memory
(tournaments on demand, ``display/live/loader.py``).

A pure ASGI middleware (as ``display/http/starting.py``, no task per request), so every route
finds the path's tournament in ``Replica.tournaments`` as before, whichever competition serves
it: ``/t/{id}/…`` (pages) and ``/api/t/{id}/…`` (the API) wait for the load; a tournament Redis
does not have stays absent, and the route answers its 404. Every such request counts as a use,
so a tournament is let go only after ``Settings.idle_minutes`` without one. Websockets
(``/ws/{id}``) load in ``display/live/ws.py``, which shows the load's progress meanwhile.

A Redis error while loading answers 503 ``store_unavailable`` (a load only reads: nothing was
recorded), as a route would.
"""

from __future__ import annotations

import logging
import re

from redis.exceptions import RedisError
from starlette.types import ASGIApp, Receive, Scope, Send

from display.errors import NOT_RECORDED, error_response
from display.live.replica import Replica

log = logging.getLogger(__name__)

_TOURNAMENT = re.compile(r"^/(?:api/)?t/([^/]+)(?:/|$)")


class OnDemandMiddleware:
    """Loads the path's tournament before the route runs (module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Load the tournament the path names (once start-up read the registry), then pass on."""
        services = getattr(scope.get("app"), "state", None)
        replica: Replica | None = getattr(getattr(services, "services", None), "replica", None)
        match = _TOURNAMENT.match(scope["path"]) if scope["type"] == "http" else None
        if match is not None and replica is not None and replica.started.is_set():
            try:
                await replica.load(match[1])
            except (RedisError, OSError) as exc:
                log.warning("%s: not loaded: %s", match[1], exc)
                response = error_response(503, "store_unavailable", NOT_RECORDED)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
