"""How far each EPC Classic qualifier is ahead on their machine, for the qualifiers board.

Rule text: EPC 2009 rules, "EPC CLASSIC TOURNAMENT" ("their best score
(calculated by how far ahead they are of the second best player)"). ``scoring.epc.classic``
decides who holds each machine; this module only measures the margin the board shows, the same
way (``ClassicConfig.lead``): against the best score on that machine by anyone else who could take
the place: EPC semi-finalists are left out, as ``classic_qualifiers`` leaves them out, and so are
the holders of other machines (a player keeps one machine only).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.epc.classic import ClassicConfig, ClassicPlace
from scoring.model import MachineTable


@dataclass(frozen=True, slots=True)
class PlaceLead:
    """One Classic machine's margin (EPC 2009, EPC Classic Tournament). ``slot``: 1-8.
    ``runner_up`` and ``second``: the best player on the machine who could take it (not the holder,
    not in the EPC, holding no other machine) and their score, None when nobody could. ``lead``: ``score - second`` (``lead="difference"``) or
    ``score / second`` (``"ratio"``); None with no runner-up or a ratio over 0."""

    slot: int
    runner_up: str | None
    second: int | None
    lead: Fraction | None


def place_leads(
    config: ClassicConfig, tables: Mapping[str, MachineTable], places: Sequence[ClassicPlace]
) -> tuple[PlaceLead, ...]:
    """The margin of each held place over the next eligible scorer on its machine (EPC 2009, EPC
    Classic Tournament, "how far ahead they are of the second best player"; "the next highest
    scorer not still playing in the EPC"). ``places``: from ``classic_qualifiers(config,
    tables)``. A place nobody holds has no runner-up; an heir's margin is over the next player
    without a place, so it is never negative.

    >>> from scoring.model import MachineRow
    >>> t = {"1": MachineTable("1", (MachineRow("a", 900, 1, None), MachineRow("b", 600, 2, None)))}
    >>> place_leads(ClassicConfig(), t, (ClassicPlace(1, "1", "a", 900),))[0].lead
    Fraction(300, 1)
    """
    holders = {p.player for p in places if p.player is not None}
    out: list[PlaceLead] = []
    for place in places:
        left_out = set(config.epc_players) | holders
        table = tables.get(place.machine)
        rows = table.rows if table is not None else ()
        other = next((r for r in rows if r.player not in left_out), None)
        if place.player is None or place.score is None or other is None:
            out.append(PlaceLead(place.slot, None, None, None))
            continue
        if config.lead == "difference":
            lead: Fraction | None = Fraction(place.score - other.score)
        else:
            lead = Fraction(place.score, other.score) if other.score else None
        out.append(PlaceLead(place.slot, other.player, other.score, lead))
    return tuple(out)
