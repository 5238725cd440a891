"""An EPC Classic machine closed or replaced after a fault (EPC 2009, EPC Classic Tournament:
"closed to further qualification"; "replaced ... All recorded scores on the faulty machine will
be wiped"), through the API as a TD would: the hall shows it as closed or replaced, its queue
moves to the replacement, the wiped scores are ranked nowhere, and a log replay equals the live
state."""

from __future__ import annotations

from pathlib import Path

from tests.display.cli.test_replay import same_as_the_server
from tests.display.competitions.epc_main.test_epc_boards import classic, post, scores
from tests.utils import Api


async def test_a_replaced_machine_hands_its_queue_over_and_ranks_no_wiped_score(
    api: Api, tmp_path: Path
) -> None:
    tid = "cr1"
    await classic(api, tid)  # machine 8: player 9's 1,000
    await scores(api, tid, [(10, 8, 2_000)])
    for player in ("11", "12"):
        r = await api.post(f"/api/t/{tid}/queues/8/join", {"player": player})
        assert r.status_code == 201, r.text
    r = await post(api, tid, "faults", {"machine": "8", "replacement": "9",
                                        "replacement_name": "Fathom"})  # fmt: skip
    assert r.status_code == 201, r.text
    views = (await api.views(tid))["views"]
    assert views["machines"]["8"]["status"] == "replaced"
    assert views["machines"]["8"]["replacement"] == "9"
    assert views["machines"]["9"]["replaces"] == "8"
    assert views["machines"]["9"]["owed"] == ["9", "10"]  # the free games on the replacement
    assert views["queues"]["8"]["status"] == "replaced" and views["queues"]["8"]["waiting"] == {}
    assert list(views["queues"]["9"]["waiting"]) == ["11", "12"]  # in their order
    rows = views["machine/8"]["rows"]
    assert rows["10"] == {"score": 2_000, "wiped": True}
    assert rows["9"] == {"score": 1_000, "wiped": True}
    await same_as_the_server(api, tid, tmp_path)


async def test_a_closed_machine_shows_closed_and_its_scores_stand(api: Api, tmp_path: Path) -> None:
    """Ten players on machine 7: closed, the scores stand (ranked as before)."""
    tid = "cr2"
    await classic(api, tid)
    await scores(api, tid, [(p, 7, 900 - p) for p in range(10, 19)])
    assert (await api.post(f"/api/t/{tid}/queues/7/join", {"player": "19"})).status_code == 201
    r = await post(api, tid, "faults", {"machine": "7"})
    assert r.status_code == 201, r.text
    views = (await api.views(tid))["views"]
    assert views["machines"]["7"]["status"] == "closed"
    assert views["queues"]["7"]["status"] == "closed" and views["queues"]["7"]["waiting"] == {}
    assert views["machine/7"]["rows"]["8"]["place"] == 1
    assert "wiped" not in views["machine/7"]["rows"]["8"]
    await same_as_the_server(api, tid, tmp_path)
