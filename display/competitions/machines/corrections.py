"""The hall's API for scores and players: corrections, voids, withdrawals, players' PINs.

| endpoint                                     | who                       | record / answer       |
|----------------------------------------------|---------------------------|-----------------------|
| POST /api/t/{tid}/scores/{seq}/correct       | TD                        | score_corrected       |
|   ``{"score", "reason", "player"?, "machine"?, "confirm"?}``                                  |
| POST /api/t/{tid}/scores/{seq}/void          | TD; a steward, their own  | score_voided          |
|   ``{"reason"}``                             | entry within the window   |                       |
| POST /api/t/{tid}/players/{player}/withdraw  | TD                        | player_withdrawn      |
| POST /api/t/{tid}/players/{player}/reinstate | TD                        | player_reinstated     |
| POST /api/t/{tid}/players/{player}/merge     | TD                        | players_merged        |
|   ``{"into", "reason"}``                     |                           |                       |
|   ``{"reason"}``                             |                           |                       |
| POST /api/t/{tid}/players/{player}/pin       | TD                        | ``{"player", "pin"}`` |
| POST /api/t/{tid}/player-session             | anyone with a PIN         | ``{"token", "player"}``|
|   ``{"player", "pin"}``                      |                           |                       |

``seq`` names the ``score_recorded`` record (or a later correction of it). The original record
stays in the log; the correction or void names it and says why. A steward may void an entry they
recorded themselves within ``hall.void_window_seconds`` of recording it, if the TD has not
corrected it; anything else is the TD's.

A correction that moves a score onto a player who already has one on that machine asks first
(409 ``move_needs_confirm``, saying what would happen: in EPC qualifying it spends their joker
game, and which score would count); the same correction with ``"confirm": true`` goes through
(``scoring.corrections.move_clash``).

Correcting or voiding needs ``If-Match: "<version>"`` (RFC 9110 §13.1.1, a strong entity tag):
an entry's version is the seq of the last record that changed it (its ``score_recorded`` record,
or its latest ``score_corrected``). Another version answers 412 ``entry_changed`` (RFC 9110
§15.5.13), none 428 ``version_required`` (RFC 6585 §3), so two TDs fixing the same entry at once
cannot overwrite each other unseen. The check runs under the tournament's write lock, after the
Idempotency-Key check: a retry of a change that landed gets its first answer. Answers carry the
entry's new version as ``entry.version`` and as an ``ETag``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display.competitions.machines import queue as hall_queue
from display.competitions.machines.api import hall_in, hall_of, pins
from display.competitions.machines.records import entry_of
from display.competitions.machines.state import HallTournament
from display.errors import ApiError
from display.http import throttle
from display.http.endpoint import body, live_or_404, services, signed_in, stamp, write, written
from display.http.preconditions import if_match
from display.http.schemas import Body, Id
from display.log.store import version_number
from display.log.writer import Precondition
from display.types import Record
from scoring.corrections import MoveClash, move_clash
from scoring.errors import UnknownEntry
from scoring.model import Entry
from scoring.tournament import machine_name, player_label

SCORE_RECORDS = ("score_recorded", "score_corrected")
Reason = Field(min_length=1, max_length=200, description="why, for the audit page")


class CorrectIn(Body):
    """A corrected score; ``player``/``machine`` when the wrong one was typed."""

    # any JSON value: the rules check a score (scoring.tournament.check_score) and say what is wrong.
    score: Any = Field(description="whole number, 0 … 9007199254740991")
    reason: str = Reason
    player: Id | None = None
    machine: Id | None = None
    confirm: bool = Field(
        False,
        description="move the score onto a player who already has one on that machine anyway",
    )


class ReasonIn(Body):
    """Why a score is voided or a player withdrawn (1-200 characters), for the audit page."""

    reason: str = Reason


class MergeIn(Body):
    """The player number a duplicate registration is joined into, and why."""

    into: Id
    reason: str = Reason


class PlayerSignIn(Body):
    """A player's sign-in on their phone: their number and the PIN the TD issued them."""

    player: Id
    pin: str = Field(min_length=1, max_length=20)


def seq_param(request: Request) -> int:
    """The path's ``{seq}``, a record number. Raises ApiError 404 ``unknown_record`` otherwise."""
    raw = request.path_params["seq"]
    seq = version_number(raw)
    if seq is None:
        raise ApiError(404, "unknown_record", f"{raw[:40]!r} is not a record number.")
    return seq


