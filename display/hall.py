"""The hall: machine queues, machine status, corrections and voids, players' PINs and withdrawals,
and the queue and audit pages. The records themselves are the ``machines`` kind's
(``display/kinds/machines.py``); this module only lists the routes that write and show them.
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from display import hall_api, hall_corrections, hall_pages

routes: list[BaseRoute] = [*hall_api.routes, *hall_corrections.routes, *hall_pages.routes]
