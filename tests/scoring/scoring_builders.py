"""Small builders for scoring tests: a tournament from plain tuples, in the order played."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring import Entry, Format, Machine, Player, Tournament, rebuild, record_entry
from scoring.errors import EntryNotAllowed


def build(
    fmt: Format,
    scores: Iterable[tuple[str, str, int]],
    settings: Mapping[str, Any] | None = None,
    players: Iterable[str | Player] = (),
    machines: Iterable[str] = (),
) -> Tournament:
    """A rebuilt tournament from ``(machine, player, score)`` rows in the order played.

    Players and machines are registered from the rows (plus any listed); a machine's id is its
    name. ``players`` may give ``Player`` objects (e.g. guests)."""
    rows = list(scores)
    registered: dict[str, Player] = {}
    for p in players:
        player = p if isinstance(p, Player) else Player(p, f"Name {p}")
        registered[player.number] = player
    for _, number, _ in rows:
        registered.setdefault(number, Player(number, f"Name {number}"))
    machine_ids = dict.fromkeys([*machines, *(m for m, _, _ in rows)])
    return rebuild(
        fmt,
        settings or {},
        registered.values(),
        [Machine(m, m) for m in machine_ids],
        [Entry(seq, p, m, s) for seq, (m, p, s) in enumerate(rows, start=1)],
    )


def table(tournament: Tournament, machine: str) -> list[tuple[str, int, int | None, Any, bool]]:
    """A machine table as ``(player, score, place, points, joker)`` tuples, best first."""
    return [
        (r.player, r.score, r.place, r.points, r.joker) for r in tournament.tables[machine].rows
    ]


def standings(tournament: Tournament) -> list[tuple[str, int | None, Any, str | None]]:
    """Standings as ``(player, place, total, band)`` tuples, best first."""
    return [(r.player, r.place, r.total, r.band) for r in tournament.standings.rows]


def incremental_and_rebuilt(
    fmt: Format,
    settings: Mapping[str, Any],
    players: list[Player],
    machines: list[Machine],
    rows: Iterable[tuple[str, str, int]],
    rnd: Any,
) -> tuple[Tournament, Tournament]:
    """The two sides of the format property "recording one by one equals a rebuild" (architecture
    principle 7): ``(player, machine, score)`` rows recorded one at a time onto an empty
    tournament (a row the rules refuse, ``EntryNotAllowed``, is skipped), and a rebuild from
    the accepted entries with players and machines registered in another order (shuffled by
    ``rnd``, a ``random.Random``)."""
    incremental = rebuild(fmt, settings, players, machines, [])
    accepted = []
    for seq, (p, m, s) in enumerate(rows, start=1):
        try:
            incremental = record_entry(incremental, Entry(seq, p, m, s))
        except EntryNotAllowed:
            continue
        accepted.append(Entry(seq, p, m, s))
    shuffled_players, shuffled_machines = list(players), list(machines)
    rnd.shuffle(shuffled_players)
    rnd.shuffle(shuffled_machines)
    return incremental, rebuild(fmt, settings, shuffled_players, shuffled_machines, accepted)
