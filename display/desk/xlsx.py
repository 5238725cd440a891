"""Players and machines from an Excel workbook (.xlsx, Office Open XML, ECMA-376), read with
openpyxl: the first worksheet's rows become the same cells a CSV file gives, so the columns, the
checks and the errors ("Line 4: …", the spreadsheet's row number) are ``display/desk/csv.py``'s.

A whole number typed into a cell arrives as a number (17, or 17.0): it is written as ``17``; a
date as its ISO text; an empty cell as "". Formulas give the value Excel last saved for them.
"""

from __future__ import annotations

import datetime
import io
import zipfile

from display.errors import ApiError

ZIP_MAGIC = b"PK\x03\x04"
"""An .xlsx file is a zip archive (ECMA-376 Part 2, Open Packaging Conventions)."""

MAX_ROWS = 5000
"""Rows read at most (blank ones included): above both import limits, so a sheet with a million
formatted but empty rows is not read to its end."""


def is_workbook(raw: bytes) -> bool:
    """Whether the uploaded bytes are a zip archive, as an .xlsx is (a CSV file never starts so)."""
    return raw.startswith(ZIP_MAGIC)


def cell_text(value: object) -> str:
    """One cell's value as the text a CSV cell would hold."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    return str(value)


def sheet_rows(raw: bytes) -> list[tuple[int, list[str]]]:
    """(row number, cell texts) for every row of the workbook's first worksheet, up to
    ``MAX_ROWS``. Raises ApiError 422 ``bad_workbook`` for a file openpyxl cannot read."""
    # openpyxl is imported here: only an import of a workbook needs it
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise ApiError(
            422,
            "bad_workbook",
            "This file is not an Excel workbook (.xlsx) that can be read; save it again as "
            f".xlsx or as CSV ({type(exc).__name__}).",
        ) from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            raise ApiError(422, "empty_file", "The workbook has no worksheet.")
        found: list[tuple[int, list[str]]] = []
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            if number > MAX_ROWS:
                break
            found.append((number, [cell_text(v) for v in values]))
        return found
    finally:
        book.close()
