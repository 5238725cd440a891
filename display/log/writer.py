"""The write path as one unit: ``Writer.commit`` (architecture principle 2).

Every record that enters a log goes through here: the API's writes, the desk's, a log import and
the UKPL season links. In order:

1. A record without ``by``/``at``, or a correction, void or penalty without ``reason``, is a
   programming error (RuntimeError): every caller stamps its records.
2. An ``Idempotency-Key`` used before with the same fingerprint returns the first answer; with
   another fingerprint IdempotencyMismatch (422).
3. The tournament is loaded if it is not in memory here (``display/live/loader.py``).
   Under the tournament's write lock (one per process): the store-regression guard (503 while the
   store lost records, docs/store-loss.md), the caller's precondition (an ``If-Match`` check),
   then the records are applied to the replica's state at version V (``LiveTournament.try_apply``:
   a rule refusal is a ScoringError, 4xx, and nothing is written).
4. One compare-and-append at V (``LogStore.append_writes``); another process's append in between
   means catch up and try again.
5. The state the rules computed is handed to the replica (the rules run once per push), which
   broadcasts the change; the tournament's summary (``display/live/summaries.py``) is written
   when the change altered it; the answer goes out after Redis acknowledged.

**Group commit.** Writes to one tournament that arrive while its append is in flight wait in a
queue; when the lock frees, one task takes them all (``_take``: in arrival order, a write with a
precondition only at the head) and does steps 3 to 5 once for the group: each write is validated
on the state the ones before it make (a refused one gets its own 4xx and is left out), and the
others' records go in one compare-and-append as consecutive versions, each write's key recorded
with its own version in the same script call: one round trip and one fsync for all of them, each
answered only after it. A conflict re-validates the whole group; a key a copy used meanwhile
answers that write as the copy did. A new tournament (``create``) goes alone, as does a write
with ``also_check``.

``restore`` appends under the same lock but not through here: it puts back records that were
already acknowledged once, so they are not validated again.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from display.errors import ApiError
from display.live.replica import Replica
from display.live.tournament import Applied, LiveTournament, RecordRefused, check_new
from display.log.integrity import audit_problem
from display.log.store import (
    Append,
    Appended,
    KeysUsed,
    LogStore,
    NotReplicated,
    SessionsEnded,
    VersionConflict,
)
from display.types import Record
from scoring.errors import ScoringError

MAX_ATTEMPTS = 20
MAX_KEY = 200
MAX_GROUP_RECORDS = 500
"""At most this many records go in one group commit (a write with more goes alone): bounds one
script call's arguments and the time Redis runs it."""
THREAD_ABOVE = 100
"""A new tournament with more records than this (a log import) is checked in a thread, so a long
log never holds the event loop."""

Precondition = Callable[[Any], None]
"""Runs under the write lock against the kind's state at V (``LiveTournament.state``: each kind's
own type); refuses by raising (ApiError 412 …)."""
Explain = Callable[[int, Exception], Exception]
"""A new tournament's record ``seq`` (1-based) was refused with an error: the error to raise."""
Check = Callable[[], Awaitable[None]]
"""A caller's own check of a new tournament's records, after the rules passed them (a log
import's hash chain); refuses by raising."""


@dataclass(frozen=True)
class Write:
    """One call of ``Writer.commit``: its records for tournament ``tid``, the request's
    Idempotency-Key and fingerprint, and the checks it asks for (``Writer.commit``'s docstring)."""

    tid: str
    records: Sequence[Record]
    key: str | None
    fingerprint: str
    precondition: Precondition | None
    create: bool
    explain: Explain | None
    also_check: Check | None
    session: str | None = None


@dataclass(frozen=True)
class Committed:
    """A write's outcome: ``version`` of its last record, and whether it was a replay of an
    earlier write with the same Idempotency-Key (nothing was appended)."""

    version: int
    replayed: bool


@dataclass(frozen=True)
class _Queued:
    """A write waiting for its tournament's next group commit, and where its answer goes."""

    write: Write
    wait: float
    answer: asyncio.Future[Committed]

    def give(self, committed: Committed) -> None:
        """Answer the write, unless its caller went away (its future is cancelled)."""
        if not self.answer.done():
            self.answer.set_result(committed)

    def fail(self, error: BaseException) -> None:
        """Answer the write with ``error`` (a CancelledError cancels it), unless its caller
        went away."""
        if self.answer.done():
            return
        if isinstance(error, asyncio.CancelledError):
            self.answer.cancel()
        else:
            self.answer.set_exception(error)


