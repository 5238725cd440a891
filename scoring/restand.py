"""Standings moved on incrementally: only the players whose total or games changed move, and only
the tie groups where rows moved are placed again.

A format whose standings are "every registered player by total, best first, places 1, 2, 2, 4"
(EPC 2009, EPC Qualifying: "Contestants are then ordered according to their total ranking points";
UKPL 3B-3D, 3F: the meeting total, guests unplaced last, league points per place) gets the same
standings from ``restand`` as from ranking every player again, at the cost of the players that
moved and the positions they crossed instead of the whole field.
``scoring.tournament.rebuild`` stays the reference; ``tests/scoring/test_restand.py`` checks the
two agree for random score sequences of both formats.

Pure: frozen data in, frozen data out.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from itertools import compress
from operator import is_not

from scoring.model import MachineTable, StandingRow, Standings
from scoring.ranking import player_key
from scoring.scales import ZERO

Band = Callable[[int, int], str | None]
"""A tie group's band from its shared place and the last place it covers (e.g. EPC's
``cut_band``); ``lambda place, last: None`` for a format without a cut."""
League = Callable[[int, int], Fraction | None]
"""A tie group's league points for each of its players, from its shared place and the last
place it covers (UKPL 3D: ``scoring.ukpl.meeting.league_points``)."""
Ranked = Callable[[str, int], bool]
"""Whether a player, with this many machines played, gets a place (UKPL 3C: not a guest; with
``no_score="unranked"``, not without a score)."""
UNRANKED = math.inf
"""The order key of a row without a place: after every ranked row, the unranked rows in
player-number order among themselves, with total 0 (UKPL 3C)."""


def sort_key(total: Fraction) -> int | Fraction:
    """The order key of a total, best first when ascending: ``-total``, as an int when whole
    (EPC ranking points always are), so keys compare at C speed instead of as Fractions. EPC
    2009, EPC Qualifying: "The more ranking points a contestant earns, the higher they will be
    placed"."""
    return -total.numerator if total.denominator == 1 else -total


def positions(standings: Standings) -> Mapping[str, int]:
    """Player number -> index of their row in ``standings.rows`` (kept with the standings when
    ``restand`` made them, else built here once). EPC 2009, EPC Qualifying ("Contestants are
    then ordered according to their total ranking points")."""
    if len(standings.index) != len(standings.rows):
        return {row.player: i for i, row in enumerate(standings.rows)}
    return standings.index


def _keys(standings: Standings) -> list[int | Fraction | float]:
    if len(standings.keys) != len(standings.rows):
        return [UNRANKED if row.place is None else sort_key(row.total) for row in standings.rows]
    return list(standings.keys)


def tables_updates(
    standings: Standings,
    players: Mapping[str, object],
    changes: Iterable[tuple[MachineTable, MachineTable]],
) -> dict[str, tuple[Fraction, int]]:
    """``machine_updates`` for several machines' tables at once, each ``(before, after)``: a
    player's changes on every machine summed (their total is the sum of their ranking points,
    EPC 2009, EPC Qualifying; UKPL 3B). A player whose changes cancel out (points up on one
    machine, down as much on another) is left out: their row stays as it is."""
    index = positions(standings)
    moved: dict[str, tuple[Fraction | int, int]] = {}
    for before, after in changes:
        # whole points as ints: the sums below then run at int speed, not Fraction speed
        old = {row.player: _whole(row.points) for row in before.rows}
        for entry in after.rows:
            now, was = _whole(entry.points), old.pop(entry.player, None)
            if was is not None and was == now:
                continue
            total, played = moved.get(entry.player, (0, 0))
            moved[entry.player] = (total + (now - (was or 0)), played + (was is None))
        for player, was in old.items():  # rows gone from the table (a voided only game)
            total, played = moved.get(player, (0, 0))
            moved[player] = (total - was, played - 1)
    updates: dict[str, tuple[Fraction, int]] = {}
    for player, (total, played) in moved.items():
        if (total or played) and player in players and player in index:
            standing = standings.rows[index[player]]
            updates[player] = (standing.total + total, standing.played + played)
    return updates


def _whole(points: Fraction | None) -> Fraction | int:
    # None (no points) adds nothing; a Fraction with denominator 1 as its int
    if points is None:
        return 0
    return points.numerator if points.denominator == 1 else points


def machine_updates(
    standings: Standings,
    players: Mapping[str, object],
    before: MachineTable,
    after: MachineTable,
) -> dict[str, tuple[Fraction, int]]:
    """The players whose total or games played change when one machine's table goes from
    ``before`` to ``after``: player -> (new total, new machines played). Rows of unregistered
    players are ignored, as ``scoring.ranking.tally`` ignores them; points None add nothing and
    still count as a machine played (EPC 2009, EPC Qualifying: "the sum of all their ranking
    points")."""
    return tables_updates(standings, players, [(before, after)])


