"""Plain frozen data shared by every format: players, machines, entries and the tables built
from them.

Shapes only; no rules live here. Points are ``Fraction`` so that shared (averaged) points stay
exact; ``display/`` turns them into JSON numbers rounded as each format publishes them
(``scoring.rounding.points_json``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Literal, get_args

MAX_SCORE = 2**53 - 1
"""Largest score a browser shows exactly (JavaScript's Number.MAX_SAFE_INTEGER)."""


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player. ``number`` is the badge number a steward types (string, e.g. "17" or
    "P0106").

    ``guest``: UKPL 1C/3C, a player from another region, shown but left out of ranking and league
    points.
    """

    number: str
    name: str
    guest: bool = False


@dataclass(frozen=True, slots=True)
class Machine:
    """A machine in the tournament. ``id`` is short and stable (e.g. "7"); ``name`` is the title."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Entry:
    """One recorded score by one player on one machine. ``seq`` is the log version that recorded it;
    entries are applied in ``seq`` order, which is the order played."""

    seq: int
    player: str
    machine: str
    score: int


@dataclass(frozen=True, slots=True, init=False)
class MachineRow:
    """One player's line in a machine table.

    ``score`` is the counting score (EPC: the better of the regular and joker game). ``place`` and
    ``points`` are None for a row that is shown but not ranked (a UKPL guest). ``points`` includes
    ``bonus``. ``joker`` marks that the player used their joker game on this machine.
    """

    player: str
    score: int
    place: int | None
    points: Fraction | None
    bonus: int = 0
    joker: bool = False

    def __init__(
        self,
        player: str,
        score: int,
        place: int | None,
        points: Fraction | None,
        bonus: int = 0,
        joker: bool = False,
    ) -> None:
        # A frozen dataclass's own __init__ sets each field through object.__setattr__; the
        # slots' setters take half the time, and every push ranks a machine's rows anew.
        set_player, set_score, set_place, set_points, set_bonus, set_joker = _MACHINE_ROW_SETTERS
        set_player(self, player)
        set_score(self, score)
        set_place(self, place)
        set_points(self, points)
        set_bonus(self, bonus)
        set_joker(self, joker)


@dataclass(frozen=True, slots=True)
class MachineTable:
    """Every score on one machine, best first (ranked rows by place, then unranked rows by
    score)."""

    machine: str
    rows: tuple[MachineRow, ...] = ()


def _slot_setters(cls: type) -> tuple[Callable[[object, object], None], ...]:
    """The slots' own setters of a frozen, slotted dataclass, in field order: they set a field
    without the frozen check, for the class's own ``__init__``."""
    return tuple(cls.__dict__[f.name].__set__ for f in fields(cls))


_MACHINE_ROW_SETTERS = _slot_setters(MachineRow)


@dataclass(frozen=True, slots=True, init=False)
class StandingRow:
    """One player's overall line.

    ``total``: EPC ranking points / UKPL meeting total (machine points). ``place`` None for unranked
    (guests). ``band``: EPC "qualified" | "standby" | "out"; None where a format has no cut.
    ``league_points``: UKPL 3D; None elsewhere. ``played``: machines with a score.
    """

    player: str
    place: int | None
    total: Fraction
    played: int
    band: str | None = None
    league_points: Fraction | None = None

    def __init__(
        self,
        player: str,
        place: int | None,
        total: Fraction,
        played: int,
        band: str | None = None,
        league_points: Fraction | None = None,
    ) -> None:
        # The slots' setters, as MachineRow: ``scoring.restand`` builds a row for every player
        # whose place moved, hundreds per push in a big field.
        set_player, set_place, set_total, set_played, set_band, set_league = _STANDING_ROW_SETTERS
        set_player(self, player)
        set_place(self, place)
        set_total(self, total)
        set_played(self, played)
        set_band(self, band)
        set_league(self, league_points)


_STANDING_ROW_SETTERS = _slot_setters(StandingRow)


@dataclass(frozen=True, slots=True)
class Standings:
    """Overall standings, best first; unranked rows last.

    ``index`` (player number -> position of their row) and ``keys`` (each row's order key,
    ``scoring.restand.sort_key``, ``UNRANKED`` for a row without a place), when the maker kept them (``scoring.restand``); empty
    otherwise. Not part of the value: equal rows are equal standings."""

    rows: tuple[StandingRow, ...] = ()
    index: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)
    keys: tuple[int | Fraction | float, ...] = field(default=(), compare=False, repr=False)


Status = Literal["in_service", "out_of_order", "closed", "replaced"]
"""A machine's status in the hall: playing, out of order (being repaired), closed (no more
scores), or replaced by another machine (``scoring.machine_faults``)."""
STATUSES: tuple[str, ...] = get_args(Status)


@dataclass(frozen=True, slots=True)
class MachineState:
    """A machine's status (``STATUSES``) and the TD's ``note``. ``replacement``: the machine that
    replaced it. ``owed``: players owed a game on the replacement (their scores here were wiped,
    ``scoring.machine_faults.TakenOut``)."""

    status: Status = "in_service"
    note: str | None = None
    replacement: str | None = None
    owed: tuple[str, ...] = ()
