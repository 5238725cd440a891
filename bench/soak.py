"""Kill -9 the server (or Redis, or both) at random moments while pushers send keyed scores,
restart what was killed, and check that nothing acknowledged was lost (issue 6, "Faults"; issue 16,
"Raise the proof"). See bench/README.md, "Kill and restart soak".

    scripts/soak                     100 trials, DEFAULT_JOBS at a time
    scripts/soak --trials 1000       the long soak
    scripts/soak --trials 10 --seed 3 --jobs 1
    scripts/soak --redis-args '--appendonly no'    what the soak catches (it must fail)

Jobs (``--jobs``): processes of their own, each with one ``backglass serve`` process on a port of
its own and data directories of its own (the embedded Redis, or a fresh key prefix on
``REDIS_URL``), running its trials one after another: the server a trial restarts is the next
trial's server under load, so a trial starts one server, not two. One trial: an EPC qualifying
tournament of its own (``PLAYERS`` players, ``MACHINES`` machines, ``GAMES`` distinct machines
each, so any order of the pushes is valid); ``PUSHERS`` httpx clients, each on its own connection,
push steward scores as fast as the answers come, every push with its own ``Idempotency-Key``. At a
random moment (after a random delay, or right after a random number of 2xx answers: an
acknowledgement given before the write was persisted dies with the process), a quarter of the
trials each (``MODES``): the server's process group gets SIGKILL ("server"); Redis alone gets
SIGKILL, the server runs on and its supervisor starts Redis again ("redis"); the server, then its
Redis ("both"); or Redis is first stopped (SIGSTOP) for up to ``MAX_HANG`` s, so pushes wait in
its socket, then the server is killed and Redis continued ("hung": it runs the dead server's queued
appends). The server is started again on the same data (in "redis", the running one is waited for
until Redis answers and its replica caught up); then:

(a) every push answered 2xx is in the log at the version it was given, with the same record; every
    push answered 503 ``store_unavailable`` ("nothing was recorded") is not;
(b) the views the server shows equal a replay of the whole log from scratch (``LiveTournament``) and
    its standings equal the pure engine's from-scratch ``scoring.tournament.rebuild``;
(c) every push answered, answered "not recorded" or in flight (no answer, or 503
    ``outcome_unknown``), sent again with its key and body (as ``static/entry.js`` does, again
    while the answer is a 503), gets its first answer back with ``Idempotent-Replayed: true`` if it
    had landed, and the log grows by exactly the pushes that had not; then (b) again.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import os
import queue
import random
import shutil
import signal
import socket
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
from bench.soak_rig import TD_PASSWORD, Rig, client

FORMAT = "epc-qualifying"
PLAYERS, MACHINES, GAMES = 60, 12, 6
PUSHERS = 6
MAX_DELAY = 1.0
"""Seconds: a timed kill comes after a delay drawn from 0..MAX_DELAY after the load starts."""
MAX_HANG = 2.0
"""Seconds Redis stays stopped before the server is killed, in a "hung" trial (from 0.1..MAX_HANG)."""
MODES = ("server", "redis", "both", "hung")
"""What a trial kills: the server; Redis only (the server runs on, its supervisor starts Redis
again); the server and then Redis; Redis stopped (SIGSTOP), then the server killed and Redis
continued. On an external Redis (never killed or stopped) only "server"."""
MAX_ACKS = 150
"""An ack-triggered kill comes right after the n-th 2xx answer, n drawn from 1..MAX_ACKS."""
RESULTS = ROOT / "bench" / "results"
DEFAULT_JOBS = 2 * (os.cpu_count() or 1)
"""Two jobs a core: a trial spends about half its time waiting (for its server to start, for
answers, for a hung Redis), which another job's trial fills."""


