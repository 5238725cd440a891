"""The log store: one Redis Stream per tournament, compare-and-append, idempotent writes.

Record *n* of a tournament has stream id ``n-0``, so a version is a plain integer and "the log's last
version is still V" is one Lua script (architecture principle 2). A write names the version it was
validated against; if another writer got in first the script refuses and the caller catches up and
retries. An ``Idempotency-Key`` is stored with the request's fingerprint in the same script, so a
retried request returns the first answer and appends nothing. One script call may carry several
writes (``append_writes``: the writer's group commit), their records as consecutive versions and
each write's key with the version of its own last record, in one round trip and one fsync.

Keys (``P`` = key prefix; on a Redis Cluster ``{P}:registry`` and ``P:t:{ID}:…``, one hash
slot per tournament: ``display/log/keys.py``)::

    P:registry              STREAM  one entry per tournament created (field ``t``)
    P:t:ID:log              STREAM  the tournament's records (field ``r``: JSON; ``h``: chain hash)
    P:t:ID:idem:KEY         STRING  "fingerprint seq" for 7 days
    P:t:ID:summary          STRING  what the registry lists of it (``display/live/summaries.py``)

On one server a new tournament's registry entry is written by the append script itself; on a
cluster, where the registry lives in another slot, just before it (``LogStore.register``).

Hash chain (``Settings.hash_chain``, on by default; ``docs/integrity.md``): entry *n* also has
``h`` = ``sha256(prev + "\n" + r)`` in lowercase hex, where ``r`` is the exact bytes stored in field
``r`` and ``prev`` is the ASCII hex ``h`` of entry *n - 1*, or ``GENESIS`` (64 zeros) for entry 1
and for an entry after one without ``h`` (a log written before the chain, or with it off: the
chain starts at its first hashed entry). The hashes are computed here, in Python, from the
``prev_hash`` the writer passes (its replica's head); the script refuses the append as a version
conflict when the log's last ``h`` is not ``prev_hash``, in the same round trip as the version
check. ``display/log/verify.py`` checks a chain.

Replicated acknowledgement (``wait_replicas`` above 0; ``docs/deploy.md``): the append script and
``WAIT wait_replicas wait_timeout_ms`` go in one pipeline, so on one connection, and WAIT counts the
replicas that have everything this connection wrote. Fewer than asked raise NotReplicated: the
records are on the master and may or may not survive a failover, so the caller answers 503 and a
retry with the same Idempotency-Key finds them (or, after a failover that lost them, appends them
anew). A replayed key is confirmed the same way: its idempotency entry is written again (same value,
same expiry) and WAITed for, which proves the replicas have the earlier append too (replication
keeps the master's order).

Audit fields (every record's ``by``, ``at`` and, where its competition says so, ``reason``) are
checked by the writer (``display/log/integrity.py``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson
from redis.asyncio import Redis
from redis.asyncio.cluster import PipelineCommand, RedisCluster
from redis.exceptions import AskError, MovedError, RedisError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.typing import EncodableT, StreamRangeResponse

from display.log.integrity import GENESIS, chain_hash
from display.log.keys import is_cluster, tournament_key
from display.types import Record as RecordData

IDEMPOTENCY_TTL_SECONDS = 7 * 24 * 3600

RESERVED_FIELDS = frozenset({"seq", "h"})
"""Names no record may use for a field of its own: the log's listing and export write each
record's version (``seq``) and chain hash (``h``) beside its fields, where such a field would
stand in their place (a Country void once named its target ``seq``)."""
MAX_VERSION_DIGITS = 18  # a version is a stream id's first part: a 64-bit integer


def version_number(text: str) -> int | None:
    """``text`` as a version or record number (0, 1, 2 …), or None when it is not one: only ASCII
    digits (``str.isdigit`` takes "²", which ``int`` refuses) and at most 18 of them (a stream id
    is 64-bit; ``int`` refuses over 4300 digits), so no caller can turn bad input into a 500."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_VERSION_DIGITS:
        return int(text)
    return None


