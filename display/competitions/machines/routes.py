"""The hall's HTTP part: machine queues, machine status, corrections and voids, players' PINs and
withdrawals, and the queue and audit pages. The records themselves are the ``machines`` kind's
(``display/competitions/machines/kind.py``); this module only lists the routes that write and show
them (``create_app`` imports it, the pure part never does)."""

from __future__ import annotations

from starlette.routing import BaseRoute

from display.competitions.machines import api, corrections, pages

routes: list[BaseRoute] = [*api.routes, *corrections.routes, *pages.routes]
