"""What a competition package declares, and the pure ``Kind`` protocol it implements.

Each package under ``display/competitions/<name>/`` exports ``COMPETITION``, a ``Competition``
value naming everything the core looks up: the formats it runs, its kind (pure: records in, state
and view documents out), its HTTP routes by import path (imported by ``create_app`` only, so the
pure part never imports Starlette), its hall display views, pages and templates, the record types
that must give a reason, the paths that need ``If-Match``, and its command-line parts. The core
reads these through ``display.competitions`` and names no format itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from scoring.settings import Choice
from scoring.tournament import Tournament
from scoring.what_if import Target

SettingChoices = Mapping[str, tuple[Choice, ...]]
"""A format's settings that take one of a fixed set: setting name -> its allowed values, each
with its meaning."""


def choices_json(choices: tuple[Choice, ...]) -> list[dict[str, str]]:
    """A setting's choices for the API: ``[{"value", "meaning"}, ...]`` in the declared order."""
    return [{"value": c.value, "meaning": c.meaning} for c in choices]


EVERY_VIEW = "*"
"""Returned in a touched set: rebuild every view (e.g. after settings change)."""


class Kind(Protocol):
    """Pure record handling for one kind of competition.

    ``apply`` raises a ``scoring.errors.ScoringError`` when the rules refuse a record (the API
    answers 4xx and writes nothing) and ValueError for a record type the kind does not know.
    """

    name: str

    def create(self, record: dict[str, Any]) -> Any:
        """``tournament_created`` -> the empty state. Raises SettingsError."""
        ...

    def apply(self, state: Any, seq: int, record: dict[str, Any]) -> tuple[Any, set[str]]:
        """Apply a record at version ``seq`` -> (new state, view names touched or EVERY_VIEW)."""
        ...

    def view_names(self, state: Any) -> Iterable[str]:
        """Every view this state has."""
        ...

    def view(self, state: Any, meta: dict[str, Any], name: str) -> dict[str, Any] | None:
        """One view document (no nulls inside), or None if the state has no such view."""
        ...

    # Optional, looked up with getattr (``display.live.tournament.advance``): ``defer(state)`` ->
    # a state that checks each record but works out what it derives (tables, standings) only at
    # ``settle(state)``, which returns what applying the records one by one would have; a
    # replay of many records calls them around the batch, and views are built only once settled.


@dataclass(frozen=True)
class Page:
    """A page of a format beside the common ones: its ``label`` and its ``path`` under
    ``/t/{id}/``."""

    label: str
    path: str


@dataclass(frozen=True)
class Default:
    """One setting of a template: its ``key`` and ``value`` as the format reads them, and where
    it comes from (the rule section, or the reading Backglass takes where the text is silent)."""

    key: str
    value: Any
    source: str


@dataclass(frozen=True)
class Template:
    """A competition the TD can start from: ``id`` (stable, for the API), ``name``, ``rules``
    (the text it follows), ``format``, ``about`` (one line for the TD) and its ``defaults``."""

    id: str
    name: str
    rules: str
    format: str
    about: str
    defaults: tuple[Default, ...]

    def settings(self) -> dict[str, Any]:
        """The default settings as the format reads them."""
        return {d.key: d.value for d in self.defaults}

    def as_json(self, running: Iterable[str], choices: SettingChoices) -> dict[str, Any]:
        """The template for ``GET /api/templates``; ``available`` when the server runs its format.
        ``choices``: the format's settings that take one of a fixed set; each default among them
        lists its ``choices`` (``[{"value", "meaning"}]``), and ``choices`` names them all, the
        settings a tournament gets without a default here included (the desk after creation)."""
        settings = []
        for d in self.defaults:
            setting = {"key": d.key, "value": d.value, "source": d.source}
            if d.key in choices:
                setting["choices"] = choices_json(choices[d.key])
            settings.append(setting)
        return {
            "id": self.id,
            "name": self.name,
            "rules": self.rules,
            "format": self.format,
            "about": self.about,
            "available": self.format in set(running),
            "settings": settings,
            "choices": {key: choices_json(options) for key, options in choices.items()},
        }


Observe = Callable[[Any, str], None]
"""``observe(writer, tid)``: records of ``tid`` were applied; a competition that follows other
tournaments writes what it learnt through ``writer`` (``display.log.writer.Writer``)."""
Qualifying = Callable[[Any], Tournament | None]
"""The per-machine tournament inside a kind's state while qualifying runs, or None."""
WhatIfTarget = Callable[[str, Mapping[str, Any]], tuple[Target, str] | None]
"""``(format, settings)`` -> the place a player aims for when the tournament has no cut, with its
words for the phone ("a trophy (3rd or better)"), or None for 1st."""


@dataclass(frozen=True)
class Competition:
    """One competition package's declaration (module docstring).

    ``formats``: the format names it runs, each claimed by one competition only.
    ``routes``: ``"module:attribute"`` of its list of Starlette routes (its HTTP part).
    ``display_views``: per format, the views a hall display rotates through by default.
    ``view_scripts``: the display views it ships, each a script
    ``static/competitions/<name>/views/<view>.js`` (and its styles in ``views.css`` there).
    ``format_views``: per format, which of ``view_scripts`` a display of it can show (a format
    not named here: all of them); the desk's display editor offers only those.
    ``pages``: per format, its pages beside the common ones; ``players_page``: per format, where
    players look on their phones (default ``standings``). ``templates``: for the desk.
    ``reason_required``: record types that must carry a ``reason``. ``versioned_paths``: regular
    expressions of its write paths that need ``If-Match`` (OpenAPI). ``player_place``: what a
    player's registration place is called ("country", "region"). ``commands``, ``demos``:
    ``"module:attribute"`` of click commands for ``backglass`` and ``backglass demo``;
    ``offline``: per format, ``"module:attribute"`` of its offline standings
    (``display.cli.offline``). ``setting_choices``: per format, each setting that takes one of a
    fixed set -> its values with their meanings (``scoring.settings.Choice``, declared beside the
    format's settings in ``scoring/``); the desk offers them as a select.
    """

    name: str
    formats: tuple[str, ...]
    kind: Kind
    routes: str = ""
    display_views: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    view_scripts: tuple[str, ...] = ()
    format_views: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    pages: Mapping[str, tuple[Page, ...]] = field(default_factory=dict)
    players_page: Mapping[str, str] = field(default_factory=dict)
    templates: tuple[Template, ...] = ()
    reason_required: frozenset[str] = frozenset()
    versioned_paths: tuple[str, ...] = ()
    observe: Observe | None = None
    qualifying: Qualifying | None = None
    what_if_target: WhatIfTarget | None = None
    player_place: str = "country"
    commands: tuple[str, ...] = ()
    demos: tuple[str, ...] = ()
    offline: Mapping[str, str] = field(default_factory=dict)
    setting_choices: Mapping[str, SettingChoices] = field(default_factory=dict)
