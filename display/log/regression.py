"""Noticing a score store that went back in time: Redis restarted empty (a lost disk) or from an
older copy of its files (a stale snapshot), or replaced by a different log of the same length.

A tournament is **behind** when its log in Redis is shorter than what this server had seen, or when
the record at the version it had seen has another hash (the hash chain's ``h``; without a chain
only lengths are compared). "Seen" is this process's replica (the running case: its memory is the
newer truth) or, for a process that has just started, the high-water file (``display/log/watermark.py``).
The store's **epoch** (``P:epoch``, a random id) is gone when Redis came back empty.

While a tournament is behind every write to it answers 503 ``store_behind`` (``refuse``), the
replica does not read its log (``Replica.paused``), and its live views carry an ``integrity`` view
``{"state": "behind", "have": N, "seen": M}`` so displays can say so; ``GET /api/health`` and the
TD's desk show it, and ``display/log/restore.py`` puts the missing records back. docs/store-loss.md
describes the whole flow and its limits.

When it is checked: at start-up after the replica caught up (Redis against the high-water file);
when the replica's tail reconnects; and every ``WATCH_INTERVAL`` seconds from one pipelined read of
the epoch and every log's last entry (this also catches a Redis restart the client library rode
through without an error), properly when that looks wrong or while something is behind (to notice
a restore made with ``backglass restore``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson
from redis.exceptions import RedisError
from redis.typing import StreamRangeResponse
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display.errors import ApiError
from display.live.hub import Outgoing
from display.live.tournament import Change, LiveTournament
from display.log.integrity import GENESIS
from display.log.store import reply_text, stream_entries
from display.log.watermark import Mark, Watermark, keep_saved
from display.types import Doc

if TYPE_CHECKING:  # services imports us
    from display.live.replica import Replica
    from display.log.store import LogStore, StreamFields
    from display.services import Services

log = logging.getLogger(__name__)

WATCH_INTERVAL = 0.5
"""Seconds between looks at the epoch and each log's last entry (one pipelined round trip)."""

VIEW = "integrity"


@dataclass(frozen=True)
class Behind:
    """A tournament whose Redis log lost records: Redis ``have``s version N, this server had
    ``seen`` M (with hash ``seen_hash``); ``reason`` is "shorter" or "diverged" (same length or
    longer, but the record at M is another one)."""

    have: int
    seen: int
    seen_hash: str | None
    reason: str

    def view(self) -> Doc:
        """The ``integrity`` view: ``{"state": "behind", "have", "seen", "reason"}``."""
        return {"state": "behind", "have": self.have, "seen": self.seen, "reason": self.reason}

    def message(self) -> str:
        """What a refused write answers (503 ``store_behind``), for the TD to read."""
        if self.reason == "diverged":
            what = (
                f"it holds a different record {self.seen} from the one this server had seen "
                "(its records were replaced)"
            )
        else:
            what = f"it holds version {self.have}, this server had seen {self.seen}"
        return (
            f"The score store has lost records: {what}. Nothing can be recorded until the TD "
            "restores the log export (desk → Restore)."
        )


def head_hash(live: LiveTournament) -> str | None:
    """The hash-chain value of the last record a ``LiveTournament`` applied (None without a chain)."""
    value = live.head_hash
    return value if value and value != GENESIS else None


def _text(value: bytes | str | None) -> str | None:
    """Text of a Redis reply; None for none (and for GENESIS, which stands for "no hash")."""
    if value is None:
        return None
    text = reply_text(value)
    return None if text == GENESIS else text


def _version(entry_id: str) -> int:
    """The version of a tournament log's entry id ``"7-0"`` (``display/log/store.py``)."""
    return int(entry_id.partition("-")[0])


def _hash(fields: StreamFields) -> str | None:
    """The chain hash an entry's fields hold (None: none, or GENESIS)."""
    return _text(fields.get(b"h"))


