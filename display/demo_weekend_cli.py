"""The ``backglass demo epc-weekend`` command (its work is ``display.demo_weekend``; imported
lazily, as ``display.demo`` lists this command while it is itself still loading)."""

from __future__ import annotations

from typing import Any

import click

from display.demo import run, server_options


@click.command("epc-weekend")
@server_options
@click.option("--players", type=click.IntRange(40, 1000), default=150, show_default=True)
@click.option("--seed", type=int, default=2009, show_default=True, help="Same seed, same weekend.")
def weekend(**options: Any) -> None:
    """The EPC 2009 weekend: Country Competition, EPC qualifying to the grand final, Classic and
    both kids tournaments, all through the HTTP API. --pace slows it to watch (default: fast).

    With no --url the server keeps running afterwards until Ctrl-C."""
    options["fast"] = options["fast"] or options["pace"] == 1.5  # the shared default: go fast
    from display.demo_weekend import run_weekend

    run(run_weekend(**options, keep_serving=True))
