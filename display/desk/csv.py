"""Players and machines from a CSV file, as the TD has them in a spreadsheet. Pure parsing: text
in, the dicts of ``player_added`` / ``machine_added`` records out, or one ApiError (422) naming
the line and what is wrong with it.

Players: a header row, then one player a row. Columns (any order, names case-insensitive):
``number`` (required), ``name`` (required), ``ifpa`` (IFPA number), ``country`` or ``region``,
``guest`` (yes/no; UKPL 1C, 3C), ``ifpa_rank`` (FWPL 4.3 seeding), ``tag`` (a city, club or
nickname, up to 40 characters, shown beside the name on the steward's lookup so two players of the
same name can be told apart; also ``city``).
Machines: ``name`` (required), ``id`` (default: the next free whole number), ``manufacturer``,
``year``. Commas, semicolons (European spreadsheets) and tabs all separate columns. An Excel
workbook's first sheet gives the same table (``display/desk/xlsx.py``, ``Table``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Collection
from typing import NoReturn

from display.errors import ApiError
from display.http.names import nfc
from display.types import Registration

ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
MAX_PLAYERS, MAX_MACHINES = 2000, 500
PLAYER_COLUMNS = {
    "number": ("number", "no", "no.", "#", "player number", "badge"),
    "name": ("name", "player", "player name"),
    "ifpa": ("ifpa", "ifpa number", "ifpa #", "ifpa id", "ifpa no"),
    "place": ("country", "region", "country or region", "country/region"),
    "guest": ("guest",),
    "ifpa_rank": ("ifpa rank", "ifpa_rank"),
    "tag": ("tag", "city", "town", "club", "city or tag", "city/tag"),
}
TAG_LENGTH = 40
MACHINE_COLUMNS = {
    "id": ("id", "number", "no", "no.", "#", "machine id"),
    "name": ("name", "machine", "title", "game"),
    "manufacturer": ("manufacturer", "maker", "make"),
    "year": ("year",),
}
YES, NO = ("yes", "y", "true", "1", "x", "guest"), ("", "no", "n", "false", "0")


def decode(raw: bytes) -> str:
    """File bytes as text: UTF-8 (with or without the byte-order mark Excel writes), else
    Windows-1252, which every byte decodes."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


Table = str | list[tuple[int, list[str]]]
"""A file's table: CSV text, or (row number, cells) from a workbook (``display/desk/xlsx.py``)."""


def numbered_rows(table: Table) -> list[tuple[int, list[str]]]:
    """(line number, cells) of every line of ``table``. Raises ApiError 422 for an empty one."""
    if not isinstance(table, str):
        if not any(c.strip() for _, cells in table for c in cells):
            raise ApiError(422, "empty_file", "The file is empty.")
        return table
    lines = table.splitlines()
    if not any(line.strip() for line in lines):
        raise ApiError(422, "empty_file", "The file is empty.")
    first = next(line for line in lines if line.strip())
    delimiter = max(",;\t", key=first.count)
    reader = csv.reader(io.StringIO(table), delimiter=delimiter)
    found: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:
            found.append((reader.line_num, cells))
    except csv.Error as bad:  # a bare carriage return inside a field, a field over 128 KiB, …
        line = reader.line_num or 1
        raise ApiError(422, "bad_csv", f"Line {line}: {_csv_problem(bad)}") from None
    return found


def _csv_problem(error: csv.Error) -> str:
    """Python's csv error in words a TD understands."""
    text = str(error)
    if "field larger than field limit" in text:
        limit = csv.field_size_limit() // 1024
        return f"a cell is longer than {limit} KiB; is this the right file?"
    if "new-line character" in text:
        return (
            "a line break inside a cell that is not in quotes (a carriage return on its own); "
            "save the file again from the spreadsheet as CSV."
        )
    return f"this line cannot be read as CSV ({text})."


def rows(
    table: Table, columns: dict[str, tuple[str, ...]], required: tuple[str, ...]
) -> list[tuple[int, dict[str, str]]]:
    """(line number, {column: cell}) for every non-blank row after the header. Raises ApiError
    422 when the header names no known column or a required one is missing."""
    header: list[str] | None = None
    found: list[tuple[int, dict[str, str]]] = []
    for line, cells in numbered_rows(table):
        if not any(c.strip() for c in cells):
            continue
        if header is None:
            header = [_column(c, columns) for c in cells]
            missing = [c for c in required if c not in header]
            if missing:
                _bad(
                    f"Line {line}: the first row names the columns; it needs "
                    f"{missing[0]!r} (the columns are {', '.join(columns)})."
                )
            continue
        cell = {k: v.strip() for k, v in zip(header, cells, strict=False) if k}
        found.append((line, cell))
    return found


