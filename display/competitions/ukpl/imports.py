"""A meeting's published results as CSV -> rows of a ``season_results_imported`` record.

The league publishes ``player,position,meet_total,league_points`` (tests/cases/ukpl/
meet-*-published.csv); a ``name`` column may follow. A blank ``league_points`` is a guest who
played for fun (UKPL 1C, 3C). Points are kept as the text published ("16.5", "0.33").
"""

from __future__ import annotations

import csv
import io
import re

from display.errors import ApiError

REQUIRED = ("player", "league_points")
OPTIONAL = ("position", "meet_total", "name")
NUMBER = re.compile(r"^\d+(\.\d+)?$")
PLAYER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")

Row = dict[str, str | int]
"""One row of a ``season_results_imported`` record: ``player``, and as published ``position``
(a whole number), ``meet_total``, ``league_points`` (text like "16.5") and ``name``."""


def rows_from_csv(text: str) -> list[Row]:
    """The rows of a published results CSV. Raises ApiError 422 naming the line of a bad row."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [name.strip().lower() for name in reader.fieldnames or []]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise _bad(
            1, f"expected columns {','.join((*REQUIRED, *OPTIONAL))}; missing {', '.join(missing)}"
        )
    reader.fieldnames = header
    rows = []
    for row in reader:
        line = reader.line_num
        cells = {k: (v or "").strip() for k, v in row.items() if k in (*REQUIRED, *OPTIONAL)}
        if not any(cells.values()):
            continue
        if not PLAYER.match(cells["player"]):
            raise _bad(line, f"player {cells['player']!r} is not a player number")
        out: Row = {"player": cells["player"]}
        for column in ("league_points", "meet_total"):
            value = cells.get(column, "")
            if value and not NUMBER.match(value):
                raise _bad(line, f"{column} {value!r} is not a number like 16.5")
            if value:
                out[column] = value
        position = cells.get("position", "")
        if position:
            if not position.isdigit():
                raise _bad(line, f"position {position!r} is not a whole number")
            out["position"] = int(position)
        if cells.get("name"):
            out["name"] = cells["name"][:80]
        rows.append(out)
    return rows


def _bad(line: int, problem: str) -> ApiError:
    return ApiError(422, "invalid_csv", f"Line {line}: {problem}.")
