"""Names entering a log are stored in NFC, whichever way they come (the JSON API, a CSV import, the
desk's late entry), and a name equal to an earlier one once composed and case-folded is answered
with a possible-duplicate warning (``display.http.names``)."""

from __future__ import annotations

import unicodedata

from display.http.names import duplicate_warnings, folded, nfc
from tests.display.desk.test_desk_players import post_csv
from tests.utils import Api

EPC = "epc-qualifying"
ASA = "Åsa Lind"
ASA_MAC = unicodedata.normalize("NFD", ASA)  # as a Mac keyboard sends it: A + combining ring


def test_names_compare_composed_and_case_folded() -> None:
    assert ASA_MAC != ASA and nfc(ASA_MAC) == ASA
    assert folded(ASA_MAC) == folded("åsa  LIND ") == folded(ASA)
    assert duplicate_warnings([("7", ASA_MAC)], {"3": ASA}) == [
        f"Player 7 “{ASA_MAC}” may be the same person as player 3 “{ASA}”: withdraw one if they are."
    ]
    # within one batch too; the same number again (a retry) is not a second person
    assert len(duplicate_warnings([("1", "Bo"), ("2", "BO")], {})) == 1
    assert duplicate_warnings([("3", ASA)], {"3": ASA}) == []
    assert duplicate_warnings([("4", "Asa Lind")], {"3": ASA}) == []  # Å is not A


async def test_the_api_stores_nfc_and_warns_of_a_possible_duplicate(api: Api) -> None:
    await api.tournament("nm1", EPC)
    r = await api.post("/api/t/nm1/players", {"players": [{"number": "3", "name": ASA}]})
    assert r.status_code == 201 and "warnings" not in r.json()
    r = await api.post("/api/t/nm1/players", {"number": "7", "name": f" {ASA_MAC.upper()}"})
    assert r.status_code == 201
    assert r.json()["warnings"] == [
        f"Player 7 “{nfc(ASA_MAC.upper())}” may be the same person as player 3 “{ASA}”: "
        "withdraw one if they are."
    ]
    players = (await api.views("nm1"))["views"]["players"]
    assert players["7"]["name"] == "ÅSA LIND" == unicodedata.normalize("NFC", players["7"]["name"])
    r = await api.post(
        "/api/t/nm1/machines", {"id": "1", "name": unicodedata.normalize("NFD", "Bäd Cats")}
    )
    assert (await api.views("nm1"))["views"]["machines"]["1"]["name"] == "Bäd Cats"


async def test_a_csv_import_and_a_late_entry_store_nfc_and_warn(api: Api) -> None:
    await api.tournament("nm2", EPC)
    r = await post_csv(api, "/api/t/nm2/players/import", f"number,name\n1,{ASA_MAC}\n2,Bo\n")
    assert r.status_code == 201 and "warnings" not in r.json()
    assert (await api.views("nm2"))["views"]["players"]["1"]["name"] == ASA
    r = await post_csv(api, "/api/t/nm2/players/import", "number,name\n5,bo\n")
    assert r.json()["warnings"] == [
        "Player 5 “bo” may be the same person as player 2 “Bo”: withdraw one if they are."
    ]
    r = await api.post("/api/t/nm2/entries", {"number": "9", "name": ASA_MAC.lower()})
    assert r.status_code == 201, r.text
    assert r.json()["player"]["name"] == "åsa lind"
    assert r.json()["warnings"][0].startswith(
        "Player 9 “åsa lind” may be the same person as player 1"
    )
