"""The demos as a user runs them, whole processes through the CLI: ``demo ukpl`` prints its
standings and keeps serving until Ctrl-C like the others; ``demo epc-weekend`` prints its links
as it starts, not only at the end; Ctrl-C on a partial ``demo epc`` says how far it got."""

from __future__ import annotations

import os
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis

from tests.cases import UKPL
from tests.display.cli.demo_process import DemoProcess

ROOT = Path(__file__).resolve().parents[3]


class Run(DemoProcess):
    """``python -m display demo ARGS`` from the repository's root with ``env``."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        super().__init__(ROOT, env, *args)

    def interrupt(self) -> int:
        """Ctrl-C as a user stops it; the exit code."""
        return self.stop()


@pytest.fixture
def env(redis_url: str, tmp_path: Path) -> Iterator[dict[str, str]]:
    """A server of the demo's own on the suite's Redis under a fresh prefix (removed after)."""
    prefix = f"bgtest-{uuid.uuid4().hex[:12]}"
    yield {
        **os.environ,
        "REDIS_URL": redis_url,
        "BACKGLASS_PREFIX": prefix,
        "BACKGLASS_DATA": str(tmp_path / "data"),
    }
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def runs() -> Iterator[list[Run]]:
    started: list[Run] = []
    yield started
    for run in started:
        run.stop()


def test_demo_ukpl_prints_its_standings_then_keeps_serving(
    env: dict[str, str], runs: list[Run]
) -> None:
    run = Run(env, "ukpl", str(UKPL / "meet-609-scores.csv"), "--fast")
    runs.append(run)
    header = run.wait_for("player,position,meet_total,league_points")
    serving = run.wait_for("The server keeps running at")
    assert header < serving
    time.sleep(1)
    assert run.process.poll() is None  # it did not exit after its links and standings
    assert httpx.get(f"{run.url}/t/meet-609/display", timeout=10).status_code == 200
    assert run.interrupt() == 0


def test_demo_epc_weekend_prints_links_as_it_starts(env: dict[str, str], runs: list[Run]) -> None:
    run = Run(env, "epc-weekend", "--players", "40")
    runs.append(run)
    password = run.wait_for("TD password:")
    first_link = run.wait_for("/display   ")
    assert password < first_link
    assert "/t/epc-country/display" in run.lines[first_link], run.text
    second_link = run.wait_for("/t/epc-main/display")  # the next competition's, as it starts
    # a link is printed when its competition starts: the weekend is still being played
    assert run.process.poll() is None and "EPC 2009: " not in run.text, run.text
    assert first_link < second_link
    assert run.interrupt() == 0


def test_ctrl_c_on_a_partial_demo_says_how_many_of_how_many(
    env: dict[str, str], runs: list[Run]
) -> None:
    run = Run(env, "epc", "--players", "8", "--machines", "3", "--pace", "0.4")
    runs.append(run)
    run.wait_for("  #")  # a game pushed ("  3/24  #5 Name on Machine: …")
    assert run.interrupt() == 0
    stopped = run.lines[run.wait_for("Stopped: ")]
    found = re.search(r"Stopped: (\d+) of (\d+) games played", stopped)
    assert found, stopped
    played, total = int(found[1]), int(found[2])
    assert 0 < played < total, stopped
    assert "Done:" not in run.text
