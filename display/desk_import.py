"""Importing a tournament's log into this server (``POST /api/t/{id}/import``, TD): the JSON lines
of ``GET /api/t/{id}/export/log.jsonl`` (another server's, or this one's under a new id) replayed
in order with the same validation as live writes, so the standings come out identical.

Every record is checked before anything is written: the first must be ``tournament_created``,
``seq`` (when present) must count 1, 2, 3 …, and each record must be one the tournament's kind (or
``display/desk_records.py``) accepts at that point, exactly as if it had been written through the
API. Then all of them are appended at once, atomically, as a new tournament; ``by`` and ``at`` are
kept, so the history stays whose and when it was. Any refusal is a 422 naming the line, and
nothing is written. The file's chain hashes (``h``) must check out (``display/verify.py``); the
records get a fresh chain here, equal to the file's when it holds a whole chained log.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from display import desk_records, kinds
from display.api import services, signed_in, written
from display.errors import ApiError
from display.store import VersionConflict
from display.verify import verify_file_bytes
from scoring.errors import ScoringError

MAX_RECORDS = 200_000
ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")


def parse(raw: bytes) -> list[dict[str, Any]]:
    """JSON lines -> records without their ``seq``. Raises ApiError 422 naming the line."""
    records: list[dict[str, Any]] = []
    for line_no, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = orjson.loads(line)
        except orjson.JSONDecodeError:
            raise _bad(line_no, "is not JSON") from None
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise _bad(line_no, "is not a record (a JSON object with a type)")
        seq = data.pop("seq", len(records) + 1)
        data.pop("h", None)  # the chain hash: checked by ``chain_problem``, written afresh
        if seq != len(records) + 1:
            raise _bad(line_no, f"has seq {seq}, expected {len(records) + 1}: lines are missing")
        records.append(data)
        if len(records) > MAX_RECORDS:
            raise ApiError(422, "invalid_log", f"A log holds at most {MAX_RECORDS} records.")
    if not records:
        raise ApiError(422, "invalid_log", "The file holds no records.")
    if records[0]["type"] != "tournament_created":
        raise _bad(1, "must be the tournament_created record")
    return records


def check(records: list[dict[str, Any]]) -> None:
    """Apply every record as the replica would, refusing what the rules refuse. Raises ApiError
    422 naming the record's line (blank lines aside, line n holds version n)."""
    try:
        kind, state = kinds.create(records[0])
    except ScoringError as exc:
        raise _bad(1, exc.message) from None
    except (KeyError, TypeError, ValueError):
        raise _bad(1, "is not a tournament this server can run") from None
    shared = desk_records.EMPTY
    for seq, record in enumerate(records[1:], start=2):
        try:
            if desk_records.handles(record["type"]):
                shared, _ = desk_records.apply(shared, record)
            else:
                state, _ = kind.apply(state, seq, record)
        except ScoringError as exc:
            raise _bad(seq, f"was refused: {exc.message}") from None
        except (KeyError, TypeError, ValueError, AttributeError):
            raise _bad(seq, f"is a {record['type']} record this server cannot apply") from None


def chain_problem(raw: bytes) -> None:
    """Refuse a file whose chain hashes (``h``, docs/integrity.md) do not check out: a record
    changed since it was exported is not restored as if it were the original. A file without
    hashes (an older server's, or the chain off) passes. Raises ApiError 422 naming the seq."""
    chain = verify_file_bytes(raw)
    if chain.broken is not None:
        what = f"fails the hash chain: {chain.broken.why}"
        raise _bad(chain.broken.seq, what + " (remove the h fields to import it anyway)")


def _bad(line: int, what: str) -> ApiError:
    return ApiError(422, "invalid_log", f"Line {line} {what}. Nothing was imported.")


async def import_log(request: Request) -> Response:
    tid = request.path_params["tournament"]
    await signed_in(request, None, td_only=True)
    if not ID.match(tid):
        raise ApiError(422, "invalid_request", "A tournament id has 1-32 letters, digits, _ . -")
    svc = services(request)
    raw = await request.body()
    key = request.headers.get("idempotency-key") or None
    fingerprint = hashlib.sha256(request.url.path.encode() + b"\0" + raw).hexdigest()
    if key is not None:
        seq = await svc.store.replayed(tid, key, fingerprint)
        if seq is not None:
            await svc.replica.wait_for(tid, seq, timeout=30)
            return written(seq, True, {"id": tid, "records": seq})
    records = parse(raw)
    await asyncio.to_thread(check, records)  # pure; a long log must not stall the hall
    await asyncio.to_thread(chain_problem, raw)
    async with svc.replica.write_lock(tid):
        if tid in svc.replica.tournaments:
            raise ApiError(409, "duplicate", f"Tournament {tid} already exists on this server.")
        try:
            appended = await svc.store.append(tid, 0, records, key, fingerprint, register=True)
        except VersionConflict:
            raise ApiError(409, "duplicate", f"Tournament {tid} already exists.") from None
        await svc.replica.wait_for(tid, appended.seq, timeout=30)
    return written(appended.seq, appended.replayed, {"id": tid, "records": len(records)})


routes = [Route("/api/t/{tournament}/import", import_log, methods=["POST"])]
