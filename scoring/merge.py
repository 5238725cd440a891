"""Duplicate registrations: one player number joined into another, keeping the better score on
each machine both played, the clashes kept for the TD to check.

Rule text: EPC 2009, EPC Qualifying: a player's result on a machine is one score (the better of
their regular and joker game), and a player registers once. A player registered twice (on the
desk and again at a late-entry table) has their games split between two numbers; joining them
gives one player whose games are the two numbers' games, in the order played, checked against
the rules again (``scoring.tournament.rebuild``): a merge that would give the player a seventh
machine is refused, for example.

Choices (docs/rules.md, "Duplicate registrations"):

- on a machine only one of the two numbers played, every game there moves to the kept number as
  it was (a regular and a joker game stay both);
- on a machine both numbers played (a clash), the single best score of the two numbers' games
  there is kept (the earlier one of equal scores, as the order played ranks them), and the other
  games there are dropped: the same person cannot have played that machine as two players, so
  the TD checks each clash (which game was really theirs) and corrects it if need be;
- the kept number keeps its own name and guest mark; the joined number is gone from the
  standings.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from scoring.errors import EntryNotAllowed, UnknownPlayer
from scoring.model import Entry
from scoring.tournament import Tournament, player_label, rebuild

T = TypeVar("T", bound=Tournament)


@dataclass(frozen=True, slots=True)
class Clash:
    """A machine both numbers played (EPC 2009, EPC Qualifying: one result per machine): the
    ``kept`` entry (now the kept number's) and the ``dropped`` ones, in the order played."""

    machine: str
    kept: Entry
    dropped: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Merged:
    """What a merge did (``merge_players``; EPC 2009, EPC Qualifying): the entries dropped (by
    seq) and the clashes, in the tournament's machine order."""

    dropped: frozenset[int]
    clashes: tuple[Clash, ...]


def merge_players(tournament: T, source: str, target: str) -> tuple[T, Merged]:
    """``tournament`` with player ``source`` joined into player ``target`` (module docstring;
    EPC 2009, EPC Qualifying), and what the merge did. Pure.

    Raises UnknownPlayer for either number unknown, EntryNotAllowed for a number merged into
    itself, or the rule error the joined games break (e.g. TooManyMachines).
    """
    for number in (source, target):
        if number not in tournament.players:
            raise UnknownPlayer(f"There is no player {number} in this tournament.")
    if source == target:
        raise EntryNotAllowed(f"{player_label(tournament, source)} cannot be merged into itself.")
    entries: list[Entry] = []
    dropped: set[int] = set()
    clashes: list[Clash] = []
    for machine, on_machine in tournament.entries.items():
        theirs = [e for e in on_machine if e.player == source]
        ours = [e for e in on_machine if e.player == target]
        others = [e for e in on_machine if e.player not in (source, target)]
        if theirs and ours:
            both = sorted(theirs + ours, key=lambda e: e.seq)
            best = max(both, key=lambda e: (e.score, -e.seq))
            kept = replace(best, player=target)
            gone = tuple(e for e in both if e.seq != best.seq)
            clashes.append(Clash(machine, kept, gone))
            dropped.update(e.seq for e in gone)
            entries.extend([*others, kept])
        else:
            entries.extend([*others, *ours, *(replace(e, player=target) for e in theirs)])
    fmt = tournament.format
    players = [p for number, p in tournament.players.items() if number != source]
    fresh = rebuild(
        fmt,
        fmt.settings_dict(tournament.config),
        players,
        tournament.machines.values(),
        sorted(entries, key=lambda e: e.seq),
    )
    merged = replace(
        tournament,
        players=fresh.players,
        entries=fresh.entries,
        tables=fresh.tables,
        standings=fresh.standings,
    )
    return merged, Merged(frozenset(dropped), tuple(clashes))
