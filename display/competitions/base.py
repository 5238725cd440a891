"""The protocol every competition kind follows (see ``display/competitions/__init__.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from starlette.routing import BaseRoute

EVERY_VIEW = "*"
"""Returned in a touched set: rebuild every view (e.g. after settings change)."""


class Kind(Protocol):
    """Pure record handling for one kind of competition.

    ``apply`` raises a ``scoring.errors.ScoringError`` when the rules refuse a record (the API
    answers 4xx and writes nothing) and ValueError for a record type the kind does not know.
    """

    name: str
    routes: Sequence[BaseRoute]

    def formats(self) -> Iterable[str]:
        """Format names this kind runs."""
        ...

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
