"""``backglass standings``: standings from a CSV of scores, offline, no server or Redis.

UKPL meeting (``--format ukpl-meeting``): reads ``machine,player,score,guest`` (guest 0/1, may be
left out) and prints ``player,position,meet_total,league_points`` for the ranked players, league
points as the league publishes them (20, 16.5, 0.33). Guests are left out (UKPL 1C, 3C).

EPC qualifying (``--format epc-qualifying``): reads ``machine,player,score`` in the order played (a
player's second score on a machine is their joker game) and prints
``player,position,total_points,band``.

A blank score cell is no entry. ``--set key=value`` sets a format setting (``ties=low``,
``scale=linear``). A bad row stops with ``line N: ...`` and exit code 2.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import IO

import click

from scoring import (
    FORMATS,
    Entry,
    Machine,
    Player,
    ScoringError,
    Tournament,
    add_machine,
    add_player,
    new_tournament,
    points_text,
    record_entry,
)

COLUMNS = {
    "ukpl-meeting": (("machine", "player", "score"), ("guest",)),
    "epc-qualifying": (("machine", "player", "score"), ()),
}
"""Per format: required columns, optional columns."""
OUTPUT = {
    "ukpl-meeting": ("player", "position", "meet_total", "league_points"),
    "epc-qualifying": ("player", "position", "total_points", "band"),
}
GUEST_YES = frozenset({"1", "yes", "y", "true"})
GUEST_NO = frozenset({"", "0", "no", "n", "false"})


class InputError(click.ClickException):
    """A bad row, header or setting: printed as ``Error: ...``, exit code 2, no traceback."""

    exit_code = 2


@click.command("standings")
@click.option(
    "--format",
    "format_name",
    required=True,
    type=click.Choice(sorted(COLUMNS)),
    help="Tournament format.",
)
@click.option(
    "--scores",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="CSV of scores in the order played.",
)
@click.option(
    "--set",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A format setting, e.g. ties=low or bonus=gte (UKPL), scale=linear (EPC).",
)
def standings(format_name: str, scores: Path, options: tuple[str, ...]) -> None:
    """Print standings as CSV from a CSV of scores in the order played.

    \b
    ukpl-meeting    reads  machine,player,score,guest
                    prints player,position,meet_total,league_points
    epc-qualifying  reads  machine,player,score (a second score on a machine is the joker game)
                    prints player,position,total_points,band

    A blank score is no entry. A bad row stops with its line number and exit code 2.
    """
    settings: dict[str, str] = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--set {option!r}: expected KEY=VALUE, e.g. ties=high.")
        settings[key.strip()] = value.strip()
    try:
        tournament = new_tournament(FORMATS[format_name], settings)
    except ScoringError as error:
        raise InputError(error.message) from None
    with scores.open(newline="", encoding="utf-8-sig") as f:
        tournament = _record_all(tournament, format_name, f)
    _write(tournament, format_name)


def _rows(format_name: str, f: IO[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, row) for each data row; checks the header first."""
    reader = csv.DictReader(f)
    header = [name.strip().lower() for name in reader.fieldnames or []]
    required, optional = COLUMNS[format_name]
    missing = [c for c in required if c not in header]
    if missing:
        wanted = ",".join((*required, *optional))
        raise InputError(f"line 1: expected columns {wanted}; missing {', '.join(missing)}.")
    reader.fieldnames = header
    for row in reader:
        yield reader.line_num, {k: (v or "").strip() for k, v in row.items() if k is not None}


def _record_all(tournament: Tournament, format_name: str, f: IO[str]) -> Tournament:
    guest_on_line: dict[str, tuple[bool, int]] = {}
    for seq, (line, row) in enumerate(_rows(format_name, f), start=1):
        machine, player = row["machine"], row["player"]
        for column in ("machine", "player"):
            if not row[column]:
                raise InputError(f"line {line}: {column} is empty.")
        guest = format_name == "ukpl-meeting" and _guest(row.get("guest", ""), line)
        if player in guest_on_line and guest_on_line[player][0] != guest:
            first = guest_on_line[player][1]
            raise InputError(
                f"line {line}: player {player} has guest={int(guest)} here "
                f"but guest={int(not guest)} on line {first}."
            )
        try:
            if player not in tournament.players:
                guest_on_line[player] = (guest, line)
                tournament = add_player(tournament, Player(player, player, guest))
            if machine not in tournament.machines:
                tournament = add_machine(tournament, Machine(machine, machine))
            if row["score"]:  # a blank cell is no entry
                score = _score(row["score"], line)
                tournament = record_entry(tournament, Entry(seq, player, machine, score))
        except ScoringError as error:
            raise InputError(f"line {line}: {error.message}") from None
    return tournament


def _score(text: str, line: int) -> int:
    if not text.isdigit() or not text.isascii():
        raise InputError(f"line {line}: score {text!r} is not a whole number.")
    return int(text)


def _guest(text: str, line: int) -> bool:
    if text.lower() not in GUEST_YES | GUEST_NO:
        raise InputError(f"line {line}: guest {text!r} is not 0 or 1.")
    return text.lower() in GUEST_YES


def _write(tournament: Tournament, format_name: str) -> None:
    out = io.StringIO()
    writer = csv.writer(out)  # RFC 4180 CRLF rows, as the league publishes
    writer.writerow(OUTPUT[format_name])
    for row in tournament.standings.rows:
        if row.place is None:
            continue  # guests and players without a score (UKPL 1C, 3C)
        last = (
            row.band
            if format_name == "epc-qualifying"
            else points_text(row.league_points or Fraction(0))
        )
        writer.writerow((row.player, row.place, points_text(row.total), last))
    click.echo(out.getvalue(), nl=False)
