"""Restoring lost records from the log export (display/log/restore.py): only a file that starts with
exactly what the store still holds is accepted, its records get their hashes back, and the command
line restores beside a running server that came back on an empty store."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
from click.testing import CliRunner
from redis.asyncio import Redis

from display.cli.main import cli
from display.log.store import LogStore
from display.settings import Settings
from tests.utils import Api, serve_in_loop

EPC = "epc-qualifying"


async def lose_records(settings: Settings, tid: str, keep: int) -> None:
    """Make the store hold only the first ``keep`` records of ``tid`` (as an older copy would)."""
    redis = Redis.from_url(settings.redis_url or "")
    store = LogStore(redis, settings.key_prefix)
    records = await store.read(tid)
    await redis.delete(store.log_key(tid))
    await store.append(tid, 0, [r.data for r in records[:keep]])
    await redis.aclose()


async def post(api: Api, path: str, body: bytes, token: str | None = None) -> Any:
    return await api.http.post(path, content=body, headers=api.headers(token))


async def wait_behind(api: Api, tid: str) -> dict[str, Any]:
    for _ in range(200):
        found = (await api.http.get("/api/health")).json()["tournaments"][tid]
        if found["state"] == "behind":
            return found  # type: ignore[no-any-return]
        await asyncio.sleep(0.05)
    raise AssertionError("never noticed")


def edited(lines: list[bytes], index: int, **change: Any) -> bytes:
    record = orjson.loads(lines[index]) | change
    return b"\n".join([*lines[:index], orjson.dumps(record), *lines[index + 1 :]])


async def test_restore_takes_only_an_export_that_continues_the_store(
    api: Api, settings: Settings
) -> None:
    await api.tournament("r", EPC, players=3, machines=1)
    for player in (1, 2, 3):
        assert (await api.score("r", player, 1, player * 100)).status_code == 201
    saved = (await api.http.get("/api/t/r/export/log.jsonl")).content
    before = await api.views("r")
    lines = saved.splitlines()
    await lose_records(settings, "r", keep=4)
    assert (await wait_behind(api, "r"))["version"] == 4

    nobody = await api.http.post("/api/t/r/restore", content=saved)
    assert nobody.status_code == 401
    unknown = await post(api, "/api/t/never/restore", saved)  # a new one is an import
    assert (unknown.status_code, unknown.json()["error"]) == (404, "unknown_tournament")
    tampered = await post(api, "/api/t/r/restore", edited(lines, 3, score=999))  # record 4: held
    assert (tampered.status_code, tampered.json()["error"]) == (409, "export_disagrees")
    forged = await post(api, "/api/t/r/restore", edited(lines, 5, score=999))  # record 6: missing
    assert (forged.status_code, forged.json()["error"]) == (409, "hash_mismatch")
    older = await post(api, "/api/t/r/restore", b"\n".join(lines[:3]))
    assert (older.status_code, older.json()["error"]) == (409, "export_older")
    assert (await wait_behind(api, "r"))["version"] == 4  # none of them wrote anything

    done = await post(api, "/api/t/r/restore", saved)
    assert done.json() == {"tournament": "r", "restored": len(lines) - 4, "version": len(lines),
                           "state": "ok"}  # fmt: skip
    assert (await api.http.get("/api/t/r/export/log.jsonl")).content == saved  # hashes too
    assert await api.views("r") == before
    again = await post(api, "/api/t/r/restore", saved)
    assert again.json()["restored"] == 0


async def test_server_restarted_on_an_empty_store_and_the_command_line_restore(
    settings: Settings, tmp_path: Path
) -> None:
    """Redis lost everything (registry, log, epoch) while the server was stopped: the restarted
    server knows the tournament only from its high-water file, refuses writes, and takes it back
    from ``backglass restore`` run beside it."""
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("c", EPC, players=2, machines=1)
        assert (await api.score("c", 1, 1, 500)).status_code == 201
        export = tmp_path / "c.log.jsonl"
        export.write_bytes((await api.http.get("/api/t/c/export/log.jsonl")).content)
        before = await api.views("c")
        await api.close()
    redis = Redis.from_url(settings.redis_url or "")
    lost = [key async for key in redis.scan_iter(f"{settings.key_prefix}:*")]
    await redis.delete(*lost)
    await redis.aclose()

    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        health = (await api.http.get("/api/health")).json()
        assert health["epoch"] == "lost"
        assert health["tournaments"]["c"]["version"] == 0
        assert health["tournaments"]["c"]["seen"] == before["version"]
        refused = await api.score("c", 2, 1, 600)
        assert (refused.status_code, refused.json()["error"]) == (503, "store_behind")

        env = {"REDIS_URL": settings.redis_url or "", "BACKGLASS_PREFIX": settings.key_prefix}
        args = ["restore", str(export)]
        result = await asyncio.to_thread(CliRunner().invoke, cli, args, env=env)
        assert result.exit_code == 0, result.output
        assert f"c: restored {before['version']} records" in result.output
        assert await api.wait_version("c", before["version"])  # noticed by the running server
        assert await api.views("c") == before
        health = (await api.http.get("/api/health")).json()
        assert (health["epoch"], health["tournaments"]["c"]["state"]) == ("ok", "ok")
        assert (await api.score("c", 2, 1, 600)).status_code == 201
        await api.close()
