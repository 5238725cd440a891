"""The hall's records in the ``machines`` kind: queues, machine status, corrections, voids and
withdrawals (the record table is in ``display/competitions/machines/kind.py``).

Each handler is pure: ``(state, seq, record) -> (state, touched view names)``, raising a
``ScoringError`` when the record is refused, so the API answers 4xx and writes nothing. A handler
reads the record (its fields present and well-typed: refused here) and asks the rules
(``scoring.tournament``, ``scoring.corrections``, ``scoring.machine_faults``) whether the machine
and the player may play, how a machine's status changes and which score a correction names; the
queues are the hall's own (``display/competitions/machines/queue.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TypedDict, Unpack

from immutables import Map

from display.competitions.base import EVERY_VIEW
from display.competitions.machines import queue as q
from display.competitions.machines.state import (
    STATUSES,
    Hall,
    HallSettings,
    HallTournament,
    MachineState,
    MergeNote,
    Queue,
    QueueRefused,
)
from display.types import Record, Touched
from scoring.corrections import correct_score, counted_entry, void_entry
from scoring.errors import (
    EntryNotAllowed,
    ScoringError,
    SettingsError,
    UnknownEntry,
    UnknownMachine,
    UnknownPlayer,
)
from scoring.machine_faults import change_status
from scoring.merge import merge_players
from scoring.model import Entry
from scoring.tournament import (
    check_entry,
    check_in_service,
    check_still_playing,
    player_label,
    reinstate,
    withdraw,
)
from scoring.tournament import machine_name as machine_name

Handled = tuple[HallTournament, Touched]
"""A handler's result: the new state and the views it touched."""
Handler = Callable[[HallTournament, int, Record], Handled]


# ---------- shared helpers ----------


def label(state: HallTournament, player: str) -> str:
    """ "Ann Example (17)" for a registered player, else "Player 17" (the rules' own wording,
    ``scoring.tournament.player_label``)."""
    return player_label(state, player)


def need(record: Record, key: str) -> str:
    """A record's ``key`` as text; SettingsError (422) when a hand-made record lacks it."""
    value = record.get(key)
    if value is None or isinstance(value, dict | list) or value == "":
        kind = str(record.get("type", "record")).replace("_", " ")
        raise SettingsError(f"A {kind} record names its {key}.")
    return str(value)


def known_machine(state: HallTournament, machine: str) -> str:
    """``machine`` if the tournament has it. Raises UnknownMachine."""
    if machine not in state.machines:
        raise UnknownMachine(f"There is no machine {machine} in this tournament.")
    return machine


def known_player(state: HallTournament, player: str) -> str:
    """``player`` if registered in the tournament. Raises UnknownPlayer."""
    if player not in state.players:
        raise UnknownPlayer(f"No player number {player} is registered in this tournament.")
    return player


class HallChanges(TypedDict, total=False):
    """The ``Hall`` fields ``with_hall`` may replace, each with its own type."""

    settings: HallSettings
    queues: Mapping[str, Queue]
    machines: Mapping[str, MachineState]
    withdrawn: Mapping[str, str]
    origins: Map[int, int]
    corrected: Map[int, int]
    voided: Map[int, int]
    wiped: Map[int, int]
    digits: Mapping[str, int]
    merged: Mapping[str, MergeNote]
    tags: Mapping[str, str]


def with_hall(state: HallTournament, **changes: Unpack[HallChanges]) -> HallTournament:
    """``state`` with the ``Hall`` fields ``changes`` names replaced (``dataclasses.replace``)."""
    return replace(state, hall=replace(state.hall, **changes))


def with_queue(state: HallTournament, machine: str, queue: Queue) -> HallTournament:
    """``state`` with ``machine``'s queue replaced by ``queue``."""
    return with_hall(state, queues={**state.hall.queues, machine: queue})


def frozen(hall: Hall, machine: str) -> bool:
    """True when ``machine`` is out of order, closed or replaced: its queue calls no one."""
    return hall.status(machine).status != "in_service"


def may_play(state: HallTournament, seq: int, player: str, machine: str) -> None:
    """Raise the rules' error if ``player`` may not play ``machine`` now: PlayerWithdrawn, or the
    format's (a second game without a joker, a seventh machine, qualifying closed…)."""
    check_still_playing(state, state.hall.withdrawn, player)
    check_entry(state, Entry(seq, player, machine, 0))


def prune(state: HallTournament, seq: int) -> HallTournament:
    """Take out of every queue the waiting players who may no longer play that machine."""
    queues = dict(state.hall.queues)
    for machine, queue in state.hall.queues.items():
        for waiting in queue.waiting:
            try:
                may_play(state, seq, waiting.player, machine)
            except ScoringError:
                queues[machine] = q.drop(queues[machine], waiting.player)
    return with_hall(state, queues=queues) if queues != state.hall.queues else state


