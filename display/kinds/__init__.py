"""Competition kinds: how one kind of tournament turns log records into state and views.

A tournament's ``format`` (from its ``tournament_created`` record) picks its kind. The per-machine
formats of ``scoring.FORMATS`` (EPC qualifying, UKPL meeting, Classic, Kids) share one kind,
``machines``; stage, team and league competitions each bring their own module here. A kind is pure
(records in, state and view documents out); its ``routes`` are the API endpoints that write its
records through ``display.api.write``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.routing import BaseRoute

from display.kinds import epc_country, epc_main, fwpl, ukpl
from display.kinds.base import Kind
from display.kinds.machines import MACHINES
from scoring.errors import SettingsError

KINDS: tuple[Kind, ...] = (epc_main.KIND, epc_country.KIND, fwpl.KIND, ukpl.KIND, MACHINES)
"""Checked in order: a kind listed earlier may take over a format of a later one (e.g. the UKPL
kind runs "ukpl-meeting" with adjustments and the season table)."""


def for_format(name: str) -> Kind:
    """The kind that runs format ``name``. Raises SettingsError for an unknown format."""
    for kind in KINDS:
        if name in kind.formats():
            return kind
    known = ", ".join(sorted(f for kind in KINDS for f in kind.formats()))
    raise SettingsError(f"Unknown format {name!r}; known formats: {known}.")


def formats() -> list[str]:
    """Every format some kind runs (a format taken over by an earlier kind counts once)."""
    return sorted({f for kind in KINDS for f in kind.formats()})


def create(record: dict[str, Any]) -> tuple[Kind, Any]:
    """A ``tournament_created`` record -> (kind, empty state). Raises SettingsError."""
    kind = for_format(record["format"])
    return kind, kind.create(record)


def routes() -> Iterable[BaseRoute]:
    for kind in KINDS:
        yield from kind.routes
