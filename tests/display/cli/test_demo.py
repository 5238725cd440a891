"""``backglass demo``: the EPC demo and the UKPL replay against a real server and Redis."""

from __future__ import annotations

import csv
import io
import os
import signal
import subprocess
import sys
import uuid
from collections import Counter
from pathlib import Path

import pytest
import redis

from display.competitions.machines.demo import MACHINES, plan_epc, run_epc
from display.competitions.ukpl.demo import replay_ukpl
from tests.cases import UKPL as CASES
from tests.utils import ROOT, TD_PASSWORD, Api, free_port

MEETS = [("498", "low"), ("609", "high"), ("649", "high")]  # cases/README.md: 2023 low, 2025 high


def published(meet: str) -> list[dict[str, str]]:
    with (CASES / f"meet-{meet}-published.csv").open(newline="") as handle:
        return ordered(list(csv.DictReader(handle)))


def ordered(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    return sorted(rows, key=lambda r: (int(r["position"]), r["player"]))


def test_plan_follows_the_epc_rules() -> None:
    plan = plan_epc(150, 18, seed=2009)
    assert plan == plan_epc(150, 18, seed=2009)  # the seed decides everything
    assert len(set(plan.players.values())) == 150
    played: dict[str, Counter[str]] = {}
    for game in plan.games:
        games = played.setdefault(game.player, Counter())
        assert game.joker == (game.machine in games)  # a second game is the joker, never first
        games[game.machine] += 1
    for games in played.values():
        assert len(games) <= 6
        assert sum(n - 1 for n in games.values()) <= 1
    jokers = sum(g.joker for g in plan.games)
    assert 0.15 * 150 < jokers < 0.35 * 150
    plays = Counter(g.machine for g in plan.games)
    assert plays["mm"] > 1.5 * plays["rf"]  # popular machines get more plays
    medians = {m.id: m.median for m in MACHINES}
    for game in plan.games:
        assert medians[game.machine] / 100 < game.score < medians[game.machine] * 100


@pytest.mark.parametrize(("meet", "ties"), MEETS)
async def test_ukpl_replay_gives_the_published_results(server: str, meet: str, ties: str) -> None:
    lines: list[str] = []
    rows = await replay_ukpl(
        CASES / f"meet-{meet}-scores.csv",
        url=server,
        td_password=TD_PASSWORD,
        settings={"ties": ties},
        fast=True,
        echo=lines.append,
    )
    assert ordered(rows) == published(meet)
    assert f"ties={ties}" in "\n".join(lines)
    assert "REFUSED" not in "\n".join(lines)


async def test_refused_pushes_are_printed_and_the_replay_goes_on(
    server: str, tmp_path: Path
) -> None:
    meet = tmp_path / "meet.csv"
    meet.write_text(
        "machine,player,score,guest\n"
        "AC/DC,P1,300,0\nAC/DC,P2,200,0\nAC/DC,P3,100,1\n"
        "AC/DC,P1,999,0\n"  # a second game on one machine: the rules refuse it
        "AC-DC,P2,lots,0\n"  # not a number: refused; AC-DC is a machine of its own
        "AC-DC,P1,,0\n"  # blank: no entry
        "Genie,P1,5000,0\nGenie,P2,5000,0\n"  # a tie: ties=low gives both place 2's point
    )
    lines: list[str] = []
    rows = await replay_ukpl(
        meet,
        url=server,
        td_password=TD_PASSWORD,
        settings={"ties": "low"},
        fast=True,
        echo=lines.append,
    )
    refused = sorted(line.split("REFUSED ")[1] for line in lines if "REFUSED" in line)
    assert len(refused) == 2
    assert refused[0].startswith("409: Player P1 already has a score on AC/DC")
    assert refused[1] == "422: A score must be a whole number, not 'lots'."
    assert rows == [
        {"player": "P1", "position": "1", "meet_total": "3", "league_points": "20"},
        {"player": "P2", "position": "2", "meet_total": "2", "league_points": "19"},
    ]


async def test_epc_demo_pushes_only_what_the_rules_allow(server: str, api: Api) -> None:
    await api.tournament("epc", "epc-qualifying")  # taken: the demo must pick another id
    lines: list[str] = []
    result = await run_epc(
        url=server,
        td_password=TD_PASSWORD,
        players=20,
        machines=6,
        seed=7,
        fast=True,
        echo=lines.append,
    )
    plan = plan_epc(20, 6, seed=7)
    assert result.tournament == "epc-2"
    assert result.refused == []
    assert result.accepted == result.pushed == len(plan.games)
    text = "\n".join(lines)
    for page in ("display", "steward", "standings"):
        assert f"{server}/t/epc-2/{page}" in text
    assert TD_PASSWORD in text
    assert "Demo Steward, PIN " in text

    views = (await api.views("epc-2"))["views"]
    assert len(views["players"]) == 20
    assert [v["name"] for v in views["machines"].values()] == [m.name for m in MACHINES[:6]]
    machines: Counter[str] = Counter()
    points: Counter[str] = Counter()
    scores = 0
    for mid in views["machines"]:
        for player, row in views[f"machine/{mid}"]["rows"].items():
            machines[player] += 1
            points[player] += row.get("points", 0)
        scores += views[f"machine/{mid}"]["played"]
    assert max(machines.values()) <= 6
    assert scores == len({(g.player, g.machine) for g in plan.games})
    for player, row in views["standings"]["rows"].items():
        assert row["total"] == points[player]
        assert row["played"] == machines[player]


def replay_then_stop(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the demo until it says it keeps serving (it does until Ctrl-C), then Ctrl-C it."""
    process = subprocess.Popen(
        args, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    assert process.stderr is not None
    err = []
    try:
        for line in process.stderr:  # the standings (stdout) are a few KiB: the pipe holds them
            err.append(line)
            if "The server keeps running at" in line:
                break
        os.killpg(process.pid, signal.SIGINT)
        out, rest = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    return subprocess.CompletedProcess(args, process.returncode, out, "".join(err) + rest)


def test_cli_replays_a_meeting_with_a_server_of_its_own(redis_url: str, tmp_path: Path) -> None:
    prefix = f"bgtest-{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "BACKGLASS_PREFIX": prefix,
        "BACKGLASS_DATA": str(tmp_path / "data"),
    }
    args = [sys.executable, "-m", "display", "demo", "ukpl", str(CASES / "meet-609-scores.csv")]
    args += ["--fast", "--set", "ties=high", "--port", str(free_port())]
    try:
        done = replay_then_stop(args, env)
    finally:
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()
    assert done.returncode == 0, done.stderr
    assert ordered(list(csv.DictReader(io.StringIO(done.stdout)))) == published("609")
    assert done.stdout.startswith("player,position,meet_total,league_points\n")
    assert "Settings:      ties=high, bonus=gt" in done.stderr
    assert "/t/meet-609/display" in done.stderr
