"""Redis Sentinel and replicated acknowledgement (docs/deploy.md): a real master, two replicas and
a sentinel on loopback (tests/redis_nodes.py), the master killed with SIGKILL under keyed pushes;
and ``BACKGLASS_WAIT_REPLICAS`` against a Redis with no replica."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from display.log.connection import SentinelUrl, connect_sync, sentinel_url
from display.settings import Settings, insecure_redis
from tests.display.log.keyed_load import EPC, MACHINES, PLAYERS, KeyedLoad, score_records
from tests.redis_nodes import node_settings, sentinel_set
from tests.utils import Api, connect, receive, serve_in_loop, ws_url


def test_a_sentinel_url_names_the_sentinels_the_master_and_the_users() -> None:
    url = "redis+sentinel://backglass:p%40ss@10.0.0.1:26379,[::1]:26380/hall/2?sentinel_password=s"
    assert sentinel_url(url) == SentinelUrl(
        ((("10.0.0.1", 26379)), ("::1", 26380)), "hall", 2, "backglass", "p@ss", None, "s"
    )
    assert sentinel_url("redis://localhost:6379/0") is None
    for bad in ("redis+sentinel://h:26379/", "redis+sentinel://h/master"):
        with pytest.raises(ValueError):
            sentinel_url(bad)
    # a Sentinel set on other hosts needs the app's password, like one server
    assert insecure_redis("redis+sentinel://10.0.0.1:26379,10.0.0.2:26379/hall")
    assert insecure_redis("redis+sentinel://127.0.0.1:26379,localhost:26380/hall") is None
    assert insecure_redis("redis+sentinel://backglass:pw@10.0.0.1:26379/hall") is None


async def test_a_failover_loses_no_acknowledged_score(tmp_path: Path) -> None:
    """Keyed pushes from 6 stewards at once, the master SIGKILLed after the first acknowledgements:
    writes answer 503 until the sentinel has promoted the replica and the old machine, back, has
    become its replica (BACKGLASS_WAIT_REPLICAS=1: every replica confirms each write, so the one
    promoted has them all); every acknowledged score is in the new master's log exactly once, and a
    display that saw "store down" catches up to the last version."""
    with sentinel_set(tmp_path / "redis", replicas=1) as nodes:
        settings = node_settings(nodes.url, tmp_path / "data", wait_replicas=1)
        async with serve_in_loop(settings) as base:
            api = Api(base)
            await api.sign_in_td()
            await api.tournament("fo", EPC, players=PLAYERS, machines=MACHINES)
            async with connect(ws_url(base, "fo")) as ws:
                assert (await receive(ws))["type"] == "snapshot"
                load = KeyedLoad(api, seconds=40)
                load.start()
                await load.acknowledged(8)
                old_master = nodes.master.port
                nodes.master.kill()
                while (new_master := nodes.master_port()) == old_master:
                    await asyncio.sleep(0.05)
                # The new master has no replica, so nothing is acknowledged (503) until the old
                # machine is back as its replica (started so here; the sentinel would make it one
                # too, 8 s after it saw it up).
                await asyncio.sleep(0.5)
                nodes.master.args += ["--replicaof", "127.0.0.1", str(new_master)]
                nodes.master.start()
                await load.finished()
                seen_down = False
                last = load.last_version()
                while True:
                    message = await receive(ws, timeout=10, skip_pings=False)
                    seen_down |= message.get("store") == "down"
                    if message["type"] != "ping" and message["version"] >= last:
                        break
            views = await api.views("fo")
            await api.close()
        assert nodes.master_port() == new_master != old_master
        held = score_records(nodes.node(new_master).admin(), settings.key_prefix)
    load.check_held(held)
    assert seen_down
    assert views["version"] >= last


async def test_too_few_replicas_is_a_503_and_the_same_key_records_once(
    settings: Settings, redis_url: str
) -> None:
    """With BACKGLASS_WAIT_REPLICAS=1 on a Redis that has no replica, a push is stored on it but
    not acknowledged: 503 not_replicated, "may have been recorded"; sent again with its key it is
    still 503 and appends nothing; without the setting the same key answers as the first did."""
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("fo", EPC, players=2, machines=1)
        await api.close()
    waiting = dataclasses.replace(settings, wait_replicas=1, wait_timeout_ms=50)
    client = connect_sync(redis_url)
    async with serve_in_loop(waiting) as base:
        api = Api(base)
        await api.sign_in_td()
        for _ in range(2):
            r = await api.score("fo", 1, 1, 4242, key="one")
            assert r.status_code == 503, r.text
            assert r.json()["error"] == "not_replicated"
            assert "may have been recorded" in r.json()["message"]
            assert [s["score"] for s in score_records(client, settings.key_prefix)] == [4242]
        await api.close()
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        r = await api.score("fo", 1, 1, 4242, key="one")
        assert r.status_code == 201 and r.headers["Idempotent-Replayed"] == "true"
        await api.close()
    assert len(score_records(client, settings.key_prefix)) == 1
    client.close()
