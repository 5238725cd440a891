"""Whole server processes: two replicas sharing one Redis, two servers on one data directory, an
acknowledged score surviving a kill, and a server riding out a Redis restart."""

from __future__ import annotations

import asyncio
import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from display.embedded.redis import EmbeddedRedis, _pid_alive
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


async def test_two_servers_on_one_data_directory_share_its_td_password(tmp_path: Path) -> None:
    """A second ``backglass serve`` on another port with the first one's data directory is a
    replica on the same embedded Redis: it signs in with the TD password the first made and kept
    there, sessions of either work on both, the first one's sign-in is untouched, and stopping
    the first leaves the second its Redis (the last server to stop stops it)."""
    data = tmp_path / "data"
    settings = {"REDIS_URL": "", "BACKGLASS_DATA": str(data), "BACKGLASS_TD_PASSWORD": ""}
    first, second = ServerProcess(settings), ServerProcess(settings)
    try:
        first.start()
        secret = (data / "td-password").read_text().strip()
        session = _td_token(first.url, secret)
        second.start()
        assert (data / "td-password").read_text().strip() == secret
        assert _td_token(second.url, secret) and _td_token(first.url, secret)
        assert _td_call(second.url, session).status_code == 200
        made = {"id": "both", "name": "Both", "format": EPC, "settings": {}}
        assert _td_call(first.url, session, "POST", "/api/tournaments", made).is_success
        for _ in range(100):
            listed = httpx.get(f"{second.url}/api/tournaments", timeout=5).json()["tournaments"]
            if listed:
                break
            await asyncio.sleep(0.05)
        assert [t["id"] for t in listed] == ["both"]

        redis_pid = int((data / "redis.pid").read_text())
        first.stop()
        assert _td_token(second.url, secret)  # at once: Redis did not go away
        assert int((data / "redis.pid").read_text()) == redis_pid
        second.stop()
        for _ in range(200):
            if not _pid_alive(redis_pid, data.resolve() / "redis.sock"):
                break
            await asyncio.sleep(0.05)
        assert not _pid_alive(redis_pid, data.resolve() / "redis.sock")
    finally:
        first.stop()
        second.stop()


def _td_token(url: str, secret: str) -> str:
    answer = httpx.post(f"{url}/api/session", json={"role": "td", "password": secret}, timeout=10)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


def _td_call(
    url: str,
    token: str,
    method: str = "GET",
    path: str = "/api/sign-in-failures",
    body: object = None,
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"}
    return httpx.request(method, f"{url}{path}", json=body, headers=headers, timeout=10)
