"""Importing a tournament's log into this server (``POST /api/t/{id}/import``, TD): the JSON lines
of ``GET /api/t/{id}/export/log.jsonl`` (another server's, or this one's under a new id) replayed
in order with the same validation as live writes, so the standings come out identical.

Every record is checked before anything is written: the first must be ``tournament_created``,
``seq`` (when present) must count 1, 2, 3 …, and each record must be one the tournament's kind (or
``display/live/shared.py``) accepts at that point, exactly as if it had been written through the
API. Then all of them are appended at once, atomically, as a new tournament; ``by`` and ``at`` are
kept, so the history stays whose and when it was. Any refusal is a 422 naming the line, and
nothing is written. The file's chain hashes (``h``) must check out (``display/log/verify.py``); the
records get a fresh chain here, equal to the file's when it holds a whole chained log.
"""

from __future__ import annotations

import asyncio
import hashlib
import re

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from display.errors import ApiError
from display.http.endpoint import services, signed_in, written
from display.live.tournament import RecordRefused, check_new
from display.log.verify import verify_file_bytes
from display.types import Record
from scoring.errors import ScoringError

MAX_RECORDS = 200_000
ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")


def parse(raw: bytes) -> list[Record]:
    """JSON lines -> records without their ``seq``. Raises ApiError 422 naming the line."""
    records: list[Record] = []
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


def check(records: list[Record]) -> None:
    """Apply every record as a replica would (``check_new``), without writing: raises ApiError 422
    naming the line of the first record refused (a restore checks its export this way)."""
    try:
        check_new(records)
    except RecordRefused as refused:
        raise explain(records, refused.seq, refused.cause) from None


def explain(records: list[Record], seq: int, error: Exception) -> ApiError:
    """The writer refused record ``seq`` of ``records`` (line ``seq``, blank lines aside) with
    ``error``: a 422 naming the line."""
    if isinstance(error, ScoringError):
        if seq == 1:
            return _bad(1, error.message)
        return _bad(seq, f"was refused: {error.message}")
    if seq == 1:
        return _bad(1, "is not a tournament this server can run")
    return _bad(seq, f"is a {records[seq - 1]['type']} record this server cannot apply")


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
    """TD: a log export replayed as a new tournament (module docstring). Raises ApiError 422
    (not a tournament id, or a line refused: nothing written), 409 (the id is taken)."""
    tid = request.path_params["tournament"]
    await signed_in(request, None, td_only=True)
    if not ID.match(tid):
        raise ApiError(422, "invalid_request", "A tournament id has 1-32 letters, digits, _ . -")
    raw = await request.body()
    records = parse(raw)
    # Checked by the writer as a new tournament (in a thread), then appended at once, atomically.
    committed = await services(request).writer.commit(
        tid,
        records,
        key=request.headers.get("idempotency-key") or None,
        fingerprint=hashlib.sha256(request.url.path.encode() + b"\0" + raw).hexdigest(),
        create=True,
        explain=lambda seq, error: explain(records, seq, error),
        also_check=lambda: asyncio.to_thread(chain_problem, raw),
        stamped=False,
        wait=30,
    )
    count = committed.version if committed.replayed else len(records)
    return written(committed.version, committed.replayed, {"id": tid, "records": count})


routes = [Route("/api/t/{tournament}/import", import_log, methods=["POST"])]
