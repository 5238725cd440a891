"""Corrections and voids of recorded scores: the tournament as if an entry had been recorded right,
or never.

Rule text: EPC 2009, EPC Qualifying ("The contestant should verify the score and machine numbers
have been entered correctly"); UKPL 3A/3B count one game per player and machine, so a score typed
wrong is corrected, not played again. The original record stays in the log and the correction
names it (architecture principle 1); this module only computes what the standings become.

A corrected entry keeps its place in the order played (its ``seq``): a corrected first game on a
machine stays the player's regular game and a later one stays their joker game (EPC 2009, EPC
Qualifying); of two equal Classic scores the one recorded first still ranks first (EPC 2009, EPC
Classic). Every entry is checked against the rules again in the order played
(``scoring.tournament.rebuild`` is the reference), so a correction that moves a score to another
player or machine is refused where the rules would have refused it there, e.g. a seventh machine
(EPC 2009, EPC Qualifying).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TypeVar

from scoring.errors import ScoringError
from scoring.model import Entry
from scoring.tournament import Tournament, check_score, rebuild

T = TypeVar("T", bound=Tournament)


class UnknownEntry(ScoringError):
    """No recorded entry has this log version (never recorded, voided, or wiped). EPC 2009, EPC
    Qualifying. Belongs in ``scoring.errors``."""

    code = "unknown_entry"


def find_entry(tournament: Tournament, seq: int) -> Entry | None:
    """The entry recorded at log version ``seq``, as it counts now, or None. EPC 2009, EPC
    Qualifying."""
    for on_machine in tournament.entries.values():
        for entry in on_machine:
            if entry.seq == seq:
                return entry
    return None


def correct_entry(
    tournament: T, seq: int, score: int, player: str | None = None, machine: str | None = None
) -> T:
    """``tournament`` with the entry of version ``seq`` given ``score`` (and, when given, moved to
    ``player`` / ``machine``), every table and the standings rebuilt. EPC 2009, EPC Qualifying;
    UKPL 3B.

    Raises UnknownEntry, InvalidScore, UnknownPlayer, UnknownMachine, or the EntryNotAllowed
    subclass the rules raise for the corrected entry in its place in the order played.
    """
    found = _entry(tournament, seq)
    check_score(score)
    fixed = Entry(seq, player or found.player, machine or found.machine, score)
    return _rebuilt(tournament, (fixed if e.seq == seq else e for e in _all(tournament)))


def void_entry(tournament: T, seq: int) -> T:
    """``tournament`` without the entry of version ``seq``, rebuilt. EPC 2009, EPC Qualifying
    ("Any unplayed games will score zero": a voided game is as if unplayed). Raises UnknownEntry.
    """
    _entry(tournament, seq)
    return without_entries(tournament, {seq})


def without_entries(tournament: T, seqs: Iterable[int]) -> T:
    """``tournament`` without the entries of the versions ``seqs`` (unknown ones are ignored),
    rebuilt. EPC 2009, EPC Classic ("All recorded scores on the faulty machine will be wiped");
    UKPL 6A."""
    gone = set(seqs)
    return _rebuilt(tournament, (e for e in _all(tournament) if e.seq not in gone))


def _entry(tournament: Tournament, seq: int) -> Entry:
    found = find_entry(tournament, seq)
    if found is None:
        raise UnknownEntry(f"There is no recorded score at log version {seq}.")
    return found


def _all(tournament: Tournament) -> list[Entry]:
    return [e for on_machine in tournament.entries.values() for e in on_machine]


def _rebuilt(tournament: T, entries: Iterable[Entry]) -> T:
    # ``replace`` keeps the caller's type (a tournament with more beside it stays one).
    fmt = tournament.format
    fresh = rebuild(
        fmt,
        fmt.settings_dict(tournament.config),
        tournament.players.values(),
        tournament.machines.values(),
        entries,
    )
    return replace(
        tournament,
        config=fresh.config,
        entries=fresh.entries,
        tables=fresh.tables,
        standings=fresh.standings,
    )