def remove_everywhere(state: HallTournament, player: str, at: str | None) -> HallTournament:
    """``player`` out of every queue; a machine they were up on calls its next player."""
    queues = {}
    for machine, queue in state.hall.queues.items():
        if queue.up is not None and queue.up.player == player:
            queue = q.call_next(replace(queue, up=None), at, frozen(state.hall, machine))
        queues[machine] = q.drop(queue, player)
    return with_hall(state, queues=queues)


# ---------- queues ----------


def _queue_action(
    act: Callable[[HallTournament, Queue, str, str, str | None, Record], Queue],
    in_service: bool = False,
) -> Handler:
    """A handler for a record ``{machine, player, …}`` on one queue; ``in_service``: the action
    needs the machine in service (``scoring.tournament.check_in_service``)."""

    def handle(state: HallTournament, seq: int, record: Record) -> Handled:
        machine = known_machine(state, need(record, "machine"))
        player = known_player(state, need(record, "player"))
        if in_service:
            check_in_service(state, state.hall.machines, machine)
        queue = act(state, state.hall.queue(machine), machine, player, record.get("at"), record)
        return with_queue(state, machine, queue), {"queues"}

    return handle


def _join(state: HallTournament, seq: int, record: Record) -> Handled:
    machine = known_machine(state, need(record, "machine"))
    player = known_player(state, need(record, "player"))
    check_in_service(state, state.hall.machines, machine)
    may_play(state, seq, player, machine)
    if state.hall.settings.one_queue:
        for other, queue in state.hall.queues.items():
            if other != machine and queue.holds(player):
                where = machine_name(state, other)
                doing = "is up on" if queue.position(player) is None else "is waiting for"
                raise QueueRefused(
                    f"{label(state, player)} {doing} {where}; a player waits in one queue at a "
                    "time, so leave that queue first."
                )
    queue = q.join(
        state.hall.queue(machine),
        player,
        record.get("at"),
        lambda p: label(state, p),
        machine_name(state, machine),
    )
    return with_queue(state, machine, queue), {"queues"}


def _names(state: HallTournament, machine: str) -> tuple[q.Label, str]:
    return (lambda p: label(state, p)), machine_name(state, machine)


_call = _queue_action(
    lambda s, queue, m, p, at, r: q.call(queue, p, at, *_names(s, m)), in_service=True
)
_start = _queue_action(
    lambda s, queue, m, p, at, r: q.start(queue, p, r.get("started_at") or at, *_names(s, m)),
    in_service=True,
)
_skip = _queue_action(
    lambda s, queue, m, p, at, r: q.skip(
        queue,
        p,
        _skip_to(r.get("to") or s.hall.settings.skip_to),
        at,
        *_names(s, m),
        frozen(s.hall, m),
    )
)
_pause = _queue_action(
    lambda s, queue, m, p, at, r: q.pause(queue, p, r.get("note"), *_names(s, m))
)
_resume = _queue_action(lambda s, queue, m, p, at, r: q.resume(queue, p, *_names(s, m)))
_move = _queue_action(
    lambda s, queue, m, p, at, r: q.move(queue, p, _position(r.get("position")), *_names(s, m))
)
_leave = _queue_action(
    lambda s, queue, m, p, at, r: q.leave(queue, p, at, *_names(s, m), frozen(s.hall, m))
)


def _skip_to(value: object) -> str:
    if value not in ("back", "out"):
        raise QueueRefused(f"A skipped player goes to the back or out, not {value!r}.")
    return str(value)


