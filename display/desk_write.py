"""Writing records every kind shares (``display.desk_records``), which the kinds never see.

The same path as ``display.api.write`` (DESIGN.md principle 2): validate against the replica at
version V, append at V+1 only if the log is still at V, retry after catching up, honour an
``Idempotency-Key``, answer after Redis acknowledged. Only the validation differs: these records
go to ``desk_records``, not to the tournament's kind.
"""

from __future__ import annotations

import hashlib
from typing import Any

from starlette.requests import Request

from display import desk_records
from display.api import MAX_ATTEMPTS, services
from display.errors import ApiError
from display.store import Record, VersionConflict


async def write_shared(
    request: Request, tournament: str, records: list[dict[str, Any]]
) -> tuple[int, bool]:
    """Validate and append shared ``records``; returns (version of the last, replayed?).

    Raises SettingsError (422) for a bad record, ApiError 404 for an unknown tournament."""
    svc = services(request)
    key = request.headers.get("idempotency-key") or None
    if key is not None and not 1 <= len(key) <= 200:
        raise ApiError(
            400, "invalid_idempotency_key", "An Idempotency-Key has 1 to 200 characters."
        )
    fingerprint = hashlib.sha256(
        request.url.path.encode() + b"\0" + await request.body()
    ).hexdigest()
    if key is not None:
        seq = await svc.store.replayed(tournament, key, fingerprint)
        if seq is not None:
            await svc.replica.wait_for(tournament, seq)
            return seq, True
    async with svc.replica.write_lock(tournament):
        for _ in range(MAX_ATTEMPTS):
            live = svc.replica.tournaments.get(tournament)
            if live is None or live.kind is None:
                raise ApiError(404, "unknown_tournament", f"There is no tournament {tournament}.")
            state = live.shared
            for record in records:
                state, _ = desk_records.apply(state, record)
            try:
                appended = await svc.store.append(
                    tournament, live.version, records, key, fingerprint
                )
            except VersionConflict as conflict:
                await svc.replica.wait_for(tournament, conflict.version)
                continue
            if appended.replayed:
                await svc.replica.wait_for(tournament, appended.seq)
            else:
                first = appended.seq - len(records) + 1
                svc.replica.ingest(
                    tournament, [Record(first + i, r) for i, r in enumerate(records)]
                )
            return appended.seq, appended.replayed
    raise ApiError(503, "busy", "The server is very busy; send the same request again.")
