"""The EPC Classic and the UK Pinball Kids Tournament live, through the HTTP API (EPC 2009, EPC
Classic Tournament; UK Pinball Kids Tournament). Expected values worked by hand in the docstrings.

Classic machines are "1"-"8" (machine order 1-8); unless a test says otherwise player k+1 holds
machine k for k = 3..8 with a lone 1,000 (players 4-9).
"""

from __future__ import annotations

from typing import Any

from tests.utils import Api

CLASSIC = "epc-classic"


async def post(api: Api, tid: str, path: str, body: Any) -> Any:
    return await api.post(f"/api/t/{tid}/epc/{path}", body)


async def board(api: Api, tid: str) -> dict[str, Any]:
    return (await api.views(tid))["views"]["classic"]  # type: ignore[no-any-return]


async def scores(api: Api, tid: str, entries: list[tuple[int, int, int]]) -> None:
    for player, machine, score in entries:
        r = await api.score(tid, player, machine, score)
        assert r.status_code == 201, r.text


def holders(doc: dict[str, Any]) -> dict[str, str | None]:
    return {slot: place.get("player") for slot, place in doc["places"].items()}


TWO_TOPS = [(1, 1, 50_000), (2, 1, 10_000), (1, 2, 900_000), (3, 2, 800_000)] + [
    (k + 1, k, 1_000) for k in range(3, 9)
]


async def classic(api: Api, tid: str, settings: dict[str, Any] | None = None) -> None:
    await api.tournament(tid, CLASSIC, players=20, machines=8, settings=settings)
    await scores(api, tid, TWO_TOPS)


async def test_a_player_top_on_two_machines_keeps_the_larger_lead(api: Api) -> None:
    """EPC Classic: "If a player comes first on more than one machine, their best score
    (calculated by how far ahead they are of the second best player) will determine their
    qualifying machine, the second best scorer from their other machine will become the
    qualifying player". Player 1 leads machine 1 by 50,000 - 10,000 = 40,000 and machine 2 by
    900,000 - 800,000 = 100,000 (``lead="difference"``, default): keeps machine 2; machine 1
    passes to player 2 (10,000). The board shows player 1 ahead by 100,000 over player 3; player
    2 has nobody behind who could take machine 1 (player 1 holds machine 2)."""
    await classic(api, "c1")
    doc = await board(api, "c1")
    assert holders(doc)["1"] == "2" and holders(doc)["2"] == "1"
    assert doc["places"]["2"] == {
        "machine": "2", "player": "1", "score": 900_000,
        "runner_up": "3", "second": 800_000, "lead": 100_000,
    }  # fmt: skip
    assert doc["places"]["1"] == {"machine": "1", "player": "2", "score": 10_000}
    assert doc["closed"] is False


async def test_a_lead_by_ratio_keeps_the_other_machine(api: Api) -> None:
    """``lead="ratio"``: 50,000 / 10,000 = 5 beats 900,000 / 800,000 = 1.125, so player 1 keeps
    machine 1 and machine 2 passes to player 3 (800,000)."""
    await classic(api, "c2", {"lead": "ratio"})
    doc = await board(api, "c2")
    assert holders(doc)["1"] == "1" and holders(doc)["2"] == "3"
    assert (doc["places"]["1"]["runner_up"], doc["places"]["1"]["lead"]) == ("2", 5)


async def test_an_epc_semifinalist_forfeits_the_place(api: Api) -> None:
    """EPC Classic: "if ... they are one of the 8 players who make it into the EPC semi-finals,
    their Classic Tournament place will be forfeit and given to the next highest scorer not still
    playing in the EPC": with player 1 in the EPC semi-finals, machine 1 goes to player 2 and
    machine 2 to player 3."""
    await classic(api, "c3")
    r = await api.post("/api/t/c3/settings", {"settings": {"epc_players": ["1"]}})
    assert r.status_code == 201
    doc = await board(api, "c3")
    assert holders(doc)["1"] == "2" and holders(doc)["2"] == "3"
    assert doc["epc_players"] == ["1"]


async def test_a_fault_with_fewer_than_ten_players_replaces_the_machine(api: Api) -> None:
    """EPC Classic: "If fewer than 10 player's scores have been recorded, the machine may ... be
    replaced ... All recorded scores on the faulty machine will be wiped but those players will be
    given a free game". Machine 8 has players 9 and 10: replaced by "9"; slot 8 is empty until a
    score on the replacement; later scores on machine 8 are refused."""
    tid = "c4"
    await classic(api, tid)
    await scores(api, tid, [(10, 8, 2_000)])
    r = await post(api, tid, "faults", {"machine": "8", "replacement": "9",
                                        "replacement_name": "Fathom"})  # fmt: skip
    assert r.status_code == 201, r.text
    doc = await board(api, tid)
    assert doc["places"]["8"] == {"machine": "9"}
    assert doc["faults"]["8"] == {"action": "replace", "replacement": "9",
                                  "free_games": ["9", "10"]}  # fmt: skip
    closed = await api.score(tid, 11, 8, 5_000)
    assert closed.status_code == 409 and closed.json()["error"] == "machine_closed"
    await scores(api, tid, [(10, 9, 3_000)])
    assert holders(await board(api, tid))["8"] == "10"


