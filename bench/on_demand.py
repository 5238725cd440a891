"""Tournaments on demand (issue 15): 1,000 tournaments in one Redis; how long a fresh server
process takes from spawn to ready, and its memory with 0, 10 and 100 of them in use.

Run with ``scripts/bench --tournaments`` (``--count``, ``--players``, ``--scores``: see ``--help``).
First, as a baseline, a server is started on an empty store. Then one server process (embedded
Redis, AOF ``appendfsync always``) makes the tournaments: ``--templates`` of them played through
the API (each an EPC qualifying with ``--players`` players, 4 machines and ``--scores`` scores),
the rest imported from those logs (``POST /api/t/{id}/import``, checked by the rules as a new
tournament); its RSS with all of them loaded is noted, and it is stopped (it saves their
snapshots). A fresh process is spawned on the same data, ``--trials`` times: the seconds to its
port answering (Python, the embedded Redis loading its AOF) and to ``ready`` (``/api/health``
``start.state``: the registry read, Redis checked against the high-water file), then its RSS at
rest (0 in use) and after the first GET of 10 and of 100 tournaments (kept in use: the idle
time is far longer than the run), the median first-use GET (a load from the snapshot and the
log tail), and one ``GET /api/tournaments`` listing every one. Figures are printed and written
to ``bench/results/on-demand-<time>.json``; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any, ClassVar

import httpx
import psutil

from bench.common import ROOT, Child, free_port, now, percentile

PASSWORD = "bench-on-demand"
MACHINES = 4
IN_USE = (0, 10, 100)


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (the server only, not its embedded Redis)."""
    return float(psutil.Process(pid).memory_info().rss) / 2**20


class Server:
    """One ``python -m display serve`` on ``data`` (embedded Redis) and its HTTP client."""

    started: ClassVar[list[Server]] = []  # every one spawned, stopped again at exit (``main``)

    def __init__(self, data: Path, log: Path) -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "BACKGLASS_TD_PASSWORD": PASSWORD,
            "BACKGLASS_DATA": str(data),
            "PYTHONUNBUFFERED": "1",
            "BACKGLASS_CONNECTIONS_PER_ADDRESS": "0",
        }
        env.pop("REDIS_URL", None)
        args = [sys.executable, "-m", "display", "serve", "--port", str(self.port)]
        self.spawned = now()
        self.child = Child("server", args, env, log=log)
        Server.started.append(self)
        self.http = httpx.AsyncClient(base_url=f"http://127.0.0.1:{self.port}", timeout=60)
        self.headers: dict[str, str] = {}

    async def ready(self) -> tuple[float, float]:
        """Wait for ``start.state == "ready"``; seconds from spawn to the first answer and to ready."""
        answered = None
        while True:
            if not self.child.alive():
                raise RuntimeError(f"server exited\n{self.child.log_tail()}")
            with contextlib.suppress(httpx.HTTPError):
                r = await self.http.get("/api/health", timeout=1)
                answered = answered or now()
                if r.status_code == 200 and r.json()["start"]["state"] == "ready":
                    return answered - self.spawned, now() - self.spawned
            if now() - self.spawned > 120:
                raise RuntimeError(f"server not ready\n{self.child.log_tail()}")
            await asyncio.sleep(0.005)

    async def sign_in(self) -> None:
        r = await self.http.post("/api/session", json={"role": "td", "password": PASSWORD})
        r.raise_for_status()
        self.headers = {"Authorization": f"Bearer {r.json()['token']}"}

    async def post(self, path: str, body: Any) -> None:
        r = await self.http.post(path, json=body, headers=self.headers)
        if r.status_code >= 300:
            raise RuntimeError(f"{path}: {r.status_code} {r.text}")

    async def stop(self) -> None:
        await self.http.aclose()
        await asyncio.to_thread(self.child.stop, 60)


