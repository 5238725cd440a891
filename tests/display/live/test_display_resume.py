"""Displays across server restarts and long cut-offs: 20 real websocket clients on a real
``backglass serve`` process that is killed and restarted, each resuming with ``?since=<version>``;
every message a display applies follows on from the version it has (no gap, no repeat), and each
ends equal to the server's views."""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from websockets.exceptions import WebSocketException

from display.live import mergepatch
from display.settings import Settings
from tests.utils import (
    TD_PASSWORD,
    Api,
    ServerProcess,
    connect,
    receive,
    serve_with_services,
    ws_url,
)

EPC = "epc-qualifying"
DISPLAYS = 20


class Display:
    """A display as live.js runs it, minus the page: apply snapshots and patches, reconnect with
    ``?since=`` after any close. Records every violation of the protocol it sees."""

    def __init__(self, base: str, tid: str) -> None:
        self.base, self.tid = base, tid
        self.views: dict[str, Any] = {}
        self.version = -1
        self.connections = 0
        self.snapshots = 0
        self.errors: list[str] = []
        self.changed = asyncio.Event()

    async def run(self) -> None:
        while True:
            since = self.version if self.version >= 0 else None
            try:
                async with connect(ws_url(self.base, self.tid, since), open_timeout=2) as ws:
                    self.connections += 1
                    async for text in ws:
                        self.apply(orjson.loads(text))
            except (OSError, TimeoutError, WebSocketException):
                pass  # closed, or refused while the server is down: reconnect
            await asyncio.sleep(0.1)

    def apply(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "snapshot":
            if message["version"] < self.version:
                self.errors.append(f"snapshot back in time: {self.version} -> {message['version']}")
            self.snapshots += 1
            self.views = message["views"]
        elif kind == "patch":
            if message["base"] != self.version:
                what = "repeat" if message["version"] <= self.version else "gap"
                self.errors.append(f"{what}: at {self.version}, got {message['base']}..")
                return
            views = dict(self.views)
            views.update(message["views"])
            for name, patch in message["patches"].items():
                if patch is None:
                    views.pop(name, None)
                else:
                    views[name] = mergepatch.apply(views.get(name, {}), patch)
            self.views = views
        elif kind in ("ping", "starting"):
            return  # starting: the restarted server is catching up (live.js shows it, keeps views)
        else:
            self.errors.append(f"unexpected message {message}")
            return
        self.version = message["version"]
        self.changed.set()


async def all_reach(displays: list[Display], version: int, timeout: float = 15) -> None:
    async def one(display: Display) -> None:
        while display.version < version:
            display.changed.clear()
            await display.changed.wait()

    await asyncio.wait_for(asyncio.gather(*(one(d) for d in displays)), timeout)


async def push(api: Api, tid: str, n: int, start: int) -> int:
    """``n`` scores, players and machines cycling; the version of the last."""
    version = 0
    for i in range(start, start + n):
        r = await api.score(tid, 1 + i % 24, 1 + i % 4, 10_000 + i * 131)
        assert r.status_code == 201, r.text
        version = r.json()["version"]
    return version


@pytest.fixture
def server(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(
        {
            "REDIS_URL": redis_url,
            "BACKGLASS_DATA": str(tmp_path / "data"),
            "BACKGLASS_PREFIX": f"bgtest-{uuid.uuid4().hex[:12]}",
            "BACKGLASS_TD_PASSWORD": TD_PASSWORD,
        }
    )
    process.start()
    try:
        yield process
    finally:
        process.stop()


async def test_twenty_displays_resume_across_kill_and_restart(server: ServerProcess) -> None:
    """20 displays follow a tournament while the server is killed (-9) mid-stream and started
    again on the same Redis, with pushes before and after. Each display reconnects by itself with
    its version and ends at the last version, equal to the server's views, having never applied a
    patch out of order or twice. (A graceful restart, close 1012, is the browser test's:
    tests/browser/test_display.py.)"""
    api = Api(server.url)
    await api.sign_in_td()
    await api.tournament("r20", EPC, players=24, machines=4)
    displays = [Display(server.url, "r20") for _ in range(DISPLAYS)]
    tasks = [asyncio.create_task(d.run()) for d in displays]
    try:
        version = await push(api, "r20", 5, 0)
        await all_reach(displays, version)
        version = await push(api, "r20", 10, 5)
        server.kill()  # mid-stream: some displays may not have every patch yet
        await asyncio.to_thread(server.start)
        version = await push(api, "r20", 10, 15)
        await all_reach(displays, version)
        final = await api.views("r20")
        assert final["version"] == version
        for display in displays:
            assert display.errors == []
            assert display.views == final["views"]
            assert display.connections >= 2  # every one reconnected to the new server
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await api.close()


async def test_a_display_cut_off_longer_than_the_history_resumes_with_a_snapshot(
    settings: Settings,
) -> None:
    """The server keeps 4 changes: a display away for 10 pushes gets a snapshot, one away for 2
    gets a folded patch from its version; both end equal to the server's views."""
    short = dataclasses.replace(settings, history_size=4)
    async with serve_with_services(short) as (base, _, _):
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("cut", EPC, players=24, machines=4)
        async with connect(ws_url(base, "cut")) as ws:
            first = await receive(ws)
        long_ago, long_views = first["version"], first["views"]
        version = await push(api, "cut", 8, 0)
        short_ago, short_views = version, (await api.views("cut"))["views"]
        version = await push(api, "cut", 2, 8)
        now = await api.views("cut")
        for since, views, expect in (
            (long_ago, long_views, "snapshot"),
            (short_ago, short_views, "patch"),
        ):
            display = Display(base, "cut")
            display.version, display.views = since, views
            async with connect(ws_url(base, "cut", since)) as ws:
                message = await receive(ws)
            assert message["type"] == expect
            display.apply(message)
            assert display.errors == [] and display.version == version
            assert display.views == now["views"]
        await api.close()
