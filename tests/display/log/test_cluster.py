"""A Redis Cluster (docs/deploy.md): a real three-master cluster on loopback (tests/redis_nodes.py).
Every key of a tournament is in its hash slot, tournaments spread over the shards, and two server
processes on the cluster serve each other's pushes; the key names on one server stay as they were."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from redis.crc import key_slot

from display.log.connection import connect as connect_store
from display.log.connection import connect_sync
from display.log.keys import store_prefix, tournament_key, tournament_of_log
from display.log.store import LogStore
from display.log.verify import verify_redis
from display.settings import Settings
from tests.display.log.keyed_load import EPC, MACHINES, PLAYERS, KeyedLoad, score_records
from tests.redis_nodes import Cluster, cluster, node_settings
from tests.utils import TD_PASSWORD, Api, connect, receive, serve_in_loop, ws_url

SHARDS = ((0, 5460), (5461, 10922), (10923, 16383))  # redis-cli --cluster create, three masters


def test_key_names_on_one_server_are_unchanged_and_a_cluster_tags_them() -> None:
    """An existing store (a user's .data) keeps its names; on a cluster a tournament's keys share
    the tag {ID} and the shared keys the tag {P}."""
    assert store_prefix("bg", None) == store_prefix("bg", "redis://localhost:6379/0") == "bg"
    assert tournament_key("bg", "epc", "log") == "bg:t:epc:log"
    assert tournament_of_log("bg", "bg:t:epc:log") == "epc"
    assert tournament_of_log("bg", "bg:registry") is None
    prefix = store_prefix("bg", "redis+cluster://127.0.0.1:7000")
    assert prefix == "{bg}"
    assert tournament_key(prefix, "epc", "idem:{x}") == "bg:t:{epc}:idem:{x}"
    assert key_slot(b"bg:t:{epc}:idem:{x}") == key_slot(b"bg:t:{epc}:log") == key_slot(b"epc")
    assert tournament_of_log(prefix, "bg:t:{epc}:log") == "epc"
    with pytest.raises(ValueError):
        store_prefix("b{g}", "redis+cluster://127.0.0.1:7000")


def one_per_shard() -> list[str]:
    """Tournament ids whose hash slots fall one in each master's range."""
    found: dict[int, str] = {}
    for n in range(1000):
        tid = f"t{n}"
        shard = next(
            i for i, (low, high) in enumerate(SHARDS) if low <= key_slot(tid.encode()) <= high
        )
        found.setdefault(shard, tid)
        if len(found) == len(SHARDS):
            return [found[i] for i in range(len(SHARDS))]
    raise AssertionError("no ids found")


@pytest.fixture
async def nodes(tmp_path: Path) -> AsyncIterator[Cluster]:
    with cluster(tmp_path / "redis") as found:
        yield found


async def test_tournaments_spread_over_the_shards_and_pushes_cross_processes(
    nodes: Cluster, tmp_path: Path
) -> None:
    """A tournament registered by a server that died before its first append can be created;
        three tournaments created through process A land one per shard, with every key of each
        (log, idempotency keys, stewards) on that shard; a keyed push through A reaches a display on
        process B and the other way round; a retry with the key appends nothing; ``backglass verify``
    checks every tournament's hash chain across the shards."""
    settings = Settings(
        redis_url=nodes.url, data_dir=tmp_path / "a", td_password=TD_PASSWORD, heartbeat_seconds=1
    )
    other = dataclasses.replace(settings, data_dir=tmp_path / "b")
    tids = one_per_shard()
    # A server that died between the registry entry and the log's first append left this:
    ghost = connect_store(nodes.url)
    await LogStore(ghost, "{bg}").register("ghost")
    await ghost.aclose()
    async with serve_in_loop(settings) as base_a, serve_in_loop(other) as base_b:
        a, b = Api(base_a), Api(base_b)
        await a.sign_in_td()
        await b.sign_in_td()
        await a.tournament("ghost", EPC, players=1)  # the create takes the empty log over
        assert await b.wait_version("ghost", 2)
        for tid in tids:
            await a.tournament(tid, EPC, players=2, machines=1)
            await a.sign_in_steward(tid)
        for tid in tids:
            assert await b.wait_version(tid, 3)
            async with connect(ws_url(base_b, tid)) as on_b, connect(ws_url(base_a, tid)) as on_a:
                await receive(on_b), await receive(on_a)
                versions = []
                for _ in range(2):  # the second is a retry: answered as the first, nothing added
                    r = await a.score(tid, 1, 1, 1111, key=f"{tid}-push")
                    assert r.status_code == 201, r.text
                    versions.append(r.json()["version"])
                assert versions[0] == versions[1]
                for ws in (on_b, on_a):
                    patch = await receive(ws)
                    assert patch["version"] == versions[0]
                    assert patch["patches"]["machine/1"]["rows"]["1"]["score"] == 1111
                r = await b.score(tid, 2, 1, 2222, key=f"{tid}-back")
                assert (await receive(on_a))["version"] == versions[0] + 1 == r.json()["version"]
        listed = {t["id"] for t in (await b.http.get("/api/tournaments")).json()["tournaments"]}
        await a.close()
        await b.close()
    assert listed >= {*tids, "ghost"}
    client = connect_sync(nodes.url)
    chains = verify_redis(client, "{bg}")  # backglass verify, across the shards
    client.close()
    assert {c.name for c in chains} == {*tids, "ghost"} and all(c.ok for c in chains)
    assert {c.name: c.records for c in chains}[tids[-1]] == versions[0] + 1
    for node, tid in zip(nodes.nodes, tids, strict=True):
        held = nodes.keys_on(node, "bg:t:{t*")  # the keys of tournaments t0, t1 … here
        assert {tournament_of_log("{bg}", k) for k in held if k.endswith(":log")} == {tid}
        assert held == {
            tournament_key("{bg}", tid, name)
            for name in (
                "log",
                f"idem:{tid}-push",
                f"idem:{tid}-back",
                "stewards",
                "stewards:issued",
                "summary",  # what the registry lists of it (display/live/summaries.py)
            )
        }


async def test_a_shard_failover_loses_no_acknowledged_score(tmp_path: Path) -> None:
    """Three masters with a replica each, keyed pushes from 6 stewards to one tournament, its
    shard's master SIGKILLed after the first acknowledgements: writes answer 503 until the
    cluster has promoted the replica and the old machine, back, has become its replica
    (BACKGLASS_WAIT_REPLICAS=1: the replica confirmed each write, so the one promoted has them);
    every acknowledged score is in the new master's log exactly once."""
    with cluster(tmp_path / "redis", replicas=1) as nodes:
        settings = node_settings(nodes.url, tmp_path / "data", wait_replicas=1)
        async with serve_in_loop(settings) as base:
            api = Api(base)
            await api.sign_in_td()
            await api.tournament("fo", EPC, players=PLAYERS, machines=MACHINES)
            load = KeyedLoad(api, seconds=60)
            load.start()
            await load.acknowledged(8)
            log_key = tournament_key("{bg}", "fo", "log")
            old_master = nodes.master_of(log_key)
            old_master.kill()
            while (new_master := nodes.master_of(log_key)) is old_master:
                await asyncio.sleep(0.05)
            old_master.start()  # its nodes.conf makes it the new master's replica
            await load.finished()
            await api.close()
        held = score_records(new_master.admin(), "{bg}")
    load.check_held(held)
