"""The hash chain over each tournament's log (docs/integrity.md): what is hashed, that a writer
cannot extend a chain it has not seen, that replicas keep the head as they apply records (their
own and other processes'), logs from before the chain, and exports and imports keeping it."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest
import redis
from redis.asyncio import Redis

from display.log.store import GENESIS, LogStore, VersionConflict
from display.log.verify import verify_file_bytes, verify_redis
from display.settings import Settings
from tests.utils import Api, serve_in_loop

ZEROS = "0" * 64
SCORE = {"type": "score_recorded", "player": "1", "machine": "1", "score": 10, "by": "t", "at": "t"}


def sha(prev: str, raw: bytes) -> str:
    """The chain as docs/integrity.md defines it, written out independently of the store."""
    return hashlib.sha256(prev.encode("ascii") + b"\n" + raw).hexdigest()


@pytest.fixture
async def aredis(settings: Settings) -> AsyncIterator[Redis]:
    client = Redis.from_url(settings.redis_url or "")
    yield client
    await client.aclose()


def entries(settings: Settings, tid: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
    client = redis.Redis.from_url(settings.redis_url or "")
    try:
        return client.xrange(f"{settings.key_prefix}:t:{tid}:log")  # type: ignore[return-value]
    finally:
        client.close()


def check(settings: Settings, tid: str) -> Any:
    client = redis.Redis.from_url(settings.redis_url or "")
    try:
        return verify_redis(client, settings.key_prefix, [tid])[0]
    finally:
        client.close()


async def test_each_entry_hashes_its_stored_bytes_after_the_one_before(
    settings: Settings, aredis: Redis
) -> None:
    store = LogStore(aredis, settings.key_prefix)
    created = {"type": "tournament_created", "name": "Ünïcode", "by": "td:TD", "at": "now"}
    first = await store.append("hc1", 0, [created], register=True)
    two = [{**SCORE, "score": 2**53 - 1}, {**SCORE, "score": 0.5, "player": "2"}]
    second = await store.append("hc1", 1, two, prev_hash=first.hashes[0])

    stored = entries(settings, "hc1")
    assert [e[0] for e in stored] == [b"1-0", b"2-0", b"3-0"]
    prev, hashes = ZEROS, []
    for _, fields in stored:
        prev = sha(prev, fields[b"r"])
        hashes.append(prev)
        assert fields[b"h"].decode() == prev
    assert list(first.hashes + second.hashes) == hashes
    assert [r.h for r in await store.read("hc1")] == hashes
    assert [r.h for r in second.records(two)] == hashes[1:]


async def test_an_append_on_another_head_is_refused_as_a_version_conflict(
    settings: Settings, aredis: Redis
) -> None:
    store = LogStore(aredis, settings.key_prefix)
    created = {"type": "tournament_created", "name": "x", "by": "td:TD", "at": "now"}
    head = (await store.append("hc2", 0, [created], register=True)).hashes[0]
    for wrong in (GENESIS, sha(ZEROS, b"something else")):
        with pytest.raises(VersionConflict) as refused:
            await store.append("hc2", 1, [SCORE], prev_hash=wrong)
        assert refused.value.version == 1 and refused.value.chain
    assert len(entries(settings, "hc2")) == 1  # nothing was written
    with pytest.raises(ValueError):  # a writer must say which head it extends
        await store.append("hc2", 1, [SCORE])
    assert (await store.append("hc2", 1, [SCORE], prev_hash=head)).seq == 2


async def test_with_the_chain_off_nothing_is_hashed_or_checked(
    settings: Settings, aredis: Redis
) -> None:
    store = LogStore(aredis, settings.key_prefix, hash_chain=False)
    created = {"type": "tournament_created", "name": "x", "by": "td:TD", "at": "now"}
    await store.append("hc3", 0, [created], register=True)
    appended = await store.append("hc3", 1, [SCORE], prev_hash="not a hash")
    assert appended.seq == 2 and appended.hashes == ()
    assert all(b"h" not in fields for _, fields in entries(settings, "hc3"))
    chain = check(settings, "hc3")
    assert chain.ok and (chain.records, chain.chained, chain.unchained) == (2, 0, 2)


async def test_two_servers_writing_one_log_keep_one_chain(settings: Settings) -> None:
    """Each server's replica learns the other's records, hashes included, from the stream: if it
    kept a stale head, its next push would be refused forever (503) instead of answering 201."""
    async with serve_in_loop(settings) as one, serve_in_loop(settings) as two:
        a, b = Api(one), Api(two)
        await a.sign_in_td()
        await b.sign_in_td()
        await a.tournament("hc4", "epc-qualifying", players=6, machines=2)
        assert await b.wait_version("hc4", 9)
        for n in range(1, 7):
            writer = a if n % 2 else b
            r = await writer.score("hc4", n, 1 + n % 2, 1000 * n)
            assert r.status_code == 201, r.text
            assert await (b if writer is a else a).wait_version("hc4", r.json()["version"])
        await a.close()
        await b.close()
    chain = check(settings, "hc4")
    assert chain.ok and chain.records == chain.chained == 15


async def test_a_log_from_before_the_chain_is_chained_from_its_next_record(
    settings: Settings,
) -> None:
    off = dataclasses.replace(settings, hash_chain=False)
    async with serve_in_loop(off) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("hc5", "epc-qualifying", players=3, machines=2)
        assert (await api.score("hc5", 1, 1, 500)).status_code == 201
        await api.close()
    async with serve_in_loop(settings) as base:  # restarted with the chain on
        api = Api(base)
        await api.sign_in_td()
        for player in (2, 3):
            r = await api.score("hc5", player, 1, 400)
            assert r.status_code == 201, r.text
        await api.close()
    stored = entries(settings, "hc5")
    assert [b"h" in fields for _, fields in stored] == [False] * 7 + [True] * 2
    assert stored[7][1][b"h"].decode() == sha(ZEROS, stored[7][1][b"r"])  # starts at GENESIS
    chain = check(settings, "hc5")
    assert chain.ok and (chain.records, chain.chained, chain.unchained) == (9, 2, 7)
    assert chain.chained_from == 8
    assert "7 not chained" in chain.report()[0]


async def test_an_export_carries_the_hashes_and_imports_to_the_same_head(
    api: Api, settings: Settings
) -> None:
    await api.tournament("hc6", "epc-qualifying", players=4, machines=2)
    for player in range(1, 5):
        assert (await api.score("hc6", player, 1, 100 * player)).status_code == 201
    text = (await api.http.get("/api/t/hc6/export/log.jsonl")).content
    lines = [orjson.loads(line) for line in text.splitlines()]
    assert [line["h"] for line in lines] == [f[b"h"].decode() for _, f in entries(settings, "hc6")]
    assert verify_file_bytes(text).ok

    fresh = dataclasses.replace(settings, key_prefix=f"{settings.key_prefix}:fresh")
    async with serve_in_loop(fresh) as base:
        other = Api(base)
        await other.sign_in_td()
        altered = text.replace(b'"score":400', b'"score":40000')
        r = await other.http.post("/api/t/hc6/import", content=altered, headers=other.headers())
        assert r.status_code == 422 and "Line 11 fails the hash chain" in r.json()["message"]
        assert (await other.http.get("/api/t/hc6")).status_code == 404

        r = await other.http.post("/api/t/hc6/import", content=text, headers=other.headers())
        assert r.status_code == 201, r.text
        again = (await other.http.get("/api/t/hc6/export/log.jsonl")).content
        assert again == text  # records and hashes identical: the same chain head
        assert entries(fresh, "hc6")[-1][1][b"h"] == entries(settings, "hc6")[-1][1][b"h"]
        assert (await other.score("hc6", 1, 2, 5)).status_code == 201  # and it goes on
        assert check(fresh, "hc6").ok

        unhashed = b"\n".join(
            orjson.dumps({k: v for k, v in orjson.loads(line).items() if k != "h"})
            for line in altered.splitlines()
        )
        r = await other.http.post("/api/t/hc6b/import", content=unhashed, headers=other.headers())
        assert r.status_code == 201, r.text  # a file without hashes imports as before
        await other.close()


async def test_a_record_with_a_field_named_seq_or_h_is_never_appended(
    settings: Settings, aredis: Redis
) -> None:
    """The listing and the export write a record's seq and h beside its fields: a record of its
    own with either name would be read back as another version or hash, so the store refuses it
    and the log stays as it was."""
    store = LogStore(aredis, settings.key_prefix)
    created = {"type": "tournament_created", "name": "Reserved", "by": "td:TD", "at": "now"}
    first = await store.append("hc-reserved", 0, [created], register=True)
    for field in ("seq", "h"):
        with pytest.raises(ValueError, match="seq or h"):
            await store.append("hc-reserved", 1, [{**SCORE, field: 1}], prev_hash=first.hashes[0])
    assert len(entries(settings, "hc-reserved")) == 1
