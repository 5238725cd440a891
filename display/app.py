"""The app factory: ``create_app(settings)`` wires routes, error handlers and the lifespan."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from display import competitions
from display.desk import routes as desk
from display.errors import HANDLERS
from display.http import api, openapi, pages
from display.http.on_demand import OnDemandMiddleware
from display.http.starting import StartingMiddleware
from display.live import ws
from display.log import regression, restore
from display.security import SecurityMiddleware
from display.services import running
from display.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def create_app(settings: Settings | None = None) -> Starlette:
    """A Backglass ASGI app. Settings default to the environment (``Settings.from_env``)."""
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with running(settings) as services:
            app.state.services = services
            yield

    routes = [
        *api.routes,
        *competitions.routes(),
        *desk.routes,
        *ws.routes,
        *regression.routes,  # GET /api/health
        *restore.routes,  # POST /api/t/{t}/restore (docs/store-loss.md)
        Route("/openapi.json", openapi.document, methods=["GET"]),
        *pages.routes,
        Mount("/static", StaticFiles(directory=ROOT / "static"), name="static"),
    ]
    # Host, Origin/CSRF, body size and security headers before any route (display/security.py).
    # Then, while the process starts, 503 "starting" (display/http/starting.py); then the path's
    # tournament is loaded if it is not in memory (display/http/on_demand.py).
    middleware = [
        Middleware(SecurityMiddleware, settings=settings),
        Middleware(StartingMiddleware),
        Middleware(OnDemandMiddleware),
    ]
    return Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers=HANDLERS,
        lifespan=lifespan,
    )


async def until_started(app: Starlette, server: asyncio.Task[None]) -> None:
    """Wait until ``app``, served by the uvicorn ``server`` task, has caught up on the logs and
    takes writes (``Replica.started``); raises what the server task raised if it ends first."""
    while not server.done():
        services = getattr(app.state, "services", None)
        if services is not None and services.replica.started.is_set():
            return
        await asyncio.sleep(0.01)
    server.result()
    raise RuntimeError("the server stopped while starting")