async def score_record(request: Request, tid: str, seq: int) -> Record:
    """The record at ``seq``, which must be a score or a correction (ApiError 404 / 409
    otherwise). Records never change, so this may be checked before the Idempotency-Key."""
    found = await services(request).store.record(tid, seq)
    if found is None:
        raise ApiError(404, "unknown_record", f"There is no record {seq} in this tournament.")
    if found.get("type") not in SCORE_RECORDS:
        kind = str(found.get("type", "record")).replace("_", " ")
        raise ApiError(409, "not_a_score", f"Record {seq} is a {kind}, not a recorded score.")
    return found


@runtime_checkable
class StageGames(Protocol):
    """A competition state that keeps stage games apart from its per-machine qualifying (the EPC
    main tournament's quarter-finals to finals, the Classic's semi-finals and final)."""

    def stage_entry(self, seq: object) -> tuple[Entry, int] | None:
        """The stage score record ``seq`` stands for and its version, or None (raises
        UnknownEntry for a voided one)."""


def stage_entry(state: object, seq: int) -> tuple[Entry, int] | None:
    """The stage score (and its version) that record ``seq`` stands for in ``state``, or None when
    ``state`` has no stage games or ``seq`` is none of them. Raises UnknownEntry (voided)."""
    return state.stage_entry(seq) if isinstance(state, StageGames) else None


def entry_version(hall: HallTournament, origin: int) -> int:
    """An entry's version: the seq of its latest correction, else of its ``score_recorded``."""
    return hall.hall.corrected.get(origin, origin)


def unchanged(
    tid: str,
    seq: int,
    header: str | None,
    also: Callable[[HallTournament, Entry], None] | None = None,
) -> Precondition:
    """A precondition for ``api.write``: the entry ``seq`` names still counts (ApiError 409),
    ``also(hall, entry)`` allows the change (403…), and the entry is at a version the
    ``If-Match`` ``header`` names (ApiError 428 / 400 / 412 ``entry_changed``), in that order:
    authorization before preconditions (RFC 9110 §13.2.1)."""

    def check(state: object) -> None:
        hall = hall_in(tid, state)  # the state write() validates
        try:
            staged = stage_entry(state, seq)
            entry = staged[0] if staged is not None else entry_of(hall, seq)
        except UnknownEntry as exc:
            raise ApiError(409, exc.code, exc.message) from None
        if also is not None:
            also(hall, entry)
        current = staged[1] if staged is not None else entry_version(hall, entry.seq)
        if current not in if_match(header):
            raise ApiError(
                412,
                "entry_changed",
                f"Someone changed this entry since you opened it (it is now version {current}). "
                "Reload it and try again.",
            )

    return check


def asked_before_moving(tid: str, seq: int, data: CorrectIn, first: Precondition) -> Precondition:
    """``first``, then: a correction moving the score onto a player who already has a score on
    that machine is refused with ApiError 409 ``move_needs_confirm`` saying what would happen
    (``scoring.corrections.move_clash``; EPC 2009, EPC Qualifying: a second game on a machine is
    the joker game) unless ``data.confirm``. A stage game has no such clash."""

    def check(state: object) -> None:
        first(state)
        if data.confirm or (data.player is None and data.machine is None):
            return
        if stage_entry(state, seq) is not None:
            return
        hall = hall_in(tid, state)
        entry = entry_of(hall, seq)
        player, machine = data.player or entry.player, data.machine or entry.machine
        clash = move_clash(hall, entry, data.score, player, machine)
        if clash is not None:
            raise ApiError(409, "move_needs_confirm", move_question(hall, clash, data.score))

    return check


def move_question(hall: HallTournament, clash: MoveClash, score: object) -> str:
    """The plain words of a ``move_needs_confirm``: whose score is already there, what the moved
    score would become, which would count, and how to go ahead."""
    who, where = player_label(hall, clash.player), machine_name(hall, clash.machine)
    had = ", ".join(f"{s:,}" for s in clash.already)
    moved = f"{score:,}" if isinstance(score, int) else str(score)
    spends = "it uses their joker game, and " if clash.joker else ""
    return (
        f"{who} already has a score on {where} ({had}). Moved to them, this score ({moved}) "
        f"would be their second game there: {spends}{clash.counting:,} would count for them. "
        "Confirm to move it anyway."
    )


def changed(request: Request, version: int, replayed: bool, stored: Record | None) -> Response:
    """The answer to a correction or void: the record, the entry and its new version (also as
    the ``ETag``)."""
    found = stored or {}
    target = found.get("corrects", found.get("voids"))
    live = live_or_404(request)
    origins = hall_of(live).hall.origins
    origin = origins.get(target, target) if isinstance(target, int) else target
    try:
        staged = stage_entry(live.state, target) if isinstance(target, int) else None
    except UnknownEntry:  # a stage score just voided
        staged = None
    if staged is not None:
        origin = staged[0].seq
    response = written(
        version, replayed, {"record": stored, "entry": {"seq": origin, "version": version}}
    )
    response.headers["ETag"] = f'"{version}"'
    return response


