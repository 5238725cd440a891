"""A score store that goes back in time (docs/store-loss.md): a real Redis killed with SIGKILL and
started again EMPTY or from an OLDER copy of its append-only file, under a running server and
under a restarted one. The server must notice, refuse writes with 503 ``store_behind``, mark the
views, say so on ``/api/health``, and come back whole from the desk's log export."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from redis.asyncio import Redis

from display.embedded.redis import EmbeddedRedis
from display.log.store import LogStore
from display.log.watermark import Watermark
from display.settings import Settings
from tests.utils import TD_PASSWORD, Api, connect, receive, serve_in_loop, ws_url

EPC = "epc-qualifying"


class Store:
    """A Redis of the test's own, with an append-only file it can wipe or swap for an older copy."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "redis"
        self.aside = root / "aof-aside"
        self.embedded = EmbeddedRedis(self.dir)
        self.url = self.embedded.start()

    def files(self) -> list[Path]:
        return [p for p in self.dir.iterdir() if p.name.startswith("appendonly")]

    def copy_aside(self) -> None:
        """Keep a copy of the append-only file(s) as they are now (a stale snapshot, later)."""
        self.aside.mkdir()
        for path in self.files():
            copy = shutil.copytree if path.is_dir() else shutil.copy2
            copy(path, self.aside / path.name)

    def kill(self) -> None:
        process = self.embedded.process
        assert process is not None
        process.kill()
        process.wait()
        self.embedded.process = None

    def wipe(self) -> None:
        for path in self.files():
            shutil.rmtree(path) if path.is_dir() else path.unlink()

    def put_back(self) -> None:
        self.wipe()
        for path in self.aside.iterdir():
            copy = shutil.copytree if path.is_dir() else shutil.copy2
            copy(path, self.dir / path.name)

    def start(self) -> None:
        assert self.embedded.start() == self.url


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    found = Store(tmp_path)
    yield found
    found.embedded.stop()


@pytest.fixture
def settings_on(store: Store, tmp_path: Path) -> Settings:
    return Settings(
        redis_url=store.url,
        data_dir=tmp_path / "data",
        key_prefix="bg",
        td_password=TD_PASSWORD,
        heartbeat_seconds=1.0,
    )


@pytest.fixture
async def running(settings_on: Settings) -> AsyncIterator[Api]:
    async with serve_in_loop(settings_on) as base:
        api = Api(base)
        await api.sign_in_td()
        yield api
        await api.close()


async def health(api: Api, tid: str) -> dict[str, Any]:
    r = await api.http.get("/api/health")
    assert r.status_code == 200, r.text
    return r.json()["tournaments"].get(tid) or {}  # type: ignore[no-any-return]


async def wait_state(api: Api, tid: str, state: str, timeout: float = 10) -> dict[str, Any]:
    for _ in range(int(timeout / 0.05)):
        found = await health(api, tid)
        if found.get("state") == state:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"{tid} never became {state}: {await health(api, tid)}")


async def scores(api: Api, tid: str, *pushes: tuple[int, int, int]) -> int:
    version = 0
    for player, machine, score in pushes:
        r = await api.score(tid, player, machine, score)
        assert r.status_code == 201, r.text
        version = r.json()["version"]
    return version


async def export(api: Api, tid: str) -> bytes:
    r = await api.http.get(f"/api/t/{tid}/export/log.jsonl")
    assert r.status_code == 200
    return r.content


async def restore(api: Api, tid: str, body: bytes) -> dict[str, Any]:
    r = await api.http.post(f"/api/t/{tid}/restore", content=body, headers=api.headers())
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


async def until(ws: Any, test: Any) -> dict[str, Any]:
    """The first message ``test`` accepts (patches from the restore may come first)."""
    for _ in range(50):
        message = await receive(ws, timeout=10)
        if test(message):
            return message
    raise AssertionError("no such message")


def integrity(message: dict[str, Any]) -> Any:
    return message.get("patches", {}).get("integrity", "absent")


async def assert_refused(api: Api, tid: str, have: int, seen: int) -> None:
    refused = await api.score(tid, 1, 2, 777)
    assert refused.status_code == 503, refused.text
    assert refused.json()["error"] == "store_behind"
    assert f"it holds version {have}, this server had seen {seen}" in refused.json()["message"]


async def test_redis_restarted_empty_under_a_running_server(store: Store, running: Api) -> None:
    api = running
    await api.tournament("t", EPC, players=3, machines=2)
    seen = await scores(api, "t", (1, 1, 1000), (2, 1, 2000), (3, 2, 3000))
    saved, before = await export(api, "t"), await api.views("t")
    async with connect(ws_url(api.base, "t")) as ws:
        await receive(ws)
        store.kill()
        store.wipe()
        store.start()

        found = await wait_state(api, "t", "behind")
        assert (found["version"], found["seen"], found["shown"]) == (0, seen, seen)
        await api.sign_in_td()  # sessions were in the lost Redis; the TD's password was put back
        await assert_refused(api, "t", 0, seen)
        new = {"id": "other", "name": "Other", "format": EPC, "settings": {}}
        created = await api.post("/api/tournaments", new)  # the whole store is behind
        assert (created.status_code, created.json()["error"]) == (503, "store_behind")
        mark = await until(ws, lambda m: integrity(m) != "absent")
        assert integrity(mark) == {"state": "behind", "have": 0, "seen": seen, "reason": "shorter"}
        shown = await api.views("t")  # the running server keeps the newer truth, marked
        assert shown["version"] == seen
        assert {k: v for k, v in shown["views"].items() if k != "integrity"} == before["views"]

        done = await restore(api, "t", saved)
        assert (done["restored"], done["version"], done["state"]) == (seen, seen, "ok")
        cleared = await until(ws, lambda m: integrity(m) != "absent")
        assert integrity(cleared) is None
        assert await api.views("t") == before
        assert (await health(api, "t"))["state"] == "ok"
        assert await scores(api, "t", (1, 2, 5)) == seen + 1
        patch = await until(ws, lambda m: m["type"] == "patch" and m["version"] == seen + 1)
        assert patch["patches"]["machine/2"]["rows"]["1"]["score"] == 5