# KEYS: the log, then each keyed write's idempotency key and session, then (one server, a new
# tournament) the registry. ARGV: expected, ttl, tournament, prev_hash ('' = no chain), the
# registry's index in KEYS (0: none), then per write: its key's index in KEYS (0: no key), its
# fingerprint, its session's index in KEYS (0: none), its record count and its records: r, h, r, h
# … when chained, else r, r …
_APPEND = """
local log = KEYS[1]
local expected, ttl, tid = tonumber(ARGV[1]), ARGV[2], ARGV[3]
local prev_hash, registry = ARGV[4], tonumber(ARGV[5])
local step = 1
if prev_hash ~= '' then step = 2 end
local writes = {}
local i = 6
while i <= #ARGV do
  local count = tonumber(ARGV[i + 3])
  table.insert(writes, {tonumber(ARGV[i]), ARGV[i + 1], i + 4, count, tonumber(ARGV[i + 2])})
  i = i + 4 + count * step
end
local ended = {'ended'}
for w, write in ipairs(writes) do
  if write[5] > 0 and redis.call('EXISTS', KEYS[write[5]]) == 0 then
    table.insert(ended, tostring(w))
  end
end
if #ended > 1 then return ended end
local used = {'dup'}
for w, write in ipairs(writes) do
  if write[1] > 0 then
    local prev = redis.call('GET', KEYS[write[1]])
    if prev then
      table.insert(used, tostring(w))
      table.insert(used, prev)
    end
  end
end
if #used > 1 then return used end
local last = redis.call('XREVRANGE', log, '+', '-', 'COUNT', 1)
local version = 0
local head = string.rep('0', 64)
if #last > 0 then
  version = tonumber(string.match(last[1][1], '^(%d+)'))
  local fields = last[1][2]
  for f = 1, #fields, 2 do
    if fields[f] == 'h' then head = fields[f + 1] end
  end
end
if version ~= expected then return {'conflict', tostring(version)} end
if prev_hash ~= '' and head ~= prev_hash then return {'chain', tostring(version)} end
local seq = version
for _, write in ipairs(writes) do
  local first = write[3]
  for r = first, first + (write[4] - 1) * step, step do
    seq = seq + 1
    if step == 2 then
      redis.call('XADD', log, tostring(seq) .. '-0', 'r', ARGV[r], 'h', ARGV[r + 1])
    else
      redis.call('XADD', log, tostring(seq) .. '-0', 'r', ARGV[r])
    end
  end
  if write[1] > 0 then
    redis.call('SET', KEYS[write[1]], write[2] .. ' ' .. tostring(seq), 'EX', ttl)
  end
end
if registry > 0 then redis.call('XADD', KEYS[registry], '*', 't', tid) end
return {'ok', tostring(seq)}
"""


@dataclass(frozen=True)
class Append:
    """One write of ``LogStore.append_writes``: its records, in order, and the request's
    Idempotency-Key (None: none) and fingerprint, recorded with the version of its last record;
    ``session``: the Redis key of the sign-in session that makes the write (None: none), which
    must still exist when the records are appended (``SessionsEnded``)."""

    records: Sequence[RecordData]
    idempotency_key: str | None = None
    fingerprint: str = ""
    session: str | None = None


@dataclass(frozen=True)
class Appended:
    """The answer to a write: the version of its last record, whether it replayed an earlier key,
    and the new records' chain hashes (empty when replayed or the chain is off)."""

    seq: int
    replayed: bool = False
    hashes: tuple[str, ...] = ()

    def records(self, written: Sequence[RecordData]) -> list[Record]:
        """``written`` (the records this append stored, in order) as Records with seq and ``h``."""
        first = self.seq - len(written) + 1
        hashes: Sequence[str | None] = self.hashes or [None] * len(written)
        return [
            Record(first + i, r, h) for i, (r, h) in enumerate(zip(written, hashes, strict=True))
        ]


class VersionConflict(Exception):
    """Another writer appended first; ``version`` is the log's version now. ``chain``: the
    version matched but the log's last hash is not the ``prev_hash`` the writer gave."""

    def __init__(self, version: int, chain: bool = False) -> None:
        super().__init__(
            f"log is at version {version}" + (", its last hash differs" if chain else "")
        )
        self.version = version
        self.chain = chain


