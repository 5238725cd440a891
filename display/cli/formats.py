"""What every offline format of ``backglass standings`` shares (``display/cli/offline.py``): how a
format declares itself (``OfflineFormat``), rows with their line numbers, whole numbers,
``--set key=value`` settings, and ``InputError`` (``Error: line N: ...``, exit code 2, no
traceback)."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import click


class InputError(click.ClickException):
    """A bad row, header or setting: printed as ``Error: ...``, exit code 2, no traceback."""

    exit_code = 2


@dataclass(frozen=True)
class OfflineFormat:
    """One format of ``backglass standings``: ``reads`` "scores" (one ``--scores`` CSV) or
    "results" (``--results``, one or more files or folders); ``help`` is its paragraph of the
    command's help; ``run(paths, settings)`` returns the standings as CSV text (RFC 4180 rows)
    and raises InputError for bad input."""

    reads: str
    help: str
    run: Callable[[Sequence[Path], dict[str, str]], str]


def rows(
    f: IO[str], required: Sequence[str], optional: Sequence[str] = ()
) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, row) for each data row of a CSV, values stripped, header names lower case;
    InputError when the header lacks a ``required`` column."""
    reader = csv.DictReader(f)
    header = [name.strip().lower() for name in reader.fieldnames or []]
    missing = [c for c in required if c not in header]
    if missing:
        wanted = ",".join((*required, *optional))
        raise InputError(f"line 1: expected columns {wanted}; missing {', '.join(missing)}.")
    reader.fieldnames = header
    for row in reader:
        yield reader.line_num, {k: (v or "").strip() for k, v in row.items() if k is not None}


def whole_number(text: str, column: str, line: int) -> int:
    """A cell that must hold a whole number (a score, a position); InputError otherwise."""
    if not text.isdigit() or not text.isascii():
        raise InputError(f"line {line}: {column} {text!r} is not a whole number.")
    return int(text)


def parse_settings(options: Sequence[str]) -> dict[str, str]:
    """``--set KEY=VALUE`` options -> settings; InputError for one without ``=``."""
    settings: dict[str, str] = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--set {option!r}: expected KEY=VALUE, e.g. ties=high.")
        settings[key.strip()] = value.strip()
    return settings
