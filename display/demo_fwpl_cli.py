"""The ``backglass demo fwpl`` click command (registered by one line at the end of
``display/demo.py``); the season itself is ``display.demo_fwpl.run_fwpl``. Kept apart from that
module so importing either first never meets a half-imported ``display.demo``."""

from __future__ import annotations

from typing import Any

import click

from display.demo import run, server_options

MACHINE_TITLES = 10
"""How many machine titles ``display.demo_fwpl.MACHINES`` has."""


@click.command("fwpl")
@server_options
@click.option("--players", type=click.IntRange(6, 200), default=20, show_default=True)
@click.option("--weeks", type=click.IntRange(1, 52), default=8, show_default=True)
@click.option("--machines", type=click.IntRange(4, MACHINE_TITLES), default=8, show_default=True)
@click.option("--seed", type=int, default=2024, show_default=True, help="Same seed, same season.")
def fwpl(**options: Any) -> None:
    """A Flip Well league season: weekly nights of groups, then the playoffs, through the API.

    With no --url the server keeps running after the playoffs until Ctrl-C."""
    from display.demo_fwpl import run_fwpl

    run(run_fwpl(**options, keep_serving=True))
