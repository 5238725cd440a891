"""Every server process is a replica: it tails every tournament's log and keeps live state.

One task reads the registry stream and all tournament logs with a single blocking ``XREAD``; the
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
from display.live.snapshots import Snapshots
from display.live.tournament import Applied, Change, LiveTournament, fold
from display.log.integrity import GENESIS
from display.log.keys import tournament_of_log
from display.log.store import LogStore, Record, page_records, reply_text, stream_entries

log = logging.getLogger(__name__)

BLOCK_MS = 1000
READ_GRACE = 1.0
"""Seconds a tail read may be late (past its block) before displays are told the store is down."""
READ_COUNT = 2000
SLICE_SECONDS = 0.02
"""Longest stretch a catch-up runs the rules without letting other requests in (item: no request
waits more than ~100 ms behind long work)."""
CLUSTER_POLL_SECONDS = 0.02
"""On a Redis Cluster the tail cannot block on every log at once (one command, one hash slot):
it reads them all in one pipelined round trip per shard and, when nothing came, waits this long
before the next. A push through another process reaches this one's displays at most this much
later; a push through this process is not delayed (its writer hands the records over)."""
BROADCAST_WINDOW = 0.025
"""Seconds: at most one broadcast per tournament per window. A change after a quiet spell goes out
at once; changes inside the window after a broadcast are folded into the next one, so fan-out work
stays bounded however fast stewards push (architecture principle 6)."""


class Replica:
    """Live state of every tournament in one Redis, kept current by ``run``."""

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
        # Start-up (``catch_up``): the last version each log had when this process first saw it,
        # and the tournaments caught up (served, written to); ``started`` once all are and the
        # process takes writes (display/services.py sets it).
        self.totals: dict[str, int] = {}
        self.caught_up: set[str] = set()
        self.started = asyncio.Event()
        self._unpublished: dict[str, tuple[int, set[str]]] = {}  # tid -> (base, touched)
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
                    self.tournaments.setdefault(tid, LiveTournament(tid, self.history_size))
            else:
                tid = tournament_of_log(self.store.prefix, name) or ""
                pages.append((tid, page_records(entries)))
        return pages

    async def poll(self, block_ms: int | None) -> None:
        """One XREAD over the registry and every log; apply what arrived."""
        for tid, records in await self._read(block_ms):
            if tid in self.appending:
                continue  # the writer applies its own records (see ``appending``)
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
        change = live.apply(batch, applied)
        if change is None:
            return
        if self.on_applied is not None:  # a kind that follows other tournaments (the UKPL season)
            self.on_applied(tid)
        self.applied_at[tid] = time.time()
        self._pending.setdefault(tid, []).append(change)
        if tid not in self._flush_at:
            loop = asyncio.get_running_loop()
            delay = self._last_broadcast.get(tid, -1.0) + BROADCAST_WINDOW - loop.time()
            self._flush_at[tid] = loop.call_later(max(0.0, delay), self._broadcast, tid)

    def _broadcast(self, tid: str) -> None:
        """Send everything pending for ``tid`` as one patch, serialised once."""
        del self._flush_at[tid]
        changes = self._pending.pop(tid, [])
        if not changes:
            return
        live = self.tournaments[tid]
        change = changes[0] if len(changes) == 1 else fold(changes, live.views)
        text = orjson.dumps(change.message()).decode()
        self.hub.broadcast(tid, Outgoing(text, change.base, change.version))
        self._last_broadcast[tid] = asyncio.get_running_loop().time()

    async def catch_up(self) -> None:
        """Read every log until nothing is pending (at start-up, while the server already
        answers). The rules run per record, in slices of at most ``SLICE_SECONDS`` between which
        other requests are served; each tournament's views are built and diffed once, when its
        log is read up to the version it had when first seen (``totals``): it is then
        ``caught_up`` and served as usual (architecture, "Replica: up at once")."""
        unpublished = self._unpublished  # kept on the replica: a retry after a Redis error resumes
        while True:
            before = {tid: t.version for tid, t in self.tournaments.items()}, self.registry_cursor
            slice_end = time.perf_counter() + SLICE_SECONDS
            for tid, records in await self._read(None):
                if tid in self.caught_up:
                    self.ingest(tid, records)
                    continue
                live = self.tournaments[tid]
                base, touched = unpublished.setdefault(tid, (live.version, set()))
                for record in records:
                    touched |= live.advance((record,))
                    if time.perf_counter() > slice_end:
                        await asyncio.sleep(0)
                        slice_end = time.perf_counter() + SLICE_SECONDS
            for tid in self.tournaments.keys() - self.totals.keys():
                self.totals[tid] = await self.store.head(tid)
                await self._load_snapshot(tid)
            after = {tid: t.version for tid, t in self.tournaments.items()}, self.registry_cursor
            for tid, live in self.tournaments.items():
                # at its start-up version, or nothing more to read (a paused or shorter log)
                if tid not in self.caught_up and (
                    live.version >= self.totals[tid] or before == after
                ):
                    base, touched = unpublished.pop(tid, (live.version, set()))
                    live.publish(base, touched)
                    self.caught_up.add(tid)
                    self.applied_at[tid] = time.time()
                    if self.on_applied is not None and live.version > base:
                        self.on_applied(tid)
            async with self._advanced:
                self._advanced.notify_all()
            if before == after:
                return

    async def _load_snapshot(self, tid: str) -> None:
        """Start ``tid`` from its snapshot if it has one from this code whose version the log
        still holds with the same chain hash (else the log is replayed from the start)."""
        live = self.tournaments[tid]
        saved = self.snapshots.load(tid) if self.snapshots is not None else None
        if saved is None or live.version != 0 or saved.version > self.totals[tid]:
            return
        found = await self.store.read(tid, saved.version - 1, 1)
        if not found or found[0].seq != saved.version or (found[0].h or GENESIS) != saved.head_hash:
            log.warning("%s: snapshot at %s does not match the log; replaying", tid, saved.version)
            return
        live.restore(saved)

    async def save_snapshots(self, least: int = 1) -> int:
        """Save the state of every caught-up tournament that moved ``least`` records or more
        since its last snapshot; returns how many were saved. The pickling runs here, the file
        write in a thread; a state that cannot be pickled is logged and skipped."""
        if self.snapshots is None:
            return 0
        count = 0
        for tid, live in list(self.tournaments.items()):
            last = self.snapshots.saved_at.get(tid, 0)
            if not self.ready(tid) or live.kind is None or live.version - last < least:
                continue
            try:
                data = self.snapshots.dump(live.saved())
            except Exception as exc:
                log.warning("%s: state not saved as a snapshot: %s", tid, exc)
                self.snapshots.saved_at[tid] = live.version  # not again until it moves on
                continue
            await asyncio.to_thread(self.snapshots.write, tid, data, live.version)
            count += 1
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
        """Start-up progress: records read and records to read, over every log."""
        done = sum(
            min(live.version, self.totals.get(tid, 0)) for tid, live in self.tournaments.items()
        )
        return done, sum(self.totals.values())

    def ready(self, tid: str) -> bool:
        """Whether ``tid`` is caught up (served from a current state) or start-up is over."""
        return self.started.is_set() or tid in self.caught_up

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
