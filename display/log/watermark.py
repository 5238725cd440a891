"""The high-water file: what this server has seen of the score store, kept outside Redis.

``{data_dir}/watermark-{key_prefix}.json`` holds the store's epoch (a random id the server writes to
Redis as ``P:epoch`` at first start) and, per tournament, ``[version, head_hash]``: the last
version this server applied and the hash-chain value of that record (None before the log had a
hash chain). At start-up ``display/log/regression.py`` compares Redis against it, so a Redis that came
back empty or from an older copy is noticed even by a process that never saw it before the loss.

The file is written by a background task, never on the write path: a push is acknowledged when
Redis has it (``docs/architecture.md``), not when this file does. The task saves at most every
``SAVE_INTERVAL`` seconds when something changed, and once at shutdown. The window this leaves is
documented in ``docs/store-loss.md``: a Redis that loses only the last second of records *and* a
server that restarts at the same time is not caught (a running server still catches it, from its
own memory).

Saves are atomic: write a temporary file, fsync it, rename it over the old one, fsync the directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import orjson

log = logging.getLogger(__name__)

SAVE_INTERVAL = 1.0
"""Seconds between saves at most (only when the marks changed)."""

Mark = tuple[int, str | None]
"""(version, hash of the record at that version or None)."""


@dataclass
class Watermark:
    """The file's content: ``epoch`` (None before the first start) and ``marks`` by tournament."""

    path: Path
    epoch: str | None = None
    marks: dict[str, Mark] = field(default_factory=dict)
    existed: bool = False

    @classmethod
    def path_for(cls, data_dir: Path, key_prefix: str) -> Path:
        """The high-water file of key prefix ``key_prefix`` in ``data_dir``:
        ``watermark-<prefix>.json``."""
        return data_dir / f"watermark-{key_prefix}.json"

    @classmethod
    def load(cls, path: Path) -> Watermark:
        """Read ``path``; a missing file gives an empty mark (first start). A file that is not ours
        (unparseable) is moved aside to ``*.corrupt`` with a warning and treated as missing."""
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return cls(path)
        try:
            data = orjson.loads(raw)
            marks = {
                str(tid): (int(mark[0]), None if mark[1] is None else str(mark[1]))
                for tid, mark in data.get("tournaments", {}).items()
            }
            epoch = data.get("epoch")
            return cls(path, None if epoch is None else str(epoch), marks, existed=True)
        except (orjson.JSONDecodeError, AttributeError, TypeError, ValueError, IndexError):
            aside = path.with_suffix(".corrupt")
            log.error("high-water file %s is unreadable; moved to %s", path, aside)
            path.replace(aside)
            return cls(path)

    def to_json(self) -> bytes:
        """The file: ``{"epoch", "tournaments": {id: [version, hash or null]}}``, keys sorted."""
        body = {"epoch": self.epoch, "tournaments": {t: list(m) for t, m in self.marks.items()}}
        return orjson.dumps(body, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)

    def save(self) -> None:
        """Write atomically and durably (blocking: call it in a thread from the event loop)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with open(temp, "wb") as out:
            out.write(self.to_json())
            out.flush()
            os.fsync(out.fileno())
        temp.replace(self.path)
        directory = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
        self.existed = True


async def keep_saved(
    watermark: Watermark, current: Callable[[], dict[str, Mark]], interval: float = SAVE_INTERVAL
) -> None:
    """Save ``current()`` marks whenever they changed, at most every ``interval`` seconds, and once
    more when cancelled (shutdown). ``current`` is called on the event loop; the file is written in
    a thread, so no request waits for the disk."""
    saved = dict(watermark.marks)
    try:
        while True:
            await asyncio.sleep(interval)
            marks = current()
            if marks != saved:
                watermark.marks = marks
                try:
                    await asyncio.to_thread(watermark.save)
                    saved = marks
                except OSError as exc:  # a full or read-only disk must not stop the server
                    log.error("could not save the high-water file: %s", exc)
    finally:
        marks = current()
        if marks != saved:
            watermark.marks = marks
            with contextlib.suppress(OSError):
                watermark.save()