async def make(server: Server, tid: str, players: int, scores: int, rng: random.Random) -> None:
    """One EPC qualifying tournament with ``players`` players, 4 machines and ``scores`` scores,
    each player at most once per machine (EPC 2009 rules, 'EPC Qualifying')."""
    body = {"id": tid, "name": f"Bench {tid}", "format": "epc-qualifying", "settings": {}}
    await server.post("/api/tournaments", body)
    people = [{"number": str(n), "name": f"Player {n}"} for n in range(1, players + 1)]
    await server.post(f"/api/t/{tid}/players", {"players": people})
    machines = [{"id": str(m), "name": f"Machine {m}"} for m in range(1, MACHINES + 1)]
    await server.post(f"/api/t/{tid}/machines", {"machines": machines})
    games = [(p, m) for p in range(1, players + 1) for m in range(1, MACHINES + 1)]
    for player, machine in rng.sample(games, min(scores, len(games))):
        score = {
            "player": str(player),
            "machine": str(machine),
            "score": rng.randrange(10**6, 10**8),
        }
        await server.post(f"/api/t/{tid}/scores", score)


async def amain(opts: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="bench-on-demand-"))
    data = work / "data"
    ids = [f"t{n:04d}" for n in range(opts.count)]
    rng = random.Random(opts.seed)
    result: dict[str, Any] = {
        "time": dt.datetime.now().isoformat(timespec="seconds"),
        "cpus": os.cpu_count(),
        "load_average_at_start": os.getloadavg(),
        "tournaments": opts.count,
        "per_tournament": f"epc-qualifying, {opts.players} players, {MACHINES} machines, "
        f"{opts.scores} scores",
    }
    baseline = []  # the same start on an empty store: what is not the tournaments' cost
    for trial in range(opts.trials):
        empty = Server(work / f"empty-{trial}", work / f"empty-{trial}.log")
        baseline.append(await empty.ready())
        await empty.stop()
    result["empty_store"] = {
        "answers_s": percentile([a for a, _ in baseline], 50),
        "ready_s": percentile([r for _, r in baseline], 50),
    }
    maker = Server(data, work / "maker.log")
    await maker.ready()
    await maker.sign_in()
    started = now()
    # A few tournaments played through the API, then each one's log export imported under the
    # other ids (one request per tournament, checked by the rules as a new tournament).
    logs = []
    for tid in ids[: opts.templates]:
        await make(maker, tid, opts.players, opts.scores, random.Random(rng.random()))
        r = await maker.http.get(f"/api/t/{tid}/export/log.jsonl", headers=maker.headers)
        r.raise_for_status()
        logs.append(r.content)
    limit = asyncio.Semaphore(opts.jobs)

    async def one(n: int, tid: str) -> None:
        async with limit:
            headers = {**maker.headers, "Content-Type": "application/x-ndjson"}
            body = logs[n % len(logs)]
            r = await maker.http.post(f"/api/t/{tid}/import", content=body, headers=headers)
            if r.status_code != 201:
                raise RuntimeError(f"import {tid}: {r.status_code} {r.text}")

    await asyncio.gather(*(one(n, tid) for n, tid in enumerate(ids[opts.templates :])))
    result["make_seconds"] = now() - started
    await asyncio.sleep(opts.settle)
    result["rss_mib_all_loaded"] = rss_mib(maker.child.pid)  # the maker holds every one
    print(f"made {opts.count} tournaments in {result['make_seconds']:.1f} s", file=sys.stderr)
    await maker.stop()

    runs = []
    for trial in range(opts.trials):
        server = Server(data, work / f"server-{trial}.log")
        answers, ready = await server.ready()
        await asyncio.sleep(opts.settle)
        run: dict[str, Any] = {"answers_s": answers, "ready_s": ready, "rss_mib": {}}
        run["rss_mib"]["0"] = rss_mib(server.child.pid)
        used: list[str] = []
        first_use_ms: list[float] = []
        picks = random.Random(trial).sample(ids, min(len(ids), max(IN_USE)))
        for count in IN_USE[1:]:
            for tid in picks[len(used) : count]:
                t0 = now()
                r = await server.http.get(f"/api/t/{tid}/views")
                first_use_ms.append((now() - t0) * 1e3)
                r.raise_for_status()
                used.append(tid)
            await asyncio.sleep(opts.settle)
            run["rss_mib"][str(count)] = rss_mib(server.child.pid)
        listed = now()
        r = await server.http.get("/api/tournaments")
        run["listing_ms"] = (now() - listed) * 1e3
        run["listed"] = len(r.json()["tournaments"])
        run["first_use_ms_p50"] = percentile(first_use_ms, 50)
        run["first_use_ms_p95"] = percentile(first_use_ms, 95)
        runs.append(run)
        await server.stop()
    result["runs"] = runs
    report(result)
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    path = out / f"on-demand-{dt.datetime.now():%Y%m%d-%H%M%S}.json"
    path.write_text(json.dumps(result, indent=2))
    print(f"\nJSON: {path}")
    if not opts.keep_tmp:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    return 0


