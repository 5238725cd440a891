"""Keep the embedded Redis running: restart it on the same data directory when it dies.

Redis can die under a hall with no one at the keyboard: killed (the OOM killer, a stray ``kill -9``)
or exiting by itself, which it does on purpose when an AOF write fails under ``appendfsync always``
(a full disk: "Can't recover from AOF write error when the AOF fsync policy is 'always'. Exiting",
rather than answer a write it could not persist). While it is down every write answers 503 and
nothing is acknowledged; this task brings it back, so the next retry of the steward's phone lands.

Restarts back off (``FIRST_DELAY`` doubling to ``MAX_DELAY``), so a disk that stays full costs a
restart every few seconds, not a busy loop; the delay resets once Redis has stayed up ``STABLE``
seconds. Restarting reloads the AOF, so everything acknowledged before the death is there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from pathlib import Path

from display.embedded.redis import EmbeddedRedis, EmbeddedRedisError

log = logging.getLogger(__name__)

CHECK_EVERY = 0.25
"""Seconds between liveness checks (a ``waitpid``, or a ``/proc`` read for a reused Redis)."""
FIRST_DELAY = 0.25
MAX_DELAY = 5.0
STABLE = 30.0


class RedisSupervisor:
    """Watches one ``EmbeddedRedis``; ``run`` restarts it whenever it is found dead.

    ``restarts`` counts successful restarts (for logs and tests)."""

    def __init__(self, embedded: EmbeddedRedis) -> None:
        self.embedded = embedded
        self.restarts = 0

    async def run(self) -> None:
        """Check forever; cancel to stop (the Redis itself is left to ``EmbeddedRedis.stop``)."""
        delay = FIRST_DELAY
        up_since = time.monotonic()
        while True:
            await asyncio.sleep(CHECK_EVERY)
            if await asyncio.to_thread(self.embedded.alive):
                if time.monotonic() - up_since > STABLE:
                    delay = FIRST_DELAY
                continue
            status = self.embedded.exit_status()
            log.error(
                "embedded Redis under %s stopped (exit status %s, %s free on that disk; see "
                "redis.log there); restarting in %.2f s",
                self.embedded.data_dir,
                "unknown" if status is None else status,
                _free(self.embedded.data_dir),
                delay,
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, MAX_DELAY)
            try:
                await self._start()
            except (EmbeddedRedisError, OSError) as exc:  # e.g. a full disk: try again later
                log.error("embedded Redis did not restart: %s", exc)
                continue
            self.restarts += 1
            up_since = time.monotonic()
            log.warning("embedded Redis restarted (%d so far)", self.restarts)

    async def _start(self) -> None:
        """``embedded.start`` in a thread. Cancelled (shutdown), it still waits for the thread, so
        ``EmbeddedRedis.stop`` afterwards sees (and stops) a Redis it was starting."""
        starting = asyncio.ensure_future(asyncio.to_thread(self.embedded.start))
        try:
            await asyncio.shield(starting)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await starting
            raise


def _free(directory: Path) -> str:
    """Free space under ``directory``, for the log: a full disk is the usual reason Redis exits."""
    try:
        stats = os.statvfs(directory)
    except OSError:
        return "unknown"
    return f"{stats.f_bavail * stats.f_frsize // 1024} KiB"
