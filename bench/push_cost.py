"""What one push costs the server's own work, and how fast a log replays, in this process.

    .venv/bin/python -m bench.push_cost                     # both phases
    .venv/bin/python -m bench.push_cost --phase push        # CPU per push at 40, 300, 2,000 players
    .venv/bin/python -m bench.push_cost --phase replay      # records/s of a 100,000-record replay
    .venv/bin/python -m bench.push_cost --profile replay    # and the top functions (cProfile)

No server, no Redis, no clients: the work a push costs between the HTTP request and the hub, as
the writer does it (``LiveTournament.try_apply`` validates the record, ``LiveTournament.apply``
keeps the state and builds the change it broadcasts, serialised once as the hub does). That is the
part that grows with the tournament; the rest of a push (HTTP, the Redis append, the fan-out) does
not, and ``scripts/bench`` measures it with a real server.

Push phase: an EPC qualifying of P players on 18 machines (P = 40, 300, 2,000), filled to half
its games (each player's first three machines: bench.push_latency.epc_schedule), then the same
pattern of pushes (the next 200 of the schedule) measured one by one with ``time.process_time``.
Prints the median and p90 per push, and the ratio to the 40-player figure: a push that costs what
it touches grows with the entries on the machine played, not with P.

Replay phase: a 100,000-record EPC qualifying log (players, machines, then scores; 18 machines)
replayed as a catch-up does it (``advance`` record by record, ``publish`` once), three times;
prints records/s (median of the three).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import time
from typing import Any

import orjson

from bench.push_latency import epc_schedule
from display.live.tournament import LiveTournament
from display.log.store import Record

MACHINES = 18
SIZES = (40, 300, 2000)
AT = "2026-01-01T10:00:00+00:00"


def setup_records(fmt: str, players: int, machines: int) -> list[dict[str, Any]]:
    """A new tournament's records: created, its players, its machines."""
    records: list[dict[str, Any]] = [
        {"type": "tournament_created", "name": "bench", "format": fmt, "settings": {}}
    ]
    records += [
        {"type": "player_added", "player": {"number": str(p), "name": f"Player {p}"}}
        for p in range(1, players + 1)
    ]
    records += [
        {"type": "machine_added", "machine": {"id": str(m), "name": f"Machine {m}"}}
        for m in range(1, machines + 1)
    ]
    return [{**r, "by": "td", "at": AT} for r in records]


def score(player: str, machine: str, value: int) -> dict[str, Any]:
    """A steward's score record."""
    return {
        "type": "score_recorded",
        "player": player,
        "machine": machine,
        "score": value,
        "by": "steward:bench",
        "at": AT,
    }


def load(live: LiveTournament, records: list[dict[str, Any]]) -> None:
    """Catch ``live`` up on ``records`` (after its version) as a start-up does."""
    base = live.version
    batch = [Record(base + i, r) for i, r in enumerate(records, start=1)]
    live.publish(base, live.advance(batch))


def push(live: LiveTournament, record: dict[str, Any]) -> bytes:
    """One push as the writer does it: validate, keep, build the broadcast message once."""
    applied = live.try_apply([record])
    change = live.apply([Record(live.version + 1, record)], applied)
    assert change is not None
    return orjson.dumps(change.message())


def push_phase(
    pushes: int, seed: int, sizes: list[int], profiler: cProfile.Profile | None = None
) -> dict[int, dict[str, float]]:
    """CPU ms per push (median, p90) at each size; the same pattern of pushes at each
    (``profiler``: enabled around the measured pushes only)."""
    out: dict[int, dict[str, float]] = {}
    for players in sizes:
        rng = random.Random(seed)
        schedule = epc_schedule(players, MACHINES, rng)
        half = players * 3
        live = LiveTournament("bench", 64)
        load(live, setup_records("epc-qualifying", players, MACHINES))
        load(live, [score(*s) for s in schedule[:half]])
        costs = []
        sizes = []
        if profiler is not None:
            profiler.enable()
        for player, machine, value in schedule[half : half + pushes]:
            t0 = time.process_time()
            message = push(live, score(player, machine, value))
            costs.append(time.process_time() - t0)
            sizes.append(len(message))
        if profiler is not None:
            profiler.disable()
        out[players] = {
            "median_ms": statistics.median(costs) * 1e3,
            "p90_ms": statistics.quantiles(costs, n=10)[-1] * 1e3,
            "message_bytes_median": statistics.median(sizes),
            "entries_per_machine": half / MACHINES,
        }
    return out


def replay_log(records: int, seed: int) -> list[dict[str, Any]]:
    """An EPC qualifying log of ``records`` records: enough players that six games each (no
    joker) fill it after the setup records."""
    players = (records - 1 - MACHINES) // 6 + 1
    head = setup_records("epc-qualifying", players, MACHINES)
    scores = (score(*s) for s in epc_schedule(players, MACHINES, random.Random(seed)))
    log = head + [next(scores) for _ in range(records - len(head))]
    return log


def replay_once(log: list[dict[str, Any]]) -> float:
    """Seconds (process CPU) to catch a fresh replica up on ``log``."""
    batch = [Record(seq, r) for seq, r in enumerate(log, start=1)]
    live = LiveTournament("bench", 64)
    t0 = time.process_time()
    live.publish(0, live.advance(batch))
    return time.process_time() - t0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench.push_cost", description=__doc__.split("\n")[0])
    p.add_argument("--phase", choices=["push", "replay", "both"], default="both")
    p.add_argument("--pushes", type=int, default=200)
    p.add_argument("--sizes", default=",".join(map(str, SIZES)), help="players, comma-separated")
    p.add_argument("--records", type=int, default=100_000)
    p.add_argument("--runs", type=int, default=3, help="replays of the log (median)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--profile", choices=["push", "replay"], default=None)
    opts = p.parse_args(argv)
    profiler = cProfile.Profile() if opts.profile else None
    if opts.phase in ("push", "both"):
        sizes = [int(n) for n in opts.sizes.split(",")]
        result = push_phase(
            opts.pushes, opts.seed, sizes, profiler if opts.profile == "push" else None
        )
        base = next(iter(result.values()))["median_ms"]
        print(f"push cost, EPC qualifying x {MACHINES} machines, {opts.pushes} pushes per size")
        print("  players  entries/machine  median ms  p90 ms  vs first  message bytes")
        for players, r in result.items():
            print(
                f"  {players:7d}  {r['entries_per_machine']:15.0f}  {r['median_ms']:9.3f}"
                f"  {r['p90_ms']:6.3f}  {r['median_ms'] / base:8.2f}x"
                f"  {r['message_bytes_median']:13.0f}"
            )
    if opts.phase in ("replay", "both"):
        log = replay_log(opts.records, opts.seed)
        if opts.profile == "replay":
            assert profiler is not None
            profiler.enable()
        times = [replay_once(log) for _ in range(opts.runs)]
        if opts.profile == "replay":
            assert profiler is not None
            profiler.disable()
        median = statistics.median(times)
        print(f"replay, EPC qualifying, {len(log):,} records, no snapshot, {opts.runs} runs")
        print(f"  median {median:.2f} s CPU: {len(log) / median:,.0f} records/s")
    if profiler is not None:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(18)
        print(text.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
