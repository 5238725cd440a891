"""``backglass demo epc-weekend`` on a real server: every competition of the weekend, from the
first qualifying game to the last placing, through the HTTP API."""

from __future__ import annotations

import os
import subprocess
import sys

from display.competitions.epc_main.demo import run_weekend
from tests.utils import ROOT, TD_PASSWORD, Api


async def test_the_weekend_runs_every_competition_to_its_end(server: str, api: Api) -> None:
    lines: list[str] = []
    result = await run_weekend(url=server, td_password=TD_PASSWORD, players=48, echo=lines.append)
    assert result.refused == [], result.refused
    main = (await api.views(result.tournaments["main"]))["views"]
    assert main["stage"]["stage"] == "complete"
    placings = main["placings"]["rows"]
    # every entrant placed, 1 to 48; equal points may share a place (place_ties "share"), so the
    # places read as a standard competition ranking: 1, 2, 2, 4 ...
    ranked = sorted(row["place"] for row in placings.values())
    assert len(ranked) == 48 and ranked[0] == 1
    assert all(p == i + 1 or p == ranked[i - 1] for i, p in enumerate(ranked))
    assert ranked[:8] == list(range(1, 9))
    stages = {row["stage"] for row in placings.values()}
    assert {"grand final", "5th-8th play-off", "quarter-final", "replaced", "standby"} <= stages
    assert sum(1 for row in placings.values() if row["stage"] == "replaced") == 2
    assert result.winners["epc"][0] == min(placings, key=lambda p: placings[p]["place"])
    classic = (await api.views(result.tournaments["classic"]))["views"]
    final = classic["classic/games"]["games"]["final"]
    assert final["decided"] is True and len(final["players"]) == 4
    assert not set(final["players"]) & set(classic["classic"].get("epc_players", []))
    assert classic["classic"]["faults"]["c-pb"]["action"] == "replace"
    for day in ("sat", "sun"):
        kids = (await api.views(result.tournaments[f"kids-{day}"]))["views"]
        assert kids["tournament"]["closed"] is True
        assert len(result.winners["kids-Saturday" if day == "sat" else "kids-Sunday"]) >= 3
    if "country" in result.tournaments:
        country = (await api.views(result.tournaments["country"]))["views"]
        assert country["country/final"]["complete"] is True
    assert any("EPC 2009: 1." in line for line in lines)


def test_the_command_is_listed_and_loads_first_or_last() -> None:
    """``backglass demo epc-weekend --help`` works, and the module imports on its own."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    shown = subprocess.run(
        [sys.executable, "-m", "display", "demo", "epc-weekend", "--help"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=60, check=True,
    )  # fmt: skip
    assert "--players" in shown.stdout and "Country Competition" in shown.stdout
    alone = subprocess.run(
        [sys.executable, "-c", "import display.competitions.epc_main.demo, display.cli.demo.common"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=60,
    )  # fmt: skip
    assert alone.returncode == 0, alone.stderr
