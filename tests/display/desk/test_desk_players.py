"""Players and machines from the desk through the HTTP API: CSV imports (all or nothing, errors
naming the line), late entries, withdrawals and the registration details."""

from __future__ import annotations

from typing import Any

import httpx

from tests.utils import Api

EPC = "epc-qualifying"


async def post_csv(
    api: Api, path: str, text: str | bytes, token: str | None = None
) -> httpx.Response:
    content = text.encode() if isinstance(text, str) else text
    headers = {**api.headers(token), "Content-Type": "text/csv"}
    return await api.http.post(path, content=content, headers=headers)


async def registrations(api: Api, tid: str) -> dict[str, Any]:
    r = await api.http.get(f"/api/t/{tid}/registrations")
    assert r.status_code == 200
    return r.json()  # type: ignore[no-any-return]


PLAYERS = (
    "\ufeffNumber;Name;IFPA number;Country;Guest\r\n"  # Excel's BOM and semicolons
    "1;Ann Example;#1234;NL;no\r\n"
    "2;Bo Sample;;SE;\r\n"
    "\r\n"
    "17;Zoë Ünicode;99;DE;yes\r\n"
)


async def test_players_from_a_spreadsheet_with_ifpa_numbers_and_countries(api: Api) -> None:
    await api.tournament("cp1", EPC)
    r = await post_csv(api, "/api/t/cp1/players/import", PLAYERS)
    assert r.status_code == 201, r.text
    assert r.json()["players"] == ["1", "2", "17"]
    views = (await api.views("cp1"))["views"]
    assert views["players"]["17"]["name"] == "Zoë Ünicode"
    assert views["players"]["17"]["guest"] is True and views["players"]["1"]["guest"] is False
    found = (await registrations(api, "cp1"))["players"]
    assert found["1"] == {"number": "1", "name": "Ann Example", "guest": False, "ifpa": "1234",
                          "country": "NL"}  # fmt: skip
    assert "ifpa" not in found["2"] and found["2"]["country"] == "SE"


async def test_a_ukpl_meeting_takes_the_column_as_the_region(api: Api) -> None:
    await api.tournament("cp2", "ukpl-meeting")
    text = "number,name,region\n5,Cy Player,South West\n"
    assert (await post_csv(api, "/api/t/cp2/players/import", text)).status_code == 201
    assert (await registrations(api, "cp2"))["players"]["5"]["region"] == "South West"


async def test_a_bad_file_writes_nothing_and_names_the_line(api: Api) -> None:
    await api.tournament("cp3", EPC, players=2)
    before = (await api.views("cp3"))["version"]
    cases = [
        ("name\nAnn\n", "needs 'number'"),
        ("number,name,guest\n3,Ann,perhaps\n", "Line 2: guest should be yes or no"),
        ("number,name\n3,Ann\n4,Bo\n3,Cy\n", "Line 4: player number 3 is also on line 2"),
        ("number,name\n3,Ann\n2,Bo\n", "Line 3: player number 2 is already registered"),
        ("number,name\n3,\n", "Line 2: the name is missing"),
        ("number,name,ifpa\n3,Ann,12a\n", "Line 2: the IFPA number '12a'"),
        ("number,name\nthree and four,Ann\n", "Line 2: the player number"),
        ("", "empty"),
        ("number,name\n3,Ann\rSmith\n4,Bo\n", "Line 2: a line break inside a cell"),  # bare CR
        ("number,name\n3,Ann\n4," + "A" * 140_000 + "\n", "Line 3: "),  # a cell over 128 KiB
        ('number,name\n3,"' + "A" * 140_000 + '"\n', "Line 2: "),
    ]
    for text, message in cases:
        r = await post_csv(api, "/api/t/cp3/players/import", text)
        assert r.status_code == 422, (text, r.text)
        assert message in r.json()["message"], r.json()["message"]
    assert (await api.views("cp3"))["version"] == before
    assert set((await api.views("cp3"))["views"]["players"]) == {"1", "2"}
    machines = ["name\nAttack\rFrom Mars\nMedieval\n", "name\n" + "B" * 140_000 + "\n"]
    for text in machines:  # the machines' import reads its file the same way
        r = await post_csv(api, "/api/t/cp3/machines/import", text)
        assert r.status_code == 422 and "Line 2: " in r.json()["message"], r.text