class KeysUsed(Exception):
    """``LogStore.append_writes`` appended nothing: some of its writes' Idempotency-Keys were
    used before. ``answers``: by the write's index, its first append (``replayed=True``) or the
    error to raise for it (IdempotencyMismatch, NotReplicated)."""

    def __init__(self, answers: dict[int, Appended | Exception]) -> None:
        super().__init__(f"writes {sorted(answers)} were appended before")
        self.answers = answers


class SessionsEnded(Exception):
    """``LogStore.append_writes`` appended nothing: the sessions of the writes at ``indices``
    (0-based) had ended (signed out, revoked or expired) when the script ran; the caller answers
    those 401 and sends the others again. The check and the append are one script, so no write
    lands after its session ended (``display/http/auth.py``, "Sessions")."""

    def __init__(self, indices: Sequence[int]) -> None:
        super().__init__(f"the sessions of writes {list(indices)} have ended")
        self.indices = tuple(indices)


class NotReplicated(Exception):
    """The append (or the replay of an Idempotency-Key) reached the master, but fewer than the
    required replicas confirmed it within the timeout: it may be lost by a failover. ``seq`` is
    the version it wrote."""

    def __init__(self, seq: int, confirmed: int, required: int) -> None:
        super().__init__(f"version {seq}: {confirmed} of {required} replicas confirmed it")
        self.seq, self.confirmed, self.required = seq, confirmed, required


class IdempotencyMismatch(Exception):
    """An Idempotency-Key was reused with a different request body."""


