"""``If-Match`` for the competition kinds' changes to an existing record: an FWPL game's
correction, a UKPL adjustment's withdrawal, an EPC Country record's void.

The rule is the same for every change to an existing record (docs/protocol.md "Changing an entry"): the
client names the version of the thing it saw as a strong entity tag, ``If-Match: "42"`` (RFC
9110 §13.1.1); none (or ``*``) is 428 ``version_required`` (RFC 6585 §3), another version 412
``entry_changed`` (RFC 9110 §15.5.13). A thing's version is the seq of the last record that set or
changed it. Each check is a ``precondition`` for ``display.http.endpoint.write``: it runs under the
tournament's write lock after the Idempotency-Key check, so of two writers holding one version
only the first passes, and a retry of a change that landed gets its first answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from starlette.responses import Response

from display.errors import ApiError
from display.log.store import version_number

ENTITY_TAG = re.compile(r'(W/)?"([^"]*)"')


def if_match(header: str | None) -> set[int]:
    """The entry versions named by ``If-Match: "<seq>"`` (a list of strong entity tags, RFC 9110
    §13.1.1; weak ones never match a strong comparison, §8.8.3.2). Raises ApiError 428
    ``version_required`` without the header or with ``*`` (RFC 6585 §3: ``*`` would match any
    version and so protect nothing), 400 ``invalid_if_match`` when it is not entity tags."""
    raw = (header or "").strip()
    if not raw or raw == "*":
        raise ApiError(
            428,
            "version_required",
            'Say which version of this entry you are changing (If-Match: "<version>"); reload '
            "it and try again.",
        )
    versions = set()
    for part in raw.split(","):
        found = ENTITY_TAG.fullmatch(part.strip())
        if found is None:
            raise ApiError(
                400, "invalid_if_match", f'If-Match takes versions as "7", not {part.strip()!r}.'
            )
        weak, tag = found.groups()
        version = None if weak else version_number(tag)
        if version is not None:
            versions.add(version)
    return versions


def check(header: str | None, current: int | None, what: str) -> None:
    """Refuse unless ``header`` (the request's ``If-Match``) names ``current``, the version of
    ``what`` ("game", "adjustment", "record") as the state stands. ``current`` None: the thing is
    not there; only the header is checked and the kind's rules refuse the change with their own
    message. Raises ApiError 428 ``version_required`` (no header, or ``*``), 400
    ``invalid_if_match``, 412 ``entry_changed``."""
    versions = if_match(header)
    if current is not None and current not in versions:
        raise ApiError(
            412,
            "entry_changed",
            f"Someone changed this {what} since you opened it (it is now version {current}). "
            "Reload it and try again.",
        )


def precondition(
    header: str | None, version_of: Callable[[Any], int | None], what: str
) -> Callable[[Any], None]:
    """A ``precondition`` for ``display.http.endpoint.write``: ``check`` against ``version_of(state)``.
    The state is the kind's own type (``LiveTournament.state``); its endpoints pass lambdas,
    which a type variable could not bind."""
    return lambda state: check(header, version_of(state), what)


def tagged(response: Response, version: int) -> Response:
    """``response`` with the changed thing's new ``version`` as its ``ETag`` (RFC 9110 §8.8.3)."""
    response.headers["ETag"] = f'"{version}"'
    return response
