"""Kill -9 the server at random moments while pushers send keyed scores, restart it, and check that
nothing acknowledged was lost (issue 6, "Faults"). See bench/README.md, "Kill and restart soak".

    scripts/soak                     100 trials, about 5 s each on a quiet 2-core machine
    scripts/soak --trials 10 --seed 3
    scripts/soak --redis-args '--appendonly no'    what the soak catches (it must fail)

One trial, on data of its own (a fresh data directory with the embedded Redis, or a fresh key prefix
on ``REDIS_URL``): a real ``backglass serve`` process; an EPC qualifying tournament (``PLAYERS``
players, ``MACHINES`` machines, ``GAMES`` distinct machines each, so any order of the pushes is
valid); ``PUSHERS`` httpx clients, each on its own connection, push steward scores as fast as the
answers come, every push with its own ``Idempotency-Key``. At a random moment (after a random
delay, or right after a random number of 2xx answers: an acknowledgement given before the write
was persisted dies with the process) the server's process group gets SIGKILL, and in about half the
trials its embedded Redis too. The server is started again on the same data; then:

(a) every push answered 2xx is in the log at the version it was given, with the same record;
(b) the views the server shows equal a replay of the whole log from scratch (``LiveTournament``) and
    its standings equal the pure engine's from-scratch ``scoring.tournament.rebuild``;
(c) every push answered or in flight, sent again with its key and body (as ``static/entry.js``
    does), gets its first answer back with ``Idempotent-Replayed: true`` if it had landed, and the
    log grows by exactly the pushes that had not; then (b) again.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import shutil
import sys
import tempfile
import time
from collections import deque
from dataclasses import asdict
from pathlib import Path
from typing import Any

import httpx
import orjson

from bench.common import ROOT, percentile
from bench.soak_checks import TID, Answer, Push, Trial, check, json_of, send
from bench.soak_rig import TD_PASSWORD, Rig

FORMAT = "epc-qualifying"
PLAYERS, MACHINES, GAMES = 60, 12, 6
PUSHERS = 6
MAX_DELAY = 1.0
"""Seconds: a timed kill comes after a delay drawn from 0..MAX_DELAY after the load starts."""
MAX_ACKS = 150
"""An ack-triggered kill comes right after the n-th 2xx answer, n drawn from 1..MAX_ACKS."""
RESULTS = ROOT / "bench" / "results"


async def set_up(http: httpx.AsyncClient) -> str:
    """The tournament, its players and machines, and a steward; returns the steward's token."""

    async def post(path: str, body: Any) -> Any:
        response = await http.post(path, json=body)
        response.raise_for_status()
        return response.json()

    td = await post("/api/session", {"role": "td", "password": TD_PASSWORD})
    http.headers["Authorization"] = f"Bearer {td['token']}"
    await post("/api/tournaments", {"id": TID, "name": "Soak", "format": FORMAT, "settings": {}})
    players = [{"number": str(n), "name": f"Player {n}"} for n in range(1, PLAYERS + 1)]
    await post(f"/api/t/{TID}/players", {"players": players})
    machines = [{"id": str(m), "name": f"Machine {m}"} for m in range(1, MACHINES + 1)]
    await post(f"/api/t/{TID}/machines", {"machines": machines})
    pin = (await post(f"/api/t/{TID}/stewards", {"name": "Soak Steward"}))["pin"]
    sign_in = {"role": "steward", "tournament": TID, "name": "Soak Steward", "pin": pin}
    return str((await post("/api/session", sign_in))["token"])


def plan(rng: random.Random) -> list[Push]:
    """Every player on ``GAMES`` distinct machines (valid in any order, no joker), shuffled."""
    pushes = [
        Push(f"{rng.getrandbits(128):032x}", str(p), str(m), rng.randrange(10_000, 10**9))
        for p in range(1, PLAYERS + 1)
        for m in rng.sample(range(1, MACHINES + 1), GAMES)
    ]
    rng.shuffle(pushes)
    return pushes


