"""``backglass demo epc`` plays its games through the queues: every score comes after the player
queued and started on that machine, queues build up, the popular machines draw the longer ones,
and the estimated game lengths read in real minutes."""

from __future__ import annotations

from collections import defaultdict
from statistics import mean
from typing import Any

from display.competitions.machines.demo import MACHINES, HallSim, plan_epc, run_epc
from display.competitions.machines.kind import MACHINES as KIND
from tests.utils import TD_PASSWORD, Api


def replayed_counts(records: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Each machine's number of waiting players after every record, replayed through the kind."""
    state = KIND.create(records[0])
    counts: dict[str, list[int]] = defaultdict(list)
    for record in records[1:]:
        data = {k: v for k, v in record.items() if k != "seq"}
        state, _ = KIND.apply(state, record["seq"], data)
        if record["type"] in ("queue_joined", "game_started", "score_recorded"):
            for machine, queue in state.hall.queues.items():
                counts[machine].append(len(queue.waiting))
    return counts


async def test_the_demo_grows_queues_at_the_machines_players_still_need(
    server: str, api: Api
) -> None:
    lines: list[str] = []
    result = await run_epc(
        url=server, td_password=TD_PASSWORD, players=24, machines=6, seed=11, fast=True,
        echo=lines.append,
    )  # fmt: skip
    plan = plan_epc(24, 6, seed=11)
    assert result.refused == [] and result.accepted == len(plan.games)
    text = "\n".join(lines)
    assert f"{server}/t/epc/display?views=queues" in text and "Longest queues:" in text
    records = (await api.http.get("/api/t/epc/log")).json()["records"]
    started: set[tuple[str, str]] = set()
    joined = 0
    for record in records:
        if record["type"] == "queue_joined":
            joined += 1
        if record["type"] == "game_started":
            started.add((record["player"], record["machine"]))
            assert record["by"] == "td:TD" and "started_at" in record
        if record["type"] == "score_recorded":
            assert (record["player"], record["machine"]) in started  # played from the queue
            assert record["by"] == "steward:Demo Steward"
    assert joined == len(plan.games)

    counts = replayed_counts(records)
    assert max(max(c) for c in counts.values()) >= 3
    popularity = {m.id: m.popularity for m in MACHINES[:6]}
    popular = mean(mean(counts[m]) for m, p in popularity.items() if p >= 1.5)
    unpopular = mean(mean(counts[m]) for m, p in popularity.items() if p < 1.0)
    assert popular > 2 * unpopular

    queues = (await api.views("epc"))["views"]["queues"]
    minutes = {m.id: m.minutes for m in MACHINES[:6]}
    for machine, queue in queues.items():  # typical length, give or take (HallSim.length)
        assert 0.75 * minutes[machine] * 60 <= queue["game"] <= 1.35 * minutes[machine] * 60 + 5
    assert queues["fb"]["game"] < queues["mm"]["game"]  # an EM game is quicker


def test_free_players_join_in_the_order_planned_and_the_hall_has_room_for_a_crowd() -> None:
    plan = plan_epc(10, 3, seed=5)
    sim = HallSim(plan, rng=__import__("random").Random(1), crowd=3)
    first = sim.joiners({})
    assert [g.player for g in first] == list(dict.fromkeys(g.player for g in plan.games))[:3]
    assert all(g is sim.pending[g.player][0] for g in first)
    queues = {"x": {"waiting": {first[0].player: {"pos": 1}}, "up": {"player": first[1].player}}}
    more = sim.joiners(queues)
    assert first[0].player not in {g.player for g in more} and len(more) == 1
