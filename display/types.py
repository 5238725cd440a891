"""Names for the shapes the core and the competitions pass around.

A record and a view document are JSON objects: their fields depend on the record's ``type`` or the
view's name (each kind's module docstring has the table; docs/protocol.md the view shapes), so
they are typed as JSON objects, named for what they are.
"""

from __future__ import annotations

from typing import Any

Json = Any
"""A JSON value as orjson or httpx decode it: an object, array, string, number, true, false or
null. Code that takes one apart checks its shape as it goes."""

Record = dict[str, Any]
"""A log record: ``{"type": ..., "by": "role:name", "at": ISO 8601 time, ...}`` (architecture
principle 1; the audit fields in docs/integrity.md)."""

Doc = dict[str, Any]
"""A view document: a JSON object keyed by stable ids, without nulls (null deletes a key in an
RFC 7386 merge patch)."""

Touched = set[str]
"""The view names a record changed, or ``{EVERY_VIEW}`` (``display.competitions.base``)."""

FormatSettings = dict[str, Any]
"""A tournament's settings as its ``tournament_created`` and ``settings_changed`` records hold
them (each format's settings class in ``scoring/`` reads them)."""

Registration = dict[str, Any]
"""A player or machine as registered: the ``player`` of a ``player_added`` record (``number``,
``name``, ``guest``, ``ifpa``, ``country`` or ``region``, ``ifpa_rank``, ``tag``; the desk's
registrations add ``withdrawn``) or the ``machine`` of a ``machine_added`` (``id``, ``name``,
``manufacturer``, ``year``)."""
