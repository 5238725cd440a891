"""Snapshots for restarts: a tournament's live state saved at a version, so a process that starts
again loads it and applies only the records after it (architecture, "Replica: snapshots").

One file per tournament, ``{data_dir}/snapshots-{key_prefix}/{sha256(id)}.snap`` (0600, written to
a temporary file and renamed, so a kill leaves the old one or the new one): a first line with the
``CODE`` fingerprint, then the pickled state. A snapshot whose first line is not this process's
``CODE`` was taken by other code (another version of the rules or of the kinds) and is not
unpickled at all: the log is replayed instead. On load the log must still hold the record at the
snapshot's version with the same chain hash, else the snapshot is ignored too. The log stays the
truth: a snapshot only saves replay time, and losing one costs nothing but that.

Pickle is the format because a kind's state is its own Python types (frozen dataclasses, tuples,
dicts), which a general-purpose serialiser could not round-trip without every kind describing
them. The file lives beside the AOF and the high-water file, with the same trust.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from display.live import shared as shared_records
from display.types import Doc

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent.parent
CODE_PATHS = (
    "scoring",
    "display/competitions",
    "display/live/tournament.py",
    "display/live/shared.py",
)
"""The code that makes a state from records: a change to any of it invalidates every snapshot."""


@cache
def code_fingerprint() -> str:
    """SHA-256 over the Python version, the pickle protocol and every source file of
    ``CODE_PATHS`` (path and bytes, in sorted order)."""
    digest = hashlib.sha256(f"{sys.version_info[:2]} {pickle.HIGHEST_PROTOCOL}".encode())
    for entry in CODE_PATHS:
        path = ROOT / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(ROOT)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class Saved:
    """A tournament's state at ``version`` (``head_hash``: the chain hash of that record)."""

    version: int
    head_hash: str
    format: str | None
    meta: dict[str, Any]
    state: Any
    shared: shared_records.Shared
    views: dict[str, Doc]
    created_at: str | None


class Snapshots:
    """The snapshot files of one key prefix under ``data_dir``."""

    def __init__(self, data_dir: Path, key_prefix: str, code: str | None = None) -> None:
        self.directory = data_dir / f"snapshots-{key_prefix}"
        self.code = code or code_fingerprint()
        self.saved_at: dict[str, int] = {}  # tid -> version of its last snapshot, this process

    def path(self, tid: str) -> Path:
        """The snapshot file of tournament ``tid`` (its id hashed: any id is a safe file name)."""
        return self.directory / f"{hashlib.sha256(tid.encode()).hexdigest()}.snap"

    def dump(self, saved: Saved) -> bytes:
        """The file's bytes: the code fingerprint line, then the pickle. Raises what pickle
        raises for a state it cannot pickle."""
        return self.code.encode() + b"\n" + pickle.dumps(saved, pickle.HIGHEST_PROTOCOL)

    def write(self, tid: str, data: bytes, version: int) -> None:
        """Write a ``dump`` atomically (blocking: call it in a thread)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, self.path(tid))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.saved_at[tid] = version

    def load(self, tid: str) -> Saved | None:
        """The snapshot of ``tid`` taken by this code, or None (none, other code, unreadable)."""
        try:
            data = self.path(tid).read_bytes()
        except OSError:
            return None
        code, _, body = data.partition(b"\n")
        if code.decode(errors="replace") != self.code:
            log.info("%s: snapshot from other code ignored; replaying the log", tid)
            return None
        try:
            saved = pickle.loads(body)
        except Exception as exc:  # a torn or damaged file: the log is still whole
            log.warning("%s: snapshot unreadable (%s); replaying the log", tid, exc)
            return None
        if not isinstance(saved, Saved):
            return None
        self.saved_at[tid] = saved.version
        return saved
