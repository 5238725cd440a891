"""The HTTP part of this competition: its API and pages (``create_app`` imports it, the pure
part never does)."""

from __future__ import annotations

from starlette.routing import BaseRoute

from display.competitions.fwpl import api, pages

routes: list[BaseRoute] = [*api.routes, *pages.routes]
