"""A tie at a cut: equal places that a qualifying line runs through, and what a play-off settles.

Rule text: EPC 2009 rules, "EPC Qualifying" ("The 32 highest ranked players then progress"; the
text leaves equal totals at the line to the TD's play-off, see ``scoring.epc.stages``), and FWPL
rules 6.1 ("The playoff cut will be the top half of the players rounded down to the nearest
multiple of four"; "Ties will be settled by single ball play on a random machine"). A line that passes between two players who share a place would let a place count
twice, so a tied group the line runs through is none of it "qualified" until the TD records the
play-off: ``tie_at_cut`` finds that group and how many places it plays for, and ``settle_cut``
gives each of its players their band, "tie" while the play-off is to come.

Pure: rows in (best first, with shared places), a tie or None out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.model import StandingRow, Standings

TIE_BAND = "tie"
"""The band of a player tied at a cut whose play-off is still to come."""


@dataclass(frozen=True, slots=True)
class CutTie:
    """Players sharing ``place`` with the cut after place ``line`` running through them; they
    play off for ``places`` places (1 .. len(players) - 1). EPC 2009, EPC Qualifying; FWPL 6.1."""

    line: int
    place: int
    places: int
    players: tuple[str, ...]

    @property
    def note(self) -> str:
        """The board's words: "tie at the cut: play-off for 3 places" (the play-off of EPC 2009,
        EPC Qualifying, or FWPL 6.1's single ball play)."""
        return f"tie at the cut: play-off for {self.places} place{'s' if self.places != 1 else ''}"


def tie_at_cut(rows: Sequence[tuple[str, int | None]], line: int) -> CutTie | None:
    """(player, place) rows, best first, places shared as 1, 2, 2, 4 (None: unranked) -> the
    group the cut after place ``line`` runs through, or None when the line falls between two
    places (or ``line`` < 1). EPC 2009, EPC Qualifying; FWPL 6.1."""
    if line < 1:
        return None
    groups: dict[int, list[str]] = {}
    for player, place in rows:
        if place is not None:
            groups.setdefault(place, []).append(player)
    for place, players in groups.items():
        if place <= line < place + len(players) - 1:
            return CutTie(line, place, line - place + 1, tuple(players))
    return None


def _tie_in(rows: Sequence[StandingRow], line: int) -> CutTie | None:
    # ``tie_at_cut`` of ranked standings (EPC qualifying's: places 1, 2, 2, 4 in row order), so
    # the group at place p starts at row p and only the rows at the line and in its group are
    # read; anything else (an unranked row there) is read whole.
    if line < 1 or len(rows) <= line:
        return None
    place, after = rows[line - 1].place, rows[line].place
    if place is None or after is None or not 1 <= place <= line or rows[place - 1].place != place:
        return tie_at_cut([(row.player, row.place) for row in rows], line)
    if after != place:
        return None  # the line falls between two places
    end = line + 1
    while end < len(rows) and rows[end].place == place:
        end += 1
    players = tuple(row.player for row in rows[place - 1 : end])
    return CutTie(line, place, line - place + 1, players)


def settle_cut(
    standings: Standings, line: int, order: Sequence[str], inside: str, outside: str
) -> tuple[Standings, CutTie | None]:
    """EPC standings with the tie at the cut after place ``line`` banded as the rules allow:
    while ``order`` (the TD's play-off order, best first, which may name other players too)
    does not rank every tied player, they are all ``TIE_BAND`` and the tie is returned; once it
    does, the first ``places`` of them take band ``inside`` and the rest ``outside`` (the band
    of the place after the line). Rows without a tie are unchanged. EPC 2009, EPC Qualifying."""
    tie = _tie_in(standings.rows, line)
    if tie is None:
        return standings, None
    tied = set(tie.players)
    ranked = [p for p in order if p in tied]
    if len(ranked) == len(tied):
        going = set(ranked[: tie.places])
        bands = {p: inside if p in going else outside for p in tied}
        result: CutTie | None = None
    else:
        bands = dict.fromkeys(tied, TIE_BAND)
        result = tie
    rows = tuple(
        replace(row, band=bands[row.player]) if row.player in bands else row
        for row in standings.rows
    )
    return Standings(rows=rows), result