async def load_and_kill(
    rig: Rig, token: str, pushes: list[Push], trial: Trial, rng: random.Random
) -> list[Answer]:
    """Push from ``PUSHERS`` clients until the kill; every push sent gets an ``Answer``."""
    queue, answers, killed = deque(pushes), list[Answer](), asyncio.Event()
    acks_wanted = rng.randint(1, MAX_ACKS) if trial.kill_mode == "ack" else None
    acks = 0

    def kill() -> None:
        # Synchronous, inside the loop: no pusher runs meanwhile, so none starts a push after it.
        if not killed.is_set():
            trial.load_done_before_kill = all(task.done() for task in tasks)
            rig.kill(trial.redis_killed)
            killed.set()

    async def pusher() -> None:
        nonlocal acks
        auth = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=rig.url, timeout=10, headers=auth) as http:
            while queue and not killed.is_set():
                push = queue.popleft()
                try:
                    response = await send(http, push)
                except httpx.TransportError:
                    answers.append(Answer(push, None))
                    return
                answers.append(Answer(push, response.status_code, json_of(response)))
                if response.is_success:
                    acks += 1
                    if acks == acks_wanted:
                        kill()

    tasks = [asyncio.create_task(pusher()) for _ in range(PUSHERS)]
    delay = rng.uniform(0, MAX_DELAY) if acks_wanted is None else 30.0
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(killed.wait(), delay)
    kill()
    await asyncio.gather(*tasks)
    return answers


async def run_trial(
    work: Path,
    number: int,
    rng: random.Random,
    redis_url: str | None = None,
    redis_args: str = "",
    kill_mode: str | None = None,
    kill_redis: bool | None = None,
) -> Trial:
    """One kill-and-restart trial in ``work/trial-<number>``; the kill's moment and kind are drawn
    from ``rng`` unless given. Raises only for a broken setup; failed checks are ``problems``."""
    rig = Rig(work / f"trial-{number}", redis_url, redis_args)
    mode = kill_mode or rng.choice(["time", "ack"])
    with_redis = rig.can_kill_redis and (rng.random() < 0.5 if kill_redis is None else kill_redis)
    trial = Trial(number, mode, with_redis)
    try:
        await rig.start()
        async with httpx.AsyncClient(base_url=rig.url, timeout=10) as http:
            token = await set_up(http)
        answers = await load_and_kill(rig, token, plan(rng), trial, rng)
        try:
            trial.restart_seconds = await rig.start()
        except RuntimeError as exc:
            trial.problems.append(f"the server did not come back: {exc}")
            return trial
        auth = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=rig.url, timeout=10, headers=auth) as http:
            try:
                await check(http, answers, trial)
            except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:  # a broken server
                trial.problems.append(f"the checks could not finish: {exc!r}")
    finally:
        rig.close()
    return trial


def summary(trials: list[Trial]) -> dict[str, Any]:
    total = {
        name: sum(getattr(t, name) for t in trials)
        for name in ("sent", "acknowledged", "in_flight", "landed_unanswered", "lost",
                     "replay_mismatches", "appended_twice", "retry_answer_differs", "refused")
    }  # fmt: skip
    came_back = [t for t in trials if not math.isnan(t.restart_seconds)]
    restarts = {
        "all": [t.restart_seconds for t in came_back],
        "server": [t.restart_seconds for t in came_back if not t.redis_killed],
        "with_redis": [t.restart_seconds for t in came_back if t.redis_killed],
    }
    return {
        "trials": len(trials),
        "failed": sum(not t.ok for t in trials),
        "redis_killed": sum(t.redis_killed for t in trials),
        "ack_kills": sum(t.kill_mode == "ack" for t in trials),
        "load_done_before_kill": sum(t.load_done_before_kill for t in trials),
        **total,
        "restart_s": {
            k: {"p50": percentile(v, 50), "p95": percentile(v, 95)} for k, v in restarts.items()
        },
    }


