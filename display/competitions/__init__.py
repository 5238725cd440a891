"""The registry of competitions: one package each under ``display/competitions/``, each declaring
one ``Competition`` (``base.py``) as its ``COMPETITION``.

A tournament's ``format`` (from its ``tournament_created`` record) picks its competition, and so
its kind. Adding a competition is one line in ``COMPETITIONS`` and its own packages: the core asks
this module for routes, display views, pages, templates, the reasons records must give and the
paths that need ``If-Match``, and names no format itself. A format claimed by two competitions is
refused when the registry loads. Packages are imported on first use, so a competition may import
another one (the UKPL meeting and the EPC main event wrap ``machines``) without an import cycle.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from functools import cache
from typing import Any

from display.competitions.base import Competition, Kind, Page, SettingChoices, Template
from scoring.errors import SettingsError

COMPETITIONS = ("machines", "epc_main", "epc_country", "fwpl", "ukpl")
"""Every competition package, in the order the desk lists their templates."""


class RegistryError(RuntimeError):
    """Two competitions claim one format, or a package does not declare ``COMPETITION``."""


@cache
def registered() -> tuple[Competition, ...]:
    """Every competition of ``COMPETITIONS``, loaded once (``load_packages``)."""
    return load_packages(COMPETITIONS)


def load_packages(names: tuple[str, ...]) -> tuple[Competition, ...]:
    """The ``COMPETITION`` of each package ``names`` names. Raises RegistryError for a package
    without one, or a format claimed by two."""
    found: list[Competition] = []
    claimed: dict[str, str] = {}
    for name in names:
        declared = getattr(importlib.import_module(f"{__name__}.{name}"), "COMPETITION", None)
        if not isinstance(declared, Competition):
            raise RegistryError(f"display.competitions.{name} declares no COMPETITION")
        for fmt in declared.formats:
            if fmt in claimed:
                raise RegistryError(f"format {fmt!r} is claimed by {claimed[fmt]} and {name}")
            claimed[fmt] = name
        found.append(declared)
    return tuple(found)


@cache
def _by_format() -> dict[str, Competition]:
    return {fmt: c for c in registered() for fmt in c.formats}


def for_format(name: str) -> Competition:
    """The competition that runs format ``name``. Raises SettingsError for an unknown format."""
    found = _by_format().get(name)
    if found is None:
        known = ", ".join(formats())
        raise SettingsError(f"Unknown format {name!r}; known formats: {known}.")
    return found


def find(name: str | None) -> Competition | None:
    """The competition of format ``name``, or None."""
    return _by_format().get(name or "")


def formats() -> list[str]:
    """Every format this server runs, sorted."""
    return sorted(_by_format())


def create(record: dict[str, Any]) -> tuple[Kind, Any]:
    """A ``tournament_created`` record -> (kind, empty state). Raises SettingsError."""
    kind = for_format(record["format"]).kind
    return kind, kind.create(record)


def load(path: str) -> Any:
    """The object at ``"module:attribute"`` (a competition's routes or click command)."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


def routes() -> Iterator[Any]:
    """Every competition's HTTP routes (for ``create_app``: importing them needs Starlette)."""
    for competition in registered():
        if competition.routes:
            yield from load(competition.routes)


def display_views(fmt: str | None) -> tuple[str, ...]:
    """The views a hall display of format ``fmt`` rotates through by default (may be empty)."""
    found = find(fmt)
    return found.display_views.get(fmt or "", ()) if found else ()


def view_scripts() -> dict[str, str]:
    """Every display view a competition ships -> its script under ``static/``."""
    return {
        view: f"competitions/{c.name}/views/{view}.js"
        for c in registered()
        for view in c.view_scripts
    }


def view_styles() -> list[str]:
    """The style sheet (under ``static/``) of every competition that ships display views."""
    return [f"competitions/{c.name}/views.css" for c in registered() if c.view_scripts]


def setting_choices(fmt: str | None) -> SettingChoices:
    """The settings of format ``fmt`` that take one of a fixed set -> their choices (may be
    empty)."""
    found = find(fmt)
    return found.setting_choices.get(fmt or "", {}) if found else {}


def pages(fmt: str | None) -> tuple[Page, ...]:
    """Pages of format ``fmt`` beside the common ones."""
    found = find(fmt)
    return found.pages.get(fmt or "", ()) if found else ()


def players_page(fmt: str | None) -> str:
    """Where players of format ``fmt`` look on their phones (a path under ``/t/{id}/``)."""
    found = find(fmt)
    return found.players_page.get(fmt or "", "standings") if found else "standings"


def player_place(fmt: str | None) -> str:
    """What a player's registration place is called in format ``fmt``: country or region."""
    found = find(fmt)
    return found.player_place if found else "country"


def templates() -> tuple[Template, ...]:
    """Every competition's templates, in registry order."""
    return tuple(t for c in registered() for t in c.templates)


@cache
def reason_required() -> frozenset[str]:
    """Record types of any competition that must carry a non-empty ``reason``."""
    return frozenset().union(*(c.reason_required for c in registered()))


def versioned_paths() -> tuple[str, ...]:
    """Regular expressions of write paths that need ``If-Match``, from every competition."""
    return tuple(p for c in registered() for p in c.versioned_paths)


def observe(writer: Any, tid: str, fmt: str | None) -> None:
    """Records of ``tid`` (of format ``fmt``) were applied: its competition's ``observe`` hook,
    if it has one (``Competition.observe``)."""
    found = find(fmt)
    if found is not None and found.observe is not None:
        found.observe(writer, tid)
