"""One machine's queue as pure operations, and the estimated waits.

Every operation takes a ``Queue`` and returns a new one, or raises ``QueueRefused`` with a message
for the steward. ``label`` turns a player number into "Ann Example (17)" and ``where`` is the
machine's name, so messages say who and where. Times are the records' ``at`` (ISO 8601 text);
nothing here reads a clock, so replaying the log gives the same queues.

The flow: players join at the back; the steward *calls* the next player (the first who is not
paused), who *starts* their game; a score recorded for them *finishes* it and calls the next. A
called player who does not come is *skipped* (to the back or out, a setting) and the next called.
A paused player keeps their place but is passed over. A machine out of order *freezes* its queue:
nobody is called and the player who was up goes back to the front, to play when it is repaired
(UKPL 6A "the entrants will be offered the chance to replay the game").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from statistics import median

from display.competitions.machines.state import KEEP_LENGTHS, Queue, QueueRefused, Up, Waiting

Label = Callable[[str], str]
LONGEST_GAME_SECONDS = 2 * 3600
"""A longer span from start to score is not taken as a game's length."""


def join(queue: Queue, player: str, at: str | None, label: Label, where: str) -> Queue:
    """``player`` joins at the back."""
    if queue.up is not None and queue.up.player == player:
        raise QueueRefused(f"{label(player)} is already up on {where}.")
    if queue.position(player) is not None:
        raise QueueRefused(
            f"{label(player)} is already waiting for {where} "
            f"(number {queue.position(player)} in the queue)."
        )
    return replace(queue, waiting=(*queue.waiting, Waiting(player, at)))


def next_up(queue: Queue, passing: str | None = None) -> str | None:
    """The player the next call goes to: the first waiting who is not paused (nor ``passing``)."""
    return next(
        (w.player for w in queue.waiting if not w.paused and w.player != passing),
        None,
    )


def call(queue: Queue, player: str, at: str | None, label: Label, where: str) -> Queue:
    """Call ``player``, who must be next (``next_up``), to the free machine."""
    _free(queue, label, where)
    expected = next_up(queue)
    if expected is None:
        raise QueueRefused(f"Nobody is waiting for {where} (or everyone waiting is paused).")
    if player != expected:
        raise QueueRefused(f"{label(expected)} is next for {where}, not {label(player)}.")
    return _up(queue, player, at)


def start(queue: Queue, player: str, at: str | None, label: Label, where: str) -> Queue:
    """``player``'s game starts at ``at``: the called player, or (nobody called) the next one."""
    up = queue.up
    if up is not None:
        if up.player != player:
            raise QueueRefused(f"{label(up.player)} is up on {where}, not {label(player)}.")
        if up.started is not None:
            raise QueueRefused(f"{label(player)}'s game on {where} has already started.")
        return replace(queue, up=replace(up, started=at))
    called = call(queue, player, at, label, where)
    assert called.up is not None
    return replace(called, up=replace(called.up, started=at))


def skip(
    queue: Queue, player: str, to: str, at: str | None, label: Label, where: str, frozen: bool
) -> Queue:
    """The called ``player`` did not come: to the ``"back"`` of the queue or ``"out"`` of it; the
    next player is called (unless ``frozen``)."""
    up = queue.up
    if up is None or up.player != player:
        raise QueueRefused(f"{label(player)} is not the player called to {where}.")
    if up.started is not None:
        raise QueueRefused(
            f"{label(player)}'s game on {where} has started; record their score instead."
        )
    waiting = (*queue.waiting, Waiting(player, at)) if to == "back" else queue.waiting
    return call_next(replace(queue, up=None, waiting=waiting), at, frozen, passing=player)


def pause(queue: Queue, player: str, note: str | None, label: Label, where: str) -> Queue:
    """``player`` keeps their place but is passed over; a called player goes back to the front."""
    up = queue.up
    if up is not None and up.player == player:
        if up.started is not None:
            raise QueueRefused(f"{label(player)} is playing {where}; a game is not paused here.")
        first = Waiting(player, up.called, paused=True, note=note)
        return replace(queue, up=None, waiting=(first, *queue.waiting))
    index = _index(queue, player, label, where)
    if queue.waiting[index].paused:
        raise QueueRefused(f"{label(player)} is already paused in the queue for {where}.")
    return _set(queue, index, replace(queue.waiting[index], paused=True, note=note))


def resume(queue: Queue, player: str, label: Label, where: str) -> Queue:
    """A paused ``player`` can be called again, from the place they kept."""
    index = _index(queue, player, label, where)
    if not queue.waiting[index].paused:
        raise QueueRefused(f"{label(player)} is not paused in the queue for {where}.")
    return _set(queue, index, replace(queue.waiting[index], paused=False, note=None))


