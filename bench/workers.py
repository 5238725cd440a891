"""Many displays on ``backglass serve --workers N`` (issue 15): push-to-last-client latency with
5,000 websocket clients spread over the workers, and whether every client converged.

Run with ``scripts/bench --many-clients`` (``--clients``, ``--workers``, ``--pushes``: see ``--help``).
One server, ``python -m display serve --workers N`` (uvicorn's process manager: one port, N
worker processes, the embedded Redis shared), one EPC qualifying tournament (150 players, 18
machines) and ``--clients`` real websocket clients in ``--client-procs`` processes of
``bench.clients`` (each connection lands on whichever worker accepts it). Then ``--pushes``
sequential scores over one keep-alive connection (so through one worker; the others learn them
from the log, as in a hall): from just before each POST to the moment the *last* client of all
has the patch, with a quiet gap after each (the broadcast window + 10 ms, bench/README.md).
Finally every client must reach the version ``GET /api/t/{id}/views`` answers, and the state
client 0 of each client process built from the patches alone must equal those views.

Printed: p50/p99 of push -> last client and of the HTTP answer, clients per worker, the load
average beside them; JSON to ``bench/results/workers-<time>.json``. Nothing is asserted; it exits
1 when a push failed or a client did not converge.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson
import psutil

from bench.common import ROOT, Child, RawHttp, free_port, now, percentile, raise_nofile
from bench.push_latency import (
    EPC_MACHINES,
    EPC_PLAYERS,
    ClientProcess,
    Setup,
    broadcast_window,
    epc_schedule,
)


def worker_pids(manager: int) -> list[int]:
    """The worker processes of uvicorn's process manager ``manager`` (not the embedded Redis)."""
    children = psutil.Process(manager).children()
    # multiprocessing's spawned workers, not its resource tracker
    return [c.pid for c in children if "spawn_main" in " ".join(c.cmdline())]


async def amain(opts: argparse.Namespace) -> int:
    raise_nofile()
    work = Path(tempfile.mkdtemp(prefix="bench-workers-"))
    port, password = free_port(), secrets.token_urlsafe(12)
    env = {
        **os.environ,
        "BACKGLASS_TD_PASSWORD": password,
        "BACKGLASS_DATA": str(work / "data"),
        "PYTHONUNBUFFERED": "1",
        "BACKGLASS_CONNECTIONS_PER_ADDRESS": "0",  # every bench client is 127.0.0.1
    }
    env.pop("REDIS_URL", None)
    args = [sys.executable, "-m", "display", "serve", "--port", str(port)]
    args += ["--workers", str(opts.workers)]
    server = Child("server", args, env, log=work / "server.log")
    procs = [ClientProcess() for _ in range(opts.client_procs)]
    setup = Setup(f"http://127.0.0.1:{port}", password)
    result: dict[str, Any] = {
        "time": dt.datetime.now().isoformat(timespec="seconds"),
        "cpus": os.cpu_count(),
        "workers": opts.workers,
        "clients": opts.clients,
        "client_procs": opts.client_procs,
        "load_average_at_start": os.getloadavg(),
    }
    failed = False
    try:
        for proc in procs:
            await proc.start()
        deadline = now() + 180
        while True:  # every worker up: each answers /api/health "ready" once it took writes
            if not server.alive():
                raise RuntimeError(f"server exited\n{server.log_tail()}")
            with contextlib.suppress(Exception):
                r = await setup.http.get("/api/health", timeout=2)
                up = len(worker_pids(server.pid)) >= opts.workers
                if r.status_code == 200 and r.json()["start"]["state"] == "ready" and up:
                    break
            if now() > deadline:
                raise RuntimeError(f"server not ready\n{server.log_tail()}")
            await asyncio.sleep(0.2)
        await setup.sign_in()
        tid = "bench-workers"
        version = await setup.tournament(tid, "epc-qualifying", EPC_PLAYERS, EPC_MACHINES)
        url = f"ws://127.0.0.1:{port}/ws/{tid}"
        shares = [
            opts.clients // len(procs) + (n < opts.clients % len(procs)) for n in range(len(procs))
        ]
        started = now()
        print(f"connecting {opts.clients} clients over {opts.workers} workers", file=sys.stderr)
        for proc, share in zip(procs, shares, strict=True):  # one at a time: fewer failed accepts
            command = {"cmd": "connect", "url": url, "n": share, "report": True, "verify": True}
            await proc.call(command, timeout=600)
        result["connect_seconds"] = now() - started
        await asyncio.sleep(opts.settle)
        result["worker_rss_mib"] = [
            psutil.Process(pid).memory_info().rss / 2**20 for pid in worker_pids(server.pid)
        ]
        result["worker_connections"] = [
            sum(
                c.laddr.port == port and c.status == psutil.CONN_ESTABLISHED
                for c in psutil.Process(pid).net_connections("tcp")
            )
            for pid in worker_pids(server.pid)
        ]
        schedule = epc_schedule(EPC_PLAYERS, EPC_MACHINES, random.Random(opts.seed))
        http = RawHttp("127.0.0.1", port, setup.token)
        await http.connect()
        gap = broadcast_window() + 0.010
        last_ms: list[float] = []
        ack_ms: list[float] = []
        result["load_average_before_pushes"] = os.getloadavg()
        for i in range(opts.warmup + opts.pushes):
            player, machine, score = schedule[i]
            body = orjson.dumps({"player": player, "machine": machine, "score": score})
            version += 1
            reached = [proc.reached(version) for proc in procs]
            t0 = now()
            status, answer = await http.send(http.request(f"/api/t/{tid}/scores", body))
            t_ack = now()
            if status != 201 or orjson.loads(answer)["version"] != version:
                raise RuntimeError(f"push {i}: {status} {answer[:300]!r} (expected v{version})")
            times = await asyncio.wait_for(asyncio.gather(*reached), opts.timeout)
            for proc in procs:
                del proc.reached_futures[version]
            if i >= opts.warmup:
                last_ms.append((max(t for _, t in times) - t0) * 1e3)
                ack_ms.append((t_ack - t0) * 1e3)
            await asyncio.sleep(gap)
        result["load_average_after_pushes"] = os.getloadavg()
        await http.close()
        views = await setup.views(tid)
        converged, same = [], []
        for n, proc in enumerate(procs):
            reply = await proc.call({"cmd": "converge", "version": views["version"], "timeout": 60})
            converged.append(bool(reply["ok"]))
            path = work / f"state-{n}.json"
            await proc.call({"cmd": "state", "path": str(path)})
            state = orjson.loads(path.read_bytes())
            same.append(state["version"] == views["version"] and state["views"] == views["views"])
        stats = [await proc.call({"cmd": "stats"}) for proc in procs]
        result |= {
            "pushes": opts.pushes,
            "push_to_last_client_ms": {
                "p50": percentile(last_ms, 50),
                "p99": percentile(last_ms, 99),
            },
            "http_ack_ms": {"p50": percentile(ack_ms, 50), "p99": percentile(ack_ms, 99)},
            "every_client_converged": all(converged),
            "client0_state_equals_views": all(same),
            "client_errors": [e for s in stats for e in s["errors"]],
            "resync_snapshots": sum(s["snapshots"] for s in stats),
            "final_version": views["version"],
        }
        failed = not (all(converged) and all(same)) or bool(result["client_errors"])
    finally:
        for proc in procs:
            await proc.stop()
        with contextlib.suppress(Exception):
            await setup.http.aclose()
        await asyncio.to_thread(server.stop, 60)
        if not opts.keep_tmp:
            import shutil

            shutil.rmtree(work, ignore_errors=True)
    report(result)
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    path = out / f"workers-{dt.datetime.now():%Y%m%d-%H%M%S}.json"
    path.write_text(json.dumps(result, indent=2))
    print(f"\nJSON: {path}")
    return 1 if failed else 0


