"""Ranking-point scales for best-game qualifying (EPC 2009, EPC Qualifying).

The EPC 2009 text fixes only the top ("One hundred points will be awarded for the top score on
each machine with a reducing number of points for lower positions ... weighted to favour those in
higher positions") and leaves the scale below open (docs/rules.md, EPC 2009). Backglass offers the
scales in use in the pinball world as named presets, plus a custom table.

A scale gives the points of an *untied* place. Equal scores share a place and both get that
place's points (the better place), see ``scoring.epc.qualifying``.

Sources (read 2026):

- ``papa``: 100, 90, 85, 84, 83, ... down by one per place; Kevin Martin's PAPA scale, used since
  PAPA 6 (1998) (tiltforums.com/t/100-point-scale-what-is-best-for-other-placements/5198), listed as
  "PAPA 100/90/85/84..." by Match Play Events (docs.matchplay.events/configuring-a-tournament/
  scoring-systems), and "100 ... 90 ... 85 ..., and then decreasing by one point per position down
  to zero" (quartersbrewing.com/pinball-tournament-rules). Counting down by one from 85 at 3rd
  gives 1 point at **87th** and 0 from 88th down; Backglass follows that arithmetic. Note:
  papa.org/competitions/papa-world-championships says "down to 1 point for 88th place", one place
  more than its own sequence allows; a TD who wants that reading can use a custom table.
- ``papa-quick-decay``: 100, 90, 85, 83, 81, 79, ... down by two (Match Play Events): 1 point at
  45th, 0 from 46th.
- ``linear``: 100, 99, 98, ... 1 at 100th, 0 from 101st (Match Play Events "Linear");
  ``linear-150`` and ``linear-200`` the same from 150 and 200; ``top-30`` and ``top-25`` from 30
  and 25 (Match Play Events "Top 30", "Top 25").
- custom: an explicit, non-increasing list of whole points for places 1..n; 0 below n.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType

from scoring.errors import SettingsError
from scoring.settings import Choice, described

MAX_CUSTOM_PLACES = 1000
"""Longest custom table accepted (places 1..1000); beyond it every place scores 0 anyway."""

ZERO = Fraction(0)
"""No ranking points (EPC 2009, EPC Qualifying: "Any unplayed games will score zero")."""


@lru_cache(maxsize=4096)
def whole_points(points: int) -> Fraction:
    """``points`` as the Fraction a machine row holds, one shared object per value: a machine
    ranked again gives its rows the same objects, which compare by identity first (EPC 2009,
    EPC Qualifying, ranking points are whole numbers)."""
    return Fraction(points)


@dataclass(frozen=True, slots=True)
class Scale:
    """Points for untied places 1, 2, 3, ... (EPC 2009, EPC Qualifying).

    ``head``: points of places 1..len(head), whole numbers, non-increasing, >= 0.
    ``step``: after the head, each place scores ``step`` fewer than the one above, never below 0;
    ``step=0`` means every place after the head scores 0 (a custom table).
    ``name``: the preset name, or ``"custom"``. Raises SettingsError for a malformed table.
    """

    name: str
    head: tuple[int, ...]
    step: int = 0

    def __post_init__(self) -> None:
        check_table(self.head)
        if isinstance(self.step, bool) or not isinstance(self.step, int) or self.step < 0:
            raise SettingsError(f"A scale step must be a whole number >= 0, not {self.step!r}.")

    def points(self, place: int) -> int:
        """Ranking points for untied ``place`` (1-based, >= 1). EPC 2009, EPC Qualifying.
        Raises ValueError for a place below 1.

        >>> PRESETS["papa"].points(1), PRESETS["papa"].points(4), PRESETS["papa"].points(88)
        (100, 84, 0)
        """
        if place < 1:
            raise ValueError(f"places start at 1, not {place}")
        if place <= len(self.head):
            return self.head[place - 1]
        if self.step == 0:
            return 0
        return max(0, self.head[-1] - self.step * (place - len(self.head)))

    @property
    def last_scoring_place(self) -> int:
        """The lowest place that still scores more than 0 (0 if none does).
        EPC 2009, EPC Qualifying ("a reducing scale for all lower places")."""
        scoring = [i + 1 for i, p in enumerate(self.head) if p > 0]
        last = scoring[-1] if scoring else 0
        if self.step and last == len(self.head):
            last += (self.head[-1] - 1) // self.step
        return last


def check_table(points: Sequence[int]) -> tuple[int, ...]:
    """Validate a custom ranking-point table for places 1..n (EPC 2009, EPC Qualifying: "a
    reducing scale"): 1..MAX_CUSTOM_PLACES whole numbers, each >= 0, never rising. Returns it as a
    tuple. Raises SettingsError naming the first bad place.
    """
    table = tuple(points)
    if not 1 <= len(table) <= MAX_CUSTOM_PLACES:
        raise SettingsError(
            f"A points table needs between 1 and {MAX_CUSTOM_PLACES} places, not {len(table)}."
        )
    for place, value in enumerate(table, start=1):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise SettingsError(
                f"Points for place {place} must be a whole number >= 0, not {value!r}."
            )
        if place > 1 and value > table[place - 2]:
            raise SettingsError(
                f"A points table must not rise: place {place} has {value}, "
                f"more than place {place - 1} ({table[place - 2]})."
            )
    return table


PRESETS: Mapping[str, Scale] = MappingProxyType(
    {
        "papa": Scale("papa", (100, 90, 85), step=1),
        "papa-quick-decay": Scale("papa-quick-decay", (100, 90, 85), step=2),
        "linear": Scale("linear", (100,), step=1),
        "linear-150": Scale("linear-150", (150,), step=1),
        "linear-200": Scale("linear-200", (200,), step=1),
        "top-30": Scale("top-30", (30,), step=1),
        "top-25": Scale("top-25", (25,), step=1),
    }
)
"""Named scales (read-only). See the module docstring for each one's source."""

SCALE_CHOICES: tuple[Choice, ...] = described(
    tuple(PRESETS),
    {
        "papa": "PAPA: 100, 90, 85, then one less per place",
        "papa-quick-decay": "PAPA quick decay: 100, 90, 85, then two less per place",
        "linear": "100 for the top score, one less per place",
        "linear-150": "150 for the top score, one less per place",
        "linear-200": "200 for the top score, one less per place",
        "top-30": "30 for the top score, one less per place",
        "top-25": "25 for the top score, one less per place",
    },
)
"""The presets of a ``scale`` setting with their meanings (EPC 2009, EPC Qualifying leaves the
scale below 100 open); a custom table (a list of points) is accepted besides."""


def get_scale(setting: object) -> Scale:
    """The scale a setting names (EPC 2009, EPC Qualifying).

    ``setting``: a preset name (``"papa"``), a custom table as a sequence of whole numbers
    (``(100, 80, 60)``) or as text (``"100,80,60"``, how the CLI and forms send it).
    Raises SettingsError for an unknown name or a malformed table.
    """
    if isinstance(setting, str):
        text = setting.strip()
        preset = PRESETS.get(text.lower())
        if preset is not None:
            return preset
        if not text or not all(part.strip().isdigit() for part in text.split(",")):
            raise SettingsError(
                f"Unknown points scale {setting!r}; use one of {', '.join(PRESETS)} "
                "or a list of points such as 100,80,60."
            )
        return Scale("custom", tuple(int(part) for part in text.split(",")))
    if isinstance(setting, Sequence):
        return Scale("custom", check_table(setting))
    raise SettingsError(
        f"A points scale is a preset name or a list of points, not {type(setting).__name__}."
    )


def scale_setting(scale: Scale) -> str | list[int]:
    """The JSON-safe setting for ``scale``: the preset name, or the custom table as a list.
    Round-trips through ``get_scale``. EPC 2009, EPC Qualifying."""
    return scale.name if scale.name in PRESETS else list(scale.head)
