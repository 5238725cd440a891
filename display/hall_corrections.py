"""The hall's API for scores and players: corrections, voids, withdrawals, players' PINs.

| endpoint                                     | who                       | record / answer       |
|----------------------------------------------|---------------------------|-----------------------|
| POST /api/t/{tid}/scores/{seq}/correct       | TD                        | score_corrected       |
|   ``{"score", "reason", "player"?, "machine"?}``                                              |
| POST /api/t/{tid}/scores/{seq}/void          | TD; a steward, their own  | score_voided          |
|   ``{"reason"}``                             | entry within the window   |                       |
| POST /api/t/{tid}/players/{player}/withdraw  | TD                        | player_withdrawn      |
|   ``{"reason"}``                             |                           |                       |
| POST /api/t/{tid}/players/{player}/pin       | TD                        | ``{"player", "pin"}`` |
| POST /api/t/{tid}/player-session             | anyone with a PIN         | ``{"token", "player"}``|
|   ``{"player", "pin"}``                      |                           |                       |

``seq`` names the ``score_recorded`` record (or a later correction of it). The original record
stays in the log; the correction or void names it and says why. A steward may void an entry they
recorded themselves within ``hall.void_window_seconds`` of recording it, if the TD has not
corrected it; anything else is the TD's.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display import hall_queue
from display.api import body, live_or_404, services, signed_in, stamp, write, written
from display.errors import ApiError
from display.hall_api import hall_of, pins
from display.kinds.machines_hall import entry_of
from display.schemas import Body, Id
from scoring.corrections import UnknownEntry
from scoring.model import Entry

SCORE_RECORDS = ("score_recorded", "score_corrected")
Reason = Field(min_length=1, max_length=200, description="why, for the audit page")


class CorrectIn(Body):
    """A corrected score; ``player``/``machine`` when the wrong one was typed."""

    score: Any = Field(description="whole number, 0 … 9007199254740991")
    reason: str = Reason
    player: Id | None = None
    machine: Id | None = None


class ReasonIn(Body):
    reason: str = Reason


class PlayerSignIn(Body):
    player: Id
    pin: str = Field(min_length=1, max_length=20)


def seq_param(request: Request) -> int:
    raw = request.path_params["seq"]
    if not raw.isdigit():
        raise ApiError(404, "unknown_record", f"{raw!r} is not a record number.")
    return int(raw)


async def score_record(request: Request, tid: str, seq: int) -> tuple[dict[str, Any], Entry]:
    """The record at ``seq``, which must be a score or a correction whose entry still counts, and
    that entry (ApiError 404 / 409 otherwise)."""
    found = await services(request).store.record(tid, seq)
    if found is None:
        raise ApiError(404, "unknown_record", f"There is no record {seq} in this tournament.")
    if found.get("type") not in SCORE_RECORDS:
        kind = str(found.get("type", "record")).replace("_", " ")
        raise ApiError(409, "not_a_score", f"Record {seq} is a {kind}, not a recorded score.")
    try:
        entry = entry_of(hall_of(live_or_404(request)), seq)
    except UnknownEntry as exc:
        raise ApiError(409, exc.code, exc.message) from None
    return found, entry


async def correct(request: Request) -> Response:
    """Correct a recorded score (TD): ``{"score", "reason", "player"?, "machine"?}``.

    ``seq`` names the score_recorded record or a later correction of it; the original stays in
    the log and the correction names it. Answers the score_corrected record written.
    """
    tid, seq = request.path_params["tournament"], seq_param(request)
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, CorrectIn)
    await score_record(request, tid, seq)
    record: dict[str, Any] = {
        "type": "score_corrected",
        "corrects": seq,
        "score": data.score,
        "reason": data.reason,
    }
    record.update({k: v for k, v in (("player", data.player), ("machine", data.machine)) if v})
    version, replayed = await write(request, tid, [stamp(principal, record)])
    stored = await services(request).store.record(tid, version)
    return written(version, replayed, {"record": stored})


async def void(request: Request) -> Response:
    """Void a recorded score: ``{"reason"}``.

    The TD any score; a steward their own entry within the hall's void window. Answers the
    score_voided record written."""
    tid, seq = request.path_params["tournament"], seq_param(request)
    principal = await signed_in(request, tid)
    data = await body(request, ReasonIn)
    original, entry = await score_record(request, tid, seq)
    if principal.role != "td":
        hall = hall_of(live_or_404(request)).hall
        window = hall.settings.void_window_seconds
        mine = original.get("type") == "score_recorded" and original.get("by") == (
            f"steward:{principal.name}"
        )
        age = hall_queue.seconds_between(original.get("at"), datetime.now(UTC).isoformat()) or 0
        if not mine or age > window or entry.seq in hall.corrected:
            raise ApiError(
                403,
                "td_only",
                f"Only the TD can void this entry: stewards void their own entries within "
                f"{window} seconds of recording them.",
            )
    record = {"type": "score_voided", "voids": seq, "reason": data.reason}
    version, replayed = await write(request, tid, [stamp(principal, record)])
    stored = await services(request).store.record(tid, version)
    return written(version, replayed, {"record": stored})


async def withdraw(request: Request) -> Response:
    """Withdraw a player (TD): ``{"reason"}``.

    They leave every queue and score no more; their scores stand. Answers the player_withdrawn
    record written."""
    tid, player = request.path_params["tournament"], request.path_params["player"]
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, ReasonIn)
    record = {"type": "player_withdrawn", "player": player, "reason": data.reason}
    version, replayed = await write(request, tid, [stamp(principal, record)])
    stored = await services(request).store.record(tid, version)
    return written(version, replayed, {"record": stored})


async def issue_pin(request: Request) -> Response:
    """Issue a player a new 6-digit PIN (TD), to sign in on their phone.

    Answers ``{"player", "pin"}``; only its hash is kept."""
    tid, player = request.path_params["tournament"], request.path_params["player"]
    await signed_in(request, tid, td_only=True)
    if player not in hall_of(live_or_404(request)).players:
        raise ApiError(404, "unknown_player", f"No player number {player} is registered here.")
    pin = await pins(request).issue(tid, player)
    return JSONResponse({"tournament": tid, "player": player, "pin": pin}, status_code=201)


async def player_session(request: Request) -> Response:
    """A player signs in with ``{"player", "pin"}``; answers ``{"token"}``.

    The token joins and leaves queues for that player only, and is no steward's."""
    tid = live_or_404(request).id
    data = await body(request, PlayerSignIn)
    token = await pins(request).sign_in(tid, data.player, data.pin)
    return JSONResponse({"token": token, "tournament": tid, "player": data.player})


routes = [
    Route("/api/t/{tournament}/scores/{seq}/correct", correct, methods=["POST"]),
    Route("/api/t/{tournament}/scores/{seq}/void", void, methods=["POST"]),
    Route("/api/t/{tournament}/players/{player}/withdraw", withdraw, methods=["POST"]),
    Route("/api/t/{tournament}/players/{player}/pin", issue_pin, methods=["POST"]),
    Route("/api/t/{tournament}/player-session", player_session, methods=["POST"]),
]