def restand(
    standings: Standings,
    updates: Mapping[str, tuple[Fraction, int]],
    band: Band,
    ranked: Ranked | None = None,
    league: League | None = None,
) -> Standings:
    """``standings`` (every player, by total then player number, places 1, 2, 2, 4) with the
    players of ``updates`` (player -> (total, played); a player not in the standings is added)
    moved to where their new totals put them, and place and band worked out again for the tie
    groups at and beside each position that now holds another row (where rows moved). Every
    other row is the same object as before.
    EPC 2009, EPC Qualifying ("ordered according to their total ranking points"; equal totals
    share a place, ``scoring.ranking.rank``).

    ``ranked`` (None: everyone is): a player it refuses goes after every ranked player, in
    player-number order, with no place, band or league points and total 0 (UKPL 3C: guests).
    ``league`` (None: rows keep their own): each tie group's league points (UKPL 3D)."""
    if not updates:
        return standings
    index = positions(standings)
    rows, keys = list(standings.rows), _keys(standings)
    size_before = len(rows)
    gone = sorted((index[p] for p in updates if p in index), reverse=True)
    for position in gone:
        del rows[position], keys[position]
    placed: list[int] = []
    moving = [
        (UNRANKED if ranked is not None and not ranked(player, played) else sort_key(total), player)
        for player, (total, played) in updates.items()
    ]
    for key, player in sorted(moving, key=lambda item: (item[0], player_key(item[1]))):
        total, played = updates[player]
        # into the tie group of ``key``, in player-number order within it
        first, after = bisect_left(keys, key), bisect_right(keys, key)
        at = bisect_left(rows, player_key(player), first, after, key=_number_key)
        shown = ZERO if key == UNRANKED else total
        rows.insert(at, StandingRow(player=player, place=None, total=shown, played=played))
        keys.insert(at, key)
        placed.append(at)
    # In sorted order each insert lands at or after the one before, so ``placed`` are final.
    group = _Grouping(band, league)
    if len(rows) != size_before:  # a player added: every position after it moved
        return _replaced_span(index, rows, keys, placed, gone, group)
    # Only positions that now hold another row object moved: found at C speed, and only the tie
    # groups at and beside them can change place or band.
    moved_to = list(compress(range(len(rows)), map(is_not, rows, standings.rows)))
    done, end = -1, len(rows) - 1  # the last position placed again; the last position
    for at in moved_to:
        if at >= done:  # (runs of moved positions are common: most are placed already)
            start = at - 1 if at > done + 1 else done + 1
            stop = at + 1 if at < end else end
            while start <= stop:
                # (a group begun after ``done``: ``done`` is the end of one)
                done = group.place(rows, keys, bisect_left(keys, keys[start]))
                start = done + 1
    moved = dict(index)
    for at in moved_to:
        moved[rows[at].player] = at
    return Standings(rows=tuple(rows), index=moved, keys=tuple(keys))


def _replaced_span(
    index: Mapping[str, int],
    rows: list[StandingRow],
    keys: list[int | Fraction | float],
    placed: list[int],
    gone: list[int],
    group: _Grouping,
) -> Standings:
    """``restand``'s end when the field grew: every tie group from the first position touched
    to the end is placed again."""
    lo = min(min(placed), gone[-1] if gone else len(rows))
    if lo > 0:
        lo = bisect_left(keys, keys[lo - 1])
    start = lo
    while start < len(rows):
        start = group.place(rows, keys, start) + 1
    moved = dict(index)
    for i in range(lo, len(rows)):
        moved[rows[i].player] = i
    return Standings(rows=tuple(rows), index=moved, keys=tuple(keys))


class _Grouping:
    """How ``restand`` places a tie group: its band and, when the format has them, its league
    points; the unranked group gets none of them."""

    __slots__ = ("band", "league")

    def __init__(self, band: Band, league: League | None) -> None:
        self.band, self.league = band, league

    def place(self, rows: list[StandingRow], keys: list[int | Fraction | float], start: int) -> int:
        """Place the tie group starting at ``start`` and return its last position. A row
        already right is kept as the same object."""
        end = bisect_right(keys, keys[start], start) - 1
        if keys[start] == UNRANKED:
            place: int | None = None
            cut: str | None = None
            points: Fraction | None = None
        else:
            place, last = start + 1, end + 1
            cut = self.band(place, last)
            points = None if self.league is None else self.league(place, last)
        keep = self.league is None and place is not None  # rows keep their own league points
        for i in range(start, end + 1):
            row = rows[i]
            league = row.league_points if keep else points
            if row.place != place or row.band != cut or row.league_points != league:
                # the constructor, not dataclasses.replace: this loop runs over every moved row
                rows[i] = StandingRow(row.player, place, row.total, row.played, cut, league)
        return end


def _number_key(row: StandingRow) -> tuple[tuple[int, int | str, str], ...]:
    return player_key(row.player)
