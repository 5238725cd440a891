"""What the registry lists of each tournament without loading it (tournaments on demand).

A process keeps in memory only the tournaments in use (``display/live/loader.py``), but the index,
the desk and ``GET /api/tournaments`` list every one. So beside each log Redis holds a small
summary, ``P:t:ID:summary`` (a STRING, JSON ``{"name", "format", "title", "players",
"machines", "time_zone"}``; in the tournament's hash slot on a cluster), and a listing reads the summaries of
the tournaments not loaded here, with each log's last version, in one pipelined round trip.

The summary is a cache, never the truth: it is written after the append that changed it (a
create, a player or machine added), so a crash in between leaves it one change behind until any
process loads the tournament, which writes it again from the state it replayed. The version is
never stored: it is each log's last entry, read with the summary.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import orjson
from redis.exceptions import RedisError

from display.live.tournament import LiveTournament
from display.log.keys import tournament_key
from display.log.store import LogStore, stream_entries

log = logging.getLogger(__name__)

Summary = dict[str, Any]
"""A tournament as the index lists it: ``id``, ``name``, ``format`` and ``title`` (None before
``tournament_created``), ``version`` and how many ``players`` and ``machines`` it has. A dict,
not a TypedDict: competitions' pages annotate the one they get as a dict."""

FIELDS = ("id", "name", "format", "title", "version", "players", "machines")
STORED = ("name", "format", "title", "players", "machines")
"""The summary's fields kept in Redis (the rest, ``id`` and ``version``, are known without it);
beside them ``time_zone``, the venue's (``display/http/venue_time.py``), which the listing
leaves out and the desk reads (``Summaries.meta``)."""


def summary_of(live: LiveTournament) -> Summary:
    """``live``'s ``Summary``, from its ``tournament``, ``players`` and ``machines`` views."""
    view = live.views.get("tournament", {})
    return {
        "id": live.id,
        "name": view.get("name", live.id),
        "format": view.get("format"),
        "title": view.get("title") or view.get("format"),
        "version": live.version,
        "players": len(live.views.get("players", {})),
        "machines": len(live.views.get("machines", {})),
    }


def stored_part(summary: Summary) -> Summary:
    """The fields of ``summary`` kept in Redis (``STORED``)."""
    return {name: summary.get(name) for name in STORED}


class Summaries:
    """The summary keys of one ``LogStore``; ``known`` holds the stored part this process last
    read or wrote per tournament, so an unchanged one is not written again."""

    def __init__(self, store: LogStore) -> None:
        self.store = store
        self.known: dict[str, Summary] = {}

    def key(self, tid: str) -> str:
        """``P:t:ID:summary`` (``P:t:{ID}:summary`` on a cluster, ``display/log/keys.py``)."""
        return tournament_key(self.store.prefix, tid, "summary")

    async def note(self, live: LiveTournament) -> None:
        """Write ``live``'s summary if it differs from the one last read or written. A Redis
        error is logged, not raised: the write it follows is acknowledged already, and the next
        load of the tournament writes the summary again (module docstring)."""
        if live.kind is None:
            return
        part = {**stored_part(summary_of(live)), "time_zone": live.meta.get("time_zone")}
        if self.known.get(live.id) == part:
            return
        try:
            await self.store.redis.set(self.key(live.id), orjson.dumps(part))
        except (RedisError, OSError) as exc:
            log.warning("%s: summary not written (%s); the next load writes it", live.id, exc)
            return
        self.known[live.id] = part

    def meta(self, tid: str) -> dict[str, object]:
        """What ``venue_time.zone_of`` needs of a tournament not loaded: its ``time_zone`` as
        last read or written (empty when unknown: the server's zone)."""
        zone = self.known.get(tid, {}).get("time_zone")
        return {"time_zone": zone} if zone else {}

    async def read(self, tids: Iterable[str]) -> dict[str, Summary | None]:
        """The stored summaries of ``tids`` with each log's last version (``Summary``), in one
        pipelined round trip; None for a tournament without a summary (an empty log, or a
        store written before summaries existed). Raises what Redis raises."""
        wanted = list(tids)
        if not wanted:
            return {}
        async with self.store.redis.pipeline(transaction=False) as pipe:
            for tid in wanted:
                pipe.get(self.key(tid))
                pipe.xrevrange(self.store.log_key(tid), count=1)
            replies = await pipe.execute()
        found: dict[str, Summary | None] = {}
        for n, tid in enumerate(wanted):
            raw, head = replies[2 * n], replies[2 * n + 1]
            if raw is None:
                found[tid] = None
                continue
            part = orjson.loads(raw)
            self.known[tid] = part
            entries = stream_entries(head)  # the id only: the record's JSON is not parsed
            version = int(entries[0][0].partition("-")[0]) if entries else 0
            summary = {"id": tid, **part, "version": version}
            found[tid] = {name: summary.get(name) for name in FIELDS}  # in summary_of's order
        return found
