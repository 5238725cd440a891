"""Real servers for tests: in this event loop (``serve_in_loop``) or as a subprocess (``ServerProcess``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvicorn
import websockets

from display.app import create_app, until_started
from display.cli.serve import uvicorn_config
from display.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
TD_PASSWORD = "td-test-password"


def opening_records(
    fmt: str, players: int, machines: int, settings: dict[str, Any], name: str = "t"
) -> list[dict[str, Any]]:
    """A new tournament's first records, unstamped: ``tournament_created`` of ``fmt`` with
    ``settings``, players "1".."players" (P1 …) and machines "1".."machines" (M1 …)."""
    records: list[dict[str, Any]] = [
        {"type": "tournament_created", "name": name, "format": fmt, "settings": settings}
    ]
    records += [
        {"type": "player_added", "player": {"number": str(n), "name": f"P{n}"}}
        for n in range(1, players + 1)
    ]
    records += [
        {"type": "machine_added", "machine": {"id": str(m), "name": f"M{m}"}}
        for m in range(1, machines + 1)
    ]
    return records


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def serve_in_loop(settings: Settings) -> AsyncIterator[str]:
    """Run the app under uvicorn on a free port in the current loop; yields the base URL."""
    async with serve_with_services(settings) as (base, _, _):
        yield base


@contextlib.asynccontextmanager
async def serve_with_services(settings: Settings) -> AsyncIterator[tuple[str, Any, uvicorn.Server]]:
    """``serve_in_loop`` that also yields the running ``Services`` (hub, replica) and the uvicorn
    server (its ``server_state.connections``) to inspect."""
    port = free_port()
    app = create_app(settings)
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port, settings))
    task = asyncio.create_task(server.serve())
    await until_started(app, task)
    try:
        yield f"http://127.0.0.1:{port}", app.state.services, server
    finally:
        server.should_exit = True
        await task


class ServerProcess:
    """``python -m display serve`` as a separate OS process, with the given environment;
    ``preexec`` runs in the child before it starts (e.g. to lower its resource limits)."""

    def __init__(self, env: dict[str, str], port: int | None = None, preexec: Any = None) -> None:
        self.port = port or free_port()
        self.env = {**os.environ, **env}
        self.preexec = preexec
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> None:
        args = [sys.executable, "-m", "display", "serve", "--port", str(self.port)]
        self.process = subprocess.Popen(
            args, env=self.env, cwd=ROOT, start_new_session=True, preexec_fn=self.preexec
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}")
            try:
                if httpx.get(f"{self.url}/api/tournaments", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL the whole process group (server and an embedded Redis it started)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


class Api:
    """A thin client for tests: signs in as TD, creates tournaments, pushes scores."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.AsyncClient(base_url=base, timeout=10)
        self.token: str | None = None

    async def close(self) -> None:
        await self.http.aclose()

    async def sign_in_td(self) -> str:
        r = await self.http.post("/api/session", json={"role": "td", "password": TD_PASSWORD})
        r.raise_for_status()
        self.token = r.json()["token"]
        return self.token

    async def sign_in_steward(self, tid: str, name: str = "Sam") -> str:
        """Have the TD issue ``name`` a PIN for ``tid`` and sign in with it; returns the
        steward's token (the TD's stays this client's default)."""
        r = await self.post(f"/api/t/{tid}/stewards", {"name": name})
        assert r.status_code == 201, r.text
        pin = r.json()["pin"]
        assert len(pin) == 6 and pin.isdigit()
        body = {"role": "steward", "tournament": tid, "name": name, "pin": pin}
        r = await self.http.post("/api/session", json=body)
        assert r.status_code == 200, r.text
        return str(r.json()["token"])

    def headers(self, token: str | None = None, key: str | None = None) -> dict[str, str]:
        headers = {}
        if token or self.token:
            headers["Authorization"] = f"Bearer {token or self.token}"
        if key:
            headers["Idempotency-Key"] = key
        return headers

    async def post(
        self, path: str, body: Any, token: str | None = None, key: str | None = None
    ) -> httpx.Response:
        return await self.http.post(path, json=body, headers=self.headers(token, key))

    async def tournament(
        self,
        tid: str,
        fmt: str,
        players: int = 0,
        machines: int = 0,
        settings: dict[str, Any] | None = None,
        guests: set[int] = frozenset(),
    ) -> None:
        """Create ``tid`` with players 1..n (names "Player n") and machines 1..m ("Machine m")."""
        body = {"id": tid, "name": f"Test {tid}", "format": fmt, "settings": settings or {}}
        (await self.post("/api/tournaments", body)).raise_for_status()
        if players:
            plist = [
                {"number": str(n), "name": f"Player {n}", "guest": n in guests}
                for n in range(1, players + 1)
            ]
            (await self.post(f"/api/t/{tid}/players", {"players": plist})).raise_for_status()
        if machines:
            mlist = [{"id": str(n), "name": f"Machine {n}"} for n in range(1, machines + 1)]
            (await self.post(f"/api/t/{tid}/machines", {"machines": mlist})).raise_for_status()

    async def score(
        self, tid: str, player: Any, machine: Any, score: Any, **kw: Any
    ) -> httpx.Response:
        body = {"player": player, "machine": machine, "score": score}
        return await self.post(f"/api/t/{tid}/scores", body, **kw)

    async def wait_version(self, tid: str, version: int, timeout: float = 5) -> bool:
        """Poll until the server's views for ``tid`` reach ``version``."""
        for _ in range(int(timeout / 0.05)):
            r = await self.http.get(f"/api/t/{tid}/views")
            if r.status_code == 200 and r.json()["version"] >= version:
                return True
            await asyncio.sleep(0.05)
        return False

    async def views(self, tid: str) -> dict[str, Any]:
        r = await self.http.get(f"/api/t/{tid}/views")
        r.raise_for_status()
        return r.json()  # type: ignore[no-any-return]


def ws_url(base: str, tid: str, since: int | None = None) -> str:
    url = base.replace("http://", "ws://") + f"/ws/{tid}"
    return url if since is None else f"{url}?since={since}"


async def receive(ws: Any, timeout: float = 5, skip_pings: bool = True) -> dict[str, Any]:
    while True:
        message = orjson.loads(await asyncio.wait_for(ws.recv(), timeout))
        if not (skip_pings and message["type"] == "ping"):
            return message  # type: ignore[no-any-return]


connect = websockets.connect
