"""What one push costs the server's own work, and how fast a log replays, in this process.

    .venv/bin/python -m bench.push_cost                     # both phases
    .venv/bin/python -m bench.push_cost --phase push        # CPU per push at 40, 300, 2,000 players
    .venv/bin/python -m bench.push_cost --phase replay      # records/s of a 100,000-record replay
    .venv/bin/python -m bench.push_cost --profile replay    # and the top functions (cProfile)
    .venv/bin/python -m bench.push_cost --phase hall        # 300-player hall logs (bench/README.md)

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
import asyncio
import cProfile
import io
import logging
import pstats
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from bench.push_latency import epc_schedule
from display.live.loader import advance_in_slices
from display.live.snapshots import Snapshots
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
    live.advance(batch)
    live.publish()


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


def hall_log(players: int, records: int, seed: int) -> list[dict[str, Any]]:
    """A ``records``-record EPC qualifying log of ``players`` players on 18 machines as a long day
    in a hall writes it: the setup, every player's six games (``epc_schedule``), then, until
    ``records``, the desk's and stewards' traffic on a full field: a score corrected (half),
    voided and played again (a quarter: the void, then the new score on that machine), or a
    player joining a machine's queue for their joker game and leaving it (a quarter). Every
    record is one the rules take (the replay counts any refused)."""
    rng = random.Random(seed)
    log = setup_records("epc-qualifying", players, MACHINES)
    counting: list[tuple[str, str, int]] = []  # (player, machine, seq of the score's record)
    for player, machine, value in epc_schedule(players, MACHINES, rng):
        if len(log) >= records:
            return log
        log.append(score(player, machine, value))
        counting.append((player, machine, len(log)))
    while len(log) < records:
        roll, pick = rng.random(), rng.randrange(len(counting))
        player, machine, seq = counting[pick]
        if roll < 0.5 or len(log) + 2 > records:
            value = rng.randrange(10_000, 2**31)
            fix = {"type": "score_corrected", "corrects": seq, "score": value, "reason": "typo"}
            log.append({**fix, "by": "td", "at": AT})
        elif roll < 0.75:
            log.append(
                {"type": "score_voided", "voids": seq, "reason": "tilt", "by": "td", "at": AT}
            )
            log.append(score(player, machine, rng.randrange(10_000, 2**31)))
            counting[pick] = (player, machine, len(log))
        else:
            for kind in ("queue_joined", "queue_left"):
                log.append(
                    {"type": kind, "machine": machine, "player": player, "by": "td", "at": AT}
                )
    return log


def replay_once(log: list[dict[str, Any]]) -> float:
    """Seconds (process CPU) to catch a fresh replica up on ``log``."""
    batch = [Record(seq, r) for seq, r in enumerate(log, start=1)]
    live = LiveTournament("bench", 64)
    t0 = time.process_time()
    live.advance(batch)
    live.publish()
    return time.process_time() - t0


def hall_replay(
    log: list[dict[str, Any]], snapshot_at: int = 0
) -> tuple[float, LiveTournament, bytes]:
    """Seconds (process CPU) to catch a fresh replica up on ``log``, the replica, and (when
    ``snapshot_at``) its state at that version as snapshot bytes, taken on the way (its views
    built there once more, the dump not timed)."""
    batch = [Record(seq, r) for seq, r in enumerate(log, start=1)]
    live, saved, spent = LiveTournament("bench", 64), b"", 0.0
    if snapshot_at:
        t0 = time.process_time()
        live.advance(batch[:snapshot_at])
        live.publish()
        spent = time.process_time() - t0
        saved = Snapshots(Path("."), "bench").dump(live.saved())
    t0 = time.process_time()
    live.advance(batch[live.version :])
    live.publish()
    return spent + time.process_time() - t0, live, saved


class Refusals(logging.Handler):
    """Counts the records a replay's rules refused (``LiveTournament`` logs each)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += "refused by the rules" in record.getMessage()