async def test_redis_restarted_from_an_older_copy_under_a_running_server(
    store: Store, running: Api
) -> None:
    api = running
    await api.tournament("t", EPC, players=3, machines=2)
    older = await scores(api, "t", (1, 1, 1000))
    store.copy_aside()
    seen = await scores(api, "t", (2, 1, 2000), (3, 2, 3000))
    saved, before = await export(api, "t"), await api.views("t")
    store.kill()
    store.put_back()
    store.start()

    found = await wait_state(api, "t", "behind")
    assert (found["version"], found["seen"]) == (older, seen)
    await assert_refused(api, "t", older, seen)
    assert (await api.views("t"))["version"] == seen  # the older log is not applied
    done = await restore(api, "t", saved)
    assert (done["restored"], done["state"]) == (seen - older, "ok")
    assert await api.views("t") == before
    assert await scores(api, "t", (1, 2, 5)) == seen + 1


async def test_server_restarted_on_an_older_redis_notices_at_start_up(
    store: Store, settings_on: Settings
) -> None:
    """The high-water file outside Redis catches what no process remembers: without it the new
    server would show the older standings as the truth and record scores on top of them."""
    async with serve_in_loop(settings_on) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("t", EPC, players=3, machines=2)
        older = await scores(api, "t", (1, 1, 1000))
        store.copy_aside()
        seen = await scores(api, "t", (2, 1, 2000), (3, 2, 3000))
        saved, before = await export(api, "t"), await api.views("t")
        await api.close()
    store.kill()
    store.put_back()
    store.start()

    async with serve_in_loop(settings_on) as base:
        api = Api(base)
        await api.sign_in_td()
        found = await health(api, "t")
        assert (found["state"], found["version"], found["seen"]) == ("behind", older, seen)
        await assert_refused(api, "t", older, seen)
        async with connect(ws_url(base, "t")) as ws:
            snapshot = await receive(ws)
            assert snapshot["version"] == older  # what Redis has, marked as incomplete
            assert snapshot["views"]["integrity"]["have"] == older
            done = await restore(api, "t", saved)
            assert (done["restored"], done["state"]) == (seen - older, "ok")
            caught_up = await until(ws, lambda m: m["type"] == "patch" and m["version"] == seen)
            assert caught_up["version"] == seen
        assert await api.wait_version("t", seen)
        assert await api.views("t") == before
        await api.close()


async def test_a_different_log_of_the_same_length_is_noticed(
    store: Store, settings_on: Settings
) -> None:
    """Hashes, not only versions: Redis back from an older copy and then written to by someone
    else up to the same version is "diverged"; the export no longer fits (409) and the TD can
    accept what the store holds."""
    async with serve_in_loop(settings_on) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("t", EPC, players=3, machines=2)
        older = await scores(api, "t", (1, 1, 1000))
        store.copy_aside()
        seen = await scores(api, "t", (2, 1, 2000))
        saved = await export(api, "t")
        await api.close()
    store.kill()
    store.put_back()
    store.start()
    redis = Redis.from_url(store.url)
    log = LogStore(redis, "bg")
    head = (await log.read("t"))[-1].h
    other = orjson.loads(saved.splitlines()[-1])
    other = {k: v for k, v in other.items() if k not in ("seq", "h")} | {"score": 2222}
    await log.append("t", older, [other], prev_hash=head)
    await redis.aclose()

    async with serve_in_loop(settings_on) as base:
        api = Api(base)
        await api.sign_in_td()
        found = await health(api, "t")
        assert (found["state"], found["reason"], found["seen"]) == ("behind", "diverged", seen)
        refused = await api.score("t", 3, 1, 3)
        assert (refused.status_code, refused.json()["error"]) == (503, "store_behind")
        r = await api.http.post("/api/t/t/restore", content=saved, headers=api.headers())
        assert (r.status_code, r.json()["error"]) == (409, "export_disagrees")
        accepted = await api.post("/api/t/t/restore/accept", None)
        assert accepted.status_code == 200, accepted.text
        assert (await health(api, "t"))["state"] == "ok"
        assert await api.wait_version("t", seen)
        views = await api.views("t")
        assert views["views"]["machine/1"]["rows"]["2"]["score"] == 2222
        assert "integrity" not in views["views"]
        assert await scores(api, "t", (3, 1, 3)) == seen + 1
        await api.close()


def test_high_water_file_is_replaced_whole_and_a_damaged_one_is_set_aside(tmp_path: Path) -> None:
    path = Watermark.path_for(tmp_path / "data", "bg")
    assert Watermark.load(path).marks == {}  # first start
    Watermark(path, "e1", {"t": (7, "ab"), "u": (3, None)}).save()
    found = Watermark.load(path)
    assert (found.epoch, found.marks, found.existed) == (
        "e1",
        {"t": (7, "ab"), "u": (3, None)},
        True,
    )
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    path.write_text('{"epoch": "e1", "tournaments": {"t": [7')  # torn by hand
    assert Watermark.load(path).marks == {}
    assert path.with_suffix(".corrupt").exists()