async def correct(request: Request) -> Response:
    """Correct a recorded score (TD): ``{"score", "reason", "player"?, "machine"?}`` with
    ``If-Match: "<entry version>"`` (module docstring).

    ``seq`` names the score_recorded record or a later correction of it; the original stays in
    the log and the correction names it. Answers the score_corrected record written; ApiError
    412 / 428 on the version.
    """
    tid, seq = request.path_params["tournament"], seq_param(request)
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, CorrectIn)
    await score_record(request, tid, seq)
    record: Record = {
        "type": "score_corrected",
        "corrects": seq,
        "score": data.score,
        "reason": data.reason,
    }
    record.update({k: v for k, v in (("player", data.player), ("machine", data.machine)) if v})
    precondition = asked_before_moving(
        tid, seq, data, unchanged(tid, seq, request.headers.get("if-match"))
    )
    version, replayed = await write(
        request, tid, [stamp(principal, record)], precondition=precondition
    )
    stored = await services(request).store.record(tid, version)
    return changed(request, version, replayed, stored)


async def void(request: Request) -> Response:
    """Void a recorded score: ``{"reason"}`` with ``If-Match: "<entry version>"``.

    The TD any score; a steward their own entry within the hall's void window. Answers the
    score_voided record written; ApiError 412 / 428 on the version."""
    tid, seq = request.path_params["tournament"], seq_param(request)
    principal = await signed_in(request, tid)
    data = await body(request, ReasonIn)
    original = await score_record(request, tid, seq)

    def stewards_own(hall: HallTournament, entry: Entry) -> None:
        if principal.role == "td":
            return
        window = hall.hall.settings.void_window_seconds
        mine = original.get("type") == "score_recorded" and original.get("by") == (
            f"steward:{principal.name}"
        )
        age = hall_queue.seconds_between(original.get("at"), datetime.now(UTC).isoformat()) or 0
        if not mine or age > window or entry.seq in hall.hall.corrected:
            raise ApiError(
                403,
                "td_only",
                f"Only the TD can void this entry: stewards void their own entries within "
                f"{window} seconds of recording them.",
            )

    record = {"type": "score_voided", "voids": seq, "reason": data.reason}
    precondition = unchanged(tid, seq, request.headers.get("if-match"), stewards_own)
    version, replayed = await write(
        request, tid, [stamp(principal, record)], precondition=precondition
    )
    stored = await services(request).store.record(tid, version)
    return changed(request, version, replayed, stored)


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


async def reinstate(request: Request) -> Response:
    """Undo a player's withdrawal (TD): ``{"reason"}``. They may queue and score again.
    Answers the player_reinstated record written; 409 player_not_withdrawn if they had not
    withdrawn."""
    tid, player = request.path_params["tournament"], request.path_params["player"]
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, ReasonIn)
    record = {"type": "player_reinstated", "player": player, "reason": data.reason}
    version, replayed = await write(request, tid, [stamp(principal, record)])
    stored = await services(request).store.record(tid, version)
    return written(version, replayed, {"record": stored})


async def merge(request: Request) -> Response:
    """Join player ``{player}``, a duplicate registration, into ``{"into"}`` (TD), with
    ``{"reason"}``: one ``players_merged`` record. The better score is kept on a machine both
    numbers played, the clashes shown on the desk (``scoring.merge``; EPC 2009, EPC Qualifying).
    Answers the record written; 404 for an unknown number, 409 when the rules refuse the joined
    games or the player is in a queue."""
    tid, player = request.path_params["tournament"], request.path_params["player"]
    principal = await signed_in(request, tid, td_only=True)
    data = await body(request, MergeIn)
    record = {"type": "players_merged", "player": player, "into": data.into, "reason": data.reason}
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
    async with throttle.guard(request, throttle.account_for(request, "player", tid, data.player)):
        token = await pins(request).sign_in(tid, data.player, data.pin)
    return JSONResponse({"token": token, "tournament": tid, "player": data.player})


routes = [
    Route("/api/t/{tournament}/scores/{seq}/correct", correct, methods=["POST"]),
    Route("/api/t/{tournament}/scores/{seq}/void", void, methods=["POST"]),
    Route("/api/t/{tournament}/players/{player}/withdraw", withdraw, methods=["POST"]),
    Route("/api/t/{tournament}/players/{player}/reinstate", reinstate, methods=["POST"]),
    Route("/api/t/{tournament}/players/{player}/merge", merge, methods=["POST"]),
    Route("/api/t/{tournament}/players/{player}/pin", issue_pin, methods=["POST"]),
    Route("/api/t/{tournament}/player-session", player_session, methods=["POST"]),
]
