"""The audit trail's checks: the hash chain over each log and the fields every record carries
(docs/integrity.md).

Hash chain: entry *n* of a log has ``h = sha256(prev + "\n" + r)`` in lowercase hex, where ``r``
is the exact bytes stored and ``prev`` the ``h`` of entry *n - 1*, or ``GENESIS`` for entry 1 and
after an entry without ``h``. The store writes it (``display/log/store.py``); ``verify`` and
``restore`` check it.

Audit fields: every record carries ``by`` (who: ``role:name``) and ``at`` (server time, ISO 8601
UTC); the record types a competition lists in ``Competition.reason_required`` (corrections, voids,
penalties) also carry a non-empty ``reason``. The writer refuses a record without them as a
programming error (every caller stamps its records), so no call site can forget.
"""

from __future__ import annotations

import hashlib
from collections.abc import Container

from display.types import Record

GENESIS = "0" * 64
"""The ``prev`` of a log's first hashed entry."""


def chain_hash(prev: str, raw: bytes) -> str:
    """The ``h`` of an entry whose stored record bytes are ``raw``, after an entry hashed ``prev``
    (``GENESIS`` for the first): lowercase hex SHA-256 of ``prev`` (ASCII) + ``\\n`` + ``raw``."""
    return hashlib.sha256(prev.encode() + b"\n" + raw).hexdigest()


def audit_problem(record: Record, reason_required: Container[str]) -> str | None:
    """What a record lacks of who, when and (types in ``reason_required``: corrections, voids,
    penalties) why, or None."""
    missing = [name for name in ("by", "at") if not record.get(name)]
    if record.get("type") in reason_required and not record.get("reason"):
        missing.append("reason")
    return f"a {record.get('type')} record without {', '.join(missing)}" if missing else None
