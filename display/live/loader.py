"""Tournaments on demand: a process holds in memory only the tournaments its clients and requests
use (architecture, "Replica: tournaments on demand").

A tournament is **loaded** on first use: a request naming it (``display/http/on_demand.py``), a
websocket (``display/live/ws.py``) or a write (``Writer.commit``, under the same write path, so a
write to a tournament not loaded is validated against its current state). Loading starts from its
snapshot when this code took one whose version the log still holds with the same chain hash, then
reads the log after it; the rules run in slices of at most ``SLICE_SECONDS`` between which other
requests are served, and the views are built and diffed once at the end. Only then is the
tournament put in ``Replica.tournaments``, where the tail reads its log on from that version.
Several users of one tournament share one load.

A loaded tournament is **let go** once it has had no websocket client and no request for
``idle_seconds`` (``Settings.idle_minutes``), after its state is saved as a snapshot (so loading
it again reads only what came since). Two kinds of tournament are never let go: one whose
competition follows other tournaments (``Competition.observe``: a UKPL meeting writes its
season's links from its siblings' states, so every meeting of a season must be in memory; they
are loaded in the background after start-up), and one that is being written, broadcast or
loaded right now.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from display import competitions
from display.live.tournament import LiveTournament
from display.log.integrity import GENESIS
from display.log.store import Record

if TYPE_CHECKING:  # the replica makes its loader
    from display.live.replica import Replica

log = logging.getLogger(__name__)

SLICE_SECONDS = 0.02
"""Longest stretch a load runs the rules without letting other requests in."""
READ_COUNT = 2000
"""Records read per round trip while loading."""
PRELOAD_SLICE = 100
"""Tournaments whose summaries ``preload`` reads per round trip."""


class Loader:
    """Loads and lets go of one replica's tournaments (module docstring)."""

    def __init__(self, replica: Replica, idle_seconds: float = 600.0) -> None:
        self.replica = replica
        self.idle_seconds = idle_seconds  # 0: never let one go
        self.last_used: dict[str, float] = {}  # tid -> time.monotonic() of its last use
        self._loads: dict[str, asyncio.Task[LiveTournament | None]] = {}

    def touch(self, tid: str) -> None:
        """Note a use of ``tid`` now (a request, a write, a load): it is not idle."""
        self.last_used[tid] = time.monotonic()

    async def load(self, tid: str) -> LiveTournament | None:
        """Tournament ``tid``, loaded if it was not (module docstring); None when Redis has no
        such tournament. A request that gives up (its client left) does not cancel a load other
        users wait for. Raises what Redis raises."""
        live = self.replica.tournaments.get(tid)
        self.touch(tid)
        if live is not None:
            return live
        return await asyncio.shield(self.start(tid))

    def start(self, tid: str) -> asyncio.Task[LiveTournament | None]:
        """The task loading ``tid`` (started now unless one runs): a websocket shows its
        progress while it runs (``progress_of``)."""
        task = self._loads.get(tid)
        if task is None:
            task = asyncio.create_task(self._load(tid), name=f"load {tid}")
            self._loads[tid] = task
            task.add_done_callback(lambda done: self._loaded(tid, done))
        return task

    def _loaded(self, tid: str, task: asyncio.Task[LiveTournament | None]) -> None:
        if self._loads.get(tid) is task:
            del self._loads[tid]
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.warning("%s: not loaded: %s", tid, exc)  # its users got the error; next use retries

    def loading(self, tid: str) -> bool:
        """Whether ``tid`` is being loaded now."""
        return tid in self._loads

    async def _load(self, tid: str) -> LiveTournament | None:
        replica, store = self.replica, self.replica.store
        if (live := replica.tournaments.get(tid)) is not None:
            return live
        total = await store.head(tid)
        if tid not in replica.registered:
            if total == 0:
                return None  # no such tournament (one being created is registered first)
            replica.registered.setdefault(tid)  # another process created it; the tail sees it next
        live = LiveTournament(tid, replica.history_size)
        replica.loading[tid], replica.totals[tid] = live, total
        try:
            await self._from_snapshot(live, total)
            base = live.version
            while records := await store.read(tid, live.version, READ_COUNT):
                await advance_in_slices(live, records)
            live.publish()
        finally:
            del replica.loading[tid], replica.totals[tid]
        await replica.adopt(live, base)
        await replica.summaries.note(live)  # a missing or stale summary is put right here
        return live

    async def _from_snapshot(self, live: LiveTournament, total: int) -> None:
        """Start ``live`` from its snapshot if it has one from this code whose version the log
        still holds with the same chain hash (else the log is read from the start)."""
        snapshots = self.replica.snapshots
        saved = snapshots.load(live.id) if snapshots is not None else None
        if saved is None or saved.version > total:
            return
        found = await self.replica.store.read(live.id, saved.version - 1, 1)
        if not found or found[0].seq != saved.version or (found[0].h or GENESIS) != saved.head_hash:
            log.warning(
                "%s: snapshot at %s does not match the log; replaying", live.id, saved.version
            )
            return
        live.restore(saved)

    # ---- letting go -----------------------------------------------------------------------

    def kept(self, live: LiveTournament) -> bool:
        """Whether ``live`` stays loaded however idle: its competition follows other
        tournaments (``Competition.observe``, module docstring)."""
        found = competitions.find(live.format)
        return found is not None and found.observe is not None

    def idle(self) -> list[str]:
        """The loaded tournaments to let go now: unused for ``idle_seconds``, no websocket client,
        not kept, and nothing in flight (a write, an append, a broadcast)."""
        if self.idle_seconds <= 0:
            return []
        replica, now = self.replica, time.monotonic()
        found = []
        for tid, live in replica.tournaments.items():
            if replica.hub.clients.get(tid):
                self.touch(tid)  # a display is watching: its idle time starts when it leaves
            elif now - self.last_used.get(tid, 0.0) >= self.idle_seconds and not (
                self.kept(live) or replica.busy(tid)
            ):
                found.append(tid)
        return found

    async def sweep(self) -> int:
        """Let go of every ``idle`` tournament, each saved as a snapshot first when it moved on
        since its last one; returns how many were let go."""
        count = 0
        for tid in self.idle():
            await self.replica.save_snapshot(tid)
            if tid in self.idle():  # used again while its snapshot was written: keep it
                self.replica.release(tid)
                self.last_used.pop(tid, None)
                count += 1
        return count

    async def keep_sweeping(self) -> None:
        """Sweep for idle tournaments every quarter of ``idle_seconds`` (at most every 30 s)."""
        while True:
            await asyncio.sleep(min(30.0, max(0.05, self.idle_seconds / 4)))
            if self.idle_seconds > 0:
                try:
                    await self.sweep()
                except OSError as exc:  # a snapshot not written: keep them loaded for now
                    log.warning("idle tournaments kept: %s", exc)

    async def preload(self) -> None:
        """After start-up, in the background: load the tournaments that are ``kept`` (their
        competition follows others) and those whose summary is missing (a store from before
        summaries: loading writes it; they are let go when idle)."""
        replica = self.replica
        tids = list(replica.registered)
        # In slices, each its own round trip: one reply for a thousand tournaments would hold
        # the event loop (and every request just after ready) while it is parsed.
        for first in range(0, len(tids), PRELOAD_SLICE):
            summaries = await replica.summaries.read(tids[first : first + PRELOAD_SLICE])
            for tid, summary in summaries.items():
                found = competitions.find(summary["format"]) if summary else None
                if summary is None or (found is not None and found.observe is not None):
                    try:
                        await self.load(tid)
                    except Exception as exc:  # Redis away: its first use loads it
                        log.warning("%s: not loaded in the background: %s", tid, exc)


async def advance_in_slices(live: LiveTournament, records: list[Record]) -> None:
    """Run the rules over ``records`` in slices of about ``SLICE_SECONDS`` each, yielding to other
    requests between two; the views they touch are built once, by the caller's ``publish``. A
    slice is one ``advance`` sized by the rate the last one ran at, the state deferred throughout
    (``LiveTournament.advance``): a push or a page that reads it between slices settles it first."""
    at, size = 0, 1
    while at < len(records):
        started = time.perf_counter()
        live.advance(records[at : at + size], defer=True)
        at += size
        spent = time.perf_counter() - started
        # SLICE_SECONDS at this slice's rate, growing at most 4x a slice (the rate may drop)
        size = max(1, min(4 * size, int(size * SLICE_SECONDS / max(spent, 1e-6))))
        if at < len(records):
            await asyncio.sleep(0)
