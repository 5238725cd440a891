"""The README's offline commands run as written, on the files in ``examples/`` (a user copies them
from the README into a fresh clone). The demo and server lines are run by tests/display/cli/test_demo.py and
the browser tests."""

from __future__ import annotations

import os
import re
import shlex

import pytest
from click.testing import CliRunner

from display.cli.main import cli
from tests.utils import ROOT

OFFLINE = ("standings", "league")


def readme_commands(*subcommands: str) -> list[str]:
    """The README's ``.venv/bin/backglass <subcommand> ...`` lines, comments dropped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = []
    for line in text.splitlines():
        command = line.split("  #")[0].strip()
        match = re.match(r"\.venv/bin/backglass (\S+)", command)
        if match and match.group(1) in subcommands:
            lines.append(command)
    return lines


def test_the_readme_has_offline_commands() -> None:
    assert len(readme_commands(*OFFLINE)) >= 4


@pytest.mark.parametrize("command", readme_commands(*OFFLINE))
def test_an_offline_readme_command_runs_as_written(command: str) -> None:
    args = shlex.split(command)[1:]
    cwd = os.getcwd()
    os.chdir(ROOT)  # the README's paths are relative to the clone
    try:
        result = CliRunner().invoke(cli, args)
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.strip()]
    assert len(rows) >= 3, result.stdout  # a header and at least two players
    assert "," in rows[0]
