"""The log store: one Redis Stream per tournament, compare-and-append, idempotent writes.

Record *n* of a tournament has stream id ``n-0``, so a version is a plain integer and "the log's last
version is still V" is one Lua script (DESIGN.md principle 2). A write names the version it was
validated against; if another writer got in first the script refuses and the caller catches up and
retries. An ``Idempotency-Key`` is stored with the request's fingerprint in the same script, so a
retried request returns the first answer and appends nothing.

Keys (``P`` = key prefix)::

    P:registry              STREAM  one entry per tournament created (field ``t``)
    P:t:{id}:log            STREAM  the tournament's records (field ``r``: JSON)
    P:t:{id}:idem:{key}     STRING  "fingerprint seq" for 7 days
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from redis.asyncio import Redis

IDEMPOTENCY_TTL_SECONDS = 7 * 24 * 3600

_APPEND = """
local log, idem, registry = KEYS[1], KEYS[2], KEYS[3]
local expected, fingerprint, ttl, tid = tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
if idem ~= '' then
  local prev = redis.call('GET', idem)
  if prev then return {'dup', prev} end
end
local last = redis.call('XREVRANGE', log, '+', '-', 'COUNT', 1)
local version = 0
if #last > 0 then version = tonumber(string.match(last[1][1], '^(%d+)')) end
if version ~= expected then return {'conflict', tostring(version)} end
local seq = version
for i = 5, #ARGV do
  seq = seq + 1
  redis.call('XADD', log, tostring(seq) .. '-0', 'r', ARGV[i])
end
if idem ~= '' then redis.call('SET', idem, fingerprint .. ' ' .. tostring(seq), 'EX', ttl) end
if registry ~= '' then redis.call('XADD', registry, '*', 't', tid) end
return {'ok', tostring(seq)}
"""


@dataclass(frozen=True)
class Appended:
    """The answer to a write: the version of its last record, and whether it replayed an earlier key."""

    seq: int
    replayed: bool = False


class VersionConflict(Exception):
    """Another writer appended first; ``version`` is the log's version now."""

    def __init__(self, version: int) -> None:
        super().__init__(f"log is at version {version}")
        self.version = version


class IdempotencyMismatch(Exception):
    """An Idempotency-Key was reused with a different request body."""


class LogStore:
    """Append to and read tournament logs in one Redis. Records are JSON-safe dicts."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._append = redis.register_script(_APPEND)

    @property
    def registry_key(self) -> str:
        return f"{self.prefix}:registry"

    def log_key(self, tournament: str) -> str:
        return f"{self.prefix}:t:{tournament}:log"

    async def append(
        self,
        tournament: str,
        expected: int,
        records: Sequence[dict[str, Any]],
        idempotency_key: str | None = None,
        fingerprint: str = "",
        register: bool = False,
    ) -> Appended:
        """Append ``records`` as versions ``expected + 1 …`` at once, if the log is still at ``expected``.

        Raises VersionConflict (someone else appended) or IdempotencyMismatch. A key already used with
        the same fingerprint returns the first append's version with ``replayed=True``.
        ``register`` also announces a new tournament on the registry stream, atomically.
        """
        idem = f"{self.prefix}:t:{tournament}:idem:{idempotency_key}" if idempotency_key else ""
        keys = [self.log_key(tournament), idem, self.registry_key if register else ""]
        args = [expected, fingerprint, IDEMPOTENCY_TTL_SECONDS, tournament]
        args += [orjson.dumps(record) for record in records]
        status, value = await self._append(keys=keys, args=args)
        status, value = _text(status), _text(value)
        if status == "ok":
            return Appended(int(value))
        if status == "conflict":
            raise VersionConflict(int(value))
        stored_fingerprint, _, seq = value.rpartition(" ")
        if stored_fingerprint != fingerprint:
            raise IdempotencyMismatch(idempotency_key)
        return Appended(int(seq), replayed=True)

    async def replayed(self, tournament: str, idempotency_key: str, fingerprint: str) -> int | None:
        """The version a used ``idempotency_key`` wrote, or None if unused.

        Raises IdempotencyMismatch if it was used with another fingerprint.
        """
        value = await self.redis.get(f"{self.prefix}:t:{tournament}:idem:{idempotency_key}")
        if value is None:
            return None
        stored_fingerprint, _, seq = _text(value).rpartition(" ")
        if stored_fingerprint != fingerprint:
            raise IdempotencyMismatch(idempotency_key)
        return int(seq)

    async def read(self, tournament: str, after: int = 0, count: int | None = None) -> list[Record]:
        """Records with version > ``after``, in order."""
        entries = await self.redis.xrange(
            self.log_key(tournament), min=f"({after}-0" if after else "-", count=count
        )
        return [_record(entry) for entry in entries]

    async def record(self, tournament: str, seq: int) -> dict[str, Any] | None:
        """The record at version ``seq``, or None."""
        entries = await self.redis.xrange(self.log_key(tournament), f"{seq}-0", f"{seq}-0")
        return _record(entries[0]).data if entries else None

    async def tournaments(self) -> list[str]:
        """Every tournament ever registered, in creation order (no duplicates)."""
        entries = await self.redis.xrange(self.registry_key)
        seen: dict[str, None] = {}
        for _, fields in entries:
            seen.setdefault(_text(fields[b"t"]), None)
        return list(seen)


@dataclass(frozen=True)
class Record:
    """A record as read back: its version and its JSON body."""

    seq: int
    data: dict[str, Any]


def _record(entry: Sequence[Any]) -> Record:
    stream_id, fields = entry
    return Record(int(_text(stream_id).partition("-")[0]), orjson.loads(fields[b"r"]))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