def players(text: Table, existing: Collection[str], region_key: str) -> list[Registration]:
    """The ``player`` of each ``player_added`` record, in file order. ``existing``: numbers
    already registered; ``region_key``: the record key for the country/region column
    (``"region"`` for a UKPL meeting, UKPL 1C; else ``"country"``). Raises ApiError 422."""
    found = rows(text, PLAYER_COLUMNS, ("number", "name"))
    _limit(found, MAX_PLAYERS, "players")
    seen: dict[str, int] = {}
    return [player(line, cell, existing, seen, region_key) for line, cell in found]


def player(
    line: int,
    cell: dict[str, str],
    existing: Collection[str],
    seen: dict[str, int],
    region_key: str,
) -> Registration:
    """One player from one row's cells (keys of ``PLAYER_COLUMNS``) on ``line`` (0: not from a
    file); ``seen`` maps the numbers of earlier rows to their lines and gets this one. Raises
    ApiError 422 saying where."""
    where = f"Line {line}" if line else "The entry"
    number = cell.get("number", "").strip()
    if not ID.match(number):
        _bad(f"{where}: the player number {number!r} should be 1-32 letters or digits.")
    if number in existing:
        _bad(f"{where}: player number {number} is already registered.")
    if number in seen:
        _bad(f"{where}: player number {number} is also on line {seen[number]}.")
    seen[number] = line
    out: Registration = {"number": number, "name": _name(where, cell.get("name", "").strip())}
    out["guest"] = _flag(where, cell.get("guest", "").strip())
    ifpa = cell.get("ifpa", "").strip().lstrip("#").strip()
    if ifpa:
        if not ifpa.isdigit():
            _bad(f"{where}: the IFPA number {ifpa!r} should be digits only.")
        out["ifpa"] = ifpa
    place = cell.get("place", "").strip()
    if place:
        out[region_key] = place[:80]
    rank = cell.get("ifpa_rank", "").strip()
    if rank:
        if not rank.isdigit():
            _bad(f"{where}: the IFPA rank {rank!r} should be a whole number.")
        out["ifpa_rank"] = int(rank)
    tag = nfc(cell.get("tag", "").strip())
    if len(tag) > TAG_LENGTH:
        _bad(f"{where}: the city or tag {tag[:20]!r}… is longer than {TAG_LENGTH} characters.")
    if tag:
        out["tag"] = tag
    return out


def machines(text: Table, existing: Collection[str]) -> list[Registration]:
    """The ``machine`` of each ``machine_added`` record, in file order; machines without an id
    get the next whole numbers after the largest in use. Raises ApiError 422."""
    found = rows(text, MACHINE_COLUMNS, ("name",))
    _limit(found, MAX_MACHINES, "machines")
    used = set(existing) | {c["id"] for _, c in found if c.get("id")}
    next_id = 1 + max((int(i) for i in used if i.isdigit()), default=0)
    out: list[Registration] = []
    seen: dict[str, int] = {}
    for line, cell in found:
        where = f"Line {line}"
        mid = cell.get("id") or ""
        if not mid:
            mid, next_id = str(next_id), next_id + 1
        if not ID.match(mid):
            _bad(f"{where}: the machine id {mid!r} should be 1-32 letters or digits.")
        if mid in existing:
            _bad(f"{where}: machine {mid} already exists.")
        if mid in seen:
            _bad(f"{where}: machine id {mid} is also on line {seen[mid]}.")
        seen[mid] = line
        machine: Registration = {"id": mid, "name": _name(where, cell.get("name", ""))}
        if cell.get("manufacturer"):
            machine["manufacturer"] = cell["manufacturer"][:80]
        year = cell.get("year", "")
        if year:
            if not (year.isdigit() and 1930 <= int(year) <= 2100):
                _bad(f"{where}: the year {year!r} should be like 1992.")
            machine["year"] = int(year)
        out.append(machine)
    return out


def _column(name: str, columns: dict[str, tuple[str, ...]]) -> str:
    key = " ".join(name.strip().lower().replace("_", " ").split())
    return next((column for column, names in columns.items() if key in names), "")


def _name(where: str, name: str) -> str:
    name = nfc(name)  # one Unicode form, whatever system typed it (display.http.names)
    if not name:
        _bad(f"{where}: the name is missing.")
    if len(name) > 80:
        _bad(f"{where}: the name is longer than 80 characters.")
    return name


def _flag(where: str, value: str) -> bool:
    text = value.lower()
    if text in YES:
        return True
    if text in NO:
        return False
    _bad(f"{where}: guest should be yes or no, not {value!r}.")


def _limit(found: list[tuple[int, dict[str, str]]], most: int, what: str) -> None:
    if len(found) > most:
        _bad(f"One file holds at most {most} {what}; split it in two.")


def _bad(message: str) -> NoReturn:
    raise ApiError(422, "invalid_csv", message)