async def test_only_the_td_imports(api: Api) -> None:
    await api.tournament("cp4", EPC)
    r = await api.post("/api/t/cp4/stewards", {"name": "Sam"})
    pin = r.json()["pin"]
    r = await api.http.post(
        "/api/session", json={"role": "steward", "tournament": "cp4", "name": "Sam", "pin": pin}
    )
    steward = r.json()["token"]
    r = await post_csv(api, "/api/t/cp4/players/import", "number,name\n1,Ann\n", token=steward)
    assert r.status_code == 403
    r = await api.http.post("/api/t/cp4/machines/import", content=b"name\nX\n")
    assert r.status_code == 401


async def test_machines_from_a_spreadsheet_get_the_next_free_ids(api: Api) -> None:
    await api.tournament("cm1", EPC, machines=2)  # ids 1 and 2 exist
    text = "Name,Manufacturer,Year,id\nMedieval Madness,Williams,1997,\nTheatre of Magic,Bally,1995,9\nAttack from Mars,Bally,1995,\n"
    r = await post_csv(api, "/api/t/cm1/machines/import", text)
    assert r.status_code == 201, r.text
    assert r.json()["machines"] == ["10", "9", "11"]  # after the largest id in use, 9
    views = (await api.views("cm1"))["views"]
    assert views["machines"]["10"]["name"] == "Medieval Madness"
    assert (await registrations(api, "cm1"))["machines"]["9"] == {
        "id": "9", "name": "Theatre of Magic", "manufacturer": "Bally", "year": 1995,
    }  # fmt: skip
    r = await post_csv(api, "/api/t/cm1/machines/import", "name,year\nOld One,1850\n")
    assert r.status_code == 422 and "Line 2: the year '1850'" in r.json()["message"]
    r = await post_csv(api, "/api/t/cm1/machines/import", "id,name\n9,Again\n")
    assert r.status_code == 422 and "machine 9 already exists" in r.json()["message"]


async def test_a_late_entry_joins_the_standings(api: Api) -> None:
    await api.tournament("le1", EPC, players=2, machines=1)
    await api.score("le1", 1, 1, 5_000)
    r = await api.post("/api/t/le1/players", {"number": "3", "name": "Late Larry"})
    assert r.status_code == 201
    assert (await api.score("le1", 3, 1, 9_000)).status_code == 201
    rows = (await api.views("le1"))["views"]["standings"]["rows"]
    assert rows["3"]["place"] == 1 and rows["1"]["place"] == 2  # 100 and 90 points (PAPA)


async def test_a_late_entry_from_the_desk_form_keeps_ifpa_and_country(api: Api) -> None:
    await api.tournament("le2", EPC, players=2, machines=1)
    await api.score("le2", 1, 1, 5_000)
    entry = {"number": "30", "name": "Late Lena", "ifpa": "4321", "country": "FI"}
    r = await api.post("/api/t/le2/entries", entry)
    assert r.status_code == 201, r.text
    assert r.json()["player"] == {**entry, "guest": False}
    assert (await registrations(api, "le2"))["players"]["30"]["ifpa"] == "4321"
    rows = (await api.views("le2"))["views"]["standings"]["rows"]
    assert rows["30"]["total"] == 0 and rows["30"]["place"] == rows["2"]["place"]
    r = await api.post("/api/t/le2/entries", {"number": "30", "name": "Again"})
    assert r.status_code == 422 and r.json()["message"] == (
        "The entry: player number 30 is already registered."
    )


async def test_a_withdrawn_player_scores_no_more(api: Api) -> None:
    await api.tournament("wd1", EPC, players=3, machines=2)
    await api.score("wd1", 2, 1, 5_000)
    r = await api.post("/api/t/wd1/players/2/withdraw", {"reason": "train home"})
    assert r.status_code == 201, r.text
    assert (await registrations(api, "wd1"))["players"]["2"]["withdrawn"] == "train home"
    r = await api.score("wd1", 2, 2, 7_000)
    assert r.status_code == 409 and "withdrawn" in r.json()["message"]
    rows = (await api.views("wd1"))["views"]["machine/1"]["rows"]
    assert rows["2"]["score"] == 5_000  # the scores played stand
    r = await api.http.post("/api/t/wd1/players/1/withdraw", json={"reason": "x"})
    assert r.status_code == 401
