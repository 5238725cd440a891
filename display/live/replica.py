"""Every server process is a replica: it tails every tournament's log and keeps live state.

One task reads the registry stream and all tournament logs with a single blocking ``XREAD``; the
records that arrive together are applied together and go out as one patch (architecture principles 3
and 6). No pub/sub: the stream is the only channel, so nothing is lost between processes.
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
from display.live.tournament import Applied, Change, LiveTournament, fold
from display.log.store import LogStore, Record, page_records, reply_text, stream_entries

log = logging.getLogger(__name__)

BLOCK_MS = 1000
READ_COUNT = 2000
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

    async def poll(self, block_ms: int | None) -> None:
        """One XREAD over the registry and every log; apply what arrived."""
        streams: dict[KeyT, StreamIdT] = {self.store.registry_key: self.registry_cursor}
        for tid, live in self.tournaments.items():
            if tid not in self.paused:
                streams[self.store.log_key(tid)] = f"{live.version}-0"
        reply = await self.tail.xread(streams, count=READ_COUNT, block=block_ms)
        for name, entries in _streams(reply):
            if name == self.store.registry_key:
                for entry_id, fields in stream_entries(entries):
                    self.registry_cursor = entry_id
                    tid = reply_text(fields[b"t"])
                    self.tournaments.setdefault(tid, LiveTournament(tid, self.history_size))
            else:
                tid = name.removeprefix(f"{self.store.prefix}:t:").removesuffix(":log")
                if tid in self.appending:
                    continue  # the writer applies its own records (see ``appending``)
                self.ingest(tid, page_records(entries))
        async with self._advanced:
            self._advanced.notify_all()

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
        """Read until nothing is pending (used at start-up, before serving)."""
        while True:
            before = {tid: t.version for tid, t in self.tournaments.items()}, self.registry_cursor
            await self.poll(None)
            after = {tid: t.version for tid, t in self.tournaments.items()}, self.registry_cursor
            if before == after:
                return

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