class Guard:
    """One per process: what is behind, the epoch, and the high-water file (see module docstring)."""

    def __init__(self, store: LogStore, replica: Replica, watermark: Watermark) -> None:
        self.store = store
        self.redis = store.redis
        self.replica = replica
        self.watermark = watermark
        self.behind: dict[str, Behind] = {}
        self.epoch: str | None = None
        self.epoch_lost = False
        self.redis_ok = True
        # the TD's password hash as Redis answered it, put back if Redis lost it
        self.td_hash: bytes | str | None = None
        self._lock = asyncio.Lock()

    @property
    def epoch_key(self) -> str:
        """The store's epoch key ``P:epoch``: a random id, gone when Redis came back empty."""
        return f"{self.store.prefix}:epoch"

    # ---- what this server has seen -------------------------------------------------------

    def seen(self, tid: str) -> Mark | None:
        """The newest (version, hash) this process knows for ``tid``: a behind tournament keeps the
        mark it lost; otherwise the replica's, unless the high-water file knows more (start-up)."""
        if tid in self.behind:
            lost = self.behind[tid]
            return lost.seen, lost.seen_hash
        live = self.replica.tournaments.get(tid)
        mine: Mark | None = (live.version, head_hash(live)) if live and live.version else None
        filed = self.watermark.marks.get(tid)
        if mine is None or (filed is not None and filed[0] > mine[0]):
            return filed
        return mine

    def marks(self) -> dict[str, Mark]:
        """What the high-water file should hold now: every tournament's ``seen``, those not
        loaded here (``display/live/loader.py``) with the mark the file already has."""
        tids = {t for t, live in self.replica.tournaments.items() if live.version} | set(
            self.behind
        )
        tids |= set(self.watermark.marks)
        return {tid: mark for tid in tids if (mark := self.seen(tid)) is not None}

    def released(self, tid: str, live: LiveTournament) -> None:
        """A tournament is let go from memory: the high-water file keeps its last version, so a
        store that loses records of it while it is not loaded is still noticed."""
        if live.version and tid not in self.behind:
            mark = (live.version, head_hash(live))
            filed = self.watermark.marks.get(tid)
            if filed is None or filed[0] <= mark[0]:
                self.watermark.marks[tid] = mark

    async def loaded(self, tid: str) -> None:
        """A tournament was loaded while the store was behind on it: check it again (a restore
        may have put its records back since), and mark its views if it still is."""
        if tid in self.behind and (lost := await self.recheck(tid)) is not None:
            self._mark(tid, lost.view())

    # ---- comparing Redis with it ---------------------------------------------------------

    async def _head(self, tid: str) -> tuple[int, str | None]:
        entries = stream_entries(
            await self.redis.xrevrange(self.store.log_key(tid), "+", "-", count=1)
        )
        if not entries:
            return 0, None
        entry_id, fields = entries[0]
        return _version(entry_id), _hash(fields)

    async def _hash_at(self, tid: str, version: int) -> str | None:
        entries = stream_entries(
            await self.redis.xrange(self.store.log_key(tid), f"{version}-0", f"{version}-0")
        )
        return _hash(entries[0][1]) if entries else None

    async def compare(self, tid: str, seen: Mark) -> Behind | None:
        """Redis's log of ``tid`` against ``seen``: None when it holds at least that, else Behind."""
        version, seen_hash = seen
        have, head = await self._head(tid)
        if have < version:
            return Behind(have, version, seen_hash, "shorter")
        if seen_hash is not None:
            found = head if have == version else await self._hash_at(tid, version)
            if found != seen_hash:
                return Behind(have, version, seen_hash, "diverged")
        return None

    async def compare_all(self, seen: dict[str, Mark]) -> dict[str, Behind | None]:
        """``compare`` for many tournaments in two pipelined round trips (every log's last
        entry, then the entry at the version seen of those that moved on since), so a start on
        a thousand tournaments does not wait for two thousand round trips."""
        tids = list(seen)
        async with self.redis.pipeline(transaction=False) as pipe:
            for tid in tids:
                pipe.xrevrange(self.store.log_key(tid), "+", "-", count=1)
            heads = await pipe.execute()
        found: dict[str, Behind | None] = {}
        later: list[str] = []
        for tid, head in zip(tids, heads, strict=True):
            version, seen_hash = seen[tid]
            entries = stream_entries(head)
            have = _version(entries[0][0]) if entries else 0
            if have < version:
                found[tid] = Behind(have, version, seen_hash, "shorter")
            elif seen_hash is not None and have > version:
                later.append(tid)
                found[tid] = Behind(have, version, seen_hash, "diverged")  # unless it matches
            elif seen_hash is not None and _hash(entries[0][1]) != seen_hash:
                found[tid] = Behind(have, version, seen_hash, "diverged")
            else:
                found[tid] = None
        async with self.redis.pipeline(transaction=False) as pipe:
            for tid in later:
                at = f"{seen[tid][0]}-0"
                pipe.xrange(self.store.log_key(tid), at, at)
            entries_at = await pipe.execute() if later else []
        for tid, page in zip(later, entries_at, strict=True):
            entries = stream_entries(page)
            if entries and _hash(entries[0][1]) == seen[tid][1]:
                found[tid] = None
        return found

    async def start(self) -> None:
        """At start-up, after the replica caught up: Redis against the high-water file. Writes the
        epoch at first start (SET NX: another process may have written it first)."""
        async with self._lock:
            found = _text(await self.redis.get(self.epoch_key))
            self.td_hash = await self.redis.get(f"{self.store.prefix}:td")
            if self.watermark.epoch is None:  # first start with this data directory
                await self.redis.set(self.epoch_key, secrets.token_hex(16), nx=True)
                found = _text(await self.redis.get(self.epoch_key))
                self.watermark.epoch = found
                self.watermark.marks = self.marks()
                try:
                    await asyncio.to_thread(self.watermark.save)
                except OSError as exc:  # the saver retries; the server must still start
                    log.error("could not save the high-water file: %s", exc)
            self.epoch = self.watermark.epoch
            self.epoch_lost = found != self.epoch
            seen: dict[str, Mark] = {}
            for tid in set(self.watermark.marks) | set(self.replica.tournaments):
                # the file, not the replica: the replica was just loaded from this very Redis
                mark = self.watermark.marks.get(tid) or self.seen(tid)
                if mark is not None and mark[0] > 0:
                    seen[tid] = mark
            for tid, lost in (await self.compare_all(seen)).items():
                if lost is None:
                    self._clear(tid)
                else:
                    self._set(tid, lost)
            await self._settle_epoch()

    async def check(self) -> None:
        """Every tournament against what this process has seen (after a Redis restart)."""
        async with self._lock:
            found = _text(await self.redis.get(self.epoch_key))
            self.epoch_lost = found != self.epoch
            if found is None and self.td_hash is not None:  # so the TD can sign in to restore
                await self.redis.set(f"{self.store.prefix}:td", self.td_hash, nx=True)
            tids = set(self.replica.tournaments) | set(self.behind) | set(self.watermark.marks)
            for tid in tids:  # the file's marks too: tournaments not loaded here
                await self._check_one(tid)
            await self._settle_epoch()

    async def recheck(self, tid: str) -> Behind | None:
        """One tournament again (after a restore); returns what is still missing, or None."""
        async with self._lock:
            await self._check_one(tid)
            await self._settle_epoch()
        return self.behind.get(tid)

    async def _check_one(self, tid: str, seen: Mark | None = None) -> None:
        seen = seen or self.seen(tid)
        lost = await self.compare(tid, seen) if seen is not None and seen[0] > 0 else None
        if lost is None:
            self._clear(tid)
        else:
            self._set(tid, lost)

    async def _settle_epoch(self) -> None:
        """An epoch that went missing while nothing is behind lost nothing this server had seen:
        take Redis's epoch (or write ours back), so the next check does not flag it again."""
        if not self.epoch_lost or self.behind:
            return
        await self.redis.set(self.epoch_key, self.epoch or secrets.token_hex(16), nx=True)
        self.epoch = _text(await self.redis.get(self.epoch_key))
        self.watermark.epoch = self.epoch
        self.epoch_lost = False

    # ---- what being behind does ------------------------------------------------------------

    def _set(self, tid: str, lost: Behind) -> None:
        if self.behind.get(tid) == lost:
            return
        self.behind[tid] = lost
        log.error("%s: %s", tid, lost.message())
        self.replica.paused.add(tid)
        self._mark(tid, lost.view())

    def _clear(self, tid: str) -> None:
        if self.behind.pop(tid, None) is None:
            return
        self.replica.paused.discard(tid)
        self._mark(tid, None)
        log.warning("%s: the score store holds every record this server had seen again", tid)

    def _mark(self, tid: str, doc: Doc | None) -> None:
        """Set (or remove) the ``integrity`` view at the current version and tell the displays.
        The change is outside the log's versions (base = version), so it goes out as is, and into
        the history so a client resuming from an older version gets it folded in."""
        live = self.replica.tournaments.get(tid)
        if live is None or live.kind is None or live.views.get(VIEW) == doc:
            return
        if doc is None:
            live.views.pop(VIEW, None)
        else:
            live.views[VIEW] = doc
        change = Change(live.published, live.published, {VIEW: doc})
        live.history.append(change)
        live._snapshot = None  # the cached snapshot of this version lacks the mark
        self.replica.hub.broadcast(tid, Outgoing(orjson.dumps(change.message()).decode()))

    async def accept(self, tid: str) -> bool:
        """The TD accepts the loss: what Redis holds of ``tid`` becomes the truth. A replica that
        is ahead of it (or on another history) is rebuilt from the log by the tail; a tournament
        Redis lost entirely is forgotten. Returns whether the replica was rebuilt (its clients
        then need a snapshot: ``Hub.broadcast(tid, RESYNC)`` once it caught up)."""
        async with self._lock:
            lost = self.behind.pop(tid, None)
            if lost is None:
                return False
            log.warning("%s: the TD accepted the loss of versions %s-%s", tid, lost.have, lost.seen)
            self.replica.paused.discard(tid)
            self.watermark.marks.pop(tid, None)
            live = self.replica.tournaments.get(tid)
            rebuilt = live is not None and (live.version > lost.have or lost.reason == "diverged")
            if rebuilt and lost.have == 0:
                del self.replica.tournaments[tid]
            elif rebuilt:
                self.replica.tournaments[tid] = LiveTournament(tid, self.replica.history_size)
            else:
                self._mark(tid, None)
            await self._settle_epoch()
            return rebuilt

    def refuse(self, tid: str | None) -> None:
        """Raise ApiError 503 ``store_behind`` if writing to ``tid`` (None: a new tournament) must
        wait for a restore."""
        lost = self.behind.get(tid) if tid is not None else None
        if lost is not None:
            raise ApiError(503, "store_behind", lost.message())
        if self.epoch_lost and self.behind:
            raise ApiError(
                503,
                "store_behind",
                "The score store came back without records this server had seen. Nothing can be "
                "recorded until the TD restores the log exports (desk → Restore).",
            )

    # ---- background tasks ------------------------------------------------------------------

    async def watch(self, interval: float = WATCH_INTERVAL) -> None:
        """Every ``interval`` seconds read the epoch and every log's last entry in one round trip
        (reads only: the app's Redis user may not run INFO); check properly when the epoch changed,
        a log is shorter than the replica or ends in another hash, or while something is behind."""
        while True:
            await asyncio.sleep(interval)
            try:
                tids = list(self.replica.tournaments)
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.get(self.epoch_key)
                    for tid in tids:
                        pipe.xrevrange(self.store.log_key(tid), "+", "-", count=1)
                    epoch, *heads = await pipe.execute()
                self.redis_ok = True
                odd = _text(epoch) != self.epoch or bool(self.behind)
                if odd or any(self._went_back(t, h) for t, h in zip(tids, heads, strict=True)):
                    await self.check()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self.redis_ok = False
                log.debug("integrity watch: %s", exc)

    def _went_back(self, tid: str, head: StreamRangeResponse | None) -> bool:
        """Whether a log's last entry (XREVRANGE COUNT 1) is before the replica's, or at its
        version with another hash. Redis is never legitimately behind a replica: a writer appends
        before it applies."""
        live = self.replica.tournaments.get(tid)
        if live is None or not live.version:
            return False
        entries = stream_entries(head)
        have = _version(entries[0][0]) if entries else 0
        mine = head_hash(live)
        if have < live.version:
            return True
        return have == live.version and mine is not None and _hash(entries[0][1]) != mine

    def tasks(self) -> list[asyncio.Task[None]]:
        """The watch and the high-water file's saver, to run as long as the server does."""
        return [
            asyncio.create_task(self.watch(), name="integrity-watch"),
            asyncio.create_task(keep_saved(self.watermark, self.marks), name="watermark"),
        ]


