"""The ``backglass`` command: serve, demo, standings, verify, restore, and each competition's own
commands (``Competition.commands``, e.g. ``league``)."""

from __future__ import annotations

import logging

import click

from display import competitions
from display.cli.demo.commands import demo
from display.cli.offline import standings
from display.cli.replay import replay
from display.cli.serve import serve
from display.log.restore import restore
from display.log.verify import verify


@click.group()
def cli() -> None:
    """Backglass: live standings for pinball tournaments and leagues."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")


cli.add_command(serve)
cli.add_command(standings)
cli.add_command(replay)
cli.add_command(demo)
cli.add_command(restore)
cli.add_command(verify)
for _competition in competitions.registered():
    for _command in _competition.commands:
        cli.add_command(competitions.load(_command))


def main() -> None:
    """The ``backglass`` console script: run the click group ``cli``."""
    cli()
