"""``backglass verify``: a log untouched passes; a record altered, removed or moved in Redis (the
stream rebuilt, as a forger would: XADD cannot rewrite an entry) or in an exported file fails,
naming the first seq that no longer checks out; the exit code says which."""

from __future__ import annotations

import asyncio
import hashlib
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import redis
from click.testing import CliRunner, Result
from redis.asyncio import Redis

from display.cli.main import cli
from display.embedded.redis import EmbeddedRedis
from display.log.store import LogStore
from display.settings import Settings
from tests.utils import ROOT, Api

Entries = list[tuple[bytes, dict[bytes, bytes]]]


def sha(prev: str, raw: bytes) -> str:
    return hashlib.sha256(prev.encode() + b"\n" + raw).hexdigest()


async def written(api: Api, tid: str) -> None:
    """9 records: created, 3 players, 2 machines, 3 scores (seq 7, 8, 9)."""
    await api.tournament(tid, "epc-qualifying", players=3, machines=2)
    for player in (1, 2, 3):
        assert (await api.score(tid, player, 1, 1000 * player)).status_code == 201


def verify(settings: Settings, *args: str) -> Result:
    env = {"REDIS_URL": settings.redis_url or "", "BACKGLASS_PREFIX": settings.key_prefix}
    return CliRunner().invoke(cli, ["verify", *args], env=env)


def stored(settings: Settings, tid: str) -> Entries:
    client = redis.Redis.from_url(settings.redis_url or "")
    try:
        return client.xrange(f"{settings.key_prefix}:t:{tid}:log")  # type: ignore[return-value]
    finally:
        client.close()


def rebuild(settings: Settings, tid: str, entries: Entries) -> None:
    """Replace the stream with ``entries`` (ids and fields as given), atomically."""
    client = redis.Redis.from_url(settings.redis_url or "")
    key = f"{settings.key_prefix}:t:{tid}:log"
    try:
        pipe = client.pipeline(transaction=True)
        pipe.delete(key)
        for entry_id, fields in entries:
            pipe.xadd(key, fields, id=entry_id)  # type: ignore[arg-type]
        pipe.execute()
    finally:
        client.close()


def renumbered(entries: Entries) -> Entries:
    return [(f"{n}-0".encode(), fields) for n, (_, fields) in enumerate(entries, start=1)]


def h(entries: Entries, seq: int) -> str:
    return entries[seq - 1][1][b"h"].decode()


async def test_untouched_logs_pass_and_print_their_heads(api: Api, settings: Settings) -> None:
    await written(api, "vc1")
    await written(api, "vc2")
    result = verify(settings)
    assert result.exit_code == 0, result.output
    for tid in ("vc1", "vc2"):
        head = h(stored(settings, tid), 9)
        assert f"{tid}: 9 records, 9 chained: OK; head seq 9 {head}\n" in result.output
    only = verify(settings, "--tournament", "vc2")
    assert only.exit_code == 0 and "vc2: 9 records" in only.output and "vc1" not in only.output
    unknown = verify(settings, "--tournament", "nope")
    assert unknown.exit_code == 2 and "There is no tournament nope" in unknown.output


async def test_a_record_altered_in_redis_fails_at_its_seq(api: Api, settings: Settings) -> None:
    await written(api, "vc3")
    original = stored(settings, "vc3")
    raw = original[7][1][b"r"]  # seq 8: player 2's 2000 on machine 1
    forged = raw.replace(b'"score":2000', b'"score":92000')
    assert forged != raw
    rebuild(settings, "vc3", [*original[:7], (b"8-0", {**original[7][1], b"r": forged}),
                              *original[8:]])  # fmt: skip
    result = verify(settings)
    assert result.exit_code == 1
    assert "vc3: 9 records, 9 chained: FAILED at seq 8: its hash does not match" in result.output
    assert f"  expected {sha(h(original, 7), forged)}\n" in result.output
    assert f"  found    {h(original, 8)}\n" in result.output

    rebuild(settings, "vc3", original)  # put back as it was: it checks out again
    assert verify(settings).exit_code == 0


