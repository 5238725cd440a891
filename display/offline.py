"""``backglass standings``: standings from a CSV of scores, offline, no server or Redis.

UKPL meeting (``--format ukpl-meeting``): reads ``machine,player,score,guest`` (guest 0/1, may be
left out) and prints ``player,position,meet_total,league_points`` for the ranked players, league
points as the league publishes them (20, 16.5, 0.33). Guests are left out (UKPL 1C, 3C).

EPC qualifying (``--format epc-qualifying``): reads ``machine,player,score`` in the order played (a
player's second score on a machine is their joker game) and prints
``player,position,total_points,band``.

UKPL season (``--format ukpl-season``): reads published meeting results ``--results DIR_OR_CSV``
(see ``SEASON_HELP``) and prints the region's season table (UKPL 1E, 3E-3G; ``scoring.ukpl.season``).

A blank score cell is no entry. ``--set key=value`` sets a format setting (``ties=low``,
``scale=linear``, ``qualifiers=8``). A bad row stops with ``line N: ...`` and exit code 2.
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
    player_key,
    points_text,
    record_entry,
)
from scoring.ukpl.season import (
    Meet,
    MeetResult,
    SeasonConfig,
    SeasonTable,
    parse_season_settings,
    region_competitors,
    season_table,
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
SEASON = "ukpl-season"
SEASON_COLUMNS = (("player", "league_points"), ("meet", "position", "meet_total"))
"""Season input: required columns, optional columns (``meet``: several meetings in one file)."""
SEASON_OUTPUT = ("player", "place", "season_points", "counted", "results", "final")
"""Season output; one column per counting meeting follows, headed by its id."""
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
    type=click.Choice(sorted([*COLUMNS, SEASON])),
    help="Tournament format.",
)
@click.option(
    "--scores",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="CSV of scores in the order played (ukpl-meeting, epc-qualifying).",
)
@click.option(
    "--results",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    metavar="DIR_OR_CSV",
    help="Published meeting results (ukpl-season); repeat for more.",
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
    """Print standings as CSV from a CSV of scores in the order played, or a UKPL season table
    from published meeting results.

    \b
    ukpl-meeting    reads  machine,player,score,guest
                    prints player,position,meet_total,league_points
    epc-qualifying  reads  machine,player,score (a second score on a machine is the joker game)
                    prints player,position,total_points,band
    ukpl-season     reads  --results: a meeting's published CSV player,position,meet_total,
                           league_points (the meeting is the file name: meet-3-published.csv is
                           meeting 3), a CSV with a meet column holding several meetings, or a
                           folder of such CSVs (score sheets there are skipped). A blank
                           league_points is a guest playing for fun.
                    prints player,place,season_points,counted,results,final and one column
                           per meeting: counted = the best results that count (20+19+18+16.5),
                           results = meetings played, final = qualified, playoff (tied for a
                           finals place after the 5th/6th-best countback) or for fun.
                    settings: counted=4 qualifiers=0 min_competitors=5 countback=2
                           tie_break=qualifying|all missing=zero|lowest

    A blank score is no entry. A bad row stops with its line number and exit code 2.
    """
    settings: dict[str, str] = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--set {option!r}: expected KEY=VALUE, e.g. ties=high.")
        settings[key.strip()] = value.strip()
    if format_name == SEASON:
        if scores is not None or not results:
            raise click.UsageError("--format ukpl-season reads --results DIR_OR_CSV, not --scores.")
        _season(results, settings)
        return
    if scores is None or results:
        raise click.UsageError(f"--format {format_name} reads --scores FILE.csv.")
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
    required, optional = SEASON_COLUMNS if format_name == SEASON else COLUMNS[format_name]
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


def _season(paths: tuple[Path, ...], settings: dict[str, str]) -> None:
    try:
        config = parse_season_settings(settings)
    except ScoringError as error:
        raise InputError(error.message) from None
    meets: dict[str, list[MeetResult]] = {}
    source: dict[str, str] = {}
    for path in _season_files(paths):
        for meet, results in _read_meets(path).items():
            if meet in meets:
                raise InputError(f"Meeting {meet} is in both {source[meet]} and {path.name}.")
            meets[meet], source[meet] = results, path.name
    try:
        table = season_table((Meet(m, tuple(r)) for m, r in meets.items()), config)
    except ScoringError as error:
        raise InputError(error.message) from None
    for meet in meets:
        if meet in table.void:
            click.echo(
                f"Meeting {meet} has {region_competitors(Meet(meet, tuple(meets[meet])))} "
                f"competitors from the region; a meeting counts with at least "
                f"{config.min_competitors} (UKPL 1E). It is left out.",
                err=True,
            )
    _write_season(table, config)


def _season_files(paths: tuple[Path, ...]) -> list[Path]:
    """Each given CSV, and every CSV in each given folder but score sheets, by natural name."""
    files: list[Path] = []
    for path in paths:
        if not path.is_dir():
            files.append(path)
            continue
        for csv_file in sorted(path.glob("*.csv"), key=lambda p: player_key(p.name)):
            with csv_file.open(newline="", encoding="utf-8-sig") as f:
                header = {name.strip().lower() for name in next(csv.reader(f), [])}
            if not {"machine", "score"} <= header:  # a meeting's scores, not its results
                files.append(csv_file)
    if not files:
        raise InputError("--results: no CSV files of meeting results found.")
    return files


def _meet_id(path: Path) -> str:
    """meet-609-published.csv -> 609; other names keep their stem."""
    stem = path.stem
    stem = stem.removesuffix("-published")
    return stem.removeprefix("meet-") or path.stem


def _read_meets(path: Path) -> dict[str, list[MeetResult]]:
    """Meeting id -> its results, from one file (one meeting, or several with a meet column)."""
    own = _meet_id(path)
    meets: dict[str, list[MeetResult]] = {}
    with path.open(newline="", encoding="utf-8-sig") as f:
        try:
            for line, row in _rows(SEASON, f):
                meet = row.get("meet", own)
                for column, value in (("meet", meet), ("player", row["player"])):
                    if not value:
                        raise InputError(f"line {line}: {column} is empty.")
                meets.setdefault(meet, []).append(_meet_result(row, line))
        except InputError as error:
            raise InputError(f"{path.name} {error.message}") from None
    return meets


def _meet_result(row: dict[str, str], line: int) -> MeetResult:
    points = _decimal(row["league_points"], "league_points", line)
    position = row.get("position", "")
    if position and not (position.isascii() and position.isdigit()):
        raise InputError(f"line {line}: position {position!r} is not a whole number.")
    total = _decimal(row.get("meet_total", ""), "meet_total", line) or Fraction(0)
    return MeetResult(row["player"], points, int(position) if position else None, total)


def _decimal(text: str, column: str, line: int) -> Fraction | None:
    if not text:
        return None
    whole, _, decimals = text.partition(".")
    if not (whole + decimals).isascii() or not (whole + decimals).isdigit():
        raise InputError(f"line {line}: {column} {text!r} is not a number like 16.5.")
    return Fraction(text)


def _write_season(table: SeasonTable, config: SeasonConfig) -> None:
    out = io.StringIO()
    writer = csv.writer(out)  # RFC 4180 CRLF rows, as the league publishes
    writer.writerow((*SEASON_OUTPUT, *table.meets))
    for row in table.rows:
        final = "playoff" if row.playoff else "qualified" if row.qualified else ""
        played = dict(row.results)
        writer.writerow(
            (
                row.player,
                row.place,
                points_text(row.points),
                "+".join(points_text(p) for p in row.counted),
                len(row.results),
                final,
                *(points_text(played[m]) if m in played else "" for m in table.meets),
            )
        )
    for fun in table.for_fun:  # UKPL 1C, 3C: shown apart, never ranked
        cells = ("fun" if m in fun.meets else "" for m in table.meets)
        writer.writerow((fun.player, "", "", "", len(fun.meets), "for fun", *cells))
    click.echo(out.getvalue(), nl=False)
