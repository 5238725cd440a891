"""Putting back records the score store lost, from the desk's log export (docs/store-loss.md).

    POST /api/t/{t}/restore           TD; body: the JSON lines of GET /api/t/{t}/export/log.jsonl
    POST /api/t/{t}/restore/accept    TD; no body: accept the loss (what Redis holds is the truth)
    backglass restore FILE [--tournament ID] [--data DIR]

A restore only ever *appends*: the file must start with exactly the records Redis still holds
(same records, same chain hashes where both have one), and the records after those are appended in
one compare-and-append at the version Redis holds, with the hash chain continuing from its last
entry, so they get back the hashes they had (checked against the file's ``h`` before anything is
written). A tournament Redis lost entirely is registered again in the same script. Every record is
first checked through the tournament's kind, as an import is (``display/desk_import.check``).
A file that disagrees with what Redis holds is refused (409) and nothing is written.

After the append the server's ``Guard`` checks the tournament again: with every record it had seen
back, writes are accepted again, the displays' ``integrity`` mark goes, and the replica reads the
restored records (a restarted server's displays catch up through the normal patch stream).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import click
import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display.desk import imports as desk_import
from display.errors import ApiError
from display.http.endpoint import services, signed_in
from display.live.hub import RESYNC
from display.log.connection import connect
from display.log.integrity import GENESIS, chain_hash
from display.log.keys import store_prefix
from display.log.store import LogStore, VersionConflict
from display.log.store import Record as StoredRecord
from display.settings import Settings
from display.types import Record

MAX_BYTES = 20 * 1024 * 1024
"""The largest export accepted (a long weekend's log is a few MB)."""


class RestoreRefused(Exception):
    """The file cannot restore this tournament; ``code`` and ``message`` say why (HTTP 409)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True)
class Export:
    """A parsed log export: records in version order (without ``seq``/``h``) and their ``h``."""

    records: list[Record]
    hashes: list[str | None]


@dataclass(frozen=True)
class Restored:
    """``had``: the version Redis held; ``version``: the version it holds now."""

    had: int
    version: int

    @property
    def appended(self) -> int:
        """How many records the restore put back."""
        return self.version - self.had


def parse(raw: bytes) -> Export:
    """JSON lines, one record each with ``seq`` 1, 2, 3 … and optionally ``h``. Raises ApiError 422
    naming the line (as ``desk_import.parse`` does)."""
    hashes: list[str | None] = []
    lines: list[bytes] = []
    for line in raw.splitlines():
        if not line.strip():
            continue
        try:
            data = orjson.loads(line)
        except orjson.JSONDecodeError:
            raise ApiError(422, "invalid_log", f"Line {len(lines) + 1} is not JSON.") from None
        h = data.pop("h", None) if isinstance(data, dict) else None
        hashes.append(h if isinstance(h, str) else None)
        lines.append(orjson.dumps(data))
    records = desk_import.parse(b"\n".join(lines))  # seq order, a record a line, created first
    return Export(records, hashes)


async def restore_log(store: LogStore, tid: str, export: Export) -> Restored:
    """Append the records of ``export`` that Redis's log of ``tid`` lacks, if the log is a prefix
    of the export. Raises RestoreRefused (nothing written) or ApiError 422 (a record the rules
    refuse)."""
    held = await store.read(tid)
    _check_prefix(held, export)
    missing = export.records[len(held) :]
    if not missing:
        return Restored(len(held), len(held))
    await asyncio.to_thread(desk_import.check, export.records)
    prev: str | None = None
    if store.hash_chain:
        prev = (held[-1].h if held else None) or GENESIS
        _check_hashes(prev, missing, export.hashes[len(held) :], len(held))
    registered = tid in await store.tournaments()
    try:
        appended = await store.append(
            tid, len(held), missing, register=not registered, prev_hash=prev
        )
    except VersionConflict:
        raise RestoreRefused(
            "log_moved", "The score store changed while restoring; nothing was restored. Try again."
        ) from None
    return Restored(len(held), appended.seq)


def _check_prefix(held: Sequence[StoredRecord], export: Export) -> None:
    if len(held) > len(export.records):
        raise RestoreRefused(
            "export_older",
            f"The file holds {len(export.records)} records but the score store still holds "
            f"{len(held)}: it is older than the store. Use a newer export; nothing was restored.",
        )
    for record, data, h in zip(held, export.records, export.hashes, strict=False):
        if record.data != data or (record.h and h and record.h != h):
            raise RestoreRefused(
                "export_disagrees",
                f"Record {record.seq} in the file is not the one the score store holds, so this "
                "export is from another tournament or another history. Nothing was restored.",
            )


def _check_hashes(
    prev: str, records: Sequence[Record], hashes: Sequence[str | None], after: int
) -> None:
    for seq, (record, h) in enumerate(zip(records, hashes, strict=True), start=after + 1):
        prev = chain_hash(prev, orjson.dumps(record))
        if h is not None and h != prev:
            raise RestoreRefused(
                "hash_mismatch",
                f"Record {seq} in the file does not match its hash (the file was changed after "
                "it was exported). Nothing was restored.",
            )


async def _read_body(request: Request) -> bytes:
    limit = min(services(request).settings.max_upload, MAX_BYTES)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "too_large", f"A log export is at most {limit // 2**20} MB.")
        chunks.append(chunk)
    return b"".join(chunks)


async def restore_endpoint(request: Request) -> Response:
    """TD: restore a tournament's lost records from its log export (JSON lines)."""
    tid = request.path_params["tournament"]
    await signed_in(request, None, td_only=True)
    svc = services(request)
    known = tid in svc.replica.registered or (svc.guard is not None and tid in svc.guard.behind)
    if not desk_import.ID.match(tid) or not known:
        raise ApiError(
            404,
            "unknown_tournament",
            f"This server never had a tournament {tid} (Import a new one).",
        )
    export = parse(await _read_body(request))
    async with svc.replica.write_lock(tid):
        try:
            done = await restore_log(svc.store, tid, export)
        except RestoreRefused as exc:
            raise ApiError(409, exc.code, exc.message) from None
        lost = await svc.guard.recheck(tid) if svc.guard is not None else None
    if lost is None:
        await svc.replica.wait_for(tid, done.version, timeout=30)
    answer: dict[str, object] = {
        "tournament": tid,
        "restored": done.appended,
        "version": done.version,
        "state": "ok" if lost is None else "behind",
    }
    if lost is not None:
        answer["seen"] = lost.seen
        answer["message"] = (
            f"Restored {done.appended} records, but the store holds version {lost.have} and this "
            f"server had seen {lost.seen}: restore a newer export, or accept the loss."
        )
    return JSONResponse(answer)


async def accept_endpoint(request: Request) -> Response:
    """TD: accept that the records the store lost are gone (no export holds them)."""
    tid = request.path_params["tournament"]
    await signed_in(request, None, td_only=True)
    svc = services(request)
    if svc.guard is None or tid not in svc.guard.behind:
        raise ApiError(409, "not_behind", f"The score store holds everything of {tid}.")
    async with svc.replica.write_lock(tid):
        have = svc.guard.behind[tid].have
        rebuilt = await svc.guard.accept(tid)
    if rebuilt and have:
        await svc.replica.wait_for(tid, have, timeout=30)
        svc.hub.broadcast(tid, RESYNC)  # clients hold a newer state: each gets a snapshot
    return JSONResponse({"tournament": tid, "version": have, "state": "ok"})


routes = [
    Route("/api/t/{tournament}/restore", restore_endpoint, methods=["POST"]),
    Route("/api/t/{tournament}/restore/accept", accept_endpoint, methods=["POST"]),
]


@click.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--tournament", "-t", help="Tournament id (default: from FILE's name, <id>.log.jsonl)."
)
@click.option("--data", type=click.Path(path_type=Path), default=None, help="Data directory.")
def restore(file: Path, tournament: str | None, data: Path | None) -> None:
    """Restore a tournament's lost records from its log export (docs/store-loss.md).

    Into --data, or REDIS_URL / BACKGLASS_DATA, or the store that knows the tournament: .data,
    else the demo's .data/demo (``display.log.verify.locate``)."""
    from display.log.verify import candidates, locate, where

    tid = tournament or file.name.removesuffix(".jsonl").removesuffix(".log")
    settings = locate(candidates(data), data, [tid], strict=False)
    try:
        export = parse(file.read_bytes())
        done = asyncio.run(_restore(settings, tid, export))
    except (ApiError, RestoreRefused) as exc:
        raise click.ClickException(exc.message) from None
    click.echo(
        f"{tid}: restored {done.appended} records {where(settings)}; the store holds version "
        f"{done.version}."
    )


async def _restore(settings: Settings, tid: str, export: Export) -> Restored:
    from display.embedded.redis import EmbeddedRedis

    embedded = None
    url = settings.redis_url
    if url is None:  # reuses the embedded Redis of a running server on the same data directory
        embedded = EmbeddedRedis(settings.data_dir)
        url = await asyncio.to_thread(embedded.start)
    redis = connect(url)
    try:
        return await restore_log(
            LogStore(redis, store_prefix(settings.key_prefix, url), settings.hash_chain),
            tid,
            export,
        )
    finally:
        await redis.aclose()
        if embedded is not None:
            await asyncio.to_thread(embedded.stop)
