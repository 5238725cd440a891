"""Every server process is a replica: it tails the logs of the tournaments in use and keeps their
live state (loaded on first use, let go when idle: ``display/live/loader.py``).

One task reads the registry stream and the loaded tournaments' logs with a single blocking ``XREAD``; the
records that arrive together are applied together and go out as one patch (architecture principles 3
and 6). No pub/sub: the stream is the only channel, so nothing is lost between processes. On a Redis
Cluster the logs live on several shards and one command reaches one hash slot, so the task reads
every log on every shard in one pipeline instead, every ``CLUSTER_POLL_SECONDS`` while nothing comes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterator

import orjson
from redis.asyncio import Redis
from redis.typing import KeyT, StreamIdT, StreamRangeResponse, XReadResponse

from display.live.hub import Hub, Outgoing
from display.live.loader import Loader, advance_in_slices
from display.live.snapshots import Snapshots
from display.live.summaries import Summaries
from display.live.tournament import Applied, Change, LiveTournament, fold
from display.log.keys import tournament_of_log
from display.log.store import LogStore, Record, page_records, reply_text, stream_entries

log = logging.getLogger(__name__)

BLOCK_MS = 1000
READ_GRACE = 1.0
"""Seconds a tail read may be late (past its block) before displays are told the store is down."""
READ_COUNT = 2000
CLUSTER_POLL_SECONDS = 0.02
"""On a Redis Cluster the tail cannot block on every log at once (one command, one hash slot):
it reads them all in one pipelined round trip per shard and, when nothing came, waits this long
before the next. A push through another process reaches this one's displays at most this much
later; a push through this process is not delayed (its writer hands the records over)."""
SLICE_RECORDS = 64
"""A tail page longer than this is applied in slices (``Replica.ingest_in_slices``)."""
BROADCAST_WINDOW = 0.025
"""Seconds: at most one broadcast per tournament per window. A change after a quiet spell goes out
at once; changes inside the window after a broadcast are folded into the next one, so fan-out work
stays bounded however fast stewards push (architecture principle 6)."""


class Replica:
    """Live state of the tournaments of one Redis in use here (loaded on demand,
    ``display/live/loader.py``), kept current by ``run``."""

    def __init__(self, store: LogStore, tail: Redis, hub: Hub, history_size: int = 512) -> None:
        self.store = store
        self.tail = tail  # a dedicated connection: XREAD BLOCK holds it
        self.hub = hub
        self.history_size = history_size
        self.tournaments: dict[str, LiveTournament] = {}
        self.registry_cursor = "0-0"
        self._advanced = asyncio.Condition()
        self._write_locks: dict[str, asyncio.Lock] = {}
        self._pending: dict[str, list[Change]] = {}
        self._flush_at: dict[str, asyncio.TimerHandle] = {}
        self._last_broadcast: dict[str, float] = {}
        self.applied_at: dict[str, float] = {}
        # display/log/regression.py: logs that went behind this replica are not read; a reconnect
        # after a Redis error first checks that Redis did not come back empty or older.
        self.paused: set[str] = set()
        self.on_reconnect: Callable[[], Awaitable[None]] | None = None
        # Whether the last read of Redis failed: pings then carry "store": "down" so displays
        # (whose websocket stays open) show "reconnecting" (docs/protocol.md, "Store outage").
        self.store_down = False
        # Tournaments this process is appending to right now: the tail leaves their new records to
        # the writer, which applies them with the state it validated (rules run once per push); the
        # tail re-reads them from its cursor if the append failed.
        self.appending: set[str] = set()
        # Called after records of a tournament were applied (``display.services`` sets it: a kind
        # that follows other tournaments writes what it learnt).
        self.on_applied: Callable[[str], None] | None = None
        # Tournaments on demand (display/live/loader.py): every tournament ever created
        # (registered, from the registry stream) and, in ``tournaments``, the ones loaded here;
        # those being loaded, with the version each log had when its load began; ``started``
        # once the registry is read and the process takes writes (display/services.py sets it).
        self.registered: dict[str, None] = {}
        self.loading: dict[str, LiveTournament] = {}
        self.totals: dict[str, int] = {}
        self.started = asyncio.Event()
        self.loader = Loader(self)
        self.summaries = Summaries(store)
        # Called when a tournament is loaded and when one is let go (display/log/regression.py:
        # a store behind marks it; the high-water file keeps its last version).
        self.on_loaded: Callable[[str], Awaitable[None]] | None = None
        self.on_released: Callable[[str, LiveTournament], None] | None = None
        # Where tournaments' states are saved for the next start (display/services.py sets it).
        self.snapshots: Snapshots | None = None

    async def run(self) -> None:
        """Tail forever; reconnects by itself after a Redis error (state is kept, reads resume)."""
        failed = False
        while True:
            try:
                if failed and self.on_reconnect is not None:
                    await self.on_reconnect()
                failed = False
                await self.poll(BLOCK_MS)
                self._store_state(down=False)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis down or restarting: retry, displays keep their state
                failed = True
                self._store_state(down=True)
                log.warning("replica: %s; retrying", exc)
                await asyncio.sleep(0.5)

    async def _read(self, block_ms: int | None) -> list[tuple[str, list[Record]]]:
        """One XREAD over the registry and every log: registers new tournaments and returns each
        log's page of records, by tournament id."""
        streams: dict[KeyT, StreamIdT] = {self.store.registry_key: self.registry_cursor}
        for tid, live in self.tournaments.items():
            if tid not in self.paused:
                streams[self.store.log_key(tid)] = f"{live.version}-0"
        # A hung Redis (stopped, swapping) answers nothing, and redis-py waits out its socket
        # timeout (5 s) before it raises: tell the displays once the read is READ_GRACE late.
        late = (block_ms or 0) / 1000 + READ_GRACE
        watchdog = asyncio.get_running_loop().call_later(late, self._store_state, True)
        try:
            if self.store.cluster:
                pairs = await self._read_each(streams)
            else:
                reply = await self.tail.xread(streams, count=READ_COUNT, block=block_ms)
                pairs = list(_streams(reply))
        finally:
            watchdog.cancel()
        if self.store.cluster and not pairs and block_ms:
            await asyncio.sleep(CLUSTER_POLL_SECONDS)
        pages: list[tuple[str, list[Record]]] = []
        for name, entries in pairs:
            if name == self.store.registry_key:
                for entry_id, fields in stream_entries(entries):
                    self.registry_cursor = entry_id
                    tid = reply_text(fields[b"t"])
                    if tid not in self.registered:
                        self.registered.setdefault(tid)
                        # A new tournament is loaded at once: it is about to be used, and a
                        # competition following others (the UKPL season) must see it.
                        self.loader.start(tid)
            else:
                tid = tournament_of_log(self.store.prefix, name) or ""
                pages.append((tid, page_records(entries)))
        return pages

    async def poll(self, block_ms: int | None) -> None:
        """One XREAD over the registry and every log; apply what arrived."""
        for tid, records in await self._read(block_ms):
            if tid in self.appending:
                continue  # the writer applies its own records (see ``appending``)
            if len(records) > SLICE_RECORDS:
                await self.ingest_in_slices(tid, records)
            else:
                self.ingest(tid, records)
        async with self._advanced:
            self._advanced.notify_all()

    async def _read_each(
        self, streams: dict[KeyT, StreamIdT]
    ) -> list[tuple[str, StreamRangeResponse]]:
        """A cluster store's ``poll``: one XREAD per stream, since a command may only name keys
        of one hash slot; sent in one pipeline, which redis-py splits into one round trip per
        shard. Returns (key, entries) for every stream that had entries, as ``_streams`` does."""
        async with self.tail.pipeline(transaction=False) as pipe:
            for key, after in streams.items():
                pipe.xread({key: after}, count=READ_COUNT)
            replies = await pipe.execute()
        return [pair for reply in replies for pair in _streams(reply)]

    def format_of(self, tid: str) -> str | None:
        """The format of tournament ``tid`` (None before its ``tournament_created``)."""
        live = self.tournaments.get(tid)
        return live.format if live is not None else None

    def write_lock(self, tid: str) -> asyncio.Lock:
        """Serialises this process's writers to one tournament, so they do not race each other for
        the same version (other processes still can: the store's compare-and-append decides)."""
        return self._write_locks.setdefault(tid, asyncio.Lock())

    def ingest(self, tid: str, batch: list[Record], applied: Applied | None = None) -> None:
        """Apply records read from (or just appended to) ``tid``'s log and broadcast the change.
        ``applied``: the writer's own result of applying them (see ``LiveTournament.apply``)."""
        live = self.tournaments.get(tid)
        if live is None or not batch:
            return
        self._changed(tid, live.apply(batch, applied))

    async def ingest_in_slices(self, tid: str, batch: list[Record]) -> None:
        """``ingest`` for a long page of records (an import or a restore appended thousands,
        another process's catch-up): the rules run record by record in slices of at most
        ``loader.SLICE_SECONDS``, other requests are answered between slices, and the views are
        built, diffed and broadcast once, at the end (``LiveTournament.publish``)."""
        live = self.tournaments.get(tid)
        if live is None or not batch:
            return
        await advance_in_slices(live, batch)
        if self.tournaments.get(tid) is live:  # not let go meanwhile
            self._changed(tid, live.publish())

    def _changed(self, tid: str, change: Change | None) -> None:
        """Broadcast ``change`` of ``tid`` at once when the last broadcast is more than
        ``BROADCAST_WINDOW`` ago, else queue it for the next one, at the window's end."""
        if change is None:
            return
        if self.on_applied is not None:  # a kind that follows other tournaments (the UKPL season)
            self.on_applied(tid)
        self.applied_at[tid] = time.time()
        self._pending.setdefault(tid, []).append(change)
        if tid not in self._flush_at:
            loop = asyncio.get_running_loop()
            delay = self._last_broadcast.get(tid, -1.0) + BROADCAST_WINDOW - loop.time()
            if delay <= 0:  # after a quiet spell: out at once, not after a turn of the loop
                self._broadcast(tid)
            else:
                self._flush_at[tid] = loop.call_later(delay, self._broadcast, tid)

    def _broadcast(self, tid: str) -> None:
        """Send everything pending for ``tid`` as one patch, serialised once."""
        self._flush_at.pop(tid, None)
        changes = self._pending.pop(tid, [])
        if not changes:
            return
        live = self.tournaments[tid]
        change = changes[0] if len(changes) == 1 else fold(changes, live.views)
        text = orjson.dumps(change.message()).decode()
        self.hub.broadcast(tid, Outgoing(text, change.base, change.version))
        self._last_broadcast[tid] = asyncio.get_running_loop().time()

    async def read_registry(self) -> None:
        """At start-up: every tournament ever created, from the registry stream, into
        ``registered`` (none is loaded: ``display/live/loader.py``); the tail reads on from there."""
        while True:
            after = "-" if self.registry_cursor == "0-0" else f"({self.registry_cursor}"
            page = stream_entries(
                await self.tail.xrange(self.store.registry_key, after, count=5000)
            )
            if not page:
                return
            for entry_id, fields in page:
                self.registry_cursor = entry_id
                self.registered.setdefault(reply_text(fields[b"t"]))

    async def load(self, tid: str) -> LiveTournament | None:
        """Tournament ``tid``, loaded on first use (``Loader.load``); None when there is none."""
        return await self.loader.load(tid)

    async def adopt(self, live: LiveTournament, base: int) -> None:
        """Take a tournament just loaded (from version ``base``, its snapshot's or 0) into
        ``tournaments``: the tail reads its log on from its version from the next read."""
        tid = live.id
        self.tournaments[tid] = live
        self.applied_at[tid] = time.time()
        if self.on_loaded is not None:  # a store behind? (display/log/regression.py)
            await self.on_loaded(tid)
        if self.on_applied is not None and live.version > base:
            self.on_applied(tid)
        async with self._advanced:
            self._advanced.notify_all()

    def busy(self, tid: str) -> bool:
        """Whether anything is in flight for ``tid``: a write, an append, a broadcast, a load."""
        lock = self._write_locks.get(tid)
        return (
            tid in self.appending
            or (lock is not None and lock.locked())
            or tid in self._pending
            or tid in self._flush_at
            or tid in self.loading
        )

    def release(self, tid: str) -> None:
        """Let go of a loaded tournament (``Loader.sweep``, which checked it is idle and not
        ``busy``): it stays registered and is loaded again on its next use."""
        live = self.tournaments.pop(tid, None)
        if live is not None and self.on_released is not None:
            self.on_released(tid, live)
        for table in (self._write_locks, self.applied_at, self._last_broadcast):
            table.pop(tid, None)

    async def save_snapshot(self, tid: str, least: int = 1) -> bool:
        """Save ``tid``'s state if it moved ``least`` records or more since its last snapshot;
        returns whether it was saved. The pickling runs here, the file write in a thread; a
        state that cannot be pickled is logged and skipped."""
        live = self.tournaments.get(tid)
        if self.snapshots is None or live is None or live.kind is None:
            return False
        if live.version - self.snapshots.saved_at.get(tid, 0) < least:
            return False
        if live.published != live.version:  # records applied in slices, views not built yet
            return False
        try:
            data = self.snapshots.dump(live.saved())
        except Exception as exc:
            log.warning("%s: state not saved as a snapshot: %s", tid, exc)
            self.snapshots.saved_at[tid] = live.version  # not again until it moves on
            return False
        await asyncio.to_thread(self.snapshots.write, tid, data, live.version)
        return True

    async def save_snapshots(self, least: int = 1) -> int:
        """Save the state of every loaded tournament that moved ``least`` records or more since
        its last snapshot (``save_snapshot``); returns how many were saved."""
        count = 0
        for tid in list(self.tournaments):
            count += await self.save_snapshot(tid, least)
        return count

    async def keep_snapshots(self, seconds: float, least: int) -> None:
        """Every ``seconds``, snapshot the tournaments that moved ``least`` records or more."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.save_snapshots(least)
            except OSError as exc:  # a full or read-only disk: the log is still the truth
                log.warning("snapshots not saved: %s", exc)

    def progress(self) -> tuple[int, int]:
        """Loading progress: records read and records to read, over the tournaments being
        loaded now (``display/live/loader.py``)."""
        done = sum(min(live.version, self.totals[tid]) for tid, live in self.loading.items())
        return done, sum(self.totals.values())

    def progress_of(self, tid: str) -> tuple[int, int]:
        """(records read, records to read) of ``tid`` while it loads; (0, 0) otherwise."""
        live = self.loading.get(tid)
        return (min(live.version, self.totals[tid]), self.totals[tid]) if live else (0, 0)

    def ready(self, tid: str) -> bool:
        """Whether start-up is over (the registry read, Redis checked against the high-water
        file): requests for ``tid`` are then served, loading it first if need be."""
        return self.started.is_set()

    async def wait_for(self, tid: str, version: int, timeout: float = 5.0) -> bool:
        """Wait until this replica has applied ``tid`` up to ``version``; False on timeout."""

        def reached() -> bool:
            live = self.tournaments.get(tid)
            return live is not None and live.version >= version

        try:
            async with self._advanced:
                await asyncio.wait_for(self._advanced.wait_for(reached), timeout)
        except TimeoutError:
            return False
        return True

    async def heartbeat(self, seconds: float) -> None:
        """Send every connected client a ping with the version and server time."""
        while True:
            await asyncio.sleep(seconds)
            self._ping_all()

    def _ping_all(self) -> None:
        for tid in list(self.hub.clients):
            live = self.tournaments.get(tid)
            ping: dict[str, object] = {"type": "ping", "version": live.version if live else 0}
            ping["time"] = time.time()
            if self.store_down:
                ping["store"] = "down"
            self.hub.broadcast(tid, Outgoing(orjson.dumps(ping).decode()))

    def _store_state(self, down: bool) -> None:
        """Note whether Redis answers; tell every display at once when that changes."""
        if down != self.store_down:
            self.store_down = down
            log.warning("score store %s", "down: displays told" if down else "back")
            self._ping_all()


def _streams(reply: XReadResponse | None) -> Iterator[tuple[str, StreamRangeResponse]]:
    """XREAD's reply as (stream key, its page of entries). The connection speaks RESP2, whose
    reply is a list of ``[key, entries]`` pairs (None after a block that timed out); redis-py
    also types RESP3's maps, which this server never asks for: raises TypeError for one."""
    if isinstance(reply, dict):
        raise TypeError("an XREAD reply as a RESP3 map: the tail's connection speaks RESP2")
    for key, entries in reply or ():
        yield reply_text(key), entries
