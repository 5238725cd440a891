"""The hall's API: queues and machine status. Every action writes one record through
``display.http.endpoint.write`` (validated by the kind, compare-and-append, ``Idempotency-Key``).

``POST /api/t/{tid}/queues/{machine}/{action}`` with ``{"player", "note", "position",
"started_at"}`` as the action needs:

| action | who                                      | record         | player (when not given)  |
|--------|------------------------------------------|----------------|--------------------------|
| join   | steward, TD; the player (if allowed)     | queue_joined   | the signed-in player     |
| leave  | steward, TD; the player (if allowed)     | queue_left     | the signed-in player     |
| call   | steward, TD                              | queue_called   | the next one not paused  |
| start  | steward, TD (``started_at``: TD only)    | game_started   | the one up, or the next  |
| skip   | steward, TD                              | queue_skipped  | the one up               |
| pause  | steward, TD                              | queue_paused   | (required)               |
| resume | steward, TD                              | queue_resumed  | (required)               |
| move   | TD (``position``: 1 = next)              | queue_moved    | (required)               |

``POST /api/t/{tid}/machines/{machine}/status`` with ``{"status", "note", "replacement"}``: a
steward may put a machine out of order and back in service; closing and replacing are the TD's,
as the competition's rule then decides what its scores become.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import Field
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from display.competitions.machines import queue as hall_queue
from display.competitions.machines.kind import as_hall
from display.competitions.machines.records import label, machine_name
from display.competitions.machines.state import HallTournament, QueueRefused
from display.errors import ApiError
from display.http.endpoint import (
    body,
    live_or_404,
    now,
    services,
    staff,
    write,
    written_record,
)
from display.http.player_auth import PlayerPins
from display.http.schemas import Body, Id
from display.live.tournament import LiveTournament
from display.types import Record
from scoring.tournament import Tournament

ACTIONS = {
    "join": "queue_joined",
    "leave": "queue_left",
    "call": "queue_called",
    "start": "game_started",
    "skip": "queue_skipped",
    "pause": "queue_paused",
    "resume": "queue_resumed",
    "move": "queue_moved",
}
PLAYER_ACTIONS = ("join", "leave")


class QueueIn(Body):
    """A queue action's details (which apply depends on the action)."""

    player: Id | None = None
    note: str | None = Field(None, max_length=200)
    position: int | None = Field(None, ge=1, le=10_000)
    started_at: datetime | None = Field(None, description="TD only: when the game started")


class StatusIn(Body):
    """A machine's new status; ``replacement`` (a machine id) with ``"replaced"``."""

    status: Literal["in_service", "out_of_order", "closed", "replaced"]
    note: str | None = Field(None, max_length=200)
    replacement: Id | None = None


def pins(request: Request) -> PlayerPins:
    """The players' PINs (``PlayerPins``) in the server's Redis, under its key prefix."""
    auth = services(request).auth
    return PlayerPins(auth.redis, auth.prefix)


def hall_of(live: LiveTournament) -> HallTournament:
    """The per-machine tournament (with its hall) inside a live tournament's state
    (``hall_in``). Raises ApiError 409 for a tournament without one."""
    return hall_in(live.id, live.state)


def hall_in(tid: str, state: object) -> HallTournament:
    """The per-machine tournament (with its hall) inside the state of tournament ``tid``, of any
    kind: the machines kind's own state, or the part a wrapping kind keeps (EPC qualifying, a UKPL
    meeting, a Classic or Kids board). Raises ApiError 409 for a state without one."""
    inside = (getattr(state, name, None) for name in ("qualifying", "meeting", "tournament"))
    for found in (state, *inside):
        if isinstance(found, Tournament):
            return as_hall(found)
    raise ApiError(409, "no_queues", f"Tournament {tid} has no machine queues.")


async def actor(
    request: Request, tid: str, players_too: bool = False, for_write: bool = False
) -> tuple[str, str]:
    """Who calls: (``by`` text, role "td" | "steward" | "player"); ``for_write`` as
    ``endpoint.staff``'s. Raises ApiError 401/403."""
    header = request.headers.get("authorization")
    principal = await staff(request, for_write)
    if principal is not None:
        if not principal.may_write(tid):
            raise ApiError(403, "wrong_tournament", "Your sign-in is for another tournament.")
        return f"{principal.role}:{principal.name}", principal.role
    if players_too:
        player = await pins(request).player(tid, header)
        if player is not None:
            return f"player:{player}", "player"
    if await pins(request).exists(header):  # a player's sign-in, for what only staff may do
        raise ApiError(
            403, "players_may_not", "A player's sign-in cannot do this; a steward or TD can."
        )
    who = "a steward, TD or player" if players_too else "a steward or TD"
    raise ApiError(401, "sign_in_required", f"Sign in first: this needs {who} sign-in.")


