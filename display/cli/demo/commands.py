"""The ``backglass demo`` group: fill a server with a tournament through the same HTTP API a
steward uses. Each competition brings its demo commands (``Competition.demos``); what they share
is in ``common``. Everything but a demo's CSV goes to stderr, so
``backglass demo ukpl meet.csv > result.csv`` works.
"""

from __future__ import annotations

import click

from display import competitions


@click.group()
def demo() -> None:
    """Fill a server with a demo tournament through the steward API."""


for _competition in competitions.registered():
    for _command in _competition.demos:
        demo.add_command(competitions.load(_command))

if (
    __name__ == "__main__"
):  # ``python -m display.cli.demo.commands``: the same commands as ``backglass demo``
    demo(prog_name="backglass demo")
