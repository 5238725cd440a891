"""``If-Match`` for the competition kinds' changes to an existing record: an FWPL game's
correction, a UKPL adjustment's withdrawal, an EPC Country record's void.

The rule is the hall's (``display.competitions.machines.corrections``, docs/protocol.md "Changing an entry"): the
client names the version of the thing it saw as a strong entity tag, ``If-Match: "42"`` (RFC
9110 §13.1.1); none (or ``*``) is 428 ``version_required`` (RFC 6585 §3), another version 412
``entry_changed`` (RFC 9110 §15.5.13). A thing's version is the seq of the last record that set or
changed it. Each check is a ``precondition`` for ``display.http.endpoint.write``: it runs under the
tournament's write lock after the Idempotency-Key check, so of two writers holding one version
only the first passes, and a retry of a change that landed gets its first answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.responses import Response

from display.competitions.machines.corrections import if_match
from display.errors import ApiError


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
    """A ``precondition`` for ``display.http.endpoint.write``: ``check`` against ``version_of(state)``."""
    return lambda state: check(header, version_of(state), what)


def tagged(response: Response, version: int) -> Response:
    """``response`` with the changed thing's new ``version`` as its ``ETag`` (RFC 9110 §8.8.3)."""
    response.headers["ETag"] = f'"{version}"'
    return response