async def set_up(http: httpx.AsyncClient, rig: Rig, tid: str) -> str:
    """Tournament ``tid``, its players and machines, and a steward; returns the steward's token.
    The TD signs in once per rig (``rig.td_token``): each sign-in and PIN is an argon2 hash."""

    async def post(path: str, body: Any) -> Any:
        response = await http.post(path, json=body)
        response.raise_for_status()
        return response.json()

    if rig.td_token is None:
        td = await post("/api/session", {"role": "td", "password": TD_PASSWORD})
        rig.td_token = str(td["token"])
    http.headers["Authorization"] = f"Bearer {rig.td_token}"
    await post("/api/tournaments", {"id": tid, "name": "Soak", "format": FORMAT, "settings": {}})
    players = [{"number": str(n), "name": f"Player {n}"} for n in range(1, PLAYERS + 1)]
    await post(f"/api/t/{tid}/players", {"players": players})
    machines = [{"id": str(m), "name": f"Machine {m}"} for m in range(1, MACHINES + 1)]
    await post(f"/api/t/{tid}/machines", {"machines": machines})
    pin = (await post(f"/api/t/{tid}/stewards", {"name": "Soak Steward"}))["pin"]
    sign_in = {"role": "steward", "tournament": tid, "name": "Soak Steward", "pin": pin}
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

    struck = asyncio.Event()  # the moment: a hung trial stops Redis then, and kills a little later

    def kill() -> None:
        # Synchronous, inside the loop: no pusher runs meanwhile, so none starts a push after it.
        if trial.redis_hung:
            struck.set()
        elif not killed.is_set():
            trial.load_done_before_kill = all(task.done() for task in tasks)
            if trial.server_killed:
                rig.kill(trial.redis_killed)
            else:
                rig.kill_redis()
            killed.set()

    async def hang_then_kill() -> None:
        """SIGSTOP Redis, let pushes pile up in its socket for a while (under the server's 5 s
        Redis timeout, so none is answered), SIGKILL the server, SIGCONT Redis: it then runs the
        dead server's queued appends, which nobody was answered for."""
        rig.hang_redis(True)
        try:
            await asyncio.sleep(rng.uniform(0.1, MAX_HANG))
            trial.load_done_before_kill = all(task.done() for task in tasks)
            rig.kill(False)
        finally:
            rig.hang_redis(False)
        killed.set()

    async def pusher() -> None:
        nonlocal acks
        auth = {"Authorization": f"Bearer {token}"}
        async with client(rig.url, timeout=10, headers=auth) as http:
            while queue and not killed.is_set():
                push = queue.popleft()
                try:
                    response = await send(http, push, trial.tid)
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
        await asyncio.wait_for((struck if trial.redis_hung else killed).wait(), delay)
    if trial.redis_hung:
        await hang_then_kill()
    else:
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
    what: str | None = None,
    rig: Rig | None = None,
) -> Trial:
    """One kill-and-restart trial; the kill's moment (``kill_mode``: "time" or "ack") and what it
    kills (``what``, one of ``MODES``) are drawn from ``rng`` unless given. On ``rig`` (a job's,
    serving or not: started if not, left serving for the next trial) with a tournament of its own,
    ``soak-<number>``; without one on a rig of its own in ``work/trial-<number>``, stopped at the
    end. Raises only for a broken setup; failed checks are ``problems``."""
    own_rig = rig is None
    rig = rig or Rig(work / f"trial-{number}", redis_url, redis_args)
    mode = kill_mode or rng.choice(["time", "ack"])
    drawn = what or rng.choice(MODES)
    if not rig.can_kill_redis:
        drawn = "server"
    tid = TID if own_rig else f"{TID}-{number}"
    trial = Trial(
        number,
        mode,
        redis_killed=drawn in ("redis", "both"),
        redis_hung=drawn == "hung",
        tid=tid,
        server_killed=drawn != "redis",
    )
    phases, mark = trial.phase_seconds, time.perf_counter()

    def phase(name: str) -> None:
        nonlocal mark
        now = time.perf_counter()
        phases[name] = now - mark
        mark = now

    try:
        if not rig.serving:
            await rig.start()
        phase("start")
        async with client(rig.url, timeout=10) as http:
            token = await set_up(http, rig, tid)
        phase("set_up")
        answers = await load_and_kill(rig, token, plan(rng), trial, rng)
        phase("load")
        try:
            if trial.server_killed:
                trial.restart_seconds = await rig.start()
            else:
                trial.restart_seconds = await rig.recovered(tid)
        except RuntimeError as exc:
            trial.problems.append(f"the server did not come back: {exc}")
            return trial
        phase("restart")
        auth = {"Authorization": f"Bearer {token}"}
        async with client(rig.url, timeout=10, headers=auth) as http:
            try:
                await check(http, answers, trial)
            except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:  # a broken server
                trial.problems.append(f"the checks could not finish: {exc!r}")
        phase("check")
    finally:
        if own_rig:
            rig.close()
    return trial


