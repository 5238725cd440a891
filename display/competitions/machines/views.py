"""View documents of the hall: the ``queues`` view and the status part of ``machines``.

``queues``: machine id -> ::

    {"status": "out_of_order",                 # absent: in service
     "note": "left flipper weak",              # with a status, when given
     "up": {"player": "17", "state": "playing", "since": "<ISO time>"},   # absent: nobody up
     "waiting": {"23": {"pos": 1, "wait": 480}, "5": {"pos": 2, "paused": true, "note": "ruling"}},
     "count": 2,                               # players waiting (paused ones too)
     "game": 480,                              # estimated seconds per game
     "timed": 5,                               # timed games behind the estimate (absent: none)
     "wait": 960}                              # estimated seconds for a player joining now

``wait`` of a waiting player is the estimated seconds until they are called, counting one game
for the player up and one per player not paused ahead (``display.competitions.machines.queue.waits``); a client
may take the time the player up has already played off it (``up.since``). A machine not in
service has no ``wait``. No nulls: an absent key means none (``views.compact``).
"""

from __future__ import annotations

from typing import Any

from display.competitions.machines import queue as hall_queue
from display.competitions.machines.state import HallTournament


def _compact(values: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def machine_status(tournament: Any, machine: str) -> dict[str, Any]:
    """The hall keys of one ``machines`` entry: ``status``, ``note``, ``replacement`` and
    ``owed`` (players owed a game on the replacement) for a machine not in service; ``replaces``
    and ``owed`` on the machine that replaced another. Empty for a plain machine in service."""
    hall = tournament.hall
    info = hall.status(machine)
    out: dict[str, Any] = {}
    if info.status != "in_service":
        out = _compact(
            {
                "status": info.status,
                "note": info.note,
                "replacement": info.replacement,
                "owed": list(info.owed) or None,
            }
        )
    for old, other in hall.machines.items():
        if other.replacement == machine:
            out["replaces"] = old
            if other.owed:
                out["owed"] = list(other.owed)
    return out


def queues_view(tournament: HallTournament) -> dict[str, Any]:
    """``queues``: every machine's queue (module docstring)."""
    return {machine: queue_doc(tournament, machine) for machine in tournament.machines}


def queue_doc(tournament: HallTournament, machine: str) -> dict[str, Any]:
    """One machine's entry of the ``queues`` view."""
    hall = tournament.hall
    info, queue, settings = hall.status(machine), hall.queue(machine), hall.settings
    in_service = info.status == "in_service"
    recent = queue.lengths[-settings.recent_games :]
    game = hall_queue.game_seconds(queue.lengths, settings.recent_games, settings.game_minutes)
    waits = hall_queue.waits(queue, game) if in_service else {}
    up = queue.up
    return _compact(
        {
            "status": None if in_service else info.status,
            "note": None if in_service else info.note,
            "up": (
                _compact(
                    {
                        "player": up.player,
                        "state": "playing" if up.started else "called",
                        "since": up.started or up.called,
                    }
                )
                if up is not None
                else None
            ),
            "waiting": {
                w.player: _compact(
                    {
                        "pos": pos,
                        "wait": waits.get(w.player),
                        "paused": w.paused or None,
                        "note": w.note if w.paused else None,
                    }
                )
                for pos, w in enumerate(queue.waiting, start=1)
            },
            "count": len(queue.waiting),
            "game": game,
            "timed": len(recent) or None,
            "wait": hall_queue.wait_to_join(queue, game) if in_service else None,
        }
    )