def report(s: dict[str, Any], described: str) -> str:
    r = s["restart_s"]

    def times(k: str) -> str:
        if math.isnan(r[k]["p50"]):
            return "no such trial"
        return f"median {r[k]['p50']:.2f} s, p95 {r[k]['p95']:.2f} s"

    rows = [
        ("trials run", s["trials"], f"Redis killed too in {s['redis_killed']}; "
         f"{s['ack_kills']} killed right after an ack, the rest after a random delay"),
        ("load over before the kill", s["load_done_before_kill"], "trials whose kill hit no push"),
        ("pushes sent", s["sent"], ""),
        ("acknowledged (2xx)", s["acknowledged"], ""),
        ("in flight at the kill", s["in_flight"], f"landed without an answer: "
         f"{s['landed_unanswered']}, not landed: {s['in_flight'] - s['landed_unanswered']}"),
        ("lost acknowledged", s["lost"], "must be 0"),
        ("replay mismatches", s["replay_mismatches"], "must be 0"),
        ("retries appended twice", s["appended_twice"], "must be 0"),
        ("retries answered otherwise", s["retry_answer_differs"], "must be 0"),
        ("refused before the kill", s["refused"], "must be 0"),
    ]  # fmt: skip
    lines = [f"soak: {described}"]
    lines += [f"  {name:<28}{value:>8}   {note}".rstrip() for name, value, note in rows]
    lines.append(f"  {'restart (spawn -> serving)':<28}{'':>8}   {times('all')}")
    lines.append(f"  {'  server only':<28}{'':>8}   {times('server')}")
    lines.append(f"  {'  server and Redis':<28}{'':>8}   {times('with_redis')}")
    lines.append(f"  trials that lost or broke anything: {s['failed']}")
    return "\n".join(lines)


async def soak(opts: argparse.Namespace, work: Path) -> list[Trial]:
    trials = []
    for number in range(opts.trials):
        rng = random.Random(opts.seed * 1_000_003 + number)
        trial = await run_trial(work, number, rng, opts.redis_url, opts.redis_args)
        trials.append(trial)
        more = f" (+{len(trial.problems) - 1} more)" if len(trial.problems) > 1 else ""
        flag = "ok" if trial.ok else f"FAILED: {trial.problems[0][:160]}{more}"
        print(
            f"trial {number:>3}: {trial.kill_mode:<4} kill{' +redis' if trial.redis_killed else ''}"
            f"  acked {trial.acknowledged:>3}  in flight {trial.in_flight}"
            f"  restart {trial.restart_seconds:.2f} s  {flag}",
            flush=True,
        )
    return trials


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="scripts/soak", description="Kill -9 the server under load; check nothing is lost."
    )
    p.add_argument("--trials", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL") or None,
        help="external Redis, never killed (default $REDIS_URL; else the embedded one)",
    )
    p.add_argument(
        "--redis-args",
        default="",
        help="run the rig's own redis-server with these extra arguments instead "
        "(e.g. '--appendonly no': the soak must then fail)",
    )
    p.add_argument("--keep-tmp", action="store_true", help="keep the data dirs and logs")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    opts = parse(argv)
    work = Path(tempfile.mkdtemp(prefix="backglass-soak-"))
    redis_text = (
        f"own redis-server {opts.redis_args}"
        if opts.redis_args
        else f"external Redis {opts.redis_url}"
        if opts.redis_url
        else "embedded Redis (AOF, appendfsync always)"
    )
    described = (
        f"seed {opts.seed}, {PUSHERS} pushers, {FORMAT} {PLAYERS} players x {MACHINES} machines, "
        f"{redis_text}"
    )
    load_start = os.getloadavg()[0]  # other work on the machine slows restarts: say how much
    try:
        trials = asyncio.run(soak(opts, work))
    finally:
        if opts.keep_tmp:
            print(f"data and logs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    s = summary(trials)
    s["load_average"] = {"start": load_start, "end": os.getloadavg()[0]}
    described += (
        f"; load average {load_start:.1f} at the start, {s['load_average']['end']:.1f} at the end"
    )
    print(report(s, described))
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{time.strftime('%Y%m%dT%H%M%S')}-soak.json"
    out.write_bytes(
        orjson.dumps(
            {"meta": vars(opts), "summary": s, "trials": [asdict(t) for t in trials]},
            option=orjson.OPT_INDENT_2,
        )
    )
    print(f"results: {out.relative_to(ROOT)}")
    return 0 if s["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
