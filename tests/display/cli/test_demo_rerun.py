"""``backglass demo epc`` run again on the same data directory, as whole processes with the
embedded Redis: it continues its tournament with the TD password of the first run (kept in the data
directory), a second demo beside a running one only serves, ``--reset`` starts over, and
``backglass verify`` / ``restore`` find the demo's data without being told where it is."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from display.competitions.machines.demo import plan_epc
from tests.display.cli.demo_process import DemoProcess

SIZE = ["--players", "8", "--machines", "3"]
OWN = ("REDIS_URL", "BACKGLASS_DATA", "BACKGLASS_PREFIX", "BACKGLASS_TD_PASSWORD", "PORT")
GAME = re.compile(r"^\s*\d+/\d+  #")


def demo_env() -> dict[str, str]:
    """The environment of a user who just ran ``scripts/demo``: the embedded Redis, the demo's
    own data directory (``.data/demo`` under the working directory)."""
    return {k: v for k, v in os.environ.items() if k not in OWN}


class Demo(DemoProcess):
    """``backglass demo epc …`` in ``cwd`` as a user who just ran ``scripts/demo``."""

    def __init__(self, cwd: Path, *args: str) -> None:
        super().__init__(cwd, demo_env(), "epc", *args)

    def serving(self) -> str:
        """Wait until it serves with nothing left to push; returns its TD password."""
        self.wait_for("The server keeps running at")
        return password(self.text)


@pytest.fixture
def demos() -> Iterator[list[Demo]]:
    """Demos started by a test; every one still running is stopped afterwards."""
    started: list[Demo] = []
    yield started
    for demo in started:
        demo.stop()


def password(text: str) -> str:
    """The TD password the demo printed in its banner."""
    found = re.findall(r"^  TD password:\s+(\S+)", text, re.MULTILINE)
    assert found, text
    return str(found[-1])


def sign_in(url: str, secret: str) -> httpx.Response:
    return httpx.post(f"{url}/api/session", json={"role": "td", "password": secret}, timeout=10)


def token(url: str, secret: str) -> str:
    answer = sign_in(url, secret)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


def td_call(url: str, bearer: str) -> int:
    """A TD-only read with ``bearer``: 200 while that session is good."""
    headers = {"Authorization": f"Bearer {bearer}"}
    return httpx.get(f"{url}/api/sign-in-failures", headers=headers, timeout=10).status_code


def scores(url: str, tid: str) -> set[tuple[str, str, int]]:
    records = httpx.get(f"{url}/api/t/{tid}/log", timeout=10).json()["records"]
    return {
        (r["player"], r["machine"], r["score"]) for r in records if r["type"] == "score_recorded"
    }


def test_a_second_run_continues_the_demo_with_the_first_runs_password(
    tmp_path: Path, demos: list[Demo]
) -> None:
    plan = plan_epc(8, 3, seed=2009)
    first = Demo(tmp_path, *SIZE, "--pace", "0.3")
    demos.append(first)
    first.wait_for("Made a new demo tournament epc.")
    first.wait_for("  TD password:")
    secret = password(first.text)
    kept = tmp_path / ".data" / "demo" / "td-password"
    assert kept.read_text().strip() == secret
    assert (kept.stat().st_mode & 0o777, kept.parent.stat().st_mode & 0o777) == (0o600, 0o700)
    session = token(first.url, secret)

    # A second demo on another port while the first still plays: it serves, pushes nothing, and
    # the first one's password and session go on working on both.
    beside = Demo(tmp_path, *SIZE, "--fast")
    demos.append(beside)
    line = beside.line("Another demo (pid ")
    assert f"pid {first.process.pid} at {first.url}) plays epc on .data/demo" in line
    assert password(beside.text) == secret
    assert beside.stop() == 0
    assert not GAME.search(beside.text)
    token(first.url, secret)

    first.wait_for(GAME)  # stopped with games still to play
    assert first.stop() == 0

    again = Demo(tmp_path, *SIZE, "--fast")
    demos.append(again)
    assert again.serving() == secret
    line = again.line("Continuing the demo tournament epc: ")
    played = int(line.split(": ")[1].split(" of ")[0])
    assert 0 < played < len(plan.games), line
    assert f"{played} of {len(plan.games)} games played before" in line
    assert "Made a new" not in again.text
    assert td_call(again.url, session) == 200  # signed in during the first run, still in
    assert scores(again.url, "epc") == {(g.player, g.machine, g.score) for g in plan.games}
    listed = httpx.get(f"{again.url}/api/tournaments", timeout=10).json()["tournaments"]
    assert [t["id"] for t in listed] == ["epc"]
    assert again.stop() == 0

    complete = Demo(tmp_path, *SIZE, "--fast")
    demos.append(complete)
    assert complete.serving() == secret
    total = len(plan.games)
    complete.wait_for(f"The demo tournament epc is complete ({total} of {total} games played)")
    assert not GAME.search(complete.text)
    token(complete.url, secret)


def test_another_plan_gets_a_new_tournament_and_says_why(tmp_path: Path, demos: list[Demo]) -> None:
    first = Demo(tmp_path, "--players", "4", "--machines", "2", "--fast")
    demos.append(first)
    secret = first.serving()
    assert first.stop() == 0
    other = Demo(tmp_path, *SIZE, "--fast")
    demos.append(other)
    assert other.serving() == secret
    other.wait_for(
        "Made a new demo tournament epc-2, as epc has other players (another --players or --seed)."
    )


def test_reset_starts_over_but_not_under_a_running_server(
    tmp_path: Path, demos: list[Demo]
) -> None:
    first = Demo(tmp_path, *SIZE, "--fast")
    demos.append(first)
    old = first.serving()
    session = token(first.url, old)

    refused = Demo(tmp_path, *SIZE, "--fast", "--reset")
    demos.append(refused)
    assert refused.process.wait(30) == 1 and refused.stop() == 1
    assert "--reset: a Backglass server is still running on .data/demo" in refused.text
    assert "Nothing was removed." in refused.text
    assert td_call(first.url, session) == 200
    assert first.stop() == 0

    fresh = Demo(tmp_path, *SIZE, "--fast", "--reset")
    demos.append(fresh)
    new = fresh.serving()
    assert "--reset: removing the demo's data directory .data/demo" in fresh.text
    fresh.wait_for("Made a new demo tournament epc.")
    assert new != old
    assert sign_in(fresh.url, old).status_code == 401
    assert td_call(fresh.url, session) == 401
    token(fresh.url, new)


def test_verify_and_restore_find_the_demos_data(tmp_path: Path, demos: list[Demo]) -> None:
    demo = Demo(tmp_path, "--players", "4", "--machines", "2", "--fast")
    demos.append(demo)
    secret = demo.serving()
    headers = {"Authorization": f"Bearer {token(demo.url, secret)}"}
    export = tmp_path / "epc.log.jsonl"
    answer = httpx.get(f"{demo.url}/api/t/epc/export/log.jsonl", headers=headers, timeout=10)
    export.write_bytes(answer.content)
    assert demo.stop() == 0

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, "-m", "display", *args]
        return subprocess.run(
            argv, cwd=tmp_path, env=demo_env(), capture_output=True, text=True, timeout=60
        )

    checked = cli("verify")
    assert checked.returncode == 0, checked.stderr
    assert re.match(
        r"epc: \d+ records, \d+ chained: OK; head seq \d+ [0-9a-f]{64}\n", checked.stdout
    )
    assert checked.stdout.endswith("Checked 1 tournament in .data/demo (prefix bg-demo): all OK.\n")

    restored = cli("restore", str(export))
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.startswith("epc: restored 0 records in .data/demo (prefix bg-demo)")
