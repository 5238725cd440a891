"""Competition kinds: how one kind of tournament turns log records into state and views.

A tournament's ``format`` (from its ``tournament_created`` record) picks its kind. The per-machine
formats of ``scoring.FORMATS`` (EPC qualifying, UKPL meeting, Classic, Kids) share one kind,
``machines``; stage, team and league competitions each bring their own module here. A kind is pure
(records in, state and view documents out); its ``routes`` are the API endpoints that write its
records through ``display.http.endpoint.write``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from functools import cache
from typing import Any

from starlette.routing import BaseRoute

from display.competitions.base import Kind
from scoring.errors import SettingsError

KIND_MODULES = (
    ("display.competitions.epc_main.kind", "KIND"),
    ("display.competitions.epc_country.kind", "KIND"),
    ("display.competitions.fwpl.kind", "KIND"),
    ("display.kinds.ukpl", "KIND"),
    ("display.competitions.machines.kind", "MACHINES"),
)
"""Checked in order: a kind listed earlier may take over a format of a later one (e.g. the UKPL
kind runs "ukpl-meeting" with adjustments and the season table). Imported on first use, so a kind
module may import this package's siblings without an import cycle."""


@cache
def all_kinds() -> tuple[Kind, ...]:
    """Every kind, in the order they are asked for a format."""
    return tuple(getattr(importlib.import_module(m), name) for m, name in KIND_MODULES)


def for_format(name: str) -> Kind:
    """The kind that runs format ``name``. Raises SettingsError for an unknown format."""
    for kind in all_kinds():
        if name in kind.formats():
            return kind
    known = ", ".join(formats())
    raise SettingsError(f"Unknown format {name!r}; known formats: {known}.")


def formats() -> list[str]:
    """Every format some kind runs (a format taken over by an earlier kind counts once)."""
    return sorted({f for kind in all_kinds() for f in kind.formats()})


def create(record: dict[str, Any]) -> tuple[Kind, Any]:
    """A ``tournament_created`` record -> (kind, empty state). Raises SettingsError."""
    kind = for_format(record["format"])
    return kind, kind.create(record)


def routes() -> Iterable[BaseRoute]:
    for kind in all_kinds():
        yield from kind.routes
