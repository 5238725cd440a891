"""A player's place and points over time, for the chart on their phone:
``GET /api/t/{t}/progress?player=N`` answers ``{"version", "player", "points": [{"seq", "at",
"place", "total"}, …]}``, one point per record that changed the player's row of the
``standings`` view (``place`` absent while unranked), oldest first.

The points come from the log itself: its records are applied in order to a tournament of their own
(``display.live.tournament.LiveTournament``, exactly as the replica applies them), and each
change's ``standings`` patch names the rows it moved. That replay is kept per tournament and per
process and moves on by the records appended since (one Redis read and only those records'
rules per request, in a thread), so a hall of phones asking after every push costs one catch-up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display.errors import ApiError
from display.http.endpoint import live_or_404, services
from display.live.tournament import LiveTournament
from display.log.store import Record as StoredRecord
from display.types import Doc

MAX_POINTS = 2000
"""Points answered at most (the latest): a season of league nights stays drawable."""


@dataclass
class Progress:
    """One tournament's replay (at ``replay.version``) and every player's points so far."""

    replay: LiveTournament
    points: dict[str, list[Doc]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def follow(progress: Progress, records: Iterable[StoredRecord]) -> None:
    """Apply ``records`` (the ones after ``progress.replay.version``, in order) and add a point
    for each player whose standings row they changed."""
    replay = progress.replay
    for record in records:
        change = replay.apply([record])
        patch = change.patches.get("standings") if change is not None else None
        if not isinstance(patch, dict) or not isinstance(patch.get("rows"), dict):
            continue
        rows = (replay.views.get("standings") or {}).get("rows") or {}
        for player in patch["rows"]:
            row = rows.get(player)
            if not isinstance(row, dict):
                continue
            point = {"seq": record.seq, "at": record.data.get("at"), "total": row.get("total")}
            if isinstance(row.get("place"), int):
                point["place"] = row["place"]
            series = progress.points.setdefault(str(player), [])
            last = series[-1] if series else None
            if last is None or (last.get("place"), last["total"]) != (
                point.get("place"),
                point["total"],
            ):
                series.append({k: v for k, v in point.items() if v is not None})


async def progress_of(request: Request, tid: str) -> Progress:
    """This process's replay of ``tid``, caught up with the log (made on first use; the replays
    of tournaments this process let go of are dropped, so they cost memory only while in use)."""
    state = request.app.state
    if not hasattr(state, "progress"):
        state.progress = {}
    known: dict[str, Progress] = state.progress  # Starlette's state is untyped
    loaded = services(request).replica.tournaments
    for gone in [t for t, p in known.items() if t not in loaded and not p.lock.locked()]:
        del known[gone]  # let go as its tournament was (display/live/loader.py): made again on use
    progress = known.setdefault(tid, Progress(LiveTournament(tid, history_size=1)))
    async with progress.lock:
        newer = await services(request).store.read(tid, progress.replay.version)
        if newer:
            await asyncio.to_thread(follow, progress, newer)
    return progress


async def player_progress(request: Request) -> Response:
    """``?player=N``'s points (module docstring). ApiError 404 for an unknown player."""
    live = live_or_404(request)
    player = request.query_params.get("player", "")
    if player not in (live.views.get("players") or {}):
        raise ApiError(404, "unknown_player", f"No player number {player} is registered.")
    progress = await progress_of(request, live.id)
    points = progress.points.get(player, [])[-MAX_POINTS:]
    return JSONResponse({"version": progress.replay.version, "player": player, "points": points})


routes = [Route("/api/t/{tournament}/progress", player_progress, methods=["GET"])]
