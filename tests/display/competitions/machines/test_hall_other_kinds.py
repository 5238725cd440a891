"""The hall's queues work in every per-machine competition, not only plain qualifying: the EPC main
tournament (during qualifying), the Classic and the Kids tournament."""

from __future__ import annotations

import pytest

from tests.utils import Api


@pytest.mark.parametrize("fmt", ["epc-main", "epc-classic", "epc-kids"])
async def test_a_player_queues_and_is_called(api: Api, fmt: str) -> None:
    tid = f"hq-{fmt}"
    await api.tournament(tid, fmt, players=3, machines=1)
    for player in ("1", "2"):
        r = await api.post(f"/api/t/{tid}/queues/1/join", {"player": player})
        assert r.status_code == 201, r.text
    r = await api.post(f"/api/t/{tid}/queues/1/call", {})
    assert r.status_code == 201, r.text
    queue = (await api.views(tid))["views"]["queues"]["1"]
    assert queue["up"]["player"] == "1"
    assert list(queue["waiting"]) == ["2"] and queue["waiting"]["2"]["pos"] == 1


async def test_classic_machines_close_through_the_fault_record(api: Api) -> None:
    await api.tournament("hq-cl", "epc-classic", players=2, machines=2)
    r = await api.post("/api/t/hq-cl/machines/1/status", {"status": "closed", "note": "dead"})
    assert r.status_code == 422 and "machine-fault" in r.json()["message"]
    r = await api.post("/api/t/hq-cl/machines/1/status", {"status": "out_of_order", "note": "ball"})
    assert r.status_code == 201, r.text