def _take(queue: deque[_Queued]) -> list[_Queued]:
    """The next group from the front of ``queue``, in arrival order: the writes whose callers
    still wait, up to ``MAX_GROUP_RECORDS`` records. A write with a precondition starts a group
    (it is checked on the replica's state, which a precondition may read instead of the state
    it is given: the UKPL season links do); a copy of a key already in the group waits for the
    next one (it then answers as the first did)."""
    group: list[_Queued] = []
    keys: set[str] = set()
    records = 0
    while queue:
        queued = queue[0]
        if queued.answer.done():  # its caller went away
            queue.popleft()
            continue
        write = queued.write
        if group and (
            write.precondition is not None
            or write.key in keys
            or records + len(write.records) > MAX_GROUP_RECORDS
        ):
            break
        group.append(queue.popleft())
        records += len(write.records)
        if write.key:
            keys.add(write.key)
    return group


def _busy() -> ApiError:
    return ApiError(503, "busy", "The server is very busy; send the same request again.")


def signed_out() -> ApiError:
    """The answer to a write whose sign-in session ended before its append (``SessionsEnded``):
    401 ``sign_in_required``, as for a request that never signed in, so a page asks again."""
    return ApiError(401, "sign_in_required", "Your sign-in has ended, so nothing was recorded.")