def ready_with_snapshot(log: list[dict[str, Any]], full: LiveTournament, saved: bytes) -> float:
    """Seconds (wall) from nothing to serving ``log`` from the snapshot ``saved`` of all but its
    last records, as a restart does: read and unpickle the snapshot file, take its state, apply
    the tail, build the views once."""
    batch = [Record(seq, r) for seq, r in enumerate(log, start=1)]
    with tempfile.TemporaryDirectory() as folder:
        snapshots = Snapshots(Path(folder), "bench")
        snapshots.write("bench", saved, 0)
        t0 = time.perf_counter()
        loaded = snapshots.load("bench")
        assert loaded is not None
        live = LiveTournament("bench", 64)
        live.restore(loaded)
        live.advance(batch[live.version :])
        live.publish()
        seconds = time.perf_counter() - t0
    assert live.views == full.views, "snapshot + tail must give the full replay's views"
    return seconds


async def import_waits(log: list[dict[str, Any]], tick: float = 0.005) -> list[float]:
    """Milliseconds another request waits while ``log`` is applied as an import's catch-up is
    (``display.live.loader.advance_in_slices``, then one ``publish``): how late a ``tick``-second
    timer on the same event loop fires, each time, until the catch-up ends."""
    batch = [Record(seq, r) for seq, r in enumerate(log, start=1)]
    live, done, waits = LiveTournament("bench", 64), asyncio.Event(), []

    async def catch_up() -> None:
        await advance_in_slices(live, batch)
        live.publish()
        done.set()

    async def probe() -> None:
        while not done.is_set():
            t0 = time.perf_counter()
            await asyncio.sleep(tick)
            waits.append((time.perf_counter() - t0 - tick) * 1e3)

    await asyncio.gather(catch_up(), probe())
    return waits


def hall_phase(players: int, sizes: list[int], runs: int, seed: int, tail: int) -> None:
    """Print replay records/s of ``players``-player hall logs of each size (median of ``runs``),
    the ready-to-serve time of the largest with and without a snapshot, and the waits of
    another request during an import of the smallest."""
    refusals = Refusals()
    logging.getLogger("display.live.tournament").addHandler(refusals)
    print(f"hall replay, EPC qualifying, {players} players x {MACHINES} machines (hall_log)")
    full: LiveTournament | None = None
    log: list[dict[str, Any]] = []
    saved, times = b"", [0.0]
    for size in sizes:
        log = hall_log(players, size, seed)
        times = []
        for _ in range(runs):
            at = len(log) - tail if size == sizes[-1] else 0
            seconds, full, saved = hall_replay(log, at)
            times.append(seconds)
        median = statistics.median(times)
        print(
            f"  {size:7,d} records: median {median:7.2f} s CPU, {size / median:8,.0f} records/s"
            f" ({runs} runs, {refusals.count} records refused)"
        )
    assert full is not None
    replay = statistics.median(times)
    with_snapshot = ready_with_snapshot(log, full, saved)
    print(
        f"  ready to serve {len(log):,} records: {replay:.2f} s without a snapshot (replay),"
        f" {with_snapshot:.2f} s from a snapshot + {tail:,} records of tail"
    )
    waits = asyncio.run(import_waits(hall_log(players, sizes[0], seed)))
    print(
        f"  another request during a {sizes[0]:,}-record import: waits p50"
        f" {statistics.median(waits):.1f} ms, max {max(waits):.1f} ms ({len(waits)} probes)"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench.push_cost", description=__doc__.split("\n")[0])
    p.add_argument("--phase", choices=["push", "replay", "both", "hall"], default="both")
    p.add_argument("--hall-players", type=int, default=300)
    p.add_argument("--hall-records", default="20000,100000", help="log sizes, comma-separated")
    p.add_argument("--tail", type=int, default=1000, help="records after the snapshot")
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
    if opts.phase == "hall":
        sizes = [int(n) for n in opts.hall_records.split(",")]
        hall_phase(opts.hall_players, sizes, opts.runs, opts.seed, opts.tail)
    if profiler is not None:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(18)
        print(text.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
