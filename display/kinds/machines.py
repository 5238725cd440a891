"""The ``machines`` kind: per-machine formats (``scoring.FORMATS``: EPC qualifying, UKPL meeting,
EPC Classic, Kids), where every entry is one score by one player on one machine.

| record             | fields                              | views touched                      |
|--------------------|-------------------------------------|------------------------------------|
| tournament_created | name, format, settings              | every view                         |
| player_added       | player {number, name, guest}        | players, standings                 |
| machine_added      | machine {id, name}                  | machines, machine/<id>, standings  |
| score_recorded     | player, machine, score              | machine/<machine>, standings       |
| settings_changed   | settings {name: value, …}           | every view (a full rebuild)        |
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from starlette.routing import BaseRoute

from display import views
from display.kinds.base import EVERY_VIEW
from scoring import FORMATS
from scoring.model import Entry, Machine, Player
from scoring.tournament import (
    Tournament,
    add_machine,
    add_player,
    new_tournament,
    rebuild,
    record_entry,
)


class MachinesKind:
    """Records of per-machine formats -> ``scoring.tournament.Tournament`` -> views."""

    name = "machines"
    routes: Sequence[BaseRoute] = ()

    def formats(self) -> Iterable[str]:
        return FORMATS.keys()

    def create(self, record: dict[str, Any]) -> Tournament:
        return new_tournament(FORMATS[record["format"]], record.get("settings") or {})

    def apply(
        self, state: Tournament, seq: int, record: dict[str, Any]
    ) -> tuple[Tournament, set[str]]:
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
        if kind == "settings_changed":
            return self.with_settings(state, record["settings"]), {EVERY_VIEW}
        raise ValueError(f"unknown record type {kind!r}")

    def with_settings(self, state: Tournament, changes: dict[str, Any]) -> Tournament:
        """The same tournament rebuilt from all its entries under changed settings (pure; raises
        SettingsError, or the rule error an existing entry now breaks)."""
        fmt = state.format
        settings = {**fmt.settings_dict(state.config), **changes}
        entries = [e for on_machine in state.entries.values() for e in on_machine]
        rebuilt = rebuild(fmt, settings, state.players.values(), state.machines.values(), entries)
        return replace(rebuilt, machines=dict(state.machines))

    def view_names(self, state: Tournament) -> Iterable[str]:
        yield from ("tournament", "machines", "players", "standings")
        yield from (f"machine/{m}" for m in state.machines)

    def view(self, state: Tournament, meta: dict[str, Any], name: str) -> dict[str, Any] | None:
        if name == "standings":
            return views.standings_view(state.standings)
        if name == "players":
            return views.players_view(state)
        if name == "machines":
            return views.machines_view(state)
        if name == "tournament":
            return views.tournament_view(meta, state)
        if name.startswith("machine/") and name.removeprefix("machine/") in state.machines:
            return views.machine_view(state, name.removeprefix("machine/"))
        return None


MACHINES = MachinesKind()
