"""Corrections and voids of EPC stage games: which recorded stage score a correction names, its
version, and the games of a stage with one score replaced or taken out.

Rule text: EPC 2009 rules, "EPC Qualifying" ("The contestant should verify the score"), which
Backglass applies to every stage game as to a qualifying score: a TD may correct or void it, with
a reason, while its stage runs (docs/rules.md, "Corrections of stage games"). The stage rules
(``scoring.epc.main_tournament``, ``scoring.epc.side_tournaments``) decide whether the stage is
still the current one and check the games again; this module only keeps the bookkeeping both
share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scoring.errors import UnknownEntry
from scoring.model import Entry

Games = Mapping[str, tuple[Entry, ...]]
"""Stage games by key (``"qf"``, ``"A"``, ``"1"``, ``"final"`` …), each in the order recorded."""


@dataclass(frozen=True)
class StageEdits:
    """What corrections and voids did to stage scores (EPC 2009, EPC Qualifying: a score is
    verified and may be put right). ``origins``: seq of a correction record -> seq of the
    ``score_recorded`` record of its entry. ``versions``: entry seq -> seq of the last record that
    changed it. ``voided``: entry seq -> seq of the void."""

    origins: Mapping[int, int] = field(default_factory=dict)
    versions: Mapping[int, int] = field(default_factory=dict)
    voided: Mapping[int, int] = field(default_factory=dict)

    def origin(self, seq: int) -> int:
        """The entry seq a score or correction record ``seq`` stands for (EPC 2009, EPC
        Qualifying)."""
        return self.origins.get(seq, seq)

    def version(self, origin: int) -> int:
        """Entry ``origin``'s version: its last correction's seq, else its own (EPC 2009, EPC
        Qualifying)."""
        return self.versions.get(origin, origin)

    def corrected(self, seq: int, origin: int) -> StageEdits:
        """After the correction at ``seq`` of entry ``origin`` (EPC 2009, EPC Qualifying)."""
        return StageEdits(
            {**self.origins, seq: origin}, {**self.versions, origin: seq}, self.voided
        )

    def void(self, seq: int, origin: int) -> StageEdits:
        """After the void at ``seq`` of entry ``origin`` (EPC 2009, EPC Qualifying)."""
        return StageEdits(self.origins, self.versions, {**self.voided, origin: seq})


def find_stage_entry(games: Games, edits: StageEdits, seq: object) -> tuple[str, Entry] | None:
    """(game key, entry) of the stage score that record ``seq`` (a score or a correction of one)
    stands for, or None when it is no stage score (EPC 2009, EPC Qualifying). Raises UnknownEntry
    for a stage score that was voided."""
    if not isinstance(seq, int) or isinstance(seq, bool):
        return None
    origin = edits.origin(seq)
    if origin in edits.voided:
        raise UnknownEntry(
            f"The score of record {origin} was voided by record {edits.voided[origin]}."
        )
    for key, entries in games.items():
        for entry in entries:
            if entry.seq == origin:
                return key, entry
    return None


def without(games: Games, key: str, origin: int, instead: Entry | None) -> tuple[Entry, ...]:
    """Game ``key``'s entries with entry ``origin`` replaced by ``instead`` (None: taken out),
    in the order recorded (EPC 2009, EPC Qualifying)."""
    out = []
    for entry in games.get(key, ()):
        if entry.seq != origin:
            out.append(entry)
        elif instead is not None:
            out.append(instead)
    return tuple(out)
