"""What I need: ``GET /api/t/{t}/what-if?player=N[&target=K]`` for a player's phone.

For each machine the player may still play (or their joker game), the least score that lifts them
to the target place given the current scores (``scoring/what_if.py``). The target defaults to the
cut, ``qualify``, where the tournament has one (EPC 2009, EPC Qualifying), else what its
competition names (``Competition.what_if_target``: a trophy place, a qualifying place), else 1st.

It answers while per-machine qualifying runs: the competition finds the per-machine tournament in
its state (``Competition.qualifying``). A machine the kind would
refuse a game on now (closed, out of order, a withdrawn player) is left out: a score there is
tried through the kind itself. Answers are cached per version, player and target, and computed
off the event loop.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display import competitions
from display.competitions.base import Kind
from display.competitions.docs import ordinal
from display.errors import ApiError
from display.http.endpoint import live_or_404
from display.types import Doc
from scoring.errors import ScoringError
from scoring.tournament import Tournament
from scoring.what_if import Need, Target, reaches, what_i_need

CACHE_SIZE = 512


def qualifying(fmt: str | None, state: Any) -> Tournament | None:
    """The per-machine tournament inside a state of format ``fmt`` (its kind's own type) while
    qualifying runs, or None (its competition's ``Competition.qualifying``)."""
    found = competitions.find(fmt)
    return found.qualifying(state) if found is not None and found.qualifying else None


def default_target(view: Doc, asked: int | None) -> tuple[Target, str]:
    """The target and its words for the phone, from the ``tournament`` view and ``asked``."""
    settings = view.get("settings") or {}
    cut = (view.get("cut") or {}).get("qualify")
    exclude = settings.get("cut_ties") == "exclude"
    fmt = view.get("format", "")
    if asked is not None:
        shared = not (exclude and asked in (cut, (cut or 0) + settings.get("standby", 0)))
        return Target(asked, shared_counts=shared), ordinal(asked)
    if isinstance(cut, int) and cut > 0:
        return Target(cut, shared_counts=not exclude), f"the cut ({ordinal(cut)})"
    found = competitions.find(fmt)
    if found is not None and found.what_if_target is not None:
        aim = found.what_if_target(fmt, settings)
        if aim is not None:
            return aim
    return Target(1), ordinal(1)


@dataclass(frozen=True)
class Snapshot:
    """What the answer is worked from, taken on the event loop (the live tournament moves on
    while a thread works): the kind, its state and version, machine names, joker games on."""

    kind: Kind
    state: Any  # the kind's own type
    version: int
    machines: Doc
    jokers: bool


def _playable(at: Snapshot, player: str, machine: str) -> bool:
    record = {"type": "score_recorded", "player": player, "machine": machine, "score": 0}
    try:
        at.kind.apply(at.state, at.version + 1, {**record, "by": "what-if", "at": ""})
    except (ScoringError, ValueError, KeyError):
        return False
    return True


def answer(at: Snapshot, tournament: Tournament, player: str, target: Target) -> Doc:
    """The what-if document for ``player``: where they are now (``{"reached", "place"?}``) and
    a need per machine (``_need``)."""
    found = what_i_need(tournament, player, target, at.version + 1)
    needs = [n for n in found if _playable(at, player, n.machine)]
    row = next(r for r in tournament.standings.rows if r.player == player)
    now: dict[str, object] = {"reached": reaches(tournament.standings, player, target)}
    if row.place is not None:
        now["place"] = row.place
    return {
        "now": now,
        "needs": [_need(at, n) for n in needs],
    }


def _need(at: Snapshot, need: Need) -> dict[str, object]:
    doc: dict[str, object] = {
        "machine": need.machine,
        "name": (at.machines.get(need.machine) or {}).get("name", need.machine),
        "again": need.again,
        "joker": need.again and at.jokers,
    }
    if need.score is not None:
        doc["score"] = need.score
        if need.place is not None:
            doc["place"] = need.place
    return doc


async def what_if(request: Request) -> Response:
    """What ``?player=`` needs on each machine to reach ``?target=`` (module docstring). Raises
    ApiError 422 for a target that is not a place, 409 ``not_available`` outside machine
    qualifying, 404 ``unknown_player``."""
    live = live_or_404(request)
    player = request.query_params.get("player", "")
    raw = request.query_params.get("target")
    asked = None
    if raw:
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 100_000:
            raise ApiError(422, "invalid_request", "The target is a place: 1, 2, 3 …")
        asked = int(raw)
    tournament = qualifying(live.format, live.state)
    if tournament is None:
        raise ApiError(
            409, "not_available", "What-you-need is worked out while machine qualifying runs."
        )
    if player not in tournament.players:
        raise ApiError(404, "unknown_player", f"No player number {player} is registered.")
    target, label = default_target(live.views.get("tournament") or {}, asked)
    settings = (live.views.get("tournament") or {}).get("settings") or {}
    assert live.kind is not None  # live_or_404 answers only tournaments that have their kind
    at = Snapshot(
        live.kind, live.state, live.version, dict(live.views.get("machines") or {}),
        bool(settings.get("jokers_per_player")),
    )  # fmt: skip
    cache = _cache(request)
    key = (live.id, at.version, player, target)
    if key not in cache:
        cache[key] = await asyncio.to_thread(answer, at, tournament, player, target)
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    found = cache[key]
    target_doc = {"label": label, **({"place": target.place} if target.place else {})}
    return JSONResponse({"version": key[1], "player": player, "target": target_doc, **found})


CacheKey = tuple[str, int, str, Target]
"""(tournament, version, player, target) of an answer."""


def _cache(request: Request) -> OrderedDict[CacheKey, Doc]:
    """The app's answers, oldest first (made on first use)."""
    state = request.app.state
    if not hasattr(state, "what_if_cache"):
        state.what_if_cache = OrderedDict()
    cache: OrderedDict[CacheKey, Doc] = state.what_if_cache  # Starlette's state is untyped
    return cache


routes = [Route("/api/t/{tournament}/what-if", what_if, methods=["GET"])]
