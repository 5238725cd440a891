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
(EPC 2009, EPC Qualifying), and so is one moved onto a machine that takes no more scores or to a
player who has withdrawn (``correct_score``).

The caller keeps which records stand for which entry (a score record, a correction of it) and
which entries were voided or wiped with their machine; ``counted_entry`` reads them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from scoring.errors import ScoringError, UnknownMachine
from scoring.errors import UnknownEntry as UnknownEntry  # raised here, imported from here too
from scoring.model import Entry, MachineState
from scoring.tournament import (
    Tournament,
    check_score,
    check_still_playing,
    check_takes_scores,
    rebuild,
    with_machine_entries,
)

T = TypeVar("T", bound=Tournament)


def find_entry(tournament: Tournament, seq: int) -> Entry | None:
    """The entry recorded at log version ``seq``, as it counts now, or None. EPC 2009, EPC
    Qualifying."""
    # A machine's entries are in seq order: a binary search per machine finds it, and a full
    # scan (for entries out of order) only runs when that does not.
    for on_machine in tournament.entries.values():
        at = bisect_left(on_machine, seq, key=_seq_of)
        if at < len(on_machine) and on_machine[at].seq == seq:
            return on_machine[at]
    for on_machine in tournament.entries.values():
        for entry in on_machine:
            if entry.seq == seq:
                return entry
    return None


def _seq_of(entry: Entry) -> int:
    return entry.seq


def counted_entry(
    tournament: Tournament,
    seq: int,
    origins: Mapping[int, int],
    voided: Mapping[int, int],
    wiped: Mapping[int, int],
) -> Entry:
    """The entry the score record (or correction) at log version ``seq`` stands for, as it counts
    now. ``origins``: seq of a correction record -> seq of its entry (a seq not in it is a score
    record's, which stands for its own entry); ``voided`` and ``wiped``: entry seq -> seq of the
    record that voided it, or wiped it when its machine was replaced. EPC 2009, EPC Qualifying
    ("The contestant should verify the score"): a score is corrected or voided while it counts,
    once voided or wiped it is no score to change (EPC 2009, EPC Classic, "All recorded scores on
    the faulty machine will be wiped").

    Raises UnknownEntry saying why there is none.
    """
    origin = origins.get(seq, seq)  # a score record stands for its own entry
    if origin in voided:
        raise UnknownEntry(f"The score of record {origin} was voided by record {voided[origin]}.")
    if origin in wiped:
        raise UnknownEntry(
            f"The score of record {origin} was wiped when its machine was replaced "
            f"(record {wiped[origin]})."
        )
    found = find_entry(tournament, origin)
    if found is None:  # no score was recorded at ``seq``
        raise UnknownEntry(f"Record {seq} is not a recorded score.")
    return found


def correct_score(
    tournament: T,
    entry: Entry,
    score: object,
    player: str,
    machine: str,
    statuses: Mapping[str, MachineState],
    withdrawn: Collection[str],
) -> T:
    """``tournament`` with the counting ``entry`` given ``score`` by ``player`` on ``machine``
    (``correct_entry``). ``statuses``: machine id -> its status; ``withdrawn``: the withdrawn
    players. A score moved to another machine is refused where that machine is unknown, or closed
    or replaced (it takes no more scores: EPC 2009, EPC Classic Tournament; UKPL 6A); one moved to
    another player where that player has withdrawn. A score left on its machine and player is
    corrected whatever has happened since: it was played then (EPC 2009, EPC Qualifying).

    Raises UnknownMachine, MachineUnavailable, PlayerWithdrawn, or what ``correct_entry`` raises.
    """
    if machine != entry.machine:
        if machine not in tournament.machines:
            raise UnknownMachine(f"There is no machine {machine} in this tournament.")
        check_takes_scores(tournament, statuses, machine)
    if player != entry.player:
        check_still_playing(tournament, withdrawn, player)
    return correct_entry(tournament, entry.seq, score, player, machine)


@dataclass(frozen=True, slots=True)
class MoveClash:
    """What moving a score onto a player's machine would do when they already have a score
    there: ``already`` their score(s) on it now, ``joker`` whether the moved score would become
    their joker game (EPC 2009, EPC Qualifying: "one joker game per machine"), ``counting`` the
    score that would count for them on that machine afterwards."""

    player: str
    machine: str
    already: tuple[int, ...]
    joker: bool
    counting: int


def move_clash(
    tournament: Tournament, entry: Entry, score: object, player: str, machine: str
) -> MoveClash | None:
    """Whether correcting ``entry`` to ``score`` by ``player`` on ``machine`` puts it beside a
    score ``player`` already has on ``machine`` (a second game there: in EPC qualifying it
    spends their joker game, EPC 2009, EPC Qualifying), and what would happen; None when it does
    not, or when the rules refuse the move anyway (the correction then says why). A score left
    on its player and machine is no move. Pure; raises nothing."""
    if (player, machine) == (entry.player, entry.machine):
        return None
    already = tuple(
        e.score
        for e in tournament.entries.get(machine, ())
        if e.player == player and e.seq != entry.seq
    )
    if not already:
        return None
    try:
        after = correct_entry(tournament, entry.seq, score, player, machine)
    except ScoringError:
        return None
    table = after.tables.get(machine)
    row = next((r for r in table.rows if r.player == player), None) if table else None
    if row is None:  # pragma: no cover - a moved score always gives its player a row
        return None
    return MoveClash(player, machine, already, row.joker, row.score)


def correct_entry(
    tournament: T, seq: int, score: object, player: str | None = None, machine: str | None = None
) -> T:
    """``tournament`` with the entry of version ``seq`` given ``score`` (and, when given, moved to
    ``player`` / ``machine``), every table and the standings rebuilt. EPC 2009, EPC Qualifying;
    UKPL 3B.

    Raises UnknownEntry, InvalidScore, UnknownPlayer, UnknownMachine, or the EntryNotAllowed
    subclass the rules raise for the corrected entry in its place in the order played.
    """
    found = _entry(tournament, seq)
    fixed = Entry(seq, player or found.player, machine or found.machine, check_score(score))
    if (fixed.player, fixed.machine) == (found.player, found.machine):
        # The same game with another score: every format's rules decide from who played which
        # machine when, never from the score, so no entry's check changes and only this
        # machine's table does (``tests/scoring/test_corrections_fast.py`` holds it to rebuild).
        on_machine = tuple(fixed if e.seq == seq else e for e in tournament.entries[found.machine])
        return with_machine_entries(tournament, found.machine, on_machine)
    return _rebuilt(tournament, (fixed if e.seq == seq else e for e in _all(tournament)))


def void_entry(tournament: T, seq: int) -> T:
    """``tournament`` without the entry of version ``seq``. EPC 2009, EPC Qualifying ("Any
    unplayed games will score zero": a voided game is as if unplayed). Raises UnknownEntry.

    Only the voided entry's machine is ranked again: taking an earlier game away never makes a
    later one break the rules (a joker game becomes the regular game, a machine count or a
    kids' or Classic close only shrinks), so the entries left pass as they did, as ``rebuild``
    would find (``tests/scoring/test_corrections_fast.py``)."""
    found = _entry(tournament, seq)
    on_machine = tuple(e for e in tournament.entries[found.machine] if e.seq != seq)
    return with_machine_entries(tournament, found.machine, on_machine)


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
        unsettled=frozenset(),
        played=fresh.played,
    )