async def test_a_fault_with_ten_players_closes_and_the_scores_stand(api: Api) -> None:
    """EPC Classic: "10 or more players' scores have been recorded on that machine, it will be
    closed to further qualification but all scores will stand": ten players on machine 7 (player
    8's 1,000 and players 10-18 with less) - closed even though a replacement was offered."""
    tid = "c5"
    await classic(api, tid)
    await scores(api, tid, [(p, 7, 100 + p) for p in range(10, 19)])
    r = await post(api, tid, "faults", {"machine": "7", "replacement": "9",
                                        "replacement_name": "Fathom"})  # fmt: skip
    assert r.status_code == 201, r.text
    doc = await board(api, tid)
    assert doc["faults"]["7"] == {"action": "close"}
    assert doc["places"]["7"]["player"] == "8"
    assert (await api.score(tid, 19, 7, 9_999)).status_code == 409


async def test_counting_scores_not_players_closes_a_machine_sooner(api: Api) -> None:
    """``fault_count="scores"``: five players with two scores each on machine 7 (player 8 and
    players 10-13) are ten recorded scores, so it closes; counted by players (default) the five
    players are fewer than ten and it is replaced."""
    games = [(p, 7, 100 + p + g) for p in (10, 11, 12, 13) for g in (0, 1)] + [(8, 7, 1_001)]
    for tid, counting, action in (("c6", "scores", "close"), ("c7", "players", "replace")):
        await classic(api, tid, {"fault_count": counting})
        await scores(api, tid, games)
        body = {"machine": "7", "replacement": "9", "replacement_name": "Fathom"}
        assert (await post(api, tid, "faults", body)).status_code == 201
        assert (await board(api, tid))["faults"]["7"]["action"] == action


async def test_close_semifinals_on_the_other_half_and_the_final(api: Api) -> None:
    """EPC Classic: "The qualifying round ends at 3pm promptly"; "The top players on machines 1,
    2, 3 & 4 will play their semi-final on one of machines 5-8" and vice versa; "The top two
    players from each semi-final will go forward to the four-player final". Holders: 2, 1, 4, 5
    (semi-final 1) and 6, 7, 8, 9 (semi-final 2)."""
    tid = "c8"
    await classic(api, tid)
    early = await post(api, tid, "stage", {"stage": "semifinal"})
    assert early.status_code == 409 and "Close" in early.json()["message"]
    assert (await post(api, tid, "close", {})).status_code == 201
    late = await api.score(tid, 12, 3, 99_999)
    assert late.status_code == 409 and late.json()["error"] == "qualifying_closed"
    wrong = await post(api, tid, "stage", {"stage": "semifinal", "machines": {"1": "2"}})
    assert wrong.status_code == 409 and "one of machines 5, 6, 7, 8" in wrong.json()["message"]
    r = await post(api, tid, "stage", {"stage": "semifinal", "machines": {"1": "6", "2": "3"}})
    assert r.status_code == 201, r.text
    games = (await api.views(tid))["views"]["classic/games"]["games"]
    assert list(games["1"]["players"]) == ["2", "1", "4", "5"]
    assert list(games["2"]["players"]) == ["6", "7", "8", "9"]
    assert (await api.score(tid, 2, 5, 10)).status_code == 409  # semi-final 1 is on machine 6
    await scores(api, tid, [(2, 6, 40), (1, 6, 30), (4, 6, 20), (5, 6, 10)])
    await scores(api, tid, [(6, 3, 10), (7, 3, 20), (8, 3, 30), (9, 3, 40)])
    assert (await post(api, tid, "stage", {"stage": "final"})).status_code == 201
    final = (await api.views(tid))["views"]["classic/games"]["games"]["final"]
    assert list(final["players"]) == ["2", "1", "9", "8"]
    await scores(api, tid, [(2, 1, 5), (1, 1, 6), (9, 1, 7), (8, 1, 8)])
    assert (await post(api, tid, "stage", {"stage": "complete"})).status_code == 201
    final = (await api.views(tid))["views"]["classic/games"]["games"]["final"]
    assert {p: row["place"] for p, row in final["players"].items()} == {
        "8": 1, "9": 2, "1": 3, "2": 4
    }  # fmt: skip


async def test_kids_board_and_trophies_at_the_close(api: Api) -> None:
    """UK Pinball Kids: "Players may purchase as many entries as they wish"; "At the close of the
    tournament each day, the three players with the highest scores will be awarded glass
    trophies". Best games: 1 700 (300 then 700), 5 650, 2 and 3 500 each (sharing 3rd,
    ``ties="share"``), 4 100: trophies for 1, 5, 2 and 3."""
    tid = "k1"
    await api.tournament(tid, "epc-kids", players=5, machines=2)
    await scores(api, tid, [(1, 1, 300), (2, 1, 500), (3, 1, 500), (4, 1, 100), (5, 1, 650),
                            (1, 1, 700)])  # fmt: skip
    other = await api.score(tid, 4, 2, 1_000)
    assert other.status_code == 409 and other.json()["error"] == "wrong_machine"
    rows = (await api.views(tid))["views"]["standings"]["rows"]
    assert {p: (r["place"], r["total"]) for p, r in rows.items()} == {
        "1": (1, 700), "5": (2, 650), "2": (3, 500), "3": (3, 500), "4": (5, 100)
    }  # fmt: skip
    assert {p for p, r in rows.items() if r.get("band") == "leading"} == {"1", "5", "2", "3"}
    assert (await post(api, tid, "close", {})).status_code == 201
    assert (await api.score(tid, 4, 1, 9_000)).status_code == 409
    views = (await api.views(tid))["views"]
    assert views["tournament"]["closed"] is True
    trophies = {p for p, r in views["standings"]["rows"].items() if r.get("band") == "trophy"}
    assert trophies == {"1", "5", "2", "3"}
    again = await post(api, tid, "close", {})
    assert again.status_code == 409
    fault = await post(api, tid, "faults", {"machine": "1"})
    assert fault.status_code == 422 and "kids" in fault.json()["message"]
