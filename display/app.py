"""The app factory: ``create_app(settings)`` wires routes, error handlers and the lifespan."""

from __future__ import annotations

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
    middleware = [Middleware(SecurityMiddleware, settings=settings)]
    return Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers=HANDLERS,
        lifespan=lifespan,
    )
