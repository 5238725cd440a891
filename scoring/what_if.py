"""What a player needs: the least score on a machine that lifts them to a target place.

For a player and a machine they may still play (a machine they have not played, or the one game
more the rules allow: the EPC joker game, another paid Classic or kids game), the answer is the
least whole score that, recorded now with every other score as it stands, puts the player at the
target place or better. Nothing here knows a format's rules: each candidate score is recorded with
``scoring.tournament.record_entry`` and the player's place read from the standings it produces,
so the answer is whatever the format itself would rank.

Choices, each a parameter of ``Target`` or said here:

- "given the current scores": nobody else plays meanwhile; the answer is for this one game alone;
- ties share a place (standard competition ranking, ``scoring.ranking``): a score or total equal
  to another's shares its place, so equalling the total at the target place reaches it. Where a
  tie on the line does not count (EPC 2009, EPC Qualifying with ``cut_ties="exclude"``: a tie that
  does not fit inside the band drops whole), ``Target.shared_counts`` is False and the worst place
  the tie covers must be within the target;
- a target given as bands (EPC 2009, EPC Classic: holding a qualifying place, where the standings
  have no overall order) is reached when the player's row is in one of them;
- the search is a binary search over the whole scores 0 .. ``MAX_SCORE``: first over the scores
  already on the machine (and one more, double and half of each, where places and UKPL 3B's bonus
  change), then, only if needed, over every whole score between two of them. It relies on a higher
  score never leaving the player worse placed, which holds for every registered format: a higher
  score never lowers the player's own points on that machine and never raises anyone else's
  (EPC 2009, EPC Qualifying; UKPL 3B, bonus included; the high-score tables of the Classic and the
  kids tournament).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from scoring.errors import EntryNotAllowed, UnknownPlayer
from scoring.model import MAX_SCORE, Entry, StandingRow, Standings
from scoring.tournament import Tournament, check_entry, record_entry


@dataclass(frozen=True, slots=True)
class Target:
    """Where the player wants to be. ``place``: this overall place or better (1-based), e.g. the
    cut, 32 (EPC 2009, EPC Qualifying). ``bands``: or a row in one of these bands (e.g.
    ``{"leading", "qualified"}`` for a Classic qualifying place, EPC 2009, EPC Classic
    Tournament); used when ``place`` is None. ``shared_counts``: a place shared by a tie counts as
    that place (True, the default), or the worst place the tie covers must be within ``place``
    (EPC 2009, EPC Qualifying, ``cut_ties="exclude"``)."""

    place: int | None = None
    bands: frozenset[str] = field(default_factory=frozenset)
    shared_counts: bool = True


@dataclass(frozen=True, slots=True)
class Need:
    """The answer for one machine. ``again``: the player already has a score there, so this is
    the game more the rules allow (EPC 2009, EPC Qualifying: the joker game, which counts only if
    higher). ``score``: the least whole score reaching the target, 0 when any score does; None
    when no score on this machine alone does. ``place``: the player's overall place with
    ``score`` (None when unreachable or unranked)."""

    machine: str
    again: bool
    score: int | None
    place: int | None


def reaches(standings: Standings, player: str, target: Target) -> bool:
    """Whether ``player``'s row in ``standings`` meets ``target`` (ties per ``Target``). EPC 2009,
    EPC Qualifying ("The 32 highest ranked players then progress"); UKPL 3D (meeting positions).
    Raises UnknownPlayer when the player has no row."""
    row = _row(standings, player)
    if target.place is None:
        return row.band is not None and row.band in target.bands
    if row.place is None:
        return False
    if target.shared_counts:
        return row.place <= target.place
    tied = sum(1 for other in standings.rows if other.place == row.place)
    return row.place + tied - 1 <= target.place


def least_score(
    tournament: Tournament, player: str, machine: str, target: Target, seq: int
) -> Need | None:
    """The least whole score ``player`` needs on ``machine``, recorded as log version ``seq`` (the
    next one), to meet ``target`` with every other score as it stands; None when the rules would
    refuse any game there now (EPC 2009, EPC Qualifying: "Each of the six machines may only be
    played once per contestant (with the exception of the Joker Game)"; UKPL 3B: one game per
    machine). Binary search over 0 .. MAX_SCORE, each step a real ``record_entry``.
    Raises UnknownPlayer or UnknownMachine.

    Example (EPC, target place 1): A scored 5,000 on m1 and B nothing; B needs 5,000 on m1, as
    equal scores share 1st place and its 100 points (tie policy "high"), and so share 1st overall.
    """
    _row(tournament.standings, player)
    try:
        check_entry(tournament, Entry(seq, player, machine, 0))
    except EntryNotAllowed:
        return None
    again = any(e.player == player for e in tournament.entries[machine])

    def place_with(score: int) -> tuple[bool, int | None]:
        after = record_entry(tournament, Entry(seq, player, machine, score)).standings
        return reaches(after, player, target), _row(after, player).place

    if not place_with(MAX_SCORE)[0]:
        return Need(machine, again, None, None)
    score = _search(lambda score: place_with(score)[0], _hints(tournament, machine))
    return Need(machine, again, score, place_with(score)[1])


def _hints(tournament: Tournament, machine: str) -> list[int]:
    """Scores where the answer is likely to lie, sorted, ending with MAX_SCORE: 0, and each score
    on the machine, one more, and double and half of it (UKPL 3B: the bonus goes to a score "more
    than double" the second). Only hints: ``_search`` is exact without them."""
    found = {0, MAX_SCORE}
    for entry in tournament.entries[machine]:
        v = entry.score
        found.update((v, v + 1, 2 * v, 2 * v + 1, v // 2, v // 2 + 1))
    return sorted(s for s in found if s <= MAX_SCORE)


def _search(ok: Callable[[int], bool], hints: list[int]) -> int:
    """The least whole score with ``ok`` true, given ``ok(hints[-1])`` and that ``ok`` never turns
    false as the score grows: first a binary search over ``hints``, then over every whole score
    between the last hint that fails and the first that passes."""
    low, high = 0, len(hints) - 1  # hints[high] passes; every hint below index low fails
    while low < high:
        middle = (low + high) // 2
        if ok(hints[middle]):
            high = middle
        else:
            low = middle + 1
    below = hints[high - 1] + 1 if high else 0  # every score below this fails
    top = hints[high]
    if top == below or not ok(top - 1):
        return top
    top -= 1
    while below < top:  # invariant: top passes; every score below `below` fails
        middle = (below + top) // 2
        if ok(middle):
            top = middle
        else:
            below = middle + 1
    return top


def what_i_need(tournament: Tournament, player: str, target: Target, seq: int) -> tuple[Need, ...]:
    """``least_score`` for every machine ``player`` may still play, in machine order (EPC 2009,
    EPC Qualifying: the machines not played yet, and the played ones while the joker game is
    unused; UKPL 3B: the machines not played yet). Raises UnknownPlayer."""
    found = (least_score(tournament, player, m, target, seq) for m in tournament.machines)
    return tuple(need for need in found if need is not None)


def _row(standings: Standings, player: str) -> StandingRow:
    for row in standings.rows:
        if row.player == player:
            return row
    raise UnknownPlayer(f"No player number {player} is registered in this tournament.")
