"""Machine status through the HTTP API: out of order, closed, replaced, each a record; who may
change it; and each competition's own rule for the scores (EPC Classic, UKPL 6A)."""

from __future__ import annotations

from typing import Any

import pytest

from display.competitions.machines.kind import MACHINES
from scoring.epc.classic import Fault
from scoring.errors import MachineUnavailable
from scoring.machine_faults import ReplacementRefused
from tests.display.competitions.machines.test_queue_api import act, order
from tests.display.competitions.machines.test_queue_flow import Hall
from tests.utils import Api


async def status(api: Api, tid: str, machine: str, token: str | None = None, **body: Any) -> Any:
    return await api.post(f"/api/t/{tid}/machines/{machine}/status", body, token=token)


async def test_out_of_order_freezes_the_queue_until_it_is_back(api: Api) -> None:
    await api.tournament("hm1", "epc-qualifying", players=3, machines=2)
    token = await api.sign_in_steward("hm1")
    for player in ("1", "2"):
        await act(api, "hm1", "1", "join", token, player=player)
    await act(api, "hm1", "1", "start", token)
    r = await status(api, "hm1", "1", token, status="out_of_order", note="flipper coil")
    assert r.status_code == 201 and r.json()["record"]["by"] == "steward:Sam"
    views = (await api.views("hm1"))["views"]
    assert views["machines"]["1"] == {
        "name": "Machine 1", "order": 1, "status": "out_of_order", "note": "flipper coil"
    }  # fmt: skip
    doc = views["queues"]["1"]
    assert doc["status"] == "out_of_order" and "up" not in doc and order(doc) == ["1", "2"]
    r = await act(api, "hm1", "1", "call", token)
    assert r.status_code == 409 and "out of order (flipper coil)" in r.json()["message"]
    assert (await act(api, "hm1", "1", "join", token, player="3")).status_code == 409
    assert (await status(api, "hm1", "1", token, status="in_service")).status_code == 201
    assert (await act(api, "hm1", "1", "call", token)).json()["record"]["player"] == "1"
    assert "status" not in (await api.views("hm1"))["views"]["machines"]["1"]


async def test_closing_and_replacing_are_the_tds(api: Api) -> None:
    await api.tournament("hm2", "epc-qualifying", players=3, machines=3)
    token = await api.sign_in_steward("hm2")
    r = await status(api, "hm2", "1", token, status="closed")
    assert r.status_code == 403 and "TD's decision" in r.json()["message"]
    await status(api, "hm2", "2", status="closed")
    r = await status(api, "hm2", "2", token, status="in_service")
    assert r.status_code == 403  # reopening a closed machine is the TD's too
    r = await status(api, "hm2", "1", status="sparkly")
    assert r.status_code == 422


async def test_a_closed_machine_takes_no_scores_and_its_queue_empties(api: Api) -> None:
    await api.tournament("hm3", "epc-qualifying", players=3, machines=2)
    await api.score("hm3", 1, 1, 700)
    await act(api, "hm3", "1", "join", player="2")
    await status(api, "hm3", "1", status="closed", note="power supply")
    views = (await api.views("hm3"))["views"]
    assert order(views["queues"]["1"]) == [] and views["queues"]["1"]["status"] == "closed"
    assert views["machine/1"]["rows"]["1"]["score"] == 700  # EPC qualifying: scores stand
    r = await api.score("hm3", 2, 1, 900)
    assert r.status_code == 409 and r.json()["error"] == "machine_unavailable"
    assert "closed (power supply); it takes no more scores" in r.json()["message"]
    r = await status(api, "hm3", "1", status="closed")
    assert r.status_code == 409 and "already closed" in r.json()["message"]
    assert (await status(api, "hm3", "1", status="in_service")).status_code == 201
    assert (await api.score("hm3", 2, 1, 900)).status_code == 201


