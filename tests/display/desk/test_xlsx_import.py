"""Players and machines from an Excel workbook (.xlsx, written here with openpyxl): the same
columns, the same all-or-nothing import and the same line-numbered errors as a CSV file."""

from __future__ import annotations

import datetime
import io

import httpx
from openpyxl import Workbook

from display.desk.xlsx import cell_text
from tests.display.desk.test_desk_players import registrations
from tests.utils import Api

EPC = "epc-qualifying"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def workbook(*rows: tuple[object, ...], sheet_first: tuple[object, ...] | None = None) -> bytes:
    """An .xlsx whose first sheet holds ``rows`` (``sheet_first``: a row on a second sheet)."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(list(row))
    if sheet_first is not None:
        book.create_sheet("other").append(list(sheet_first))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


async def post_file(api: Api, path: str, content: bytes, kind: str = XLSX) -> httpx.Response:
    headers = {**api.headers(), "Content-Type": kind}
    return await api.http.post(path, content=content, headers=headers)


def test_cells_read_as_a_csv_would_hold_them() -> None:
    assert cell_text(17) == "17" and cell_text(17.0) == "17" and cell_text(2.5) == "2.5"
    assert cell_text(None) == "" and cell_text(True) == "yes"
    assert cell_text(datetime.date(2026, 12, 1)) == "2026-12-01"


async def test_players_and_machines_from_a_workbook(api: Api) -> None:
    await api.tournament("xl1", EPC)
    content = workbook(
        ("Number", "Name", "IFPA number", "Country", "Guest"),
        (1, "Ann Example", 1234, "NL", "no"),
        (None, None, None, None, None),  # a blank row is skipped
        (17.0, "Zoë Ünicode", None, "DE", "yes"),
        sheet_first=("number", "name"),  # the second sheet is not read
    )
    r = await post_file(api, "/api/t/xl1/players/import", content)
    assert r.status_code == 201, r.text
    assert r.json()["players"] == ["1", "17"]
    found = (await registrations(api, "xl1"))["players"]
    assert found["1"] == {
        "number": "1",
        "name": "Ann Example",
        "guest": False,
        "ifpa": "1234",
        "country": "NL",
    }
    assert found["17"]["name"] == "Zoë Ünicode" and found["17"]["guest"] is True
    machines = workbook(("Name", "Manufacturer", "Year"), ("Medieval Madness", "Williams", 1997))
    # the zip signature decides, whatever the Content-Type
    r = await post_file(api, "/api/t/xl1/machines/import", machines, kind="text/csv")
    assert r.status_code == 201, r.text
    assert (await registrations(api, "xl1"))["machines"]["1"]["year"] == 1997  # as from a CSV file


async def test_a_bad_workbook_writes_nothing_and_names_the_row(api: Api) -> None:
    await api.tournament("xl2", EPC, players=2)
    before = (await api.views("xl2"))["version"]
    cases = [
        (
            workbook(("number", "name"), (5, "Cy"), (5, "Di")),
            "Line 3: player number 5 is also on line 2.",
        ),
        (workbook(("number", "name"), ("x y", "Cy")), "Line 2: the player number 'x y'"),
        (
            workbook(("name", "country"), ("Cy", "UK")),
            "Line 1: the first row names the columns; it needs 'number'",
        ),
        (
            workbook(("number", "name"), (2, "Again")),
            "Line 2: player number 2 is already registered.",
        ),
        (workbook(), "The file is empty."),
        (
            b"PK\x03\x04 not really a zip",
            "This file is not an Excel workbook (.xlsx) that can be read",
        ),
    ]
    for content, message in cases:
        r = await post_file(api, "/api/t/xl2/players/import", content)
        assert r.status_code == 422, (message, r.text)
        assert message in r.json()["message"], r.json()["message"]
    assert (await api.views("xl2"))["version"] == before
