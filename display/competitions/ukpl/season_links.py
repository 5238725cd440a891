"""The season across meetings: keep every UKPL meeting of a region and season on this server
holding the others' results, so each shows the region's season table beside its own meeting.

Views must be a function of a tournament's own log (clients resume by version; a view that
changed without a new version would never reach a client that was away). So another meeting's
results enter a meeting's log as a record: ``season_meeting_linked`` carries a summary of one
meeting (``summary``: its region players' league points, its guests, the penalties given there,
the date held and its season settings). The kind's ``observe`` hook (called by the replica after
a meeting's records were applied) compares each summary with what the other meetings of the
season last linked and, when they differ, appends the new summary to them; a meeting that left
the season (its region or season changed) gets ``left: true`` in the others.

Every server process runs this; the records go through the writer (compare-and-append) with an
idempotency key per (meeting, version, summary), so two processes linking the same change write
it once, and a process that lags behind sees the newer link and stops. Linking stops when every
summary is in place, so meetings never echo each other. By ``server:season``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import weakref
from collections.abc import Iterator
from datetime import UTC, datetime

import orjson

from display.competitions.ukpl.state import UkplState
from display.live.replica import Replica
from display.live.tournament import LiveTournament
from display.log.store import IdempotencyMismatch
from display.log.writer import Writer
from display.types import Record
from scoring.errors import ScoringError
from scoring.ukpl.season import SeasonConfig, meet_from_standings

log = logging.getLogger(__name__)

BY = "server:season"
ATTEMPTS = 5

_tasks: weakref.WeakKeyDictionary[Writer, asyncio.Task[None]] = weakref.WeakKeyDictionary()
_dirty: weakref.WeakKeyDictionary[Writer, set[str]] = weakref.WeakKeyDictionary()


def season_key(state: object) -> tuple[str, str] | None:
    """(region, season) compared without case, or None for a meeting outside any season."""
    if not isinstance(state, UkplState) or not state.options.linked:
        return None
    return (str(state.options.region).casefold(), str(state.options.season).casefold())


def summary(tid: str, state: UkplState) -> Record:
    """What the other meetings of the season need of meeting ``tid``: its id, region, season,
    date, season settings, results (league points exact, as text) and penalties (UKPL 3E, 7A)."""
    meet = state.options.meet or tid
    players = state.meeting.players
    results = []
    for result in meet_from_standings(meet, state.meeting.standings, players).results:
        row: Record = {"player": result.player, "total": str(result.meet_total)}
        if result.league_points is not None:
            row["points"] = str(result.league_points)
        if result.position is not None:
            row["place"] = result.position
        if result.player in players:
            row["name"] = players[result.player].name
        results.append(row)
    penalties = [
        {"player": p.player, "level": p.level, "machine": p.machine, "by": p.by, "reason": p.reason}
        for p in state.own_penalties(meet)
    ]
    config = state.options.season_config
    return {
        "tournament": tid,
        "meet": meet,
        "region": state.options.region,
        "season": state.options.season,
        "held": state.options.held,
        "settings": {k: getattr(config, k) for k in sorted(SeasonConfig.__dataclass_fields__)},
        "results": results,
        "penalties": [{k: v for k, v in p.items() if v is not None} for p in penalties],
    }


def needed(replica: Replica, changed: set[str]) -> Iterator[tuple[str, str, Record]]:
    """(target, source, payload) links missing after ``changed`` meetings changed: each changed
    meeting's summary in its siblings, and its siblings' summaries in it."""
    meetings = _meetings(replica)
    for tid in changed & set(meetings):
        for other in meetings:
            if other != tid:
                yield from _pair(meetings, tid, other)
                yield from _pair(meetings, other, tid)


def _meetings(replica: Replica) -> dict[str, LiveTournament]:
    return {t: live for t, live in replica.tournaments.items() if isinstance(live.state, UkplState)}


def _pair(
    meetings: dict[str, LiveTournament], source: str, target: str
) -> Iterator[tuple[str, str, Record]]:
    state, have = meetings[source].state, meetings[target].state.linked.get(source)
    same = season_key(state) is not None and season_key(state) == season_key(meetings[target].state)
    if same:
        payload = summary(source, state)
        if have is None or dict(have.payload) != payload:
            yield target, source, payload
    elif have is not None:
        yield target, source, {"tournament": source, "left": True}


def observe(writer: Writer, tid: str) -> None:
    """The replica applied records of meeting ``tid``: link what changed, in the background."""
    if next(needed(writer.replica, {tid}), None) is None:
        return
    _dirty.setdefault(writer, set()).add(tid)
    task = _tasks.get(writer)
    if task is None or task.done():
        _tasks[writer] = asyncio.get_running_loop().create_task(_sync(writer), name="ukpl-season")


async def _sync(writer: Writer) -> None:
    try:
        while _dirty.get(writer):
            changed = _dirty.pop(writer)
            pairs = dict.fromkeys((t, s) for t, s, _ in needed(writer.replica, changed))
            for target, source in pairs:
                await _link(writer, target, source)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # Redis away: the next change of the meeting tries again
        log.warning("ukpl season: linking stopped: %s", exc)


class Unneeded(Exception):
    """The link is in place already (another process, or this one, wrote it meanwhile)."""


class Stale(Exception):
    """The source meeting changed after its summary was taken: take it again."""


def _missing(replica: Replica, target: str, source: str) -> tuple[Record, int] | None:
    """The summary of ``source`` (or its leaving) that ``target`` lacks, with the version of
    ``source`` it is taken from; None when ``target`` has it already."""
    meetings = _meetings(replica)
    if source not in meetings or target not in meetings:
        return None
    missing = next(_pair(meetings, source, target), None)
    if missing is None:
        return None
    version = meetings[source].version
    have = meetings[target].state.linked.get(source)
    if have is not None and have.version >= version:
        # Linked at this version of ``source`` or a later one: by another process (this replica
        # lags and looks again when it catches up), or ``target`` left the season while
        # ``source`` stayed as linked; then ``source``'s own link saying ``target`` left moves
        # its version on, and its ``observe`` brings this back.
        return None
    return missing[2], version


async def _link(writer: Writer, target: str, source: str) -> None:
    """Link ``source``'s summary (or its leaving) into ``target`` as of the version of ``source``
    this replica has when the record is appended. The summary and the version are taken together,
    and checked again under ``target``'s write lock (the precondition): the source may have
    changed while this waited for the lock or for earlier links, and a record pairing an older
    summary with a newer version would stand as "linked at that version", so the newer summary
    would never be linked."""
    for _ in range(ATTEMPTS):
        found = _missing(writer.replica, target, source)
        if found is None:
            return
        payload, version = found

        def still_current(state: UkplState, taken: tuple[Record, int] = found) -> None:
            now = _missing(writer.replica, target, source)
            if now is None:
                raise Unneeded
            if now != taken:
                raise Stale

        fingerprint = hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()
        record = {
            "type": "season_meeting_linked",
            **payload,
            "version": version,
            "by": BY,
            "at": datetime.now(UTC).isoformat(timespec="milliseconds"),
        }
        key = f"season-{source}-{version}-{fingerprint[:16]}"
        try:
            await writer.commit(
                target, [record], key=key, fingerprint=fingerprint, precondition=still_current
            )
        except Stale:
            continue
        except (Unneeded, IdempotencyMismatch):
            return
        except ScoringError as exc:
            log.warning("ukpl season: %s refused the results of %s: %s", target, source, exc)
        return