async def start(svc: Services) -> Guard:
    """Create the process's Guard, compare Redis with the high-water file, hook the replica."""
    settings = svc.settings
    path = Watermark.path_for(settings.data_dir, settings.key_prefix)
    guard = Guard(svc.store, svc.replica, await asyncio.to_thread(Watermark.load, path))
    await guard.start()
    svc.replica.on_reconnect = guard.check
    svc.replica.on_loaded = guard.loaded
    svc.replica.on_released = guard.released
    return guard


def refuse(svc: Services, tid: str | None) -> None:
    """For the write path: raise 503 store_behind while ``tid`` (or the store) must be restored."""
    if svc.guard is not None:
        svc.guard.refuse(tid)


async def health(request: Request) -> Response:
    """Whether Redis answers and, per tournament loaded in this process (or being loaded, or
    behind), its version and whether the store is behind.

    ``{"redis": "ok"|"down", "epoch": "ok"|"lost", "start": {"state": "starting"|"ready", "done":
    D, "total": T, "percent": P}, "tournaments": {id: {"version": N, "state": "ok"|"behind"|
    "starting", "seen": M, "reason": …}}}``; ``version`` is what the store holds, ``shown`` what
    this server shows when that differs; ``start`` is ``starting`` until the registry is read
    and Redis checked, and says how far the tournaments loading now are (records read of records
    to read, ``display/live/loader.py``); one loading is ``starting`` with its ``version`` so far
    and ``total``."""
    svc: Services = request.app.state.services  # not http.endpoint's: it imports services
    guard = svc.guard
    try:
        await asyncio.wait_for(svc.redis.ping(), 1.0)
        redis = "ok"
    except (RedisError, OSError, TimeoutError):
        redis = "down"
    behind = guard.behind if guard is not None else {}
    tournaments: dict[str, dict[str, object]] = {}
    replica = svc.replica
    for tid, live in replica.tournaments.items():
        tournaments[tid] = {"version": live.version, "state": "ok"}
    for tid, live in replica.loading.items():  # loading on first use (display/live/loader.py)
        total = replica.totals.get(tid, live.version)
        tournaments[tid] = {"version": live.version, "state": "starting", "total": total}
    done, total = replica.progress()
    start = {
        "state": "ready" if replica.started.is_set() else "starting",
        "done": done,
        "total": total,
        "percent": 100 if total == 0 else min(100, done * 100 // total),
    }
    for tid, lost in behind.items():
        entry = {"version": lost.have, **lost.view()}
        shown = svc.replica.tournaments.get(tid)
        if shown is not None and shown.version != lost.have:
            entry["shown"] = shown.version
        tournaments[tid] = entry
    epoch = "lost" if guard is not None and guard.epoch_lost else "ok"
    body = {"redis": redis, "epoch": epoch, "start": start, "tournaments": tournaments}
    return JSONResponse(body)


routes = [Route("/api/health", health, methods=["GET"])]