def by_record(by: str, record: Record) -> Record:
    """``record`` with its audit fields: ``by`` (``actor``'s text) and ``at``, now."""
    return {**record, "by": by, "at": now()}


async def queue_action(request: Request) -> Response:
    """A queue action on one machine: join, leave, call, start, skip, pause, resume, move.

    Steward or TD; a player signed in with their PIN joins and leaves (only themselves) when the
    TD allows it (hall setting players_may_queue); move is the TD's, and so is ``started_at``.
    Body: ``{"player", "note", "position", "started_at"}`` as the action needs; without a player,
    call means the next one not paused, start and skip the one up. Answers the record written.
    """
    tid, machine = request.path_params["tournament"], request.path_params["machine"]
    action = request.path_params["action"]
    if action not in ACTIONS:
        known = ", ".join(ACTIONS)
        raise ApiError(404, "unknown_action", f"A queue has no action {action!r}; try {known}.")
    by, role = await actor(request, tid, players_too=action in PLAYER_ACTIONS, for_write=True)
    data = await body(request, QueueIn)
    state = hall_of(live_or_404(request))
    player = data.player
    if role == "player":
        own = by.removeprefix("player:")
        if not state.hall.settings.players_may_queue:
            raise ApiError(
                403, "players_may_not_queue", "Queues are run by the stewards here; ask one."
            )
        if player not in (None, own):
            raise ApiError(403, "not_you", "You can only join or leave queues yourself.")
        player = own
    if action == "move" and role != "td":
        raise ApiError(403, "td_only", "Only the tournament director (TD) can move players.")
    if data.started_at is not None and role != "td":
        raise ApiError(403, "td_only", "Only the TD can give the time a game started.")
    player = player or default_player(state, machine, action)
    record: Record = {"type": ACTIONS[action], "machine": machine, "player": player}
    if data.note and action in ("pause", "leave"):
        record["note"] = data.note
    if action == "move":
        if data.position is None:
            raise ApiError(422, "invalid_request", "Give the position to move the player to.")
        record["position"] = data.position
    if action == "skip":
        record["to"] = state.hall.settings.skip_to
    if data.started_at is not None and action == "start":
        when = data.started_at
        record["started_at"] = (when if when.tzinfo else when.replace(tzinfo=UTC)).isoformat()
    record = by_record(by, record)
    seq, replayed = await write(request, tid, [record])
    return await written_record(request, tid, record, seq, replayed)


def default_player(state: HallTournament, machine: str, action: str) -> str:
    """The player an action means when none is named (module docstring). Raises QueueRefused
    (or ApiError 422) when there is none."""
    queue = state.hall.queue(machine)
    where = machine_name(state, machine)
    if action in ("start", "skip") and queue.up is not None:
        return queue.up.player
    if action in ("call", "start") and queue.up is None:
        found = hall_queue.next_up(queue)
        if found is None:
            raise QueueRefused(f"Nobody is waiting for {where} (or everyone waiting is paused).")
        return found
    if action == "call":
        assert queue.up is not None
        state_text = "is playing" if queue.up.started else "was called and has not started"
        raise QueueRefused(
            f"{label(state, queue.up.player)} {state_text} on {where}; record their score, or "
            "skip them, before calling the next player."
        )
    if action == "skip":
        raise QueueRefused(f"Nobody has been called to {where}.")
    raise ApiError(422, "invalid_request", "Give the player's number.")


async def machine_status(request: Request) -> Response:
    """Change a machine's status: in service, out of order, closed or replaced.

    A steward puts a machine out of order and back in service; closing and replacing are the
    TD's (the competition's rule then decides what its scores become). Body: ``{"status",
    "note", "replacement"}``. Answers the record written.
    """
    tid, machine = request.path_params["tournament"], request.path_params["machine"]
    by, role = await actor(request, tid)
    data = await body(request, StatusIn)
    state = hall_of(live_or_404(request))
    current = state.hall.status(machine).status
    steward_may = data.status == "out_of_order" or (
        data.status == "in_service" and current == "out_of_order"
    )
    if role != "td" and not steward_may:
        raise ApiError(
            403,
            "td_only",
            "Stewards can put a machine out of order and back in service; closing or replacing "
            "one is the TD's decision.",
        )
    record: Record = {"type": "machine_status_changed", "machine": machine}
    record["status"] = data.status
    if data.note:
        record["note"] = data.note
    if data.replacement:
        record["replacement"] = data.replacement
    record = by_record(by, record)
    seq, replayed = await write(request, tid, [record])
    return await written_record(request, tid, record, seq, replayed)


routes = [
    Route("/api/t/{tournament}/queues/{machine}/{action}", queue_action, methods=["POST"]),
    Route("/api/t/{tournament}/machines/{machine}/status", machine_status, methods=["POST"]),
]
