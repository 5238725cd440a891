"""Ranking with ties, shared by every format.

Places use standard competition ranking ("1224"): equal values share a place and the next
place skips the tied ones, so a place is always 1 + the number of strictly better entries.
How tied entries split *points* is a separate, explicit policy (``TiePolicy``); nothing here
orders tied entries by who came first, which is CTFd's mistake (tied players ranked by sort order).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Generic, Literal, TypeVar, get_args

from scoring.model import MachineTable

T = TypeVar("T")

TiePolicy = Literal["high", "low", "shared"]
"""How entries with equal values split the points of the places they cover.

``"high"``: each gets the points of the best place in the tie (the place they share).
``"low"``: each gets the points of the worst place the tie covers.
``"shared"``: each gets the average of the points of every place the tie covers.
"""

TIE_POLICIES: tuple[str, ...] = get_args(TiePolicy)


def _integer_keys(values: list[Fraction | int]) -> list[int]:
    # Exact values scaled to integers by the common denominator: sorting ints is far cheaper
    # than comparing Fractions, and no precision is lost.
    denominators = {v.denominator for v in values if isinstance(v, Fraction)}
    scale = math.lcm(*denominators) if denominators else 1
    return [
        v.numerator * (scale // v.denominator) if isinstance(v, Fraction) else v * scale
        for v in values
    ]


def tally(
    players: Iterable[str], tables: Iterable[MachineTable]
) -> tuple[dict[str, Fraction], dict[str, int]]:
    """Per player: the sum of their points over ``tables`` (rows with points None add nothing) and
    the number of tables they have a row in; every player in ``players`` appears, rows of others
    are ignored. EPC 2009, EPC Qualifying ("the sum of all their ranking points"); UKPL 3B ("adding
    together individual player's points from each competition game played").
    """
    whole = dict.fromkeys(players, 0)
    parts: dict[str, Fraction] = {}
    played = dict.fromkeys(whole, 0)
    for table in tables:
        for row in table.rows:
            if row.player not in whole:
                continue
            played[row.player] += 1
            points = row.points
            if points is None:
                continue
            if points.denominator == 1:  # whole points summed as ints: Fraction addition is slow
                whole[row.player] += points.numerator
            else:
                parts[row.player] = parts.get(row.player, Fraction(0)) + points
    totals = {p: Fraction(w) + parts[p] if p in parts else Fraction(w) for p, w in whole.items()}
    return totals, played


@dataclass(frozen=True, slots=True)
class TieGroup(Generic[T]):
    """Items with equal value. ``place`` (1-based) is shared by all of them; they cover places
    ``place`` .. ``last_place``. ``items`` are in a stable order that does not depend on input order
    when the caller sorts by a total key (see ``rank``).

    Implements the "equal scores" reading of EPC 2009, EPC Qualifying and UKPL 3B/3D/3F.
    """

    place: int
    items: tuple[T, ...]

    @property
    def size(self) -> int:
        """Number of tied items (>= 1); UKPL 3F shares points over this many places."""
        return len(self.items)

    @property
    def last_place(self) -> int:
        """The worst place this tie covers, ``place + size - 1`` (UKPL 3B "low" ties; the EPC
        2009, EPC Qualifying cut with ``cut_ties="exclude"``)."""
        return self.place + len(self.items) - 1


def rank(
    items: Iterable[T],
    value: Callable[[T], Fraction | int],
    order: Callable[[T], tuple[object, ...]] | None = None,
) -> tuple[TieGroup[T], ...]:
    """Group ``items`` by ``value`` (higher is better) into tie groups, best first, with
    standard competition places (1, 2, 2, 4). EPC 2009, EPC Qualifying ("ranked against all
    other scores"); UKPL 3B and 3D (finishing order).

    ``order`` is a tie-free display key for items inside one group (e.g. ``player_key`` of the
    player number), so the result does not depend on the order of ``items``; without it, input
    order is kept inside a group. Raises nothing; an empty input gives ``()``.

    >>> [(g.place, g.items) for g in rank([5, 9, 5, 1], lambda v: v)]
    [(1, (9,)), (2, (5, 5)), (4, (1,))]
    """
    pool = list(items)
    keys = _integer_keys([value(item) for item in pool])
    ranked = sorted(range(len(pool)), key=keys.__getitem__, reverse=True)  # stable
    groups: list[TieGroup[T]] = []
    start = 0
    while start < len(ranked):
        end = start + 1
        while end < len(ranked) and keys[ranked[end]] == keys[ranked[start]]:
            end += 1
        members = [pool[i] for i in ranked[start:end]]
        if order is not None and len(members) > 1:
            members.sort(key=order)
        groups.append(TieGroup(place=start + 1, items=tuple(members)))
        start = end
    return tuple(groups)


def tied_points(
    group_place: int, group_size: int, points: Callable[[int], int], policy: TiePolicy
) -> Fraction:
    """Points for each member of a tie of ``group_size`` (>= 1) sharing place ``group_place``
    (1-based), given ``points(place)`` for an untied place. UKPL 3B (machine points: the league
    has used "high" and "low" in different seasons), UKPL 3D and 3F (league points "shared":
    the average), EPC 2009, EPC Qualifying (Backglass uses "high"). Raises ValueError for an
    unknown policy or a size below 1.

    >>> tied_points(4, 2, lambda p: 21 - p, "shared")
    Fraction(33, 2)
    """
    if group_size < 1:
        raise ValueError(f"a tie has at least one member, not {group_size}")
    covered = range(group_place, group_place + group_size)
    if policy == "high":
        return Fraction(points(covered[0]))
    if policy == "low":
        return Fraction(points(covered[-1]))
    if policy == "shared":
        return Fraction(sum(points(p) for p in covered), group_size)
    raise ValueError(f"unknown tie policy {policy!r}; expected one of {', '.join(TIE_POLICIES)}")


_DIGITS = re.compile(r"(\d+)")


@lru_cache(maxsize=1 << 16)
def player_key(number: str) -> tuple[tuple[int, int | str, str], ...]:
    """Natural sort key for a player number or machine id: "9" before "10", "P0106" after
    "P0094". Used only to order rows that share a place, never to break a tie in the rules
    (EPC 2009, EPC Qualifying and UKPL 3F both share tied places). Memoised: standings sort
    every player on every push, and the key of a number never changes.
    """
    return tuple(
        (1, int(chunk), chunk) if i % 2 else (0, chunk.casefold(), chunk)
        for i, chunk in enumerate(_DIGITS.split(number))
    )