async def test_a_record_removed_or_moved_in_redis_fails(api: Api, settings: Settings) -> None:
    await written(api, "vc4")
    original = stored(settings, "vc4")
    cases: list[tuple[Callable[[Entries], Entries], str]] = [
        (lambda e: [*e[:4], *e[5:]], "FAILED at seq 5: record 5 is not there (found 6)"),
        (lambda e: renumbered([*e[:4], *e[5:]]), "8 records, 8 chained: FAILED at seq 5: its hash"),
        (lambda e: renumbered([*e[:6], e[7], e[6], e[8]]), "FAILED at seq 7: its hash"),
        (lambda e: [*e[:-1], (b"9-0", {b"r": e[8][1][b"r"]})], "FAILED at seq 9: it has no hash"),
    ]
    for change, message in cases:
        rebuild(settings, "vc4", change(original))
        result = verify(settings, "--tournament", "vc4")
        assert result.exit_code == 1 and message in result.output, (message, result.output)


async def test_an_exported_file_is_checked_the_same_way(
    api: Api, settings: Settings, tmp_path: Path
) -> None:
    await written(api, "vc5")
    text = (await api.http.get("/api/t/vc5/export/log.jsonl")).content
    lines = text.splitlines()

    def check(name: str, body: list[bytes]) -> Result:
        path = tmp_path / name
        path.write_bytes(b"\n".join(body) + b"\n")
        return CliRunner().invoke(cli, ["verify", "--file", str(path)])

    head = orjson.loads(lines[-1])["h"]
    good = check("vc5.log.jsonl", lines)
    assert good.exit_code == 0
    assert good.output == f"vc5.log.jsonl: 9 records, 9 chained: OK; head seq 9 {head}\n"

    def edited(n: int, **changes: Any) -> bytes:
        return orjson.dumps({**orjson.loads(lines[n - 1]), **changes})

    swapped = [*lines[:6], lines[7], lines[6], lines[8]]
    resequenced = [*lines[:6], edited(9, seq=7), edited(8), edited(7, seq=9)]
    cases = [
        ([*lines[:7], edited(8, score=2001), lines[8]], "FAILED at seq 8: its hash does not match"),
        ([*lines[:3], *lines[4:]], "FAILED at seq 4: record 4 is not there (found 5)"),
        (swapped, "FAILED at seq 7: record 7 is not there (found 8)"),
        (resequenced, "FAILED at seq 7: its hash does not match"),
        ([*lines[:2], b"{not json", *lines[3:]], "FAILED at seq 3: line 3 is not a JSON record"),
    ]
    for body, message in cases:
        result = check("bad.log.jsonl", body)
        assert result.exit_code == 1 and message in result.output, (message, result.output)
    files = ["--file", str(tmp_path / "vc5.log.jsonl"), "--file", str(tmp_path / "bad.log.jsonl")]
    both = CliRunner().invoke(cli, ["verify", *files])
    assert both.exit_code == 1 and "vc5.log.jsonl: 9 records, 9 chained: OK" in both.output


async def test_the_command_finds_the_embedded_redis_of_a_data_directory(tmp_path: Path) -> None:
    """``backglass verify --data DIR`` after the server stopped: it starts the data directory's
    Redis itself, checks, and stops it again."""
    data = tmp_path / "data"
    embedded = EmbeddedRedis(data)
    url = await asyncio.to_thread(embedded.start)
    client = Redis.from_url(url)
    store = LogStore(client, "bg")
    record = {"type": "tournament_created", "name": "x", "by": "td:TD", "at": "now"}
    head = (await store.append("vd1", 0, [record], register=True)).hashes[0]
    await client.aclose()
    await asyncio.to_thread(embedded.stop)

    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "BACKGLASS_PREFIX")}
    args = [sys.executable, "-m", "display", "verify", "--data", str(data)]
    done = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"vd1: 1 records, 1 chained: OK; head seq 1 {head}\n"
        f"Checked 1 tournament in {data} (prefix bg): all OK.\n"
    )
    assert not _listening(data / "redis.sock")  # stopped again

    args[-1] = str(tmp_path / "nowhere")
    missing = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "No data directory" in missing.stderr


def _listening(sock: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(sock))
        except OSError:
            return False
    return True
