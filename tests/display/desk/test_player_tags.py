"""A player's city or tag (issue 13: "the steward's lookup shows a player's city or tag"), so two
"J. Smith" can be told apart: an optional ``tag`` on registration through the API, a late entry,
a CSV column (``tag`` or ``city``) and an Excel workbook, shown in the ``players`` view."""

from __future__ import annotations

from tests.display.desk.test_desk_players import post_csv
from tests.display.desk.test_xlsx_import import post_file, workbook
from tests.utils import Api

EPC = "epc-qualifying"


async def test_a_tag_comes_from_every_way_a_player_registers(api: Api) -> None:
    tid = "tg1"
    await api.tournament(tid, EPC)
    text = "number,name,city\n1,J. Smith,Leeds\n2,J. Smith,Bristol\n3,Ann Other,\n"
    assert (await post_csv(api, f"/api/t/{tid}/players/import", text)).status_code == 201
    book = workbook(("number", "name", "tag"), (4, "J. Smith", "the Flipper"))
    assert (await post_file(api, f"/api/t/{tid}/players/import", book)).status_code == 201
    late = {"number": "5", "name": "J. Smith", "tag": "Cardiff"}
    assert (await api.post(f"/api/t/{tid}/entries", late)).status_code == 201
    plain = {"number": "6", "name": "J. Smith", "tag": "York"}
    assert (await api.post(f"/api/t/{tid}/players", plain)).status_code == 201
    players = (await api.views(tid))["views"]["players"]
    assert {n: p.get("tag") for n, p in players.items()} == {
        "1": "Leeds",
        "2": "Bristol",
        "3": None,
        "4": "the Flipper",
        "5": "Cardiff",
        "6": "York",
    }
    assert players["3"] == {"name": "Ann Other", "guest": False}  # none given: no key


async def test_a_tag_too_long_is_refused_naming_the_line(api: Api) -> None:
    tid = "tg2"
    await api.tournament(tid, EPC)
    text = "number,name,tag\n1,J. Smith," + "x" * 41 + "\n"
    r = await post_csv(api, f"/api/t/{tid}/players/import", text)
    assert r.status_code == 422
    assert r.json()["message"].startswith("Line 2: the city or tag ")
    long = {"number": "7", "name": "J. Smith", "tag": "y" * 41}
    assert (await api.post(f"/api/t/{tid}/players", long)).status_code == 422
    assert (await api.views(tid))["views"]["players"] == {}