def _position(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise QueueRefused(f"A queue position is a whole number, not {value!r}.")
    return value


# ---------- machine status ----------


def _status(state: HallTournament, seq: int, record: Record) -> Handled:
    machine = known_machine(state, need(record, "machine"))
    status = record.get("status")
    if status not in STATUSES:
        raise SettingsError(f"A machine status is one of {', '.join(STATUSES)}, not {status!r}.")
    raw = record.get("replacement")
    changed = change_status(
        state,
        state.hall.machines,
        machine,
        status,
        record.get("note") or None,
        str(raw) if raw else None,
        seq,
    )
    state, info, at = changed.tournament, changed.state, record.get("at")
    touched = {"machines", "queues", f"machine/{machine}", "standings"}
    if status == "in_service" or status == "out_of_order":
        queue = state.hall.queue(machine)
        queue = q.freeze(queue) if status == "out_of_order" else queue
        state = with_queue(state, machine, queue)
        return _set_status(state, machine, info), touched
    if info.replacement is not None:
        touched.add(f"machine/{info.replacement}")
    return take_out(state, seq, machine, info, [e.seq for e in changed.wiped], at), touched


def take_out(
    state: HallTournament,
    seq: int,
    machine: str,
    info: MachineState,
    wiped: Iterable[int],
    at: str | None,
) -> HallTournament:
    """``machine`` closed or replaced at record ``seq`` (``info``: its new status, replacement
    and the players owed a game there): the entries ``wiped`` (their seqs) are marked so, its
    queue empties and a replacement takes its players, in their order, after its own. The
    competition's rule has decided what is wiped (``scoring.machine_faults``, or the EPC
    Classic's fault rule, EPC 2009, EPC Classic Tournament)."""
    marked = state.hall.wiped.update(dict.fromkeys(wiped, seq))
    leaving = state.hall.queue(machine)
    movers = [*([leaving.up.player] if leaving.up else []), *(w.player for w in leaving.waiting)]
    state = with_hall(state, wiped=marked, queues={**state.hall.queues, machine: Queue()})
    if info.replacement is not None:
        state = with_queue(
            state, info.replacement, q.append(state.hall.queue(info.replacement), movers, at)
        )
        state = prune(state, seq)
    return _set_status(state, machine, info)


def _set_status(state: HallTournament, machine: str, info: MachineState) -> HallTournament:
    return with_hall(state, machines={**state.hall.machines, machine: info})


# ---------- corrections, voids, withdrawals ----------


def entry_of(state: HallTournament, seq: object) -> Entry:
    """The entry a ``score_recorded`` or ``score_corrected`` record at ``seq`` stands for, as it
    counts now (``scoring.corrections.counted_entry``). Raises UnknownEntry saying why there is
    none; ``seq`` that is not a record number is none."""
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise UnknownEntry(f"Record {seq} is not a recorded score.")
    hall = state.hall
    return counted_entry(state, seq, hall.origins, hall.voided, hall.wiped)


def _correct(state: HallTournament, seq: int, record: Record) -> Handled:
    entry = entry_of(state, record.get("corrects"))
    player = str(record.get("player") or entry.player)
    machine = str(record.get("machine") or entry.machine)
    hall = state.hall
    score = record.get("score")
    fixed = correct_score(state, entry, score, player, machine, hall.machines, hall.withdrawn)
    fixed = with_hall(
        fixed,
        origins=hall.origins.set(seq, entry.seq),
        corrected=hall.corrected.set(entry.seq, seq),
    )
    return fixed, {f"machine/{entry.machine}", f"machine/{machine}", "standings"}


def _void(state: HallTournament, seq: int, record: Record) -> Handled:
    entry = entry_of(state, record.get("voids"))
    gone = void_entry(state, entry.seq)
    gone = with_hall(gone, voided=state.hall.voided.set(entry.seq, seq))
    return gone, {f"machine/{entry.machine}", "standings"}


def _withdraw(state: HallTournament, seq: int, record: Record) -> Handled:
    player = known_player(state, need(record, "player"))
    reason = str(record.get("reason") or "")
    withdrawn = withdraw(state, state.hall.withdrawn, player, reason)
    state = remove_everywhere(state, player, record.get("at"))
    return with_hall(state, withdrawn=withdrawn), {"players", "queues"}


def _merge(state: HallTournament, seq: int, record: Record) -> Handled:
    """``players_merged`` (``player`` joined ``into`` another, ``reason``): the two numbers'
    games become the kept number's, the better score kept on a machine both played and the
    other games there voided by this record (``scoring.merge``; EPC 2009, EPC Qualifying). A
    player who waits or plays in a queue is taken out of it first (the queue is the hall's, and
    a queue place cannot be joined into another)."""
    source = known_player(state, need(record, "player"))
    target = known_player(state, need(record, "into"))
    for machine, queue in state.hall.queues.items():
        if queue.holds(source):
            raise EntryNotAllowed(
                f"{player_label(state, source)} is in the queue for "
                f"{machine_name(state, machine)}: take them out of it first."
            )
    name = state.players[source].name
    joined, merged = merge_players(state, source, target)
    hall = joined.hall
    note = MergeNote(
        target, seq, name, str(record.get("by", "")), str(record.get("reason", "")),
        merged.clashes,
    )  # fmt: skip
    voided = hall.voided.update(dict.fromkeys(merged.dropped, seq))
    withdrawn = {p: why for p, why in hall.withdrawn.items() if p != source}
    return with_hall(
        joined, voided=voided, withdrawn=withdrawn, merged={**hall.merged, source: note}
    ), {EVERY_VIEW}


def _reinstate(state: HallTournament, seq: int, record: Record) -> Handled:
    player = known_player(state, need(record, "player"))
    withdrawn = reinstate(state, state.hall.withdrawn, player)
    return with_hall(state, withdrawn=withdrawn), {"players", "queues"}


HANDLERS: Mapping[str, Handler] = {
    "queue_joined": _join,
    "queue_called": _call,
    "game_started": _start,
    "queue_skipped": _skip,
    "queue_paused": _pause,
    "queue_resumed": _resume,
    "queue_moved": _move,
    "queue_left": _leave,
    "machine_status_changed": _status,
    "score_corrected": _correct,
    "score_voided": _void,
    "player_withdrawn": _withdraw,
    "player_reinstated": _reinstate,
    "players_merged": _merge,
}
