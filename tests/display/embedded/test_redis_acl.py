"""The app's Redis user (docs/redis.md): it cannot FLUSHALL, FLUSHDB, CONFIG, XDEL or XTRIM, not even
from inside a Lua script, and the embedded Redis lets nobody in without a password. The whole
suite runs through this same user (the ``redis_url`` fixture: the embedded Redis, or the Redis
``scripts/test`` starts with the documented ACL), which shows the app needs nothing more."""

from __future__ import annotations

import shutil
import socket
import stat
import uuid
from pathlib import Path

import pytest
import redis

from display.embedded.redis import EmbeddedRedis
from display.settings import Settings
from tests.utils import TD_PASSWORD, Api, serve_in_loop

DENIED = [
    # harmless ones first: a Redis user allowed these is not ours, and the test stops before the
    # destructive ones could flush someone's Redis
    ("CONFIG", "GET", "requirepass"),
    ("ACL", "LIST"),
    ("XDEL", "{log}", "1-0"),
    ("XTRIM", "{log}", "MAXLEN", "0"),
    ("CONFIG", "SET", "appendonly", "no"),
    ("FLUSHDB",),
    ("FLUSHALL",),
]


def assert_denied(url: str, prefix: str) -> None:
    log = f"{prefix}:t:acl:log"
    client = redis.Redis.from_url(url)
    try:
        client.xadd(log, {"r": "{}"}, id="1-0")
        for command in DENIED:
            args = [log if part == "{log}" else part for part in command]
            with pytest.raises(redis.exceptions.NoPermissionError):
                client.execute_command(*args)
                pytest.fail(
                    f"{' '.join(command)} is allowed: this Redis user is not the app's ACL user "
                    "of docs/redis.md"
                )
        # a script runs with its caller's rights
        with pytest.raises(redis.exceptions.ResponseError, match="user executing the script"):
            client.eval("return redis.call('XDEL', KEYS[1], '1-0')", 1, log)
        assert client.xlen(log) == 1  # the record is still there
        client.delete(log)  # what the fixtures' clean-up needs still works
    finally:
        client.close()


def test_the_app_user_cannot_flush_reconfigure_or_cut_the_log(redis_url: str) -> None:
    """Through the URL the whole suite uses (embedded, or scripts/test's ACL'd Redis 7)."""
    assert_denied(redis_url, f"bgtest-{uuid.uuid4().hex[:12]}")


def test_embedded_redis_needs_a_password_and_keeps_it_private(tmp_path: Path) -> None:
    """No way in without the password; the password files are 0600 and the ACL file holds only
    their SHA-256; the operator's ``default`` user may do everything."""
    store = EmbeddedRedis(tmp_path)
    store.start()
    try:
        with socket.socket(socket.AF_UNIX) as anonymous:
            anonymous.connect(str(store.socket))
            anonymous.sendall(b"PING\r\n")
            assert anonymous.recv(100).startswith(b"-NOAUTH")
        for name in ("redis-password", "redis-admin-password", "redis.acl"):
            assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
        acl = (tmp_path / "redis.acl").read_text()
        for name in ("redis-password", "redis-admin-password"):
            assert (tmp_path / name).read_text().strip() not in acl
        with redis.Redis.from_url(store.admin_url) as admin:
            assert admin.config_get("appendfsync") == {"appendfsync": "always"}
    finally:
        store.stop()


async def test_the_same_acl_on_redis_7(tmp_path: Path) -> None:
    """The embedded set-up (ACL file and rules) on Debian's Redis 7: the rules are valid there
    too, the app works through them (push, steward, correction) and the user is still denied."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("this test needs Debian's redis-server (scripts/install --test installs it)")
    store = EmbeddedRedis(tmp_path / "redis", executable=binary)
    url = store.start()
    try:
        with redis.Redis.from_url(store.admin_url) as admin:
            assert admin.info("server")["redis_version"].startswith("7.")
        settings = Settings(redis_url=url, data_dir=tmp_path / "data", td_password=TD_PASSWORD)
        async with serve_in_loop(settings) as base:
            api = Api(base)
            await api.sign_in_td()
            await api.tournament("a7", "epc-qualifying", players=2, machines=1)
            pin = (await api.post("/api/t/a7/stewards", {"name": "Sam"})).json()["pin"]
            signed = await api.http.post(
                "/api/session",
                json={"role": "steward", "tournament": "a7", "name": "Sam", "pin": pin},
            )
            pushed = await api.score("a7", 1, 1, 5000, token=signed.json()["token"])
            assert pushed.status_code == 201, pushed.text
            assert (await api.views("a7"))["version"] == pushed.json()["version"]
            await api.close()
        assert_denied(url, "bg")
    finally:
        store.stop()


def test_the_data_directory_and_every_redis_file_are_the_owners_alone(tmp_path: Path) -> None:
    """They hold the argon2 hashes of the TD password and every PIN: the directory 0700 and every
    file Redis and the server make 0600, also on a data directory an older start left 0755 with a
    0644 AOF. Checked after a write, so the AOF and the log exist."""
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    (data / "appendonly.aof").write_text("")
    (data / "appendonly.aof").chmod(0o644)
    store = EmbeddedRedis(data)
    store.start()
    try:
        with redis.Redis.from_url(store.url) as client:
            client.xadd("bgtest-perm:t:x:log", {"r": "{}"})
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        files = [p for p in data.iterdir() if not p.is_socket()]
        assert {"appendonly.aof", "redis.log", "redis.pid"} <= {p.name for p in files}
        modes = {p.name: oct(stat.S_IMODE(p.stat().st_mode)) for p in files}
        assert set(modes.values()) == {"0o600"}, modes
    finally:
        store.stop()
