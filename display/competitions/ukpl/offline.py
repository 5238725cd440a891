"""The UK Pinball League offline (``backglass standings``): a meeting's standings from its score
sheet, as the league publishes them (``player,position,meet_total,league_points``, league points
20, 16.5, 0.33; guests left out, UKPL 1C, 3C), and a region's season table from published meeting
results (UKPL 1E, 3E-3G; ``scoring.ukpl.season``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import click

from display.cli.formats import InputError, OfflineFormat, rows, whole_number
from display.competitions.machines.offline import read_scores
from scoring import player_key, points_text
from scoring.errors import ScoringError
from scoring.ukpl.season import (
    Meet,
    MeetResult,
    SeasonConfig,
    SeasonTable,
    parse_season_settings,
    region_competitors,
    season_table,
)

SEASON_COLUMNS = (("player", "league_points"), ("meet", "position", "meet_total"))
"""Season input: required columns, optional columns (``meet``: several meetings in one file)."""
SEASON_OUTPUT = ("player", "place", "season_points", "counted", "results", "final")
"""Season output; one column per counting meeting follows, headed by its id."""


def ukpl_meeting(paths: Sequence[Path], settings: dict[str, str]) -> str:
    """UKPL 3B-3D, offline: ``player,position,meet_total,league_points`` for the ranked players
    (guests and players without a score are left out, UKPL 1C, 3C)."""
    tournament = read_scores("ukpl-meeting", paths[0], settings, guests=True)
    out = io.StringIO()
    writer = csv.writer(out)  # RFC 4180 CRLF rows, as the league publishes
    writer.writerow(("player", "position", "meet_total", "league_points"))
    for row in tournament.standings.rows:
        if row.place is not None:
            points = points_text(row.league_points or Fraction(0))
            writer.writerow((row.player, row.place, points_text(row.total), points))
    return out.getvalue()


def ukpl_season(paths: Sequence[Path], settings: dict[str, str]) -> str:
    """UKPL 1E, 3E-3G, offline: the region's season table from published meeting results."""
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
    return _season_csv(table, config)


def _season_files(paths: Sequence[Path]) -> list[Path]:
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
            for line, row in rows(f, *SEASON_COLUMNS):
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
    place = whole_number(position, "position", line) if position else None
    total = _decimal(row.get("meet_total", ""), "meet_total", line) or Fraction(0)
    return MeetResult(row["player"], points, place, total)


def _decimal(text: str, column: str, line: int) -> Fraction | None:
    if not text:
        return None
    whole, _, decimals = text.partition(".")
    if not (whole + decimals).isascii() or not (whole + decimals).isdigit():
        raise InputError(f"line {line}: {column} {text!r} is not a number like 16.5.")
    return Fraction(text)


def _season_csv(table: SeasonTable, config: SeasonConfig) -> str:
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
    return out.getvalue()


UKPL_MEETING = OfflineFormat(
    "scores",
    "reads  machine,player,score,guest\nprints player,position,meet_total,league_points",
    ukpl_meeting,
)
UKPL_SEASON = OfflineFormat(
    "results",
    "reads  --results: a meeting's published CSV player,position,meet_total,league_points\n"
    "       (the meeting is the file name: meet-3-published.csv is meeting 3), a CSV with a\n"
    "       meet column holding several meetings, or a folder of such CSVs (score sheets\n"
    "       there are skipped). A blank league_points is a guest playing for fun.\n"
    "prints player,place,season_points,counted,results,final and one column per meeting:\n"
    "       counted = the best results that count (20+19+18+16.5), results = meetings\n"
    "       played, final = qualified, playoff (tied for a finals place after the 5th/6th-best\n"
    "       countback) or for fun.\n"
    "settings: counted=4 qualifiers=0 min_competitors=5 countback=2\n"
    "       tie_break=qualifying|all missing=zero|lowest",
    ukpl_season,
)