async def test_a_replaced_machine_hands_its_queue_to_the_replacement(api: Api) -> None:
    await api.tournament("hm4", "epc-qualifying", players=4, machines=3)
    for player in ("1", "2"):
        await act(api, "hm4", "1", "join", player=player)
    await act(api, "hm4", "3", "join", player="3")
    await api.score("hm4", 4, 3, 100)
    r = await status(api, "hm4", "1", status="replaced")
    assert r.status_code == 409 and "Name the machine that replaces" in r.json()["message"]
    r = await status(api, "hm4", "1", status="replaced", replacement="3")
    assert r.status_code == 409 and "starts fresh" in r.json()["message"]
    r = await status(api, "hm4", "1", status="replaced", replacement="2", note="swapped")
    assert r.status_code == 201
    views = (await api.views("hm4"))["views"]
    assert views["machines"]["1"]["status"] == "replaced"
    assert views["machines"]["1"]["replacement"] == "2"
    assert views["machines"]["2"]["replaces"] == "1"
    assert order(views["queues"]["2"]) == ["1", "2"] and order(views["queues"]["1"]) == []
    r = await status(api, "hm4", "1", status="in_service")
    assert r.status_code == 409 and "stays out" in r.json()["message"]
    r = await api.score("hm4", 1, 1, 5)
    assert r.status_code == 409 and "was replaced by Machine 2" in r.json()["message"]


def classic_hall(players: int) -> Hall:
    """A Classic run by the machines kind itself (the EPC kind wraps it in the server and records
    its own ``machine_fault``); ``players`` players have a score on machine 1."""
    hall = Hall(fmt="epc-classic", players=12, machines=9)
    for player in range(1, players + 1):
        hall.score(str(player), "1", player * 1000)
    return hall


def test_classic_ten_players_scores_stand_and_the_machine_closes() -> None:
    """EPC 2009, EPC Classic Tournament: "10 or more players' scores ... closed to further
    qualification but all scores will stand"."""
    hall = classic_hall(10)
    replaced = {"type": "machine_status_changed", "machine": "1", "status": "replaced"}
    with pytest.raises(ReplacementRefused, match="10 players' scores, 10 or more"):
        hall.add({**replaced, "replacement": "9"})
    hall.seq -= 1
    hall.add({"type": "machine_status_changed", "machine": "1", "status": "closed"})
    assert len(hall.state.tables["1"].rows) == 10
    assert hall.state.config.faults == (Fault("1", hall.seq),)
    assert hall.state.standings.rows[0].player == "10"  # still top of machine 1: its place
    with pytest.raises(MachineUnavailable, match="closed"):
        hall.score("11", "1", 99_000)


def test_classic_fewer_than_ten_are_wiped_and_owed_a_free_game() -> None:
    """EPC 2009, EPC Classic Tournament: "All recorded scores on the faulty machine will be wiped
    but those players will be given a free game on the replacement machine"."""
    hall = classic_hall(3)
    hall.add({"type": "machine_status_changed", "machine": "1", "status": "replaced",
              "replacement": "9"})  # fmt: skip
    machines = MACHINES.view(hall.state, {"id": "t", "name": "t"}, "machines")
    assert machines is not None
    assert machines["9"]["owed"] == ["1", "2", "3"] and machines["9"]["replaces"] == "1"
    assert hall.state.entries["1"] == () and hall.state.standings.rows[0].band is None
    hall.score("3", "9", 50)  # the free game
    assert hall.state.standings.rows[0].player == "3"


async def test_ukpl_games_on_a_replaced_machine_are_to_be_replayed(api: Api) -> None:
    """UKPL 6A; points by UKPL 3B: 2 and 1 on each of two machines."""
    await api.tournament("hm7", "ukpl-meeting", players=2, machines=3)
    for player, machine, score in ((1, 1, 100), (2, 1, 50), (1, 2, 10), (2, 2, 20)):
        await api.score("hm7", player, machine, score)
    before = (await api.views("hm7"))["views"]["standings"]["rows"]
    assert before["1"]["total"] == before["2"]["total"] == 3
    await status(api, "hm7", "1", status="replaced", replacement="3")
    rows = (await api.views("hm7"))["views"]["standings"]["rows"]
    assert (rows["2"]["total"], rows["1"]["total"]) == (2, 1)
    assert (await api.views("hm7"))["views"]["machines"]["3"]["owed"] == ["1", "2"]
