"""One tournament's live state in this process: scoring state, views, versions and recent patches.

Pure bookkeeping over records already read from the log; the tailing loop is in ``replica.py``.
Messages are serialised here once per version and shared by every client (architecture principle 6).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

from display import competitions
from display.competitions.base import EVERY_VIEW, Kind
from display.live import mergepatch
from display.live import shared as shared_records
from display.live.snapshots import Saved
from display.log.integrity import GENESIS
from display.log.store import Record as StoredRecord
from display.types import Doc, Record, Touched
from scoring.errors import ScoringError

log = logging.getLogger(__name__)


class Applied(NamedTuple):
    """Records applied to a state: the kind's new ``state``, the ``shared`` records' (display
    profiles) and the view names they ``touched`` (or ``EVERY_VIEW``)."""

    state: Any  # the kind's own state type: only its kind (and its competition) reads inside
    shared: shared_records.Shared
    touched: Touched


def apply_record(
    kind: Kind, state: Any, shared: shared_records.Shared, seq: int, record: Record
) -> Applied:
    """Apply one record at version ``seq``: a record every kind shares (``display.live.shared``) goes
    there, before the kind, and the kind never sees it; any other goes to ``kind``. Raises what
    they raise (ScoringError when the rules refuse, ValueError for an unknown type)."""
    if shared_records.handles(record["type"]):
        shared, touched = shared_records.apply(shared, record)
        return Applied(state, shared, touched)
    state, touched = kind.apply(state, seq, record)
    return Applied(state, shared, touched)


DEFER_FROM = 8
"""``advance`` of this many records or more lets the kind defer its tables and standings until the
state is next read (``Kind`` ``defer``/``settle``): a catch-up, an import, a long tail page; a
push of a few records is applied as it comes."""


def _kind_hook(kind: Kind | None, name: str, state: Any) -> Any:
    # A kind's optional ``defer``/``settle`` (``display.competitions.base.Kind``); without it,
    # or before ``tournament_created``, the state as it is.
    hook = getattr(kind, name, None)
    return state if hook is None or state is None else hook(state)


class RecordRefused(Exception):
    """``check_new``: record ``seq`` (1-based) of a new tournament was refused with ``cause``."""

    def __init__(self, seq: int, cause: Exception) -> None:
        super().__init__(f"record {seq}: {cause}")
        self.seq, self.cause = seq, cause


def check_new(records: Sequence[Record]) -> None:
    """Apply a new tournament's records (the first is ``tournament_created``) as a replica would,
    without keeping anything. Raises RecordRefused naming the first record refused: by the rules
    (ScoringError), or as one this server cannot apply (KeyError, TypeError, ValueError …)."""
    try:
        kind, state = competitions.create(records[0])
    except (ScoringError, KeyError, TypeError, ValueError) as exc:
        raise RecordRefused(1, exc) from None
    shared = shared_records.EMPTY
    state = _kind_hook(kind, "defer", state)  # checked record by record, ranked never
    for seq, record in enumerate(records[1:], start=2):
        try:
            state, shared, _ = apply_record(kind, state, shared, seq, record)
        except (ScoringError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordRefused(seq, exc) from None


@dataclass(frozen=True)
class Change:
    """The patch from version ``base`` to ``version``: merge patches (RFC 7386; None removes the
    view) and whole documents by view name."""

    base: int
    version: int
    patches: dict[str, Doc | None]
    documents: dict[str, Doc] = field(default_factory=dict)

    def message(self) -> dict[str, object]:
        """The ``patch`` message of docs/protocol.md: base, version, patches and whole views."""
        return {
            "type": "patch",
            "base": self.base,
            "version": self.version,
            "patches": self.patches,
            "views": self.documents,
        }


class LiveTournament:
    """Holds one tournament's state at ``version`` and the ``history`` of recent changes."""

    def __init__(self, tournament_id: str, history_size: int) -> None:
        self.id = tournament_id
        self.version = 0
        self.head_hash = GENESIS  # the chain hash of record ``version`` (display/log/store.py)
        # what a kind's views may show of the tournament: its id and name (as its record has it)
        self.meta: dict[str, Any] = {"id": tournament_id, "name": tournament_id}
        self.kind: Kind | None = None
        self.format: str | None = None  # the ``tournament_created`` record's
        self._state: Any = None  # the kind's own state type (``Applied.state``)
        self._deferred = False  # ``_state`` defers its derived parts (``advance``)
        self.shared = shared_records.EMPTY  # records every kind shares (display profiles)
        self.views: dict[str, Doc] = {}
        self.history: deque[Change] = deque(maxlen=history_size)
        self.created_at: str | None = None
        self._snapshot: tuple[int, str] | None = None
        # the state ``views`` were built from: a kind with ``view_change`` patches from it
        self._published: Any = None
        # The version ``views`` are at and the views touched since: records advanced in slices
        # (a catch-up, a long tail page) and a writer's push between two slices go out as one
        # change from here, so no client misses a view or a version.
        self._published_at = 0
        self._unpublished: set[str] = set()

    @property
    def state(self) -> Any:
        """The kind's state at ``version`` (``Applied.state``), everything in it worked out: a
        replay that deferred the tables and standings (``advance``) settles them here, on the
        first read, once for all the records since."""
        if self._deferred:
            self._state = _kind_hook(self.kind, "settle", self._state)
            self._deferred = False
        return self._state

    @state.setter
    def state(self, value: Any) -> None:
        self._state, self._deferred = value, False

    @property
    def published(self) -> int:
        """The version ``views`` are at: ``version`` except while records applied in slices
        (``advance``) wait for their ``publish``; what clients and ``GET /views`` are given."""
        return self._published_at

    def saved(self) -> Saved:
        """What a snapshot keeps of this tournament (``display/live/snapshots.py``)."""
        return Saved(
            self.version,
            self.head_hash,
            self.format,
            self.meta,
            self.state,
            self.shared,
            self.views,
            self.created_at,
        )

    def restore(self, saved: Saved) -> None:
        """Take the state of a snapshot (history starts empty: older resumes get a snapshot)."""
        self.version, self.head_hash = saved.version, saved.head_hash
        self.format, self.meta, self.created_at = saved.format, saved.meta, saved.created_at
        self.kind = competitions.for_format(saved.format).kind if saved.format else None
        self.state, self.shared, self.views = saved.state, saved.shared, dict(saved.views)
        self.history.clear()
        self._snapshot = None
        self._published = saved.state
        self._published_at, self._unpublished = saved.version, set()

    def try_apply(
        self,
        records: Sequence[Record],
        after: tuple[int, Applied] | None = None,
        defer: bool = False,
    ) -> Applied:
        """What ``records`` would make of the state at ``version`` (as versions ``version + 1``
        …), without keeping it: the writer's validation. Raises ScoringError when the rules
        refuse one.

        ``after`` ``(n, applied)``: start instead from ``applied``, what ``n`` records after
        ``version`` made of the state (an earlier ``try_apply``), so ``records`` are versions
        ``version + n + 1`` …; the result covers all of them (its ``touched`` includes
        ``applied``'s), as ``apply`` takes it for the whole batch. The writer chains the writes
        of one group commit this way.

        ``defer``: start from the state deferred (``Kind`` ``defer``: the rules check each
        record, the tables and standings wait), so a group's writes are each checked and the
        standings moved on once for all of them (``settle``, before ``apply``)."""
        assert self.kind is not None
        state, shared, touched, start = self.state, self.shared, set[str](), self.version + 1
        if defer:
            state = _kind_hook(self.kind, "defer", state)
        if after is not None:
            count, (state, shared, earlier) = after
            touched, start = set(earlier), start + count
        for seq, record in enumerate(records, start=start):
            state, shared, more = apply_record(self.kind, state, shared, seq, record)
            touched |= more
        return Applied(state, shared, touched)

    def settle(self, applied: Applied) -> Applied:
        """``applied`` (a ``try_apply`` with ``defer``) with its tables and standings worked out
        (``Kind`` ``settle``), as ``apply`` takes it."""
        return applied._replace(state=_kind_hook(self.kind, "settle", applied.state))

    def apply(self, batch: list[StoredRecord], applied: Applied | None = None) -> Change | None:
        """Apply records in order; return the one change they make (None for an empty batch).

        A change is returned even when no view changed, so clients' versions stay contiguous.
        ``applied``: what ``try_apply`` computed for exactly this batch from the current version
        (the writer validated the records that way), so the rules run once per push; ignored
        unless the batch follows on from this version.
        """
        if applied is not None and batch and batch[0].seq == self.version + 1:
            self.state, self.shared, touched = applied
            self.version, self.head_hash = batch[-1].seq, batch[-1].h or GENESIS
            self._unpublished |= touched
            batch = []
        self.advance(batch)
        return self.publish()

    def advance(self, batch: Sequence[StoredRecord], defer: bool = False) -> Touched:
        """Run the rules over ``batch`` (records after ``version``; earlier ones are skipped) and
        return the view names they touched, building no view: a catch-up calls this per slice
        and ``publish`` once (architecture, "Replica"). Raises RuntimeError on a log gap.

        ``DEFER_FROM`` records or more, ``defer`` (a catch-up's slice), or records after such a
        batch, let the kind take them without working out its tables and standings per record
        (``Kind`` ``defer``); the first read of ``state`` settles them, once for all of them."""
        touched = set[str]()
        bulk = defer or self._deferred or len(batch) >= DEFER_FROM
        for record in batch:
            if record.seq <= self.version:
                continue  # already applied (the writer applies its own records before the tail)
            if record.seq != self.version + 1:
                raise RuntimeError(f"{self.id}: log gap, at {self.version}, got {record.seq}")
            if bulk and not self._deferred:  # (again after a ``tournament_created``)
                self._state, self._deferred = _kind_hook(self.kind, "defer", self._state), True
            touched |= self._apply_one(record)
            self.version, self.head_hash = record.seq, record.h or GENESIS
        self._unpublished |= touched
        return touched

    def publish(self) -> Change | None:
        """Build the views touched since the last change published (``advance`` and ``apply``
        record them) once, diff them against the published ones and keep the change in history;
        None when the version did not move since. The change always starts at the last one
        published: when a push was applied and published between two slices of a catch-up, the
        catch-up's change follows on from the push's."""
        base, touched = self._published_at, self._unpublished
        if self.version == base:
            return None
        patches: dict[str, Doc | None] = {}
        build: Callable[[str], Doc | None]
        every = EVERY_VIEW in touched
        if every:
            fresh = self.all_views()
            names, build = set(fresh) | set(self.views), fresh.get
        else:
            names, build = touched, self.build
        for name in sorted(names):
            if not every and (changed := self._view_change(name)) is not None:
                self.views[name], patch = changed
                if patch is not None:
                    patches[name] = patch
                continue
            new = build(name)
            if new is None:
                if name in self.views:
                    patches[name] = None
                    del self.views[name]
                continue
            patch = mergepatch.diff(self.views[name], new) if name in self.views else new
            if patch is not None:
                patches[name] = patch
                self.views[name] = new
        change = Change(base, self.version, patches)
        self.history.append(change)
        self._published = self.state
        self._published_at, self._unpublished = self.version, set()
        return change

    def _view_change(self, name: str) -> tuple[Doc, Doc | None] | None:
        # (view, patch) from the keyed rows that changed since the last publish, when the kind
        # can say (``Kind.view_change``); None: build the whole view and diff it.
        hook = getattr(self.kind, "view_change", None)
        old = self.views.get(name)
        if hook is None or old is None or self._published is None:
            return None
        result: tuple[Doc, Doc | None] | None = hook(
            self._published, self.state, self.meta, name, old
        )
        return result

    def _apply_one(self, record: StoredRecord) -> Touched:
        data = record.data
        if data["type"] == "tournament_created":
            self.kind, self.state = competitions.create(data)
            self.format = str(data["format"])
            self.shared = shared_records.EMPTY
            self.meta = {"id": self.id, "name": data.get("name") or self.id}
            if isinstance(data.get("time_zone"), str):  # the venue's (display/http/venue_time.py)
                self.meta["time_zone"] = data["time_zone"]
            self.created_at = data.get("at")
            return {EVERY_VIEW}
        if self.kind is None:
            raise RuntimeError(f"{self.id}: record {record.seq} before tournament_created")
        try:
            # ``_state``: a deferred state stays deferred (``advance``)
            self._state, self.shared, touched = apply_record(
                self.kind, self._state, self.shared, record.seq, data
            )
        except ScoringError as exc:
            # Only possible for a log written by something other than this API; keep replicas equal.
            log.warning("%s: record %s refused by the rules: %s", self.id, record.seq, exc)
            return set()
        return touched

    def build(self, name: str) -> Doc | None:
        """One view of the current state, or None."""
        assert self.kind is not None
        if name in shared_records.VIEWS:
            return shared_records.view(self.shared, name)
        return self.kind.view(self.state, self.meta, name)

    def all_views(self) -> dict[str, Doc]:
        """Every view of the current state by name (views that are None left out)."""
        assert self.kind is not None
        names = [*self.kind.view_names(self.state), *shared_records.VIEWS]
        found = {name: self.build(name) for name in names}
        return {name: doc for name, doc in found.items() if doc is not None}

    def snapshot_text(self) -> tuple[int, str]:
        """The snapshot message for the current version, serialised once per version."""
        if self._snapshot is None or self._snapshot[0] != self.published:
            message = {"type": "snapshot", "version": self.published, "views": self.views}
            self._snapshot = (self.published, orjson.dumps(message).decode())
        return self._snapshot

    def resync(self, version: int) -> tuple[int, str]:
        """For a client at ``version`` (-1: none): the version it will be at and the message to
        send, a patch folded from history when that reaches back far enough, else a snapshot."""
        change = self.since(version) if version >= 0 else None
        if change is None:
            return self.snapshot_text()
        return change.version, orjson.dumps(change.message()).decode()

    def since(self, version: int) -> Change | None:
        """One change from ``version`` to now folded from history, or None if history lacks it."""
        if version == self.published:
            return Change(version, version, {})
        if version > self.published or not self.history:
            return None
        changes = [c for c in self.history if c.base >= version]
        if not changes or changes[0].base != version:
            return None
        return fold(changes, self.views)


def fold(changes: list[Change], current: dict[str, Doc]) -> Change:
    """Fold consecutive changes into one; views whose patches do not compose go as whole documents
    taken from ``current`` (the views at the last change's version)."""
    patches: dict[str, Doc | None] = {}
    documents: set[str] = set()
    for change in changes:
        for name in change.documents:
            documents.add(name)
            patches.pop(name, None)
        for name, patch in change.patches.items():
            if name in documents:
                continue
            if name not in patches:
                patches[name] = patch
                continue
            folded = mergepatch.compose(patches[name], patch)
            if folded is mergepatch.NOT_COMPOSABLE:
                documents.add(name)
                del patches[name]
            else:
                patches[name] = folded
    whole: dict[str, Doc] = {}
    for name in documents:
        if name in current:
            whole[name] = current[name]
        else:
            patches[name] = None
    return Change(changes[0].base, changes[-1].version, patches, whole)
