"""What one server process owns: Redis connections, the log store, the replica, the hub, auth.

``Services.running`` is the lifespan: it starts the embedded Redis when no URL is set (or joins the
one another server on the same data directory runs), settles the TD password (the data directory's,
``display/http/auth.py``), reads the registry of tournaments (each is loaded on its first use,
``display/live/loader.py``), and runs the tail, heartbeat and idle-sweep tasks until shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from redis.asyncio import Redis
from redis.exceptions import RedisError

from display import competitions
from display.embedded.redis import EmbeddedRedis
from display.embedded.supervisor import RedisSupervisor
from display.http.auth import Auth, TdPassword
from display.live.displays import Displays
from display.live.hub import Hub
from display.live.replica import Replica
from display.live.snapshots import Snapshots
from display.live.summaries import Summary, summary_of
from display.log import regression
from display.log.connection import connect
from display.log.keys import store_prefix
from display.log.store import LogStore
from display.log.writer import Writer
from display.settings import Settings, insecure_redis

log = logging.getLogger("backglass")

TournamentSummary = Summary
"""A tournament as the index lists it (``GET /api/tournaments``, pages' ``tournament``):
``display/live/summaries.py``'s ``Summary``."""


@dataclass
class Services:
    """What one server process owns (module docstring); ``running`` makes them."""

    settings: Settings
    redis: Redis
    store: LogStore
    replica: Replica
    hub: Hub
    auth: Auth
    writer: Writer
    td_password: TdPassword | None = None  # how this start settled it (what it printed)
    guard: regression.Guard | None = None  # store went back in time? (docs/store-loss.md)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    displays: Displays = field(default_factory=Displays)  # hall displays connected here

    def summary(self, tid: str) -> TournamentSummary:
        """Loaded tournament ``tid``'s summary (``TournamentSummary``). Raises KeyError for one
        not loaded here."""
        return summary_of(self.replica.tournaments[tid])

    async def listing(self) -> list[TournamentSummary]:
        """Every tournament created (the registry), in creation order, without loading them:
        a loaded one's summary from its state, the others' from Redis in one round trip
        (``display/live/summaries.py``); one without a stored summary (a store from before
        summaries) is loaded, which writes it. Raises what Redis raises."""
        replica = self.replica
        stored = await replica.summaries.read(
            [tid for tid in replica.registered if tid not in replica.tournaments]
        )
        found: list[TournamentSummary] = []
        for tid in list(replica.registered):
            summary = stored.get(tid)
            if summary is None:
                live = replica.tournaments.get(tid) or await replica.load(tid)
                if live is None or live.kind is None:
                    continue  # registered before its first append, which never came
                summary = summary_of(live)
            found.append(summary)
        return found


@contextlib.asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[Services]:
    """The process's services from start-up to shutdown (module docstring). Raises RuntimeError
    for a ``REDIS_URL`` ``insecure_redis`` refuses, and what Redis raises while starting."""
    embedded = None
    url = settings.redis_url
    if url is None:
        embedded = EmbeddedRedis(settings.data_dir)
        await asyncio.to_thread(embedded.attach)  # one server among those on this data directory
        try:
            url = await asyncio.to_thread(embedded.start)
        except BaseException:
            await asyncio.to_thread(embedded.detach)
            raise
    elif (problem := insecure_redis(url)) and not settings.allow_insecure_redis:
        log.critical("%s", problem)
        raise RuntimeError(problem)
    prefix = store_prefix(settings.key_prefix, url)
    redis = connect(url, health_check_interval=10)
    tail = connect(url)  # the master of a Sentinel set too: versions are read where written
    hub = Hub()
    store = LogStore(
        redis,
        prefix,
        settings.hash_chain,
        settings.wait_replicas,
        settings.wait_timeout_ms,
    )
    replica = Replica(store, tail, hub, settings.history_size)
    replica.snapshots = Snapshots(settings.data_dir, settings.key_prefix)
    replica.loader.idle_seconds = settings.idle_minutes * 60
    auth = Auth(redis, prefix)
    writer = Writer(
        store, replica, lambda tid: regression.refuse(svc, tid), competitions.reason_required()
    )
    svc = Services(settings, redis, store, replica, hub, auth, writer)
    # A competition that follows other tournaments (the UKPL season) writes what it learnt.
    replica.on_applied = lambda tid: competitions.observe(writer, tid, replica.format_of(tid))
    try:
        svc.td_password = await auth.ensure_td_password(settings.td_password, settings.data_dir)
        first, *notes = svc.td_password.lines()
        # printed on every start when generated: a password noted once is the one that works
        log.log(logging.INFO if svc.td_password.source == "env" else logging.WARNING, "%s", first)
        for note in notes:
            log.warning("%s", note)
        if embedded is not None:  # restart it if it dies (docs/redis.md)
            supervisor = RedisSupervisor(embedded).run()
            svc.tasks.append(asyncio.create_task(supervisor, name="redis-supervisor"))
        # The server answers at once; until the logs are read, display/http/starting.py says so.
        starting = asyncio.create_task(start(svc), name="start-up")
        starting.add_done_callback(_failed)
        svc.tasks.append(starting)
        yield svc
    finally:
        for task in svc.tasks:
            task.cancel()
        for task in svc.tasks:
            # Cancel again until it ends: on Python 3.11 a cancel that lands as redis-py's own
            # timeout expires can be swallowed (the task goes on as if never cancelled), which
            # hung shutdown while Redis was loading its AOF (tests/display/embedded/test_redis_outage.py).
            while not task.done():
                task.cancel()
                await asyncio.wait([task], timeout=1)
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(OSError):  # the next start replays only what came after
            await replica.save_snapshots()
        await redis.aclose()
        await tail.aclose()
        if embedded is not None:  # the last server on the data directory stops its Redis
            await asyncio.to_thread(embedded.detach)


SNAPSHOT_SECONDS = 30.0
SNAPSHOT_RECORDS = 500
"""A tournament is snapshotted (``display/live/snapshots.py``) after start-up and then every
``SNAPSHOT_SECONDS`` once it moved ``SNAPSHOT_RECORDS`` records on, and at every shutdown: a
restart, even after a kill, replays at most a few hundred records per tournament."""


async def start(svc: Services) -> None:
    """Read the registry (``Replica.read_registry``; no tournament is loaded: each is on its
    first use, ``display/live/loader.py``), check Redis against the high-water file, then take
    writes: start the tail, the heartbeat, the guard's tasks, the idle sweep and the background
    loads, and set ``replica.started``. Retries after a Redis error; what was read is kept."""
    # The modules, templates and rules imported so far live as long as the process: out of the
    # collector's generations before the reads below allocate a reply per tournament, else the
    # full collection those allocations set off walks all of them (bench/on_demand.py: 170 ms
    # of a 450 ms start at 1,000 tournaments, on a loaded 2-core machine).
    gc.freeze()
    while True:
        try:
            await svc.replica.read_registry()
            svc.guard = await regression.start(svc)  # Redis against the high-water file
            break
        except (RedisError, OSError) as exc:
            log.warning("start-up: %s; retrying", exc)
            await asyncio.sleep(0.5)
    # What start-up made lives as long as the process: keep it out of the collector's
    # generations, so full collections stay short under load (bench: 90-150 ms pauses before).
    gc.freeze()
    loader = svc.replica.loader
    svc.tasks += [
        asyncio.create_task(loader.keep_sweeping(), name="idle-tournaments"),
        asyncio.create_task(loader.preload(), name="preload"),
        asyncio.create_task(
            svc.replica.keep_snapshots(SNAPSHOT_SECONDS, SNAPSHOT_RECORDS), name="snapshots"
        ),
        asyncio.create_task(svc.replica.run(), name="replica"),
        asyncio.create_task(
            svc.replica.heartbeat(svc.settings.heartbeat_seconds), name="heartbeat"
        ),
        *svc.guard.tasks(),
    ]
    svc.replica.started.set()
    log.info("ready: %s tournaments registered, loaded on first use", len(svc.replica.registered))


def _failed(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.critical("start-up failed: the server takes no writes", exc_info=task.exception())