def report(result: dict[str, Any]) -> None:
    runs = result["runs"]

    def median(key: str, sub: str | None = None) -> float:
        values = [r[key][sub] if sub else r[key] for r in runs]
        return percentile(values, 50)

    print(f"\n{result['tournaments']} tournaments ({result['per_tournament']}) in one Redis")
    print(
        f"  load average at start {result['load_average_at_start'][0]:.1f} on {result['cpus']} cores"
    )
    print(f"  made through the API in {result['make_seconds']:.1f} s")
    print(
        f"  RSS of the process that made (and holds) them all: {result['rss_mib_all_loaded']:.0f} MiB"
    )
    empty = result["empty_store"]
    print(f"  a fresh process, median of {len(runs)} starts (on an empty store):")
    print(f"    spawn -> port answers   {median('answers_s'):.2f} s   ({empty['answers_s']:.2f} s)")
    print(f"    spawn -> ready          {median('ready_s'):.2f} s   ({empty['ready_s']:.2f} s)")
    print(
        f"    port answers -> ready   {median('ready_s') - median('answers_s'):.2f} s   "
        f"({empty['ready_s'] - empty['answers_s']:.2f} s)"
    )
    base = median("rss_mib", "0")
    for count in IN_USE:
        rss = median("rss_mib", str(count))
        per = f"   (+{(rss - base) * 1024 / count:.0f} KiB per tournament)" if count else ""
        print(f"    RSS with {count:>3} in use     {rss:.0f} MiB{per}")
    print(
        f"    first GET of one (load) p50 {median('first_use_ms_p50'):.1f} ms, "
        f"p95 {median('first_use_ms_p95'):.1f} ms"
    )
    print(f"    GET /api/tournaments ({runs[0]['listed']} listed) {median('listing_ms'):.1f} ms")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="scripts/bench --tournaments", description=__doc__)
    p.add_argument("--count", type=int, default=1000, help="tournaments (default 1000)")
    p.add_argument("--players", type=int, default=20, help="players per tournament")
    p.add_argument("--scores", type=int, default=10, help="scores per tournament")
    p.add_argument("--templates", type=int, default=5, help="tournaments played via the API")
    p.add_argument("--jobs", type=int, default=4, help="imports at once")
    p.add_argument("--trials", type=int, default=3, help="fresh starts measured (median)")
    p.add_argument("--settle", type=float, default=1.0, help="seconds before each RSS reading")
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--keep-tmp", action="store_true", help="keep the data dir and logs")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    try:
        return asyncio.run(amain(parse(argv)))
    finally:  # a failed run leaves no server (or its embedded Redis) behind
        for server in Server.started:
            server.child.stop()


if __name__ == "__main__":
    raise SystemExit(main())
