"""What I need: ``GET /api/t/{t}/what-if?player=N[&target=K]`` for a player's phone.

For each machine the player may still play (or their joker game), the least score that lifts them
to the target place given the current scores (``scoring/what_if.py``). The target defaults to the
cut: ``qualify`` where the tournament has one (EPC 2009, EPC Qualifying), the trophy places of
the kids tournament (EPC 2009, UK Pinball Kids Tournament), holding a qualifying place in the
Classic (EPC 2009, EPC Classic Tournament), else 1st (UKPL 3D: the meeting's winner).

It answers while per-machine qualifying runs: the state is a ``scoring.tournament.Tournament``
(the machines kind), or holds one as ``qualifying``, ``tournament`` or ``meeting`` while its
``stage`` is still ``"qualifying"`` (the EPC main tournament, the Classic and Kids boards, a UKPL
meeting's counting games). A machine the kind would
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

from display.errors import ApiError
from display.http.endpoint import live_or_404
from scoring.errors import ScoringError
from scoring.tournament import Tournament
from scoring.what_if import Need, Target, reaches, what_i_need

CACHE_SIZE = 512


def qualifying(state: Any) -> Tournament | None:
    """The per-machine tournament inside a kind's state while qualifying runs, or None."""
    if isinstance(state, Tournament):
        return state
    if getattr(state, "stage", "qualifying") != "qualifying":
        return None
    for name in ("qualifying", "tournament", "meeting"):
        inner = getattr(state, name, None)
        if isinstance(inner, Tournament):
            return inner
    return None


def default_target(view: dict[str, Any], asked: int | None) -> tuple[Target, str]:
    """The target and its words for the phone, from the ``tournament`` view and ``asked``."""
    settings = view.get("settings") or {}
    cut = (view.get("cut") or {}).get("qualify")
    exclude = settings.get("cut_ties") == "exclude"
    fmt = view.get("format", "")
    if asked is not None:
        shared = not (exclude and asked in (cut, (cut or 0) + settings.get("standby", 0)))
        return Target(asked, shared_counts=shared), _ordinal(asked)
    if isinstance(cut, int) and cut > 0:
        return Target(cut, shared_counts=not exclude), f"the cut ({_ordinal(cut)})"
    if fmt == "epc-kids":
        trophies = int(settings.get("trophies", 3))
        return Target(trophies), f"a trophy ({_ordinal(trophies)} or better)"
    if fmt == "epc-classic":
        return Target(bands=frozenset({"leading", "qualified"})), "a qualifying place"
    return Target(1), _ordinal(1)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class Snapshot:
    """What the answer is worked from, taken on the event loop (the live tournament moves on
    while a thread works): the kind, its state and version, machine names, joker games on."""

    kind: Any
    state: Any
    version: int
    machines: dict[str, Any]
    jokers: bool


def _playable(at: Snapshot, player: str, machine: str) -> bool:
    record = {"type": "score_recorded", "player": player, "machine": machine, "score": 0}
    try:
        at.kind.apply(at.state, at.version + 1, {**record, "by": "what-if", "at": ""})
    except (ScoringError, ValueError, KeyError):
        return False
    return True


def answer(at: Snapshot, tournament: Tournament, player: str, target: Target) -> dict[str, Any]:
    """The what-if document for ``player``: where they are now and a need per machine."""
    found = what_i_need(tournament, player, target, at.version + 1)
    needs = [n for n in found if _playable(at, player, n.machine)]
    row = next(r for r in tournament.standings.rows if r.player == player)
    now: dict[str, Any] = {"reached": reaches(tournament.standings, player, target)}
    if row.place is not None:
        now["place"] = row.place
    return {
        "now": now,
        "needs": [_need(at, n) for n in needs],
    }


def _need(at: Snapshot, need: Need) -> dict[str, Any]:
    doc = {
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
    live = live_or_404(request)
    player = request.query_params.get("player", "")
    raw = request.query_params.get("target")
    asked = None
    if raw:
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 100_000:
            raise ApiError(422, "invalid_request", "The target is a place: 1, 2, 3 …")
        asked = int(raw)
    tournament = qualifying(live.state)
    if tournament is None:
        raise ApiError(
            409, "not_available", "What-you-need is worked out while machine qualifying runs."
        )
    if player not in tournament.players:
        raise ApiError(404, "unknown_player", f"No player number {player} is registered.")
    target, label = default_target(live.views.get("tournament") or {}, asked)
    settings = (live.views.get("tournament") or {}).get("settings") or {}
    at = Snapshot(
        live.kind, live.state, live.version, dict(live.views.get("machines") or {}),
        bool(settings.get("jokers_per_player")),
    )  # fmt: skip
    cache: OrderedDict[tuple[Any, ...], dict[str, Any]] = _cache(request)
    key = (live.id, at.version, player, target)
    if key not in cache:
        cache[key] = await asyncio.to_thread(answer, at, tournament, player, target)
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    found = cache[key]
    target_doc = {"label": label, **({"place": target.place} if target.place else {})}
    return JSONResponse({"version": key[1], "player": player, "target": target_doc, **found})


def _cache(request: Request) -> OrderedDict[tuple[Any, ...], dict[str, Any]]:
    state = request.app.state
    if not hasattr(state, "what_if_cache"):
        state.what_if_cache = OrderedDict()
    cache: OrderedDict[tuple[Any, ...], dict[str, Any]] = state.what_if_cache
    return cache


routes = [Route("/api/t/{tournament}/what-if", what_if, methods=["GET"])]
