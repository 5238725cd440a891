"""``backglass serve --workers N``: N server processes behind one port (uvicorn's process
manager), each a replica of every log, sharing one embedded Redis (docs/deploy.md)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from display.embedded.redis import EmbeddedRedis, _pid_alive
from tests.utils import ROOT, TD_PASSWORD, Api, connect, free_port, receive, ws_url

EPC = "epc-qualifying"


def workers_of(parent: int) -> set[int]:
    """The worker processes uvicorn's manager ``parent`` runs now (its spawned children)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            ppid = int(stat.rpartition(")")[2].split()[1])
            if ppid == parent and b"spawn_main" in (entry / "cmdline").read_bytes():
                found.add(int(entry.name))
    return found


def redis_pid(data: Path) -> int | None:
    """The embedded Redis of ``data`` if it runs."""
    redis = EmbeddedRedis(data)
    with contextlib.suppress(OSError, ValueError):
        pid = int(redis.pidfile.read_text())
        if _pid_alive(pid, redis.socket):
            return pid
    return None


async def wait_for(check: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if await check() if asyncio.iscoroutinefunction(check) else check():  # type: ignore[operator]
                return
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def views_version(base: str, tid: str) -> int:
    """``GET /views`` on a connection of its own (so any worker may answer)."""
    async with httpx.AsyncClient(base_url=base, timeout=10) as fresh:
        r = await fresh.get(f"/api/t/{tid}/views")
        r.raise_for_status()
        return int(r.json()["version"])


async def test_workers_serve_one_port_and_share_one_embedded_redis(tmp_path: Path) -> None:
    """Two workers behind one port and one embedded Redis: pushes reach displays on fresh
    connections (whichever worker took them) and every worker's views agree; a worker killed
    with SIGKILL is replaced while the other serves; stopping the server stops its Redis."""
    data, port = tmp_path / "data", free_port()
    env = {**os.environ, "BACKGLASS_DATA": str(data), "BACKGLASS_TD_PASSWORD": TD_PASSWORD}
    env.pop("REDIS_URL", None)
    args = [sys.executable, "-m", "display", "serve", "--workers", "2", "--port", str(port)]
    server = subprocess.Popen(args, env=env, cwd=ROOT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    api = Api(base)
    try:
        await wait_for(lambda: len(workers_of(server.pid)) == 2, 60, "two workers")
        workers = workers_of(server.pid)

        async def answers() -> bool:
            return (await api.http.get("/api/tournaments")).status_code == 200

        await wait_for(answers, 60, "the server to answer")
        await wait_for(lambda: redis_pid(data) is not None, 30, "the embedded Redis")
        redis = redis_pid(data)
        assert redis not in workers and redis is not None  # one Redis, its own process
        await api.sign_in_td()
        await api.tournament("w", EPC, players=3, machines=1)
        displays = [await connect(ws_url(base, "w")).__aenter__() for _ in range(6)]
        try:
            for ws in displays:
                assert (await receive(ws, timeout=10))["type"] == "snapshot"
            version = (await api.score("w", 1, 1, 1234, key="w-1")).json()["version"]
            for ws in displays:
                assert (await receive(ws, timeout=10))["version"] == version
        finally:
            for ws in displays:
                await ws.close()
        seen = {await views_version(base, "w") for _ in range(8)}
        assert seen == {version}

        os.kill(min(workers), signal.SIGKILL)
        # The other worker answers meanwhile: a kept-alive connection to the dead one breaks, and
        # the phone sends again with the same key, on a new connection.
        for _ in range(5):
            with contextlib.suppress(httpx.TransportError):
                r = await api.score("w", 2, 1, 2345, key="w-2")
                break
        assert r.status_code == 201, r.text
        await wait_for(
            lambda: len(workers_of(server.pid)) == 2 and min(workers) not in workers_of(server.pid),
            60,
            "a new worker",
        )
        await wait_for(answers, 30, "the new worker")
        seen = {await views_version(base, "w") for _ in range(8)}
        assert seen == {r.json()["version"]}
        assert redis_pid(data) == redis
    finally:
        await api.close()
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    await wait_for(lambda: redis_pid(data) is None, 20, "the embedded Redis to stop")
