"""Exports through the HTTP API, with expected values worked by hand from the rule texts: the
results CSV, the IFPA CSV and the printable page."""

from __future__ import annotations

import csv
import io

from tests.display.desk.test_desk_players import post_csv
from tests.utils import Api

PLAYERS = "number,name,ifpa,country\n1,Ann Example,101,NL\n2,Bo Sample,202,SE\n3,Cy Test,,UK\n4,Di Other,404,DE\n"


async def epc_field(api: Api, tid: str) -> None:
    """EPC 2009, EPC Qualifying with the PAPA scale (100, 90, 85 …; equal scores share the better
    place's points). m1: Ann 9,000 (100), Bo and Cy 7,000 (2nd each, 90). m2: Bo 5,000 (100),
    Di 3,000 (90). Totals: Bo 190 (1st), Ann 100 (2nd), Cy 90 and Di 90 (3rd, shared)."""
    await api.tournament(tid, "epc-qualifying", machines=2)
    assert (await post_csv(api, f"/api/t/{tid}/players/import", PLAYERS)).status_code == 201
    for player, machine, score in ((1, 1, 9_000), (2, 1, 7_000), (3, 1, 7_000), (2, 2, 5_000),
                                   (4, 2, 3_000)):  # fmt: skip
        assert (await api.score(tid, player, machine, score)).status_code == 201


def table(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


async def test_results_csv_lists_everyone_with_places_totals_and_machines(api: Api) -> None:
    await epc_field(api, "ex1")
    r = await api.http.get("/api/t/ex1/export/results.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert 'filename="ex1-results.csv"' in r.headers["content-disposition"]
    rows = table(r.text)
    assert rows[0][:11] == ["Place", "Number", "Name", "IFPA", "Country", "Guest", "Withdrawn",
                            "Total", "League points", "Band", "Played"]  # fmt: skip
    assert rows[0][11:] == ["Machine 1 score", "Machine 1 points", "Machine 2 score",
                            "Machine 2 points"]  # fmt: skip
    assert [row[:4] + row[7:8] + row[9:] for row in rows[1:]] == [
        ["1", "2", "Bo Sample", "202", "190", "qualified", "2", "7000", "90", "5000", "100"],
        ["2", "1", "Ann Example", "101", "100", "qualified", "1", "9000", "100", "", ""],
        ["3", "3", "Cy Test", "", "90", "qualified", "1", "7000", "90", "", ""],
        ["3", "4", "Di Other", "404", "90", "qualified", "1", "", "", "3000", "90"],
    ]
    assert rows[1][4] == "SE"


async def test_ifpa_csv_has_places_names_and_ifpa_numbers(api: Api) -> None:
    await epc_field(api, "ex2")
    r = await api.http.get("/api/t/ex2/export/ifpa.csv")
    assert r.status_code == 200
    assert table(r.text) == [
        ["Position", "Player Name", "IFPA Number"],
        ["1", "Bo Sample", "202"],
        ["2", "Ann Example", "101"],
        ["3", "Cy Test", ""],  # no IFPA number yet: IFPA matches or registers by name
        ["3", "Di Other", "404"],  # a shared place stays shared
    ]


async def test_ifpa_csv_leaves_out_ukpl_guests_and_players_without_a_place(api: Api) -> None:
    """UKPL 3B, 3C, 3D: on m1 (non-guests ranked, N = 2) Ann 500 gets 2 + a bonus point (more than
    double Bo's 100), Bo 1; the guest's 900 is shown unranked; Cy never played (unranked). League
    points: 20 and 19."""
    await api.tournament("ex3", "ukpl-meeting", machines=1)
    text = "number,name,region,guest\n1,Ann Example,South West,no\n2,Bo Sample,South West,\n3,Gus Guest,London,yes\n4,Cy Test,South West,no\n"
    assert (await post_csv(api, "/api/t/ex3/players/import", text)).status_code == 201
    for player, score in ((1, 500), (2, 100), (3, 900)):
        await api.score("ex3", player, 1, score)
    ifpa = table((await api.http.get("/api/t/ex3/export/ifpa.csv")).text)
    assert ifpa[1:] == [["1", "Ann Example", ""], ["2", "Bo Sample", ""]]
    results = table((await api.http.get("/api/t/ex3/export/results.csv")).text)
    assert results[0][4] == "Region" and results[0][8] == "League points"
    assert [(r[1], r[0], r[7], r[8], r[5]) for r in results[1:]] == [
        ("1", "1", "3", "20", ""),
        ("2", "2", "1", "19", ""),
        ("3", "", "0", "", "yes"),
        ("4", "", "0", "", ""),
    ]


async def test_no_ifpa_file_before_anyone_has_a_place(api: Api) -> None:
    await api.tournament("ex4", "ukpl-meeting", players=2, machines=1)
    r = await api.http.get("/api/t/ex4/export/ifpa.csv")
    assert r.status_code == 409 and "nothing to submit" in r.json()["message"]


async def test_a_name_a_spreadsheet_would_run_is_quoted(api: Api) -> None:
    await api.tournament("ex5", "epc-qualifying", machines=1)
    await api.post("/api/t/ex5/players", {"number": "1", "name": "=HYPERLINK(1)"})
    await api.score("ex5", 1, 1, 10)
    rows = table((await api.http.get("/api/t/ex5/export/results.csv")).text)
    assert rows[1][2] == "'=HYPERLINK(1)"


async def test_the_printable_page(api: Api) -> None:
    await epc_field(api, "ex6")
    r = await api.http.get("/t/ex6/results")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    text = r.text
    assert text.index("Bo Sample") < text.index("Ann Example") < text.index("Di Other")
    assert 'data-player="2" data-place="1"' in text
    assert "Machine 1" in text and "9,000" in text
    assert (
        "version" not in text.split("<body", 1)[1]
    )  # no log version on paper: it means nothing there
    assert (await api.http.get("/t/none/results")).status_code == 404
