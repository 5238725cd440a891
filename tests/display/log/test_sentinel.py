"""Redis Sentinel and replicated acknowledgement (docs/deploy.md): a real master, two replicas and
a sentinel on loopback (tests/redis_nodes.py), the master killed with SIGKILL under keyed pushes;
and ``BACKGLASS_WAIT_REPLICAS`` against a Redis with no replica."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import redis

from display.log.connection import SentinelUrl, connect_sync, sentinel_url
from display.log.keys import tournament_key
from display.settings import Settings, insecure_redis
from tests.redis_nodes import sentinel_set
from tests.utils import TD_PASSWORD, Api, connect, receive, serve_in_loop, ws_url

EPC = "epc-qualifying"
PLAYERS, MACHINES = 12, 4


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


async def push(api: Api, n: int, pushes: list[dict[str, Any]], deadline: float) -> None:
    """Push entry ``n`` (a player on a machine) with its own Idempotency-Key until it is
    acknowledged, retrying with the same key on a 503 or a dropped connection; notes each try."""
    player, machine = n % PLAYERS + 1, n // PLAYERS + 1
    note: dict[str, Any] = {"key": f"entry-{n}", "player": str(player), "machine": str(machine)}
    note |= {"score": 1000 * n + 7, "refused": 0}
    pushes.append(note)
    while time.monotonic() < deadline:
        try:
            r = await api.score("fo", player, machine, note["score"], key=note["key"])
        except httpx.HTTPError:
            r = None
        if r is not None and r.status_code == 201:
            note["version"] = r.json()["version"]
            return
        assert r is None or r.status_code == 503, r.text
        note["refused"] += 1
        await asyncio.sleep(0.05)
    raise AssertionError(f"{note['key']} never acknowledged")


def score_records(client: redis.Redis, prefix: str) -> list[dict[str, Any]]:
    """The score records in tournament ``fo``'s log as this Redis holds it (``prefix``: the
    store's, ``{P}`` on a cluster)."""
    entries = client.xrange(tournament_key(prefix, "fo", "log"))
    records = [orjson.loads(fields[b"r"]) for _, fields in entries]
    return [r for r in records if r["type"] == "score_recorded"]


async def test_a_failover_loses_no_acknowledged_score(tmp_path: Path) -> None:
    """Keyed pushes from 6 stewards at once, the master SIGKILLed after the first acknowledgements:
    writes answer 503 until the sentinel has promoted the replica and the old machine, back, has
    become its replica (BACKGLASS_WAIT_REPLICAS=1: every replica confirms each write, so the one
    promoted has them all); every acknowledged score is in the new master's log exactly once, and a
    display that saw "store down" catches up to the last version."""
    with sentinel_set(tmp_path / "redis", replicas=1) as nodes:
        settings = Settings(
            redis_url=nodes.url,
            data_dir=tmp_path / "data",
            td_password=TD_PASSWORD,
            heartbeat_seconds=1.0,
            wait_replicas=1,
            # Long enough that a loaded machine's replica confirms before the kill: a write not
            # confirmed in time (503) but read back by the tail from the master, then lost with
            # it, would leave this server "ahead" of the new master (docs/store-loss.md).
            wait_timeout_ms=5000,
        )
        async with serve_in_loop(settings) as base:
            api = Api(base)
            await api.sign_in_td()
            await api.tournament("fo", EPC, players=PLAYERS, machines=MACHINES)
            async with connect(ws_url(base, "fo")) as ws:
                assert (await receive(ws))["type"] == "snapshot"
                pushes: list[dict[str, Any]] = []
                deadline = time.monotonic() + 40
                entries = iter(range(PLAYERS * MACHINES))

                async def steward() -> None:
                    for n in entries:
                        await push(api, n, pushes, deadline)

                stewards = [asyncio.create_task(steward()) for _ in range(6)]
                while sum("version" in p for p in pushes) < 8 and not any(
                    t.done() for t in stewards
                ):
                    await asyncio.sleep(0.01)
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
                await asyncio.gather(*stewards)
                seen_down = False
                last = max(p["version"] for p in pushes)
                while True:
                    message = await receive(ws, timeout=10, skip_pings=False)
                    seen_down |= message.get("store") == "down"
                    if message["type"] != "ping" and message["version"] >= last:
                        break
            views = await api.views("fo")
            await api.close()
        assert nodes.master_port() == new_master != old_master
        held = score_records(nodes.node(new_master).admin(), settings.key_prefix)
    assert sum(p["refused"] for p in pushes) > 0  # writes did answer 503 during the failover
    assert seen_down
    assert len(held) == len(pushes) == PLAYERS * MACHINES  # every push once: retries added none
    recorded = {(r["player"], r["machine"]): r["score"] for r in held}
    for p in pushes:
        assert recorded[(p["player"], p["machine"])] == p["score"], p
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
