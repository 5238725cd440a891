"""The app's ACL user on a Sentinel set and on a Redis Cluster exactly as docs/deploy.md sets it
up ("The ACL user on a Sentinel set", "The ACL user on a cluster"): every data server starts with
only its ``default`` user and gets the page's ``ACL SETUSER`` lines, read from the page itself
(``tests/redis_nodes.py``, ``documented_acl``) so the page and the test cannot drift. A server
signed in as that user then creates tournaments, issues a steward PIN, pushes scores and reads
them back, on a display and through the API."""

from __future__ import annotations

from pathlib import Path

import redis

from display.embedded.redis import APP_RULES, APP_USER
from display.settings import Settings
from tests.display.embedded.test_redis_acl import assert_denied
from tests.display.log.test_cluster import one_per_shard
from tests.redis_nodes import (
    ADMIN_PASSWORD,
    APP_PASSWORD,
    SENTINEL_PASSWORD,
    SENTINEL_USER,
    Node,
    cluster,
    documented_acl,
    node_settings,
    sentinel_set,
    wait_until,
)
from tests.utils import Api, connect, receive, serve_in_loop, ws_url

SENTINEL = "The ACL user on a Sentinel set"
CLUSTER = "The ACL user on a cluster"


def test_the_documented_lines_give_the_app_the_rules_the_embedded_redis_uses() -> None:
    """On both pages' sections: one line for ``default`` (the operator's password) and one for
    the app's user with ``APP_RULES`` after ``reset on >PASSWORD``; the sentinel's own user may
    only find the master."""
    for heading in (SENTINEL, CLUSTER):
        lines = {command[2]: command[3:] for command in documented_acl(heading)}
        assert lines == {
            "default": ["on", f">{ADMIN_PASSWORD}"],
            APP_USER: ["reset", "on", f">{APP_PASSWORD}", *APP_RULES.split()],
        }, heading
    on_sentinel = {command[2]: command[3:] for command in documented_acl(SENTINEL, block=1)}
    assert set(on_sentinel) == {"default", SENTINEL_USER}
    assert f">{SENTINEL_PASSWORD}" in on_sentinel[SENTINEL_USER]
    assert "-@all" in on_sentinel[SENTINEL_USER] and "+@all" not in on_sentinel[SENTINEL_USER]


def app_client(node: Node) -> redis.Redis:
    """The app's user signed in to ``node`` directly (no Sentinel, no cluster routing)."""
    return redis.Redis(port=node.port, username=APP_USER, password=APP_PASSWORD, socket_timeout=2)


async def push_and_read(settings: Settings, tids: list[str]) -> None:
    """Through a server on ``settings``: each tournament created (2 players, 1 machine), a
    steward signed in with a PIN pushes a score, a display gets it as a patch and the API's
    views reach its version; the index lists them all."""
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        for n, tid in enumerate(tids):
            await api.tournament(tid, "epc-qualifying", players=2, machines=1)
            steward = await api.sign_in_steward(tid)
            async with connect(ws_url(base, tid)) as ws:
                assert (await receive(ws))["type"] == "snapshot"
                pushed = await api.score(tid, 1, 1, 5000 + n, token=steward, key=f"{tid}-1")
                assert pushed.status_code == 201, pushed.text
                version = pushed.json()["version"]
                patch = await receive(ws, timeout=10)
                assert patch["version"] == version
                assert patch["patches"]["machine/1"]["rows"]["1"]["score"] == 5000 + n
            assert (await api.views(tid))["version"] == version
        listed = (await api.http.get("/api/tournaments")).json()["tournaments"]
        assert {t["id"] for t in listed} >= set(tids)
        await api.close()


async def test_the_app_user_on_a_sentinel_set(tmp_path: Path) -> None:
    """The page's lines on the master and its replica, and its sentinel user on the sentinel (the
    app finds the master through it with that user only); every write waits for the replica
    (``BACKGLASS_WAIT_REPLICAS=1``: ``WAIT`` under the app's rules). The replica holds the
    records and lets the app's user in, as it must once promoted; the user is denied what
    docs/redis.md says."""
    acl, on_sentinel = documented_acl(SENTINEL), documented_acl(SENTINEL, block=1)
    with sentinel_set(tmp_path / "redis", replicas=1, acl=acl, sentinel_acl=on_sentinel) as nodes:
        settings = node_settings(nodes.url, tmp_path / "data", wait_replicas=1)
        await push_and_read(settings, ["acl-s"])
        log = f"{settings.key_prefix}:t:acl-s:log"
        master = app_client(nodes.master)
        length = master.xlen(log)
        assert length >= 4  # created, players, machines, the score
        for replica in nodes.replicas:
            # WAIT confirmed it; the app's user reads it on the replica itself
            wait_until(lambda r=replica: app_client(r).xlen(log) == length, 10, "the replica")
        master.close()
        assert_denied(f"redis://{APP_USER}:{APP_PASSWORD}@127.0.0.1:{nodes.master.port}", "acl")
        # the sentinel's user may find the master and nothing else
        user = redis.Redis(
            port=nodes.sentinel_port, username=SENTINEL_USER, password=SENTINEL_PASSWORD
        )
        assert int(user.sentinel_get_master_addr_by_name("backglass")[1]) == nodes.master.port
        for command in (("SENTINEL", "FAILOVER", "backglass"), ("ACL", "LIST")):
            try:
                user.execute_command(*command)
                raise AssertionError(f"the sentinel user may run {' '.join(command)}")
            except redis.exceptions.NoPermissionError:
                pass
        user.close()


async def test_the_app_user_on_a_cluster(tmp_path: Path) -> None:
    """The page's lines on three masters and a replica of each; tournaments on every shard; every
    replica lets the app's user in (it becomes a master after a failover)."""
    with cluster(tmp_path / "redis", replicas=1, acl=documented_acl(CLUSTER)) as nodes:
        settings = node_settings(nodes.url, tmp_path / "data")
        await push_and_read(settings, one_per_shard())
        for node in nodes.nodes:
            client = app_client(node)
            assert client.ping()
            client.close()
