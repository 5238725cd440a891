"""Log records and how each changes a tournament's scoring state (pure; used by API and replica).

A record is a JSON object with ``type``, ``by`` (who wrote it) and ``at`` (server time, ISO 8601).
The API validates a write by applying its record to the replica's state at version V before it
appends at V + 1, so a record in the log never fails the rules when replayed (DESIGN.md 1–2).

| type                 | fields                                   | view names it touches          |
|----------------------|------------------------------------------|--------------------------------|
| tournament_created   | name, format, settings                   | every view                     |
| player_added         | player {number, name, guest}             | players, standings             |
| machine_added        | machine {id, name}                       | machines, machine/<id>, standings |
| score_recorded       | player, machine, score                   | machine/<machine>, standings   |
"""

from __future__ import annotations

from typing import Any

from scoring import FORMATS
from scoring.errors import SettingsError
from scoring.model import Entry, Machine, Player
from scoring.tournament import (
    Tournament,
    add_machine,
    add_player,
    new_tournament,
    record_entry,
)

EVERY_VIEW = "*"


def create(record: dict[str, Any]) -> Tournament:
    """A ``tournament_created`` record -> empty tournament. Raises SettingsError."""
    fmt = FORMATS.get(record["format"])
    if fmt is None:
        known = ", ".join(sorted(FORMATS))
        raise SettingsError(f"Unknown format {record['format']!r}; known formats: {known}.")
    return new_tournament(fmt, record.get("settings") or {})


def apply(state: Tournament, seq: int, record: dict[str, Any]) -> tuple[Tournament, set[str]]:
    """Apply one record at version ``seq``. Returns the new state and the view names it touched.

    Raises the ScoringError the rules give (unknown player, seventh machine, …).
    """
    kind = record["type"]
    if kind == "player_added":
        p = record["player"]
        player = Player(str(p["number"]), str(p["name"]), bool(p.get("guest", False)))
        return add_player(state, player), {"players", "standings"}
    if kind == "machine_added":
        m = record["machine"]
        machine = Machine(str(m["id"]), str(m["name"]))
        return add_machine(state, machine), {"machines", f"machine/{machine.id}", "standings"}
    if kind == "score_recorded":
        entry = Entry(seq, str(record["player"]), str(record["machine"]), record["score"])
        return record_entry(state, entry), {f"machine/{entry.machine}", "standings"}
    raise ValueError(f"unknown record type {kind!r}")