class LogStore:
    """Append to and read tournament logs in one Redis. Records are JSON-safe dicts.

    ``wait_replicas``: how many replicas must confirm an append before it counts (0: the master's
    answer suffices); ``wait_timeout_ms``: how long WAIT waits for them (module docstring)."""

    def __init__(
        self,
        redis: Redis,
        prefix: str,
        hash_chain: bool = True,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 1000,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.hash_chain = hash_chain
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self.cluster = is_cluster(prefix)
        self._append = redis.register_script(_APPEND)

    @property
    def checks_sessions(self) -> bool:
        """Whether an append can check that its writer's session still exists (``Append``): on
        one server, where the session keys and the log are in one keyspace; a cluster keeps them
        in other hash slots than the log, so a script cannot read both."""
        return not self.cluster

    @property
    def registry_key(self) -> str:
        """The stream ``P:registry``: one entry per tournament created, tailed by replicas."""
        return f"{self.prefix}:registry"

    def _idem_key(self, tournament: str, idempotency_key: str) -> str:
        return tournament_key(self.prefix, tournament, f"idem:{idempotency_key}")

    async def register(self, tournament: str) -> None:
        """Announce ``tournament`` on the registry by itself (a cluster store: the registry is
        in another slot than the tournament's log, so the append script cannot write both).
        Done *before* the log's first append: a crash in between leaves a registered tournament
        with an empty log, which a create at version 0 takes over (the writer), never a log no
        replica knows of."""
        await self.redis.xadd(self.registry_key, {"t": tournament})

    def log_key(self, tournament: str) -> str:
        """``tournament``'s log stream ``P:t:<tournament>:log`` (``P:t:{<tournament>}:log`` on a
        cluster, ``display/log/keys.py``); entry ids ``<seq>-0``."""
        return tournament_key(self.prefix, tournament, "log")

    async def append(
        self,
        tournament: str,
        expected: int,
        records: Sequence[RecordData],
        idempotency_key: str | None = None,
        fingerprint: str = "",
        register: bool = False,
        prev_hash: str | None = None,
        session: str | None = None,
    ) -> Appended:
        """Append ``records`` as versions ``expected + 1 …`` at once, if the log is still at ``expected``.

        Raises VersionConflict (someone else appended) or IdempotencyMismatch. A key already used with
        the same fingerprint returns the first append's version with ``replayed=True``; a record
        with a field of ``RESERVED_FIELDS`` raises ValueError (a bug in its kind, never input).
        ``register`` also announces a new tournament on the registry stream, atomically.
        ``prev_hash``: the ``h`` of the log's entry ``expected`` as the writer knows it (its replica's
        ``head_hash``; may be left out at ``expected`` 0); with the chain on, a log whose last hash
        differs raises VersionConflict with ``chain=True``. Ignored with the chain off.
        With ``wait_replicas``, raises NotReplicated when too few replicas confirmed in time.
        ``session``: as ``Append``'s (SessionsEnded). ``append_writes`` with one write.
        """
        write = Append(records, idempotency_key, fingerprint, session)
        try:
            (appended,) = await self.append_writes(
                tournament, expected, [write], register=register, prev_hash=prev_hash
            )
        except KeysUsed as used:
            answer = used.answers[0]
            if isinstance(answer, Exception):
                raise answer from None
            return answer
        return appended

    async def append_writes(
        self,
        tournament: str,
        expected: int,
        writes: Sequence[Append],
        register: bool = False,
        prev_hash: str | None = None,
    ) -> list[Appended]:
        """Append the records of ``writes``, in order, as versions ``expected + 1 …`` in one
        script call (one round trip, one fsync), if the log is still at ``expected``; each write's
        Idempotency-Key is stored in the same call with its fingerprint and the version of its own
        last record. Returns one Appended per write (its own version and chain hashes).

        Raises VersionConflict (someone else appended; nothing was). When a write's key was used
        before, nothing is appended and KeysUsed gives those writes' answers: their first
        append's version (``replayed=True``) or IdempotencyMismatch (another fingerprint), or,
        with ``wait_replicas``, NotReplicated; the caller sends the others again. Two writes with
        one key, or a record with a field of ``RESERVED_FIELDS``, raise ValueError (bugs of the
        caller, never input). ``register`` and ``prev_hash``: as for ``append`` (the chain runs on
        across the writes' records). With ``wait_replicas``, raises NotReplicated (its ``seq``:
        the last write's version) when too few replicas confirmed in time. A write whose
        ``session`` key no longer exists raises SessionsEnded, checked first (a signed-out
        steward's retry is refused, not replayed); a session on a store that cannot check one
        (``checks_sessions``) is a ValueError.
        """
        if not self.checks_sessions and any(w.session for w in writes):
            raise ValueError("a cluster store cannot check a session in the append script")
        named = [w.idempotency_key for w in writes if w.idempotency_key]
        if len(set(named)) != len(named):
            raise ValueError("two writes of one append share an Idempotency-Key")
        for write in writes:
            clash = next((r for r in write.records if RESERVED_FIELDS & r.keys()), None)
            if clash is not None:
                raise ValueError(
                    f"a {clash.get('type')} record may not have a field named seq or h"
                )
        chained, head = self.hash_chain, ""  # head: the chain hash of the last record so far
        if chained:
            if prev_hash is None and expected != 0:
                raise ValueError("an append after version 0 needs prev_hash (hash chain on)")
            head = prev_hash or GENESIS
        chain_arg = head
        keys = [self.log_key(tournament)]
        body: list[EncodableT] = []
        hashes: list[tuple[str, ...]] = []
        for write in writes:
            key_index = session_index = 0
            if write.idempotency_key:
                keys.append(self._idem_key(tournament, write.idempotency_key))
                key_index = len(keys)  # Lua counts from 1
            if write.session:
                keys.append(write.session)
                session_index = len(keys)
            body += [key_index, write.fingerprint, session_index, len(write.records)]
            own: list[str] = []
            for record in write.records:
                raw = orjson.dumps(record)
                if chained:
                    head = chain_hash(head, raw)
                    own.append(head)
                    body += [raw, head]
                else:
                    body.append(raw)
            hashes.append(tuple(own))
        registry = 0
        if register and not self.cluster:  # one server: the script writes the registry entry
            keys.append(self.registry_key)
            registry = len(keys)
        args: list[EncodableT] = [
            expected,
            IDEMPOTENCY_TTL_SECONDS,
            tournament,
            chain_arg,
            registry,
            *body,
        ]
        if register and self.cluster:  # the registry is in another slot: written just before
            await self.register(tournament)
        if self.wait_replicas and self.cluster:
            script = ("EVAL", _APPEND, len(keys), *keys, *args)
            reply, confirmed = await self._on_one_connection(keys[0], script)
        elif self.wait_replicas:
            async with self.redis.pipeline(transaction=False) as pipe:
                await self._append(keys=keys, args=args, client=pipe)
                pipe.wait(self.wait_replicas, self.wait_timeout_ms)
                reply, confirmed = await pipe.execute()
        else:
            reply = await self._append(keys=keys, args=args)
            confirmed = 0
        status, *values = [reply_text(part) for part in reply]
        if status == "ok":
            self._check_confirmed(int(values[0]), confirmed)
            appended, seq = [], expected
            for write, theirs in zip(writes, hashes, strict=True):
                seq += len(write.records)
                appended.append(Appended(seq, hashes=theirs))
            return appended
        if status in ("conflict", "chain"):
            raise VersionConflict(int(values[0]), chain=status == "chain")
        if status == "ended":
            raise SessionsEnded([int(index) - 1 for index in values])
        answers: dict[int, Appended | Exception] = {}
        for index, value in zip(values[::2], values[1::2], strict=True):
            write = writes[int(index) - 1]
            answers[int(index) - 1] = await self._replay_answer(tournament, write, value)
        raise KeysUsed(answers)

    async def _replay_answer(
        self, tournament: str, write: Append, value: str
    ) -> Appended | Exception:
        """The answer of ``write`` whose key holds ``value`` ("fingerprint seq"): its first
        append, confirmed by the replicas with ``wait_replicas``, or the error saying why not."""
        assert write.idempotency_key is not None
        stored_fingerprint, _, seq = value.rpartition(" ")
        if stored_fingerprint != write.fingerprint:
            return IdempotencyMismatch(write.idempotency_key)
        try:
            idem = self._idem_key(tournament, write.idempotency_key)
            await self._confirm_replay(idem, value, int(seq))
        except NotReplicated as not_replicated:
            return not_replicated
        return Appended(int(seq), replayed=True)

    async def _on_one_connection(
        self, key: str, command: tuple[EncodableT, ...]
    ) -> tuple[Any, int]:
        """A cluster store's ``command`` (the append script, a replay's SET) and ``WAIT`` on one connection to the
        master of ``key``'s slot: redis-py's cluster pipeline may send a keyless WAIT elsewhere.
        Returns the command's reply and the replicas WAIT counted. A slot that moved, a
        master that is gone, or a connection closed under it raises ConnectionError (nothing ran: a retry is safe) after asking
        the cluster client to learn the slots again."""
        cluster = cast(RedisCluster, self.redis)
        node = cluster.get_node_from_key(key)
        wait = ("WAIT", self.wait_replicas, self.wait_timeout_ms)
        commands = [PipelineCommand(0, *command), PipelineCommand(1, *wait)]
        try:
            if node is None:
                raise RedisConnectionError(f"no master for {key}")
            await node.execute_pipeline(commands)
            for sent in commands:
                if isinstance(sent.result, Exception):
                    raise sent.result
        except (MovedError, AskError, RedisConnectionError, OSError, AttributeError) as exc:
            # AttributeError: another request's re-learning of the slots (below) closed this
            # pooled connection between redis-py's connect and its write (its writer is None):
            # nothing was sent, so it is a lost connection like any other.
            with contextlib.suppress(RedisError, OSError):
                await cluster.nodes_manager.initialize()
            raise RedisConnectionError(f"the cluster moved or lost {key}'s master: {exc}") from exc
        return commands[0].result, int(cast(int, commands[1].result))

    def _check_confirmed(self, seq: int, confirmed: int) -> None:
        """Raises NotReplicated when WAIT counted fewer replicas than ``wait_replicas``."""
        if confirmed < self.wait_replicas:
            raise NotReplicated(seq, confirmed, self.wait_replicas)

    async def _confirm_replay(self, idem: str, value: str, seq: int) -> None:
        """With ``wait_replicas``: write the idempotency entry ``idem`` again as it is and WAIT,
        so a replayed key is acknowledged only once the replicas have its first append (module
        docstring). Raises NotReplicated."""
        if not self.wait_replicas:
            return
        again = ("SET", idem, value, "KEEPTTL", "XX")
        if self.cluster:
            _, confirmed = await self._on_one_connection(idem, again)
        else:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.execute_command(*again)
                pipe.wait(self.wait_replicas, self.wait_timeout_ms)
                _, confirmed = await pipe.execute()
        self._check_confirmed(seq, confirmed)

    async def replayed(self, tournament: str, idempotency_key: str, fingerprint: str) -> int | None:
        """The version a used ``idempotency_key`` wrote, or None if unused.

        Raises IdempotencyMismatch if it was used with another fingerprint; with
        ``wait_replicas``, NotReplicated when the replicas do not confirm it in time.
        """
        idem = self._idem_key(tournament, idempotency_key)
        value = await self.redis.get(idem)
        if value is None:
            return None
        stored_fingerprint, _, seq = reply_text(value).rpartition(" ")
        if stored_fingerprint != fingerprint:
            raise IdempotencyMismatch(idempotency_key)
        await self._confirm_replay(idem, reply_text(value), int(seq))
        return int(seq)

    async def read(self, tournament: str, after: int = 0, count: int | None = None) -> list[Record]:
        """Records with version > ``after``, in order."""
        page = await self.redis.xrange(
            self.log_key(tournament), min=f"({after}-0" if after else "-", count=count
        )
        return page_records(page)

    async def head(self, tournament: str) -> int:
        """The version of ``tournament``'s last record (0 for an empty or absent log)."""
        page = await self.redis.xrevrange(self.log_key(tournament), count=1)
        return page_records(page)[-1].seq if page else 0

    async def record(self, tournament: str, seq: int) -> RecordData | None:
        """The record at version ``seq``, or None."""
        found = page_records(
            await self.redis.xrange(self.log_key(tournament), f"{seq}-0", f"{seq}-0")
        )
        return found[0].data if found else None

    async def tournaments(self) -> list[str]:
        """Every tournament ever registered, in creation order (no duplicates)."""
        seen: dict[str, None] = {}
        for _, fields in stream_entries(await self.redis.xrange(self.registry_key)):
            seen.setdefault(reply_text(fields[b"t"]), None)
        return list(seen)


@dataclass(frozen=True)
class Record:
    """A record as read back: its version, its JSON body and its chain hash (None: unhashed)."""

    seq: int
    data: RecordData
    h: str | None = None


StreamFields = Mapping[bytes | str, bytes | str]
"""A stream entry's fields as redis-py types them. They are bytes here (no client of this server
decodes responses), so they are looked up as ``fields[b"r"]``."""


def stream_entries(page: StreamRangeResponse | None) -> list[tuple[str, StreamFields]]:
    """An XRANGE, XREVRANGE or XREAD page (None or empty: no entries) as (entry id ``"7-0"``,
    fields). redis-py types an entry's id and fields as optional because XCLAIM and XAUTOCLAIM
    answer a deleted entry with nulls; these commands never do, so a null is a broken reply:
    raises ValueError."""
    entries: list[tuple[str, StreamFields]] = []
    for entry_id, fields in page or ():
        if entry_id is None or fields is None:
            raise ValueError(f"a stream entry without an id or fields: {entry_id!r}")
        entries.append((reply_text(entry_id), fields))
    return entries


def entry_record(entry_id: str, fields: StreamFields) -> Record:
    """A tournament log's entry (``stream_entries``) as a Record: version from the id ``"7-0"``,
    the JSON body of field ``r``, the chain hash of field ``h`` (None when the entry has none).
    Raises KeyError without ``r``, orjson.JSONDecodeError when ``r`` is not JSON."""
    h = fields.get(b"h")
    return Record(
        int(entry_id.partition("-")[0]),
        orjson.loads(fields[b"r"]),
        None if h is None else reply_text(h),
    )


def page_records(page: StreamRangeResponse | None) -> list[Record]:
    """A page of a tournament log's entries (XRANGE or XREAD) as Records, in order."""
    return [entry_record(entry_id, fields) for entry_id, fields in stream_entries(page)]


def reply_text(value: bytes | str) -> str:
    """A Redis reply's bytes as text (a reply already decoded is kept as it is)."""
    return value.decode() if isinstance(value, bytes) else value
