"""The demos as a user runs them, whole processes through the CLI: ``demo ukpl`` prints its
standings and keeps serving until Ctrl-C like the others; ``demo epc-weekend`` prints its links
as it starts, not only at the end; Ctrl-C on a partial ``demo epc`` says how far it got."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis

from tests.cases import UKPL
from tests.utils import free_port

ROOT = Path(__file__).resolve().parents[3]


class Run:
    """``python -m display demo ARGS --port P``, stdout and stderr read line by line as they come."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        argv = [sys.executable, "-m", "display", "demo", *args, "--port", str(self.port)]
        self.process = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, start_new_session=True,
        )  # fmt: skip
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def wait_for(self, pattern: str, timeout: float = 120) -> int:
        """The index of the first line holding ``pattern``; fails on exit or timeout."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for n, line in enumerate(self.lines):
                    if pattern in line:
                        return n
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    pytest.fail(f"no {pattern!r} in the output:\n" + "\n".join(self.lines))
                self.changed.wait(min(left, 0.2))

    def interrupt(self) -> int:
        """Ctrl-C as a user stops it; the exit code (killed after 30 s)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
        try:
            return self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            raise

    @property
    def text(self) -> str:
        with self.changed:
            return "\n".join(self.lines)


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
        if run.process.poll() is None:
            os.killpg(run.process.pid, signal.SIGKILL)
            run.process.wait()
        run.reader.join(10)
        assert run.process.stdout is not None
        run.process.stdout.close()


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
