"""``backglass standings``: standings from a CSV, offline, no server or Redis.

Each competition that has an offline form declares it per format (``Competition.offline``): an
``OfflineFormat`` saying what it reads (``--scores FILE.csv``, or ``--results DIR_OR_CSV``
repeatable) and how it turns that into CSV. This module is the command and what every format's
reader shares: rows with their line numbers, whole numbers, ``--set key=value`` settings, and
``InputError`` (``Error: line N: ...``, exit code 2, no traceback).
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO

import click

from display import competitions


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


@cache
def offline_formats() -> dict[str, OfflineFormat]:
    """Every format with an offline form, by name (from the competitions' declarations)."""
    return {
        fmt: competitions.load(path)
        for competition in competitions.registered()
        for fmt, path in competition.offline.items()
    }


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


class _Help(click.Command):
    """Appends each offline format's paragraph to the command's help."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_help_text(ctx, formatter)
        with formatter.indentation():
            for name, fmt in sorted(offline_formats().items()):
                formatter.write_paragraph()
                formatter.write_text(name)
                for line in fmt.help.splitlines():  # as written: the columns line up
                    formatter.write(f"{'':{formatter.current_indent + 2}}{line}\n")


@click.command("standings", cls=_Help)
@click.option(
    "--format",
    "format_name",
    required=True,
    type=click.Choice(sorted(offline_formats())),
    help="Tournament format.",
)
@click.option(
    "--scores",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="CSV of scores in the order played (the per-machine formats).",
)
@click.option(
    "--results",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    metavar="DIR_OR_CSV",
    help="Published meeting results (a season); repeat for more.",
)
@click.option(
    "--set",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A format setting, e.g. ties=low or bonus=gte (UKPL), scale=linear (EPC), "
    "qualifiers=8 or counted=3 (UKPL season).",
)
def standings(
    format_name: str, scores: Path | None, results: tuple[Path, ...], options: tuple[str, ...]
) -> None:
    """Print standings as CSV from a CSV of scores in the order played, or a season table from
    published meeting results. A blank score is no entry. A bad row stops with its line number
    and exit code 2. The formats:"""
    fmt = offline_formats()[format_name]
    settings = parse_settings(options)
    if fmt.reads == "results":
        if scores is not None or not results:
            raise click.UsageError(
                f"--format {format_name} reads --results DIR_OR_CSV, not --scores."
            )
        click.echo(fmt.run(results, settings), nl=False)
        return
    if scores is None or results:
        raise click.UsageError(f"--format {format_name} reads --scores FILE.csv.")
    click.echo(fmt.run((scores,), settings), nl=False)
