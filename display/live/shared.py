"""Records every kind of tournament shares, applied before the kind sees them: hall display
profiles and what the TD set a named display to show. Pure: records in, state and view documents
out.

| record          | fields                                      | views touched |
|-----------------|---------------------------------------------|---------------|
| profile_set     | name, views [names], seconds, theme, qr,    | profiles      |
|                 | distance (m), diagonal (in), both optional  |               |
| profile_removed | name                                        | profiles      |
| display_assigned| name, and profile or views (+ seconds)      | displays      |
| display_released| name                                        | displays      |

A profile is a named screen setup a hall display picks by URL (``/t/{id}/display?profile=bar``)
and follows live: which views rotate, seconds per page, the colour theme, whether the players'
page QR code shows, and where it hangs: ``distance`` (metres to the players reading it) and
``diagonal`` (the screen's, in inches), which size its text (docs/display.md, "Reading distance";
absent: the display's URL or its defaults). ``profiles`` is ``{name: {"views": [...],
"seconds": 12, "theme": "dark", "qr": true}}`` (plus the distance and diagonal when set), absent
while there are none.

A hall display has a name (``?name=``, else one it made up and keeps in the browser). The TD's desk
sets what a named display shows with ``display_assigned``: a profile to follow (``{"profile":
"bar"}``) or views of its own (``{"views": [...], "seconds": 12}``); ``display_released`` gives the
display back to its URL. ``displays`` is ``{name: {"profile": "bar"}}`` or ``{name: {"views":
[...], "seconds": 12}}``, absent while there are none. So a display changes what it shows only
because of a record that says so (docs/architecture.md, principle 9's sibling: "a view changes
only because of a record that says so").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from display.types import Doc, Record, Touched
from scoring.errors import SettingsError

TYPES = ("profile_set", "profile_removed", "display_assigned", "display_released")
VIEWS = ("profiles", "displays")
THEMES = ("dark", "light", "contrast")
"""``dark`` the default; ``light`` for a bright hall; ``contrast`` black and white, large type."""
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
SECONDS = (2, 3600)
DISTANCE: tuple[float, float] = (0.5, 50)
"""Metres from a display to the players who read it."""
DIAGONAL: tuple[float, float] = (10, 400)
"""A display's screen diagonal, inches."""
MAX_VIEWS = 20


@dataclass(frozen=True)
class Shared:
    """What the shared records built: display profiles by name (JSON-ready documents)."""

    profiles: Mapping[str, Doc] = field(default_factory=dict)
    displays: Mapping[str, Doc] = field(default_factory=dict)


EMPTY = Shared()


def handles(record_type: str) -> bool:
    """Whether records of ``record_type`` are shared ones (``TYPES``), not the kind's."""
    return record_type in TYPES


def profile(record: Record, known_views: Collection[str] | None = None) -> Doc:
    """The profile document of a ``profile_set`` record. Raises SettingsError with a message for
    the TD when a field is missing or wrong; ``known_views`` (when given) lists the view names a
    display can show."""
    name = record.get("name")
    if not isinstance(name, str) or not NAME.match(name):
        raise SettingsError("A profile name has 1-32 letters, digits, '_', '.' or '-'.")
    views = record.get("views")
    if not isinstance(views, list) or not views or len(views) > MAX_VIEWS:
        raise SettingsError(f"Profile {name}: choose 1 to {MAX_VIEWS} views to show.")
    if not all(isinstance(v, str) for v in views):
        raise SettingsError(f"Profile {name}: views are names such as machines or standings.")
    unknown = [v for v in views if known_views is not None and v not in known_views]
    if unknown:
        shown = ", ".join(sorted(known_views or ()))
        raise SettingsError(f"Profile {name}: no view {unknown[0]!r}; the views are {shown}.")
    seconds = record.get("seconds", 12)
    low, high = SECONDS
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not low <= seconds <= high
    ):
        raise SettingsError(f"Profile {name}: seconds per page is a number from {low} to {high}.")
    theme = record.get("theme", "dark")
    if theme not in THEMES:
        raise SettingsError(f"Profile {name}: the theme is one of {', '.join(THEMES)}.")
    qr = record.get("qr", True)
    if not isinstance(qr, bool):
        raise SettingsError(f"Profile {name}: qr is true or false.")
    unique = list(dict.fromkeys(views))
    doc: Doc = {"views": unique, "seconds": seconds, "theme": theme, "qr": qr}
    for key, (least, most), words in (
        ("distance", DISTANCE, "the reading distance is a number of metres"),
        ("diagonal", DIAGONAL, "the screen diagonal is a number of inches"),
    ):
        value = record.get(key)
        if value is None:
            continue  # absent: the display's URL or its defaults say
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or not least <= value <= most:
            raise SettingsError(f"Profile {name}: {words} from {least} to {most}.")
        doc[key] = int(value) if float(value).is_integer() else value
    return doc


def assignment(record: Record, known_views: Collection[str] | None = None) -> Doc:
    """What a ``display_assigned`` record sets its display to: ``{"profile": name}`` or
    ``{"views": [...], "seconds": n}``. Raises SettingsError with a message for the TD when the
    display's name, the profile's name or the views are wrong, or both or neither are given."""
    name = record.get("name")
    if not isinstance(name, str) or not NAME.match(name):
        raise SettingsError("A display name has 1-32 letters, digits, '_', '.' or '-'.")
    chosen = record.get("profile")
    if (chosen is None) == (record.get("views") is None):
        raise SettingsError(f"Display {name}: choose a profile or views to show, not both.")
    if chosen is not None:
        if not isinstance(chosen, str) or not NAME.match(chosen):
            raise SettingsError(f"Display {name}: no display profile {chosen!r}.")
        return {"profile": chosen}
    views = {"name": name, "views": record.get("views"), "seconds": record.get("seconds", 12)}
    try:
        as_profile = profile(views, known_views)  # the same checks as a profile's views
    except SettingsError as error:
        said = str(error).replace(f"Profile {name}:", f"Display {name}:", 1)
        raise SettingsError(said) from None
    return {"views": as_profile["views"], "seconds": as_profile["seconds"]}


def apply(state: Shared, record: Record) -> tuple[Shared, Touched]:
    """Apply a shared record -> (new state, views touched). Raises SettingsError for a bad
    profile; removing a profile that does not exist changes nothing."""
    name = record.get("name")
    if record["type"] == "profile_set":
        doc = profile(record)
        return replace(state, profiles={**state.profiles, str(name): doc}), {"profiles"}
    if record["type"] == "profile_removed":
        rest = {k: v for k, v in state.profiles.items() if k != name}
        return replace(state, profiles=rest), {"profiles"}
    if record["type"] == "display_assigned":
        doc = assignment(record)
        return replace(state, displays={**state.displays, str(name): doc}), {"displays"}
    if record["type"] == "display_released":
        left = {k: v for k, v in state.displays.items() if k != name}
        return replace(state, displays=left), {"displays"}
    raise ValueError(f"not a shared record: {record['type']!r}")


def view(state: Shared, name: str) -> Doc | None:
    """A shared view document, or None (``profiles`` and ``displays`` are absent while there are
    none)."""
    if name == "profiles" and state.profiles:
        return {k: dict(v) for k, v in state.profiles.items()}
    if name == "displays" and state.displays:
        return {k: dict(v) for k, v in state.displays.items()}
    return None