def move(queue: Queue, player: str, position: int, label: Label, where: str) -> Queue:
    """Put a waiting ``player`` at ``position`` (1 = next) among the waiting."""
    index = _index(queue, player, label, where)
    if not 1 <= position <= len(queue.waiting):
        raise QueueRefused(
            f"The queue for {where} has places 1 to {len(queue.waiting)}; {position} is not one."
        )
    rest = [w for i, w in enumerate(queue.waiting) if i != index]
    rest.insert(position - 1, queue.waiting[index])
    return replace(queue, waiting=tuple(rest))


def leave(
    queue: Queue, player: str, at: str | None, label: Label, where: str, frozen: bool
) -> Queue:
    """``player`` leaves the queue (or gives up their turn when up: the next is called)."""
    if queue.up is not None and queue.up.player == player:
        return call_next(replace(queue, up=None), at, frozen)
    _index(queue, player, label, where)
    return drop(queue, player)


def finish(queue: Queue, player: str, at: str | None, frozen: bool) -> Queue:
    """A score was recorded for ``player`` on this machine: their game is over (its length is
    kept when it was started, up to ``LONGEST_GAME_SECONDS``) and the next player is called; a waiting ``player`` (who played
    without the queue) leaves it. Anyone else's score changes nothing."""
    up = queue.up
    if up is None or up.player != player:
        return drop(queue, player)
    length = seconds_between(up.started, at)
    if length is not None and length > LONGEST_GAME_SECONDS:
        length = None  # a start nobody ended in time (a forgotten push), not a game length
    lengths = queue.lengths if length is None else (*queue.lengths, length)[-KEEP_LENGTHS:]
    return call_next(replace(queue, up=None, lengths=lengths), at, frozen)


def freeze(queue: Queue) -> Queue:
    """The machine is out of order: whoever was up goes back to the front, nobody is called."""
    if queue.up is None:
        return queue
    back = Waiting(queue.up.player, queue.up.called)
    return replace(queue, up=None, waiting=(back, *queue.waiting))


def drop(queue: Queue, player: str) -> Queue:
    """``queue`` without ``player`` waiting (unchanged if they are not)."""
    kept = tuple(w for w in queue.waiting if w.player != player)
    return queue if len(kept) == len(queue.waiting) else replace(queue, waiting=kept)


def append(queue: Queue, players: Iterable[str], at: str | None) -> Queue:
    """``players`` (not already here) join at the back, in order."""
    new = [Waiting(p, at) for p in dict.fromkeys(players) if not queue.holds(p)]
    return replace(queue, waiting=(*queue.waiting, *new)) if new else queue


def call_next(queue: Queue, at: str | None, frozen: bool, passing: str | None = None) -> Queue:
    """Call the next player to a free machine, if anyone can be called and it is not frozen."""
    player = None if frozen or queue.up is not None else next_up(queue, passing)
    return queue if player is None else _up(queue, player, at)


# ---------- estimates ----------


def seconds_between(start: str | None, end: str | None) -> float | None:
    """Seconds from ``start`` to ``end`` (ISO 8601 times), or None if either is missing or
    unreadable, or the span is not positive."""
    if start is None or end is None:
        return None
    try:
        span = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None
    return span if span > 0 else None


def game_seconds(lengths: tuple[float, ...], recent: int, default_minutes: int) -> int:
    """The estimated length of one game: the median of the last ``recent`` timed games (whole
    seconds, halves rounded up), or ``default_minutes`` before any game was timed."""
    latest = lengths[-recent:]
    if not latest:
        return default_minutes * 60
    return int(median(latest) + 0.5)


def waits(queue: Queue, game: int) -> dict[str, int]:
    """Estimated seconds until each waiting player who is not paused is called: one game for the
    player up (if any) and one for each player not paused ahead of them."""
    ahead = 1 if queue.up is not None else 0
    found: dict[str, int] = {}
    for waiting in queue.waiting:
        if waiting.paused:
            continue
        found[waiting.player] = ahead * game
        ahead += 1
    return found


def wait_to_join(queue: Queue, game: int) -> int:
    """Estimated seconds a player joining now waits before being called."""
    ahead = (1 if queue.up is not None else 0) + sum(not w.paused for w in queue.waiting)
    return ahead * game


def _free(queue: Queue, label: Label, where: str) -> None:
    if queue.up is not None:
        state = "is playing" if queue.up.started else "was called and has not started"
        raise QueueRefused(
            f"{label(queue.up.player)} {state} on {where}; record their score, or skip them, "
            "before calling the next player."
        )


def _up(queue: Queue, player: str, at: str | None) -> Queue:
    return replace(queue, up=Up(player, at), waiting=drop(queue, player).waiting)


def _index(queue: Queue, player: str, label: Label, where: str) -> int:
    position = queue.position(player)
    if position is None:
        raise QueueRefused(f"{label(player)} is not waiting for {where}.")
    return position - 1


def _set(queue: Queue, index: int, waiting: Waiting) -> Queue:
    items = list(queue.waiting)
    items[index] = waiting
    return replace(queue, waiting=tuple(items))
