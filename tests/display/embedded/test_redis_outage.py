"""Redis dies under a running server: every route answers 503 or serves from memory (never a 500,
never a 2xx for a write), nothing acknowledged is lost, displays are told and catch up, and the
embedded Redis is restarted by the server itself. Also: Redis refusals that mean "cannot persist
now" (OOM, MISCONF, NOREPLICAS, READONLY) are 503s, and a remote Redis without a password is
refused at start-up."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import redis
from starlette.routing import Route

from display.app import create_app
from display.embedded.redis import APP_USER, EmbeddedRedis, EmbeddedRedisError, _probe
from display.services import running
from display.settings import Settings, insecure_redis
from tests.utils import (
    TD_PASSWORD,
    Api,
    ServerProcess,
    connect,
    free_port,
    receive,
    serve_in_loop,
    ws_url,
)

EPC = "epc-qualifying"
PLAYERS, MACHINES = 30, 4
STORE_DOWN = "store_unavailable"

PATH_VALUES = {"seq": "5", "machine": "1", "player": "1", "action": "call", "name": "x"}
PATH_VALUES |= {"meet": "1", "name:path": "standings", "session": "0123456789abcdef"}
WRITE_BODIES = {  # a valid body for the writes that matter most: they must reach Redis and 503
    ("POST", "/api/t/{tournament}/scores"): {"player": "9", "machine": "3", "score": 777},
    ("POST", "/api/t/{tournament}/players"): {"players": [{"number": "99", "name": "New One"}]},
    ("POST", "/api/t/{tournament}/machines"): {"machines": [{"id": "9", "name": "Spare"}]},
    ("POST", "/api/t/{tournament}/stewards"): {"name": "Sam"},
    ("POST", "/api/t/{tournament}/scores/{seq}/correct"): {"score": 1234, "reason": "typo"},
    ("POST", "/api/t/{tournament}/scores/{seq}/void"): {"reason": "wrong player"},
    ("POST", "/api/session"): {"role": "td", "password": TD_PASSWORD},
    ("POST", "/api/tournaments"): {"id": "new", "name": "New", "format": EPC, "settings": {}},
}


def env(redis_url: str | None, data: Path) -> dict[str, str]:
    return {
        "REDIS_URL": redis_url or "",
        "BACKGLASS_DATA": str(data),
        "BACKGLASS_PREFIX": "bg",
        "BACKGLASS_TD_PASSWORD": TD_PASSWORD,
    }


def every_route() -> list[tuple[str, str]]:
    """(method, path template) of every HTTP route the app has."""
    found = []
    for route in create_app(Settings()).routes:
        if isinstance(route, Route):
            found += [(m, route.path) for m in sorted(route.methods or ()) if m != "HEAD"]
    return found


def fill(template: str, tid: str) -> str:
    path = template.replace("{tournament}", tid)
    for name, value in PATH_VALUES.items():
        path = path.replace("{" + name + "}", value)
    assert "{" not in path, f"no value for a parameter of {template}"
    return path


class Pusher:
    """Keyed score pushes from several workers; keeps every answer (status, key, body, version)."""

    def __init__(self, api: Api, tid: str) -> None:
        self.api, self.tid = api, tid
        self.todo = [(p, m) for m in range(1, MACHINES + 1) for p in range(1, PLAYERS + 1)]
        self.answers: list[tuple[int, str, dict[str, Any], int | None]] = []
        self.stop = asyncio.Event()

    async def worker(self) -> None:
        while self.todo and not self.stop.is_set():
            player, machine = self.todo.pop(0)
            body = {
                "player": str(player),
                "machine": str(machine),
                "score": player * 1000 + machine,
            }
            key = uuid.uuid4().hex
            r = await self.api.post(f"/api/t/{self.tid}/scores", body, key=key)
            version = r.json().get("version") if r.status_code < 300 else None
            self.answers.append((r.status_code, key, body, version))
            if r.status_code == 503:
                # a push in flight when Redis died may have been appended: outcome_unknown
                assert r.json()["error"] in (STORE_DOWN, "outcome_unknown"), r.text
                await asyncio.sleep(0.5)  # a phone backs off too


async def pings(ws: Any, want_down: bool, timeout: float = 10) -> None:
    """Read until a ping says the store is down (``want_down``) or up."""
    async with asyncio.timeout(timeout):
        while True:
            message = orjson.loads(await ws.recv())
            if message["type"] == "ping" and (message.get("store") == "down") == want_down:
                return


async def test_redis_killed_mid_stream(tmp_path: Path) -> None:
    """kill -9 Redis while scores stream in: every route answers 503 or from memory, never a 500
    and never a 2xx for a write; a connected display is told "store down"; Redis restarted on the
    same data dir has every acknowledged score; the 503'd pushes, retried with their keys, land
    exactly once; the display gets them as patches without reconnecting."""
    store = EmbeddedRedis(tmp_path / "redis")
    url = store.start()
    server = ServerProcess(env(url, tmp_path / "data"))
    server.start()
    api = Api(server.url)
    try:
        await api.sign_in_td()
        await api.tournament("o", EPC, players=PLAYERS, machines=MACHINES)
        async with connect(ws_url(api.base, "o")) as ws:
            pusher = Pusher(api, "o")
            workers = [asyncio.create_task(pusher.worker()) for _ in range(4)]
            async with asyncio.timeout(30):
                while sum(a[0] == 201 for a in pusher.answers) < 10:
                    await asyncio.sleep(0.01)
            assert store.process is not None
            store.process.send_signal(signal.SIGKILL)  # mid-stream
            store.process.wait()
            await pings(ws, want_down=True)

            problems = []
            for method, template in every_route():
                path = fill(template, "o")
                body = WRITE_BODIES.get((method, template), {})
                headers = api.headers(key=uuid.uuid4().hex)
                r = await api.http.request(method, path, json=body, headers=headers)
                wrote = method != "GET" and r.is_success
                if (r.status_code >= 500 and r.status_code != 503) or wrote:
                    problems.append(f"{method} {path}: {r.status_code} {r.text[:200]}")
                if (method, template) in WRITE_BODIES:
                    assert r.status_code == 503, f"{method} {path}: {r.status_code} {r.text}"
                    assert r.json()["error"] == STORE_DOWN
                    assert "nothing was recorded" in r.json()["message"]
            assert problems == []
            async with connect(ws_url(api.base, "o")) as fresh:  # a display opened meanwhile
                assert (await receive(fresh))["type"] == "snapshot"  # from memory
            async with asyncio.timeout(10):
                while not any(a[0] == 503 for a in pusher.answers):
                    await asyncio.sleep(0.01)  # the stream did run into the outage

            store.start()  # same data directory: the AOF reloads
            await pings(ws, want_down=False)
            pusher.stop.set()
            await asyncio.gather(*workers)

            statuses = {a[0] for a in pusher.answers}
            assert statuses <= {201, 503}, statuses
            acked = {a[3]: a[2] for a in pusher.answers if a[0] == 201}
            retried = {}
            for status, key, body, _ in pusher.answers:
                if status == 503:  # the phone retries with the same key until it lands
                    for _ in range(50):
                        r = await api.post("/api/t/o/scores", body, key=key)
                        if r.status_code != 503:
                            break
                        await asyncio.sleep(0.1)
                    assert r.status_code in (200, 201), r.text
                    retried[r.json()["version"]] = body
            log = (await api.http.get("/api/t/o/log")).json()
            records = log["records"] if isinstance(log, dict) else log
            scores = {
                r["seq"]: {k: r[k] for k in ("player", "machine", "score")}
                for r in records
                if r.get("type") == "score_recorded"
            }
            for version, body in acked.items():  # nothing acknowledged is lost
                assert scores[version] == body
            assert sorted(map(orjson.dumps, scores.values())) == sorted(
                map(orjson.dumps, [*acked.values(), *retried.values()])
            )  # and each 503'd push landed exactly once, after its retry
            last = max(scores)
            async with asyncio.timeout(10):  # the open display caught up by itself
                while True:
                    message = orjson.loads(await ws.recv())
                    if message["type"] == "patch" and message["version"] == last:
                        break
    finally:
        await api.close()
        server.stop()
        store.stop()


def _pid(data: Path) -> int:
    return int((data / "redis.pid").read_text())


async def test_embedded_redis_is_restarted_by_the_server(tmp_path: Path) -> None:
    """The server's embedded Redis killed -9 comes back by itself on the same data dir;
    the push that met the outage, retried with its key, lands once; earlier ones are kept."""
    data = tmp_path / "data"
    settings = Settings(data_dir=data, td_password=TD_PASSWORD)  # no URL: the embedded Redis
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("e", EPC, players=4, machines=1)
        first = await api.score("e", 1, 1, 1000)
        assert first.status_code == 201
        pid = _pid(data)
        os.kill(pid, signal.SIGKILL)
        key = uuid.uuid4().hex
        answers = []
        for _ in range(100):
            r = await api.score("e", 2, 1, 2000, key=key)
            answers.append(r.status_code)
            if r.status_code != 503:
                break
            await asyncio.sleep(0.05)
        assert answers[0] == 503 and answers[-1] == 201, answers
        assert _pid(data) != pid  # a new redis-server, started by the server
        replay = await api.score("e", 2, 1, 2000, key=key)
        assert replay.headers.get("Idempotent-Replayed") == "true"
        rows = (await api.views("e"))["views"]["machine/1"]["rows"]
        assert {p: row["score"] for p, row in rows.items()} == {"1": 1000, "2": 2000}
        await api.close()


# ---- Redis up but refusing writes ----


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    store = EmbeddedRedis(tmp_path_factory.mktemp("refusing"))
    store.start()
    yield store
    store.stop()


@contextlib.contextmanager
def misconf(admin: redis.Redis, tmp: Path) -> Iterator[None]:
    """A failed background save with ``stop-writes-on-bgsave-error``: Redis answers MISCONF (as it
    does after a failed AOF write under ``appendfsync everysec``)."""
    gone = tmp / "gone"
    gone.mkdir()
    home = admin.config_get("dir")["dir"]
    admin.config_set("save", "3600 1")
    admin.config_set("dir", str(gone))
    gone.rmdir()  # the snapshot cannot be created
    admin.bgsave()
    for _ in range(200):
        if admin.info("persistence")["rdb_last_bgsave_status"] == "err":
            break
        time.sleep(0.01)
    try:
        yield
    finally:
        admin.config_set("dir", home)
        admin.config_set("save", "")
        admin.bgsave()  # a good save clears the error
        for _ in range(200):
            if admin.info("persistence")["rdb_last_bgsave_status"] == "ok":
                break
            time.sleep(0.01)


REFUSALS = {
    "oom": (("maxmemory", "1"), ("maxmemory", "0")),
    "noreplicas": (("min-replicas-to-write", "1"), ("min-replicas-to-write", "0")),
}


@contextlib.contextmanager
def refusing(kind: str, admin: redis.Redis, tmp: Path) -> Iterator[None]:
    if kind == "misconf":
        with misconf(admin, tmp):
            yield
        return
    if kind == "readonly":
        admin.replicaof("127.0.0.1", free_port())  # a master that is not there
        try:
            yield
        finally:
            admin.replicaof("NO", "ONE")
        return
    on, off = REFUSALS[kind]
    admin.config_set(*on)
    try:
        yield
    finally:
        admin.config_set(*off)


@pytest.fixture(scope="module")
async def refusing_app(
    own_redis: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Api]:
    settings = Settings(
        redis_url=own_redis.url,
        data_dir=tmp_path_factory.mktemp("refusing-data"),
        td_password=TD_PASSWORD,
    )
    async with serve_in_loop(settings) as base:
        client = Api(base)
        await client.sign_in_td()
        yield client
        await client.close()


@pytest.mark.parametrize("kind", ["oom", "misconf", "noreplicas", "readonly"])
async def test_redis_refusing_writes_is_a_503(
    kind: str, own_redis: EmbeddedRedis, refusing_app: Api, tmp_path: Path
) -> None:
    """Redis up but not persisting (maxmemory, a failed save, no replicas, turned replica): a push,
    a steward PIN and a signed-in read answer 503 "nothing was recorded" or from memory, never a
    500; afterwards the same push with its key lands once."""
    api = refusing_app
    tid = f"r{kind}"
    await api.tournament(tid, EPC, players=2, machines=1)
    admin = redis.Redis.from_url(own_redis.admin_url)
    key = uuid.uuid4().hex
    try:
        with refusing(kind, admin, tmp_path):
            refused = await api.score(tid, 1, 1, 500, key=key)
            assert refused.status_code == 503, refused.text
            assert refused.json()["error"] == STORE_DOWN
            pin = await api.post(f"/api/t/{tid}/stewards", {"name": "Pat"})
            assert pin.status_code == 503, pin.text
            read = await api.http.get(f"/api/t/{tid}/views", headers=api.headers())
            assert read.status_code in (200, 503), read.text
        landed = await api.score(tid, 1, 1, 500, key=key)
        assert landed.status_code == 201, landed.text
        again = await api.score(tid, 1, 1, 500, key=key)
        assert again.json()["version"] == landed.json()["version"]
    finally:
        admin.close()


async def test_redis_loading_its_aof_is_a_503(tmp_path: Path) -> None:
    """Redis restarted and still loading its AOF answers LOADING. redis-py retries that for a few
    seconds (so a short load is ridden out); a longer one answers 503 (not 500), reads come from
    memory, and once Redis is up the push, retried with its key, lands."""
    binary = shutil.which("redis-server")  # Redis 7: its knob to serve clients while loading
    if binary is None:
        pytest.fail("this test needs Debian's redis-server (scripts/install --test installs it)")
    data = tmp_path / "redis"
    store = EmbeddedRedis(data, executable=binary)
    url = store.start()
    settings = Settings(redis_url=url, data_dir=tmp_path / "data", td_password=TD_PASSWORD)
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("ld", EPC, players=3, machines=1)
        assert (await api.score("ld", 1, 1, 100)).status_code == 201
        with redis.Redis.from_url(store.admin_url) as admin:
            for i in range(30):  # big enough that Redis answers clients after each key it loads
                admin.set(f"pad:{i}", os.urandom(5000))  # incompressible
            admin.bgrewriteaof()  # the keys go into the AOF's RDB preamble, loaded key by key
            while admin.info("persistence")["aof_rewrite_in_progress"]:
                time.sleep(0.02)
        store.stop()
        # Redis's own test knobs: 0.3 s after each key loaded (30 keys: LOADING outlasts redis-py's
        # retries), and clients served every 4 KiB loaded
        slow_load = [
            "--key-load-delay",
            "300000",
            "--loading-process-events-interval-bytes",
            "4096",
        ]
        slow = EmbeddedRedis(data, executable=binary, extra_args=slow_load)
        starting = asyncio.create_task(asyncio.to_thread(slow.start, 60))
        app_password = (data / "redis-password").read_text().strip()
        try:
            async with asyncio.timeout(10):
                while _probe(slow.socket, APP_USER, app_password) != "loading":
                    await asyncio.sleep(0.01)
            key = uuid.uuid4().hex
            refused = await api.score("ld", 2, 1, 200, key=key)
            # still loading (or too busy loading to answer the probe in time), not yet up
            assert _probe(slow.socket, APP_USER, app_password) != "up"
            assert refused.status_code == 503, refused.text
            assert refused.json()["error"] == STORE_DOWN
            assert (await api.http.get("/api/t/ld/views")).status_code == 200
        finally:
            assert slow.process is not None
            slow.process.kill()  # no need to wait out the slow load
            with contextlib.suppress(EmbeddedRedisError):
                await starting
        store.start()
        for _ in range(100):
            landed = await api.score("ld", 2, 1, 200, key=key)
            if landed.status_code != 503:
                break
            await asyncio.sleep(0.05)
        assert landed.status_code == 201, landed.text
        await api.close()
    store.stop()


# ---- a remote Redis needs a password ----


def test_insecure_redis_urls() -> None:
    """Loopback and unix sockets need no password; another host does (docs/redis.md)."""
    for safe in (
        "unix:///run/redis.sock",
        "redis://127.0.0.1:6379/0",
        "redis://localhost/0",
        "redis://[::1]:6379",
        "redis://backglass:secret@redis.example:6379/0",
        "rediss://:secret@10.0.0.5:6380/0",
    ):
        assert insecure_redis(safe) is None, safe
    for unsafe in ("redis://10.0.0.5:6379/0", "rediss://redis.example/0", "redis://user@h/0"):
        assert "BACKGLASS_ALLOW_INSECURE_REDIS" in (insecure_redis(unsafe) or ""), unsafe
    os.environ["BACKGLASS_ALLOW_INSECURE_REDIS"] = "1"
    try:
        assert Settings.from_env().allow_insecure_redis
    finally:
        del os.environ["BACKGLASS_ALLOW_INSECURE_REDIS"]


async def test_server_refuses_a_remote_redis_without_password(tmp_path: Path) -> None:
    """The server does not start on a REDIS_URL at another host without a password: the reason is
    logged and raised before any connection is tried."""
    settings = Settings(redis_url="redis://192.0.2.1:6379/0", data_dir=tmp_path)
    with pytest.raises(RuntimeError, match="BACKGLASS_ALLOW_INSECURE_REDIS=1"):
        async with running(settings):
            pass


def test_two_supervisors_of_one_data_dir_start_one_redis(tmp_path: Path) -> None:
    """Two server processes share a data directory's Redis: after it dies, the first to restart it
    owns the new one and the other sees it alive and reuses it (``redis.lock``), never a second."""
    first, second = EmbeddedRedis(tmp_path), EmbeddedRedis(tmp_path)
    first.start()
    second.start()
    assert first.process is not None and second.process is None  # reused
    try:
        first.process.kill()
        first.process.wait()
        assert not first.alive() and not second.alive()
        second.start()  # second's supervisor was quicker
        assert second.process is not None and second.alive()
        assert first.alive()  # a Redis runs for the data dir: nothing to restart
        first.start()
        assert first.process is None  # it reused second's
        with redis.Redis.from_url(first.url) as client:
            assert client.ping()
    finally:
        second.stop()
        first.stop()
