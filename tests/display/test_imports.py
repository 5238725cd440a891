"""The modules other code imports first each import on their own, in a fresh interpreter: no
import cycle hides behind the order the app happens to import things in (one did: pages ->
services -> replica -> live -> kinds -> a kind's API -> api -> services)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENTRY_MODULES = [
    "display.http.api",
    "display.desk",
    "display.http.exports",
    "display.competitions.machines.routes",
    "display.competitions",
    "display.live.tournament",
    "display.cli.offline",
    "display.http.pages",
    "display.services",
    "display.competitions.ukpl.state",
    "display.competitions.ukpl.season_links",
    "display.live.ws",
]


@pytest.mark.parametrize("module", ENTRY_MODULES)
def test_module_imports_first(module: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