def report(result: dict[str, Any]) -> None:
    """The figures, as the module docstring lists them."""
    last, ack = result["push_to_last_client_ms"], result["http_ack_ms"]
    workers, clients = result["workers"], result["clients"]
    load = [f"{x:.1f}" for x in result["load_average_before_pushes"]]
    print(f"\n{clients} clients on backglass serve --workers {workers} ({result['cpus']} cores)")
    print(f"  load average before the pushes {' '.join(load)} (1, 5, 15 min)")
    print(
        f"  connected in {result['connect_seconds']:.1f} s; per worker {result['worker_connections']}"
    )
    print(f"  worker RSS {', '.join(f'{r:.0f}' for r in result['worker_rss_mib'])} MiB")
    print(
        f"  {result['pushes']} pushes, push -> last client  p50 {last['p50']:.1f} ms  p99 {last['p99']:.1f} ms"
    )
    print(f"  HTTP answer                    p50 {ack['p50']:.1f} ms  p99 {ack['p99']:.1f} ms")
    print(f"  clients per worker {clients / workers:.0f}")
    print(
        f"  every client converged to GET /views (v{result['final_version']}): "
        f"{'yes' if result['every_client_converged'] else 'NO'}; client 0 of each process "
        f"state == views: {'yes' if result['client0_state_equals_views'] else 'NO'}; "
        f"resync snapshots {result['resync_snapshots']}; errors {result['client_errors'][:3] or 'none'}"
    )


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="scripts/bench --many-clients", description=__doc__)
    p.add_argument("--clients", type=int, default=5000, help="websocket clients (default 5000)")
    p.add_argument("--workers", type=int, default=2, help="server worker processes (default 2)")
    p.add_argument("--client-procs", type=int, default=2, help="bench.clients processes")
    p.add_argument("--pushes", type=int, default=50, help="measured pushes (default 50)")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--timeout", type=float, default=60, help="seconds a push may take to arrive")
    p.add_argument("--settle", type=float, default=2.0, help="seconds after connecting")
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--keep-tmp", action="store_true", help="keep the data dir and server log")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(amain(parse(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