class Writer:
    """Validates and appends records for every tournament of one ``LogStore`` (module docstring).

    ``refuse(tid)``: raises ApiError 503 while writes to ``tid`` must wait (the store-regression
    guard's check, docs/store-loss.md). ``reason_required``: the record types that must say why
    (every competition's ``Competition.reason_required``)."""

    def __init__(
        self,
        store: LogStore,
        replica: Replica,
        refuse: Callable[[str], None],
        reason_required: frozenset[str] = frozenset(),
    ) -> None:
        self.store = store
        self.replica = replica
        self.refuse = refuse
        self.reason_required = reason_required
        # Group commit (module docstring): the writes waiting for each tournament's next group,
        # and the task committing them while there are any.
        self._queues: dict[str, deque[_Queued]] = {}
        self._draining: dict[str, asyncio.Task[None]] = {}

    def queued(self, tid: str) -> int:
        """How many writes to ``tid`` wait for its next group commit (module docstring)."""
        return len(self._queues.get(tid, ()))

    async def commit(
        self,
        tid: str,
        records: Sequence[Record],
        *,
        key: str | None = None,
        fingerprint: str = "",
        precondition: Precondition | None = None,
        create: bool = False,
        explain: Explain | None = None,
        also_check: Check | None = None,
        stamped: bool = True,
        wait: float = 5.0,
        session: str | None = None,
    ) -> Committed:
        """Append ``records`` to ``tid`` (with ``create``: as a new tournament, the first record
        being ``tournament_created``). Returns the committed version.

        Raises ScoringError when the rules refuse (4xx); ApiError 404 (unknown tournament), 409
        (a new tournament's id is taken), 400 (a malformed key), 503 (store behind, or busy);
        IdempotencyMismatch (the key was used for another request); NotReplicated when
        ``Settings.wait_replicas`` replicas did not confirm the append or the replay in time (503
        ``not_replicated``, ``display/errors.py``: it may have been recorded). ``create``: a refused record
        raises ``explain(seq, error)`` when given (a log import names the line), else the error;
        then ``also_check`` runs, before the lock. ``stamped=False``: the records come from a log
        file (an import), which keeps them as they were written, audit fields or not. When the
        rules or the precondition refuse a write whose key a copy of it used meanwhile (the copy
        held the lock, or another process won the append), it answers as the copy did. ``wait``:
        seconds to wait for the replica to reach a replayed version. ``session``: the Redis key
        of the sign-in session making the write, checked in the append itself (only on a store
        that ``checks_sessions``): ApiError 401 (``signed_out``) once it has ended, and nothing is
        written. Writes to one tournament
        that come while its append is in flight are committed together (module docstring,
        "Group commit"); each is answered as if it had gone alone."""
        for record in records if stamped else ():  # the schemas require a reason, stamp() the rest
            if (problem := audit_problem(record, self.reason_required)) is not None:
                raise RuntimeError(f"commit() was given {problem}")
        if key is not None and not 1 <= len(key) <= MAX_KEY:
            raise ApiError(
                400, "invalid_idempotency_key", f"An Idempotency-Key has 1 to {MAX_KEY} characters."
            )
        write = Write(
            tid, records, key, fingerprint, precondition, create, explain, also_check, session
        )
        try:
            return await self._commit(write, wait)
        except (ApiError, ScoringError) as refusal:
            if not key or (isinstance(refusal, ApiError) and refusal.status not in (403, 409, 412)):
                raise
            if (earlier := await self._replayed(write, wait)) is None:
                raise
            return earlier

    async def _replayed(self, write: Write, wait: float) -> Committed | None:
        """The first answer of a write whose Idempotency-Key was used before, or None."""
        if write.key is None:
            return None
        seq = await self.store.replayed(write.tid, write.key, write.fingerprint)
        if seq is None:
            return None
        await self.replica.wait_for(write.tid, seq, timeout=wait)
        return Committed(seq, True)

    @staticmethod
    async def _check_new(write: Write) -> None:
        """A new tournament's records depend on nothing else: checked before the lock, in a
        thread when there are many; then the caller's own check."""
        try:
            if len(write.records) > THREAD_ABOVE:
                await asyncio.to_thread(check_new, write.records)
            else:
                check_new(write.records)
        except RecordRefused as refused:
            explain = write.explain
            raise (explain(refused.seq, refused.cause) if explain else refused.cause) from None
        if write.also_check is not None:
            await write.also_check()

    async def _commit(self, write: Write, wait: float) -> Committed:
        if (earlier := await self._replayed(write, wait)) is not None:
            return earlier
        # A tournament not in memory here is loaded first (display/live/loader.py), so the write
        # is validated against its current state like any other; a new one's id is checked too.
        await self.replica.load(write.tid)
        if write.create or write.also_check is not None:
            return await self._alone(write)
        return await self._grouped(write, wait)

    async def _alone(self, write: Write) -> Committed:
        """A new tournament (or a write with its own check) is appended by itself, as the only
        write of its compare-and-append."""
        if write.create:
            await self._check_new(write)
        async with self.replica.write_lock(write.tid):
            self.refuse(write.tid)
            for _ in range(MAX_ATTEMPTS):
                try:
                    return await self._attempt(write)
                except VersionConflict as conflict:
                    if write.create:
                        raise ApiError(
                            409, "duplicate", f"Tournament {write.tid} exists."
                        ) from None
                    await self.replica.wait_for(write.tid, conflict.version)
        raise _busy()

    async def _grouped(self, write: Write, wait: float) -> Committed:
        """Queue ``write`` for its tournament's next group commit (module docstring) and wait
        for its own answer."""
        queued = _Queued(write, wait, asyncio.get_running_loop().create_future())
        self._queues.setdefault(write.tid, deque()).append(queued)
        if write.tid not in self._draining:
            # A task of its own, not one of the callers: a caller that goes away (its client
            # hung up) must not leave the others of its group unanswered.
            self._draining[write.tid] = asyncio.create_task(self._drain(write.tid))
        return await queued.answer

    async def _drain(self, tid: str) -> None:
        """Commit ``tid``'s queued writes, group after group, until none is left: the writes
        that arrive while one group's append is in flight make the next group."""
        queue = self._queues[tid]
        try:
            while queue:
                async with self.replica.write_lock(tid):
                    group = _take(queue)
                    if group:
                        await self._commit_group(tid, group)
        finally:
            # No await since the queue was last seen empty (or the task is being cancelled):
            # a write queued from here on starts a new task.
            del self._draining[tid]
            while queue:
                queue.popleft().fail(asyncio.CancelledError())
            del self._queues[tid]

    async def _commit_group(self, tid: str, group: list[_Queued]) -> None:
        """Validate and append ``group`` (under the write lock), answering each write."""
        try:
            await self._group_attempts(tid, group)
        except BaseException as exc:  # a Redis error: every write not answered yet has it
            for queued in group:
                queued.fail(exc)
            if not isinstance(exc, Exception):  # the task is cancelled (shutdown)
                raise

    async def _group_attempts(self, tid: str, group: list[_Queued]) -> None:
        """Validate the writes of ``group`` one after another at the replica's version, each on
        the state the ones before make, and append the ones the rules took in one
        compare-and-append; another process's append in between means catch up and again."""
        for queued in group:  # the store-regression guard first, as for a write alone
            try:
                self.refuse(tid)
            except Exception as refusal:  # each write its own error, as when it goes alone
                queued.fail(refusal)
        for _ in range(MAX_ATTEMPTS):
            pending = [queued for queued in group if not queued.answer.done()]
            if not pending:
                return
            live = self.replica.tournaments.get(tid)
            if live is None or live.kind is None:
                for queued in pending:
                    queued.fail(
                        ApiError(404, "unknown_tournament", f"There is no tournament {tid}.")
                    )
                return
            taken, applied = self._validate(live, pending)
            if applied is None:
                return
            version = live.version
            try:
                appended = await self._append_group(live, taken)
            except VersionConflict as conflict:
                await self.replica.wait_for(tid, conflict.version)
                continue
            except SessionsEnded as ended:  # those are answered 401; the others go again
                for index in ended.indices:
                    taken[index].fail(signed_out())
                continue
            except KeysUsed as used:  # copies of some got in first: they answer as those did
                for index, answer in used.answers.items():
                    if isinstance(answer, Exception):
                        taken[index].fail(answer)
                    else:
                        await self.replica.wait_for(tid, answer.seq, timeout=taken[index].wait)
                        taken[index].give(Committed(answer.seq, True))
                continue
            except NotReplicated as short:  # on the master: the tail reads them back
                for queued in taken:
                    version += len(queued.write.records)
                    queued.fail(NotReplicated(version, short.confirmed, short.required))
                return
            records = [
                record
                for queued, one in zip(taken, appended, strict=True)
                for record in one.records(queued.write.records)
            ]
            self.replica.ingest(tid, records, applied=applied)  # one change for the group
            if (now := self.replica.tournaments.get(tid)) is not None:
                await self.replica.summaries.note(now)
            for queued, one in zip(taken, appended, strict=True):
                queued.give(Committed(one.seq, False))
            return
        for queued in group:
            queued.fail(_busy())

    def _validate(
        self, live: LiveTournament, pending: list[_Queued]
    ) -> tuple[list[_Queued], Applied | None]:
        """The writes of ``pending`` the rules and preconditions take, in order, each applied
        on the state the ones before it make, and what they all make of the state (None when
        none was taken). A refused write is answered with its refusal here and left out.
        Several writes are applied deferred (``LiveTournament.try_apply``'s ``defer``: each is
        checked by the rules as ever, the tables and standings are worked out once for the
        group)."""
        taken: list[_Queued] = []
        applied: Applied | None = None
        count = 0  # records taken so far
        defer = len(pending) > 1
        for queued in pending:
            write = queued.write
            try:
                if write.precondition is not None:  # under the lock: two cannot both pass
                    write.precondition(live.state if applied is None else applied.state)
                applied_now = live.try_apply(
                    write.records, None if applied is None else (count, applied), defer
                )
            except Exception as refusal:  # its own answer, whatever it is (as if it went alone)
                queued.fail(refusal)
                continue
            taken.append(queued)
            applied, count = applied_now, count + len(write.records)
        if defer and applied is not None:
            applied = live.settle(applied)
        return taken, applied

    async def _append_group(self, live: LiveTournament, taken: list[_Queued]) -> list[Appended]:
        """One compare-and-append of the records of ``taken`` at the replica's version, each
        write with its own key; raises what ``LogStore.append_writes`` raises."""
        tid = live.id
        writes = [
            Append(q.write.records, q.write.key, q.write.fingerprint, q.write.session)
            for q in taken
        ]
        # Rules once per push: while the append is in flight the tail leaves this log to us (no
        # await between the append's answer and the caller's ingest, so it cannot slip in).
        self.replica.appending.add(tid)
        try:
            return await self.store.append_writes(
                tid, live.version, writes, prev_hash=live.head_hash
            )
        finally:
            self.replica.appending.discard(tid)

    async def _attempt(self, write: Write) -> Committed:
        """One validate-and-append at the replica's current version; VersionConflict if another
        process appended first."""
        tid, records = write.tid, write.records
        live = self.replica.tournaments.get(tid)
        applied: Applied | None = None
        if write.create:
            # A registered tournament with an empty log is not one yet (a cluster store registers
            # before the first append, LogStore.register): the append at version 0 decides.
            if live is not None and live.version > 0:
                raise ApiError(409, "duplicate", f"Tournament {tid} already exists.")
            version, prev_hash = 0, None
        else:
            if live is None or live.kind is None:
                raise ApiError(404, "unknown_tournament", f"There is no tournament {tid}.")
            if write.precondition is not None:  # under the lock: two writers cannot both pass
                write.precondition(live.state)
            applied = live.try_apply(records)
            version, prev_hash = live.version, live.head_hash
        # Rules once per push: while the append is in flight the tail leaves this log to us (no
        # await between the append's answer and the ingest below, so it cannot slip in).
        self.replica.appending.add(tid)
        try:
            appended = await self.store.append(
                tid,
                version,
                records,
                write.key,
                write.fingerprint,
                register=write.create,
                prev_hash=prev_hash,
                session=write.session,
            )
        except SessionsEnded:
            raise signed_out() from None
        finally:
            self.replica.appending.discard(tid)
        if write.create and not appended.replayed:
            await self.replica.load(tid)  # the new log, read back (it may be loading already)
        if appended.replayed or applied is None:  # a copy with the same key got in; or created
            await self.replica.wait_for(tid, appended.seq, timeout=30 if write.create else 5)
        else:
            self.replica.ingest(tid, appended.records(records), applied=applied)
        if (live := self.replica.tournaments.get(tid)) is not None:
            await self.replica.summaries.note(live)  # what the registry lists of it, if it changed
        return Committed(appended.seq, appended.replayed)
