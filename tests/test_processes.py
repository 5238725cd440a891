"""Whole server processes: two replicas sharing one Redis, an acknowledged score surviving a kill,
and a server riding out a Redis restart."""

from __future__ import annotations

import asyncio
import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from display.embedded_redis import EmbeddedRedis
from tests.utils import TD_PASSWORD, Api, ServerProcess, connect, receive, ws_url

EPC = "epc-qualifying"


def env(redis_url: str | None, data: Path, prefix: str) -> dict[str, str]:
    return {
        "REDIS_URL": redis_url or "",
        "BACKGLASS_DATA": str(data),
        "BACKGLASS_PREFIX": prefix,
        "BACKGLASS_TD_PASSWORD": TD_PASSWORD,
    }


@pytest.fixture
def two_servers(redis_url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    prefix = f"bgtest-{uuid.uuid4().hex[:12]}"
    servers = (
        ServerProcess(env(redis_url, tmp_path / "a", prefix)),
        ServerProcess(env(redis_url, tmp_path / "b", prefix)),
    )
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


async def test_two_processes_both_deliver_a_push(
    two_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = Api(two_servers[0].url), Api(two_servers[1].url)
    try:
        await a.sign_in_td()
        await b.sign_in_td()
        await a.tournament("two", EPC, players=2, machines=1)
        assert await b.wait_version("two", 3)
        async with connect(ws_url(a.base, "two")) as on_a, connect(ws_url(b.base, "two")) as on_b:
            await receive(on_a), await receive(on_b)
            pushed = await a.score("two", 1, 1, 1111)
            for ws in (on_a, on_b):
                patch = await receive(ws)
                assert patch["version"] == pushed.json()["version"]
                assert patch["patches"]["machine/1"]["rows"]["1"]["score"] == 1111
            pushed = await b.score("two", 2, 1, 2222)  # and the other way round
            for ws in (on_a, on_b):
                patch = await receive(ws)
                assert patch["version"] == pushed.json()["version"]
                assert patch["patches"]["machine/1"]["rows"]["2"]["place"] == 1
    finally:
        await a.close()
        await b.close()


async def test_acknowledged_score_survives_killing_server_and_embedded_redis(
    tmp_path: Path,
) -> None:
    """Embedded Redis with appendfsync always: SIGKILL the server and its Redis right after the
    201, start again on the same data directory, and the score is there."""
    server = ServerProcess(env(None, tmp_path / "data", "bg"))
    server.start()
    api = Api(server.url)
    try:
        await api.sign_in_td()
        await api.tournament("k", EPC, players=3, machines=2)
        versions = [(await api.score("k", p, 1, p * 1000)).json()["version"] for p in (1, 2, 3)]
        redis_pid = int((tmp_path / "data" / "redis.pid").read_text())
        server.kill()
        os.kill(redis_pid, signal.SIGKILL)
        await api.close()
        server.start()
        api = Api(server.url)
        views = await api.views("k")
        assert views["version"] == versions[-1]
        rows = views["views"]["machine/1"]["rows"]
        assert {p: r["score"] for p, r in rows.items()} == {"1": 1000, "2": 2000, "3": 3000}
    finally:
        await api.close()
        server.stop()


async def test_server_rides_out_a_redis_restart(tmp_path: Path) -> None:
    """Redis stops and comes back (AOF reloads): connected displays stay connected and get the next
    push; no restart of the server is needed."""
    redis_server = EmbeddedRedis(tmp_path / "redis")
    url = redis_server.start()
    server = ServerProcess(env(url, tmp_path / "data", "bg"))
    server.start()
    api = Api(server.url)
    try:
        await api.sign_in_td()
        await api.tournament("r", EPC, players=2, machines=1)
        async with connect(ws_url(api.base, "r")) as ws:
            await receive(ws)
            redis_server.stop()
            refused = await api.score("r", 2, 1, 99)
            assert refused.status_code == 503, refused.text
            assert "nothing was recorded" in refused.json()["message"]
            redis_server.start()
            for _ in range(100):  # the server reconnects by itself
                response = await api.score("r", 1, 1, 4321)
                if response.status_code == 201:
                    break
                await asyncio.sleep(0.1)
            assert response.status_code == 201, response.text
            patch = await receive(ws, timeout=10)
            assert patch["patches"]["machine/1"]["rows"]["1"]["score"] == 4321
    finally:
        await api.close()
        server.stop()
        redis_server.stop()