def summary(trials: list[Trial]) -> dict[str, Any]:
    total = {
        name: sum(getattr(t, name) for t in trials)
        for name in ("sent", "acknowledged", "in_flight", "landed_unanswered", "lost",
                     "replay_mismatches", "appended_twice", "retry_answer_differs", "refused",
                     "retried_503", "declined", "declined_but_recorded")
    }  # fmt: skip
    came_back = [t for t in trials if not math.isnan(t.restart_seconds)]
    restarts = {
        "all": [t.restart_seconds for t in came_back if t.server_killed],
        **{mode: [t.restart_seconds for t in came_back if t.mode == mode] for mode in MODES},
    }
    counted = ("acknowledged", "in_flight", "landed_unanswered", "lost", "appended_twice",
               "retried_503", "declined")  # fmt: skip
    by_mode = {
        mode: {
            "trials": len(group),
            "failed": sum(not t.ok for t in group),
            **{name: sum(getattr(t, name) for t in group) for name in counted},
        }
        for mode in MODES
        if (group := [t for t in trials if t.mode == mode])
    }
    phases = ("start", "set_up", "load", "restart", "check")
    return {
        "trials": len(trials),
        "failed": sum(not t.ok for t in trials),
        "phase_s_p50": {
            name: percentile([t.phase_seconds[name] for t in trials if name in t.phase_seconds], 50)
            for name in phases
        },
        "by_mode": by_mode,
        "redis_killed": sum(t.redis_killed for t in trials),
        "redis_only": sum(t.redis_killed and not t.server_killed for t in trials),
        "redis_hung": sum(t.redis_hung for t in trials),
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
        ("trials run", s["trials"], f"Redis killed in {s['redis_killed']} ({s['redis_only']} of them "
         f"Redis only), hung in {s['redis_hung']}; "
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
        ("answered 'not recorded'", s["declined"], "503 store_unavailable while Redis was down"),
        ("  but recorded", s["declined_but_recorded"], "must be 0"),
        ("retries answered 503 first", s["retried_503"], "then resent with the key until known"),
    ]  # fmt: skip
    lines = [f"soak: {described}"]
    lines += [f"  {name:<28}{value:>8}   {note}".rstrip() for name, value, note in rows]
    lines.append(f"  {'restart (spawn -> serving)':<28}{'':>8}   {times('all')}")
    lines.append(f"  {'  server only':<28}{'':>8}   {times('server')}")
    lines.append(f"  {'  Redis only (back, caught up)':<28}{'':>8}   {times('redis')}")
    lines.append(f"  {'  server and Redis':<28}{'':>8}   {times('both')}")
    lines.append(f"  {'  Redis hung, server':<28}{'':>8}   {times('hung')}")
    lines.append(
        "  by mode         trials  failed   acked  in flight (landed)  lost  twice  503 first"
        "  not recorded"
    )
    for mode, m in s["by_mode"].items():
        lines.append(
            f"  {mode:<14}{m['trials']:>7}{m['failed']:>8}{m['acknowledged']:>8}{m['in_flight']:>11}"
            f" ({m['landed_unanswered']:>5}){m['lost']:>7}{m['appended_twice']:>7}{m['retried_503']:>11}"
            f"{m['declined']:>14}"
        )
    lines.append(
        "  a trial's phases (median s)  "
        + ", ".join(f"{name} {seconds:.2f}" for name, seconds in s["phase_s_p50"].items())
    )
    if "wall_seconds" in s and s["trials"]:
        wall = s["wall_seconds"]
        lines.append(
            f"  wall time {wall:.0f} s: {wall / s['trials']:.2f} s a trial "
            f"(1,000 trials: about {wall / s['trials'] * 1000 / 60:.0f} min)"
        )
    lines.append(f"  trials that lost or broke anything: {s['failed']}")
    return "\n".join(lines)


RECYCLE = 25
"""Trials a job runs on one data directory before it starts afresh: every restart replays each log
in it, so with more the restart a trial measures would grow with the trials run before it."""
PORTS = range(20000, 32000)
"""The jobs' server ports: below the kernel's ephemeral range (32768-60999 on Linux), so no port-0
bind (``free_port`` in other test runs) and no outgoing connection is given a job's port while its
server is down between a kill and the restart."""


def job_ports(jobs: int, salt: int) -> list[int]:
    """A free port in ``PORTS`` for each of ``jobs`` jobs, each held by its job for the whole run
    (its server is started again on it after every kill). Job j tries ``base + j``, then every
    ``jobs``-th port after it: jobs never try the same port; ``base`` comes from ``salt`` (the soak's
    pid), so two soaks at once seldom try the same ones. Raises RuntimeError if none is free."""
    base = PORTS.start + (salt % 500) * 16
    ports = []
    for job in range(jobs):
        for port in range(base + job, PORTS.stop, jobs):
            with socket.socket() as s, contextlib.suppress(OSError):
                s.bind(("127.0.0.1", port))
                ports.append(port)
                break
        else:
            raise RuntimeError(f"no free port in {PORTS.start}..{PORTS.stop - 1} for job {job}")
    return ports


async def run_job(
    work: Path, job: int, numbers: list[int], opts: argparse.Namespace, port: int, done: Any
) -> None:
    """Trials ``numbers`` one after another on one server (port ``port``): a trial's restarted
    server is the next trial's server under load, so each trial starts one server, not two, and
    its TD signs in once. A fresh data directory every ``RECYCLE`` trials, and after a trial whose
    server did not come back. Each trial's draws depend on the seed and its number only, whichever
    job runs it; ``done.put(trial)`` reports it."""
    rig: Rig | None = None
    try:
        for i, number in enumerate(numbers):
            if rig is not None and (i % RECYCLE == 0 or not rig.serving):
                rig.close()
                rig = None
            if rig is None:
                rig = Rig(work / f"job-{job}-from-{number}", opts.redis_url, opts.redis_args, port)
            rng = random.Random(opts.seed * 1_000_003 + number)
            done.put(await run_trial(work, number, rng, rig=rig))
    finally:
        if rig is not None:
            rig.close()


def job_main(
    work: Path, job: int, numbers: list[int], opts: argparse.Namespace, port: int, done: Any
) -> None:
    """A job's process: ``run_job``; a broken setup is reported as ``("error", job, text)``."""
    # SIGTERM (the parent stopping the run) unwinds like Ctrl-C: run_job's finally stops the server
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        asyncio.run(run_job(work, job, numbers, opts, port, done))
    except Exception as exc:  # the parent stops the run and says why
        done.put(("error", job, f"{type(exc).__name__}: {exc}"))
        raise


def print_trial(trial: Trial) -> None:
    more = f" (+{len(trial.problems) - 1} more)" if len(trial.problems) > 1 else ""
    flag = "ok" if trial.ok else f"FAILED: {trial.problems[0][:160]}{more}"
    print(
        f"trial {trial.number:>4}: {trial.kill_mode:<4} kill {trial.mode:<6}"
        f"  acked {trial.acknowledged:>3}  in flight {trial.in_flight:>2}"
        f"  restart {trial.restart_seconds:.2f} s  {flag}",
        flush=True,
    )


def soak(opts: argparse.Namespace, work: Path) -> tuple[list[Trial], bool]:
    """``opts.trials`` trials on ``opts.jobs`` jobs, each a process of its own with its own server,
    port and data directories (``run_job``); trial n runs on job n mod jobs. Printed as they
    finish, returned in trial order, with True if the run was interrupted (Ctrl-C or SIGTERM: the
    trials finished so far are returned, every job's server and Redis stopped). Raises
    RuntimeError if a job broke."""
    jobs = max(1, min(opts.jobs, opts.trials))
    ports = job_ports(jobs, os.getpid())
    done: Any = multiprocessing.Queue()
    processes = [
        multiprocessing.Process(
            target=job_main,
            args=(work, job, list(range(job, opts.trials, jobs)), opts, ports[job], done),
        )
        for job in range(jobs)
    ]
    for process in processes:
        process.start()
    trials: list[Trial] = []
    interrupted = False
    try:
        while len(trials) < opts.trials:
            try:
                got = done.get(timeout=1.0)
            except queue.Empty:
                if not any(process.is_alive() for process in processes):
                    raise RuntimeError("every job ended before its trials were done") from None
                continue
            if isinstance(got, tuple):
                raise RuntimeError(f"job {got[1]} broke: {got[2]}")
            print_trial(got)
            trials.append(got)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for process in processes:
            if process.is_alive() and len(trials) < opts.trials:
                process.terminate()  # SIGTERM: its finally stops its server and Redis
        for process in processes:
            while process.is_alive():  # a job exits only once what it put is read
                with contextlib.suppress(queue.Empty):
                    done.get(timeout=0.1)
            process.join()
    return sorted(trials, key=lambda t: t.number), interrupted


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
    p.add_argument(
        "--jobs",
        type=int,
        default=DEFAULT_JOBS,
        help="trials at a time, each job a process with a server, port and data dirs of its own "
        f"(default {DEFAULT_JOBS}: two a core, as a trial waits about half its time)",
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
        f"{redis_text}, {opts.jobs} at a time"
    )
    load_start = os.getloadavg()[0]  # other work on the machine slows restarts: say how much
    # `kill <pid>` stops a long run as Ctrl-C does: the trials so far are reported
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        began = time.perf_counter()
        trials, interrupted = soak(opts, work)
        wall = time.perf_counter() - began
    finally:
        if opts.keep_tmp:
            print(f"data and logs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    s = summary(trials)
    s["wall_seconds"] = wall
    s["load_average"] = {"start": load_start, "end": os.getloadavg()[0]}
    described += (
        f"; load average {load_start:.1f} at the start, {s['load_average']['end']:.1f} at the end"
    )
    if interrupted:
        described += f"; INTERRUPTED after {len(trials)} of {opts.trials} trials"
    s["interrupted"] = interrupted
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
    if interrupted:
        return 130  # as a shell reports Ctrl-C: the run is not the whole proof
    return 0 if s["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
