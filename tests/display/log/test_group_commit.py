"""Group commit (display/log/writer.py): pushes to one tournament that arrive while its append is
in flight are validated one after another, each on the state the ones before make, and appended
in one compare-and-append, each with its own Idempotency-Key and version; on a real Redis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.asyncio import Redis

from display.errors import ApiError
from display.log.connection import connect as connect_store
from display.log.store import Append, Appended, KeysUsed, LogStore, VersionConflict
from display.log.verify import verify_redis
from display.log.writer import Committed, Writer
from display.settings import Settings
from scoring.errors import ScoringError
from tests.redis_nodes import cluster
from tests.utils import Api, serve_with_services

EPC = "epc-qualifying"
PLAYERS, MACHINES = 60, 2


def score(player: int, machine: int = 1, points: int = 0) -> dict[str, Any]:
    """A stamped score record, as the API writes one."""
    return {
        "type": "score_recorded",
        "player": str(player),
        "machine": str(machine),
        "score": points or 1000 * player + machine,
        "by": "td:TD",
        "at": "2026-01-01T00:00:00.000Z",
    }


def withdrawn(player: int) -> dict[str, Any]:
    return {
        "type": "player_withdrawn",
        "player": str(player),
        "reason": "went home",
        "by": "td:TD",
        "at": "2026-01-01T00:00:00.000Z",
    }


class Counted:
    """``LogStore.append_writes`` of one store, wrapped to count its calls (round trips) and the
    writes each carried; ``before``, when set, runs before the first call (another process's
    append, just before this one's)."""

    def __init__(self, store: LogStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sizes: list[int] = []
        self.before: Callable[[], Awaitable[object]] | None = None
        real: Callable[..., Awaitable[list[Appended]]] = store.append_writes

        async def counting(
            tournament: str, expected: int, writes: Sequence[Append], **kw: Any
        ) -> list[Appended]:
            self.sizes.append(len(writes))
            if self.before is not None:
                before, self.before = self.before, None
                await before()
            return await real(tournament, expected, writes, **kw)

        monkeypatch.setattr(store, "append_writes", counting)


@pytest.fixture
async def served(settings: Settings) -> AsyncIterator[tuple[Api, Any]]:
    """A server with tournament ``gc`` (``PLAYERS`` players, ``MACHINES`` machines) and its
    ``Services``."""
    async with serve_with_services(settings) as (base, services, _):
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("gc", EPC, players=PLAYERS, machines=MACHINES)
        try:
            yield api, services
        finally:
            await api.close()


def sync_redis(settings: Settings) -> redis.Redis:
    return redis.Redis.from_url(settings.redis_url or "")


def logged(settings: Settings, tid: str) -> list[tuple[int, bytes]]:
    """(version, stored record) of every entry of ``tid``'s log."""
    client = sync_redis(settings)
    try:
        entries = client.xrange(f"{settings.key_prefix}:t:{tid}:log")
    finally:
        client.close()
    return [(int(i.split(b"-")[0]), fields[b"r"]) for i, fields in entries]  # type: ignore


def idem(settings: Settings, tid: str, key: str) -> str:
    """What ``tid``'s idempotency entry for ``key`` holds: "fingerprint seq"."""
    client = sync_redis(settings)
    try:
        value = client.get(f"{settings.key_prefix}:t:{tid}:idem:{key}")
    finally:
        client.close()
    assert isinstance(value, bytes)
    return value.decode()


async def queued(writer: Writer, tid: str, count: int) -> None:
    """Wait until ``count`` writes wait for ``tid``'s next group."""
    for _ in range(500):
        if writer.queued(tid) >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{count} writes never queued")


async def held_together(
    services: Any, tid: str, commits: Sequence[Awaitable[Committed]]
) -> list[Committed | BaseException]:
    """Run ``commits`` while ``tid``'s write lock is held, so they queue up in this order, then
    let them go: they make one group (fewer than ``MAX_GROUP_RECORDS`` records, no copy of a key
    already in it, a precondition only on the first)."""
    async with services.replica.write_lock(tid):
        tasks = []
        for commit in commits:  # one after another: they queue in this order
            tasks.append(asyncio.ensure_future(commit))
            await queued(services.writer, tid, len(tasks))
    return list(await asyncio.gather(*tasks, return_exceptions=True))


async def test_concurrent_pushes_land_in_fewer_round_trips_each_once_and_contiguous(
    served: tuple[Api, Any], settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """50 gathered keyed pushes through HTTP: every one 201 with its own version, the versions
    contiguous after the log's head, fewer appends than pushes, each score in the log exactly
    once at the version its answer named, each key recorded with its own version, the hash chain
    whole, and the replica's views at the last version with every score."""
    api, services = served
    counted = Counted(services.store, monkeypatch)
    head = services.replica.tournaments["gc"].version
    answers = await asyncio.gather(
        *(api.score("gc", n, 1, 1000 * n + 1, key=f"push-{n}") for n in range(1, 51))
    )
    assert all(r.status_code == 201 for r in answers), [r.text for r in answers]
    versions = [r.json()["version"] for r in answers]
    assert sorted(versions) == list(range(head + 1, head + 51))
    assert len(counted.sizes) < 50 and sum(counted.sizes) == 50, counted.sizes
    entries = dict(logged(settings, "gc"))
    assert len(entries) == head + 50
    for n, version in zip(range(1, 51), versions, strict=True):
        assert b'"score":%d' % (1000 * n + 1) in entries[version]
        assert idem(settings, "gc", f"push-{n}").endswith(f" {version}")
    assert sum(b'"machine":"1","score"' in r for r in entries.values()) == 50
    client = sync_redis(settings)
    try:
        (chain,) = verify_redis(client, settings.key_prefix, ["gc"])
    finally:
        client.close()
    assert chain.ok and chain.records == head + 50
    assert await api.wait_version("gc", head + 50)
    assert (await api.views("gc"))["views"]["machine/1"]["played"] == 50


async def test_a_refused_write_in_a_group_answers_its_error_and_the_others_land(
    served: tuple[Api, Any], settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One group: a score, a player's withdrawal, that player's score (refused: validated on the
    state the withdrawal makes), an unknown player's score (refused), another score. One
    append; the refused ones get their own ScoringError and are not in the log; the others have
    consecutive versions in arrival order."""
    _, services = served
    counted = Counted(services.store, monkeypatch)
    writer: Writer = services.writer
    head = services.replica.tournaments["gc"].version
    records = [score(1), withdrawn(7), score(7), score(999), score(2)]
    answers = await held_together(
        services, "gc", [writer.commit("gc", [r], key=f"r-{i}") for i, r in enumerate(records)]
    )
    assert counted.sizes == [3]
    assert isinstance(answers[2], ScoringError) and isinstance(answers[3], ScoringError)
    assert answers[0] == Committed(head + 1, False)
    assert answers[1] == Committed(head + 2, False)
    assert answers[4] == Committed(head + 3, False)
    assert [seq for seq, _ in logged(settings, "gc")][-3:] == [head + 1, head + 2, head + 3]
    assert services.replica.tournaments["gc"].version == head + 3
    with pytest.raises(ScoringError):  # the refusal stands on a retry; nothing was recorded
        await writer.commit("gc", [records[2]], key="r-2")
    assert len(logged(settings, "gc")) == head + 3


async def test_a_retried_key_of_a_grouped_write_replays_its_own_version(
    served: tuple[Api, Any], settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes committed in one group, then each retried with its key (and fingerprint): each
    answers its own version as replayed and nothing is appended; two copies of one key queued
    together are recorded once, the copy answering as the first did."""
    _, services = served
    writer: Writer = services.writer
    head = services.replica.tournaments["gc"].version
    commits = [writer.commit("gc", [score(n)], key=f"k-{n}", fingerprint=f"f{n}") for n in (1, 2)]
    commits += [
        writer.commit("gc", [score(3)], key="k-3", fingerprint="f3"),
        writer.commit("gc", [score(3)], key="k-3", fingerprint="f3"),  # a copy sent at once
        writer.commit("gc", [score(4)], key="k-4", fingerprint="f4"),
    ]
    first = await held_together(services, "gc", commits)
    assert first[0] == Committed(head + 1, False) and first[1] == Committed(head + 2, False)
    assert first[2] == Committed(head + 3, False) and first[3] == Committed(head + 3, True)
    assert first[4] == Committed(head + 4, False)
    counted = Counted(services.store, monkeypatch)
    for n, version in zip((1, 2, 3, 4), range(head + 1, head + 5), strict=True):
        again = await writer.commit("gc", [score(n)], key=f"k-{n}", fingerprint=f"f{n}")
        assert again == Committed(version, True)
    assert counted.sizes == []  # each answered from its key, before the queue
    assert len(logged(settings, "gc")) == head + 4


async def test_a_group_that_loses_to_another_process_catches_up_and_is_validated_again(
    served: tuple[Api, Any], settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Just before a group's append, another process appends a withdrawal of player 5. The
    group's append at the old version conflicts (nothing of it is written); the writer catches
    up, validates the group again on the new state (player 5's score is now refused) and lands
    the rest after the other's record."""
    _, services = served
    counted = Counted(services.store, monkeypatch)
    writer: Writer = services.writer
    live = services.replica.tournaments["gc"]
    head = live.version
    other = LogStore(connect_store(settings.redis_url or ""), settings.key_prefix)
    counted.before = lambda: other.append("gc", head, [withdrawn(5)], prev_hash=live.head_hash)
    records = [score(4), score(5), score(6)]
    try:
        answers = await held_together(
            services, "gc", [writer.commit("gc", [r], key=f"c-{i}") for i, r in enumerate(records)]
        )
    finally:
        await other.redis.aclose()
    assert counted.sizes == [3, 2]
    assert answers[0] == Committed(head + 2, False) and answers[2] == Committed(head + 3, False)
    assert isinstance(answers[1], ScoringError)
    entries = logged(settings, "gc")
    assert [seq for seq, _ in entries][-3:] == [head + 1, head + 2, head + 3]
    assert b"player_withdrawn" in dict(entries)[head + 1]
    assert live.version == head + 3
    assert idem(settings, "gc", "c-0").endswith(f" {head + 2}")


async def test_the_store_appends_writes_in_one_call_and_answers_used_keys(
    settings: Settings,
) -> None:
    """``LogStore.append_writes`` on one server: consecutive versions, one chain across writes,
    each key with its own version; a used key appends nothing and answers that write (its
    replay, or IdempotencyMismatch for another fingerprint); a stale version conflicts."""
    client = Redis.from_url(settings.redis_url or "")
    store = LogStore(client, settings.key_prefix)
    try:
        created = {"type": "tournament_created", "format": EPC, "by": "td:TD", "at": "t"}
        (first,) = await store.append_writes("s1", 0, [Append([created])], register=True)
        writes = [
            Append([score(1), score(2)], "a", "fa"),
            Append([score(3)]),
            Append([score(4)], "b", "fb"),
        ]
        done = await store.append_writes("s1", 1, writes, prev_hash=first.hashes[0])
        assert [a.seq for a in done] == [3, 4, 5]
        assert [len(a.hashes) for a in done] == [2, 1, 1]
        assert idem(settings, "s1", "a") == "fa 3" and idem(settings, "s1", "b") == "fb 5"
        assert [r.h for r in await store.read("s1")] == [
            *first.hashes,
            *(h for a in done for h in a.hashes),
        ]
        with pytest.raises(KeysUsed) as used:
            await store.append_writes(
                "s1",
                5,
                [
                    Append([score(5)], "c"),
                    Append([score(6)], "a", "fa"),
                    Append([score(7)], "b", "other"),
                ],
                prev_hash=done[-1].hashes[-1],
            )
        assert used.value.answers[1] == Appended(3, replayed=True)
        assert type(used.value.answers[2]).__name__ == "IdempotencyMismatch"
        assert sorted(used.value.answers) == [1, 2]
        assert await store.head("s1") == 5
        with pytest.raises(VersionConflict):
            await store.append_writes(
                "s1", 4, [Append([score(5)], "c")], prev_hash=done[-1].hashes[-1]
            )
        with pytest.raises(ValueError):
            await store.append_writes("s1", 5, [Append([score(5)], "d"), Append([score(6)], "d")])
        assert await store.head("s1") == 5
        client_sync = sync_redis(settings)
        try:
            (chain,) = verify_redis(client_sync, settings.key_prefix, ["s1"])
        finally:
            client_sync.close()
        assert chain.ok and chain.records == 5
    finally:
        await client.aclose()


async def test_a_group_on_a_cluster_keeps_every_key_in_the_tournaments_slot(
    tmp_path: Path,
) -> None:
    """On a Redis Cluster with a replica per shard and ``wait_replicas`` 1: a group's keys are
    in the tournament's hash slot (one script, one shard, one WAIT), and its used keys answer."""
    with cluster(tmp_path / "redis", replicas=1) as nodes:
        client = connect_store(nodes.url)
        store = LogStore(client, "{bg}", wait_replicas=1)
        try:
            created = {"type": "tournament_created", "format": EPC, "by": "td:TD", "at": "t"}
            (first,) = await store.append_writes("cg", 0, [Append([created], "c0")], register=True)
            writes = [
                Append([score(1)], "a", "fa"),
                Append([score(2)]),
                Append([score(3)], "b", "fb"),
            ]
            done = await store.append_writes("cg", 1, writes, prev_hash=first.hashes[0])
            assert [a.seq for a in done] == [2, 3, 4]
            with pytest.raises(KeysUsed) as used:
                await store.append_writes(
                    "cg",
                    4,
                    [Append([score(4)], "d"), Append([score(3)], "b", "fb")],
                    prev_hash=done[-1].hashes[-1],
                )
            assert used.value.answers == {1: Appended(4, replayed=True)}
            assert await store.tournaments() == ["cg"]
            assert [r.seq for r in await store.read("cg")] == [1, 2, 3, 4]
        finally:
            await client.aclose()


async def test_a_write_whose_session_ended_is_refused_in_the_append_and_the_others_land(
    served: tuple[Api, Any], settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One group of three writes, each naming its sign-in session: the second's session ended
    (its key is gone). The script refuses that write alone (401, nothing of it in the log) and
    the other two land in the next attempt, consecutive; a retry of the refused one with its
    key is refused again, not replayed."""
    _, services = served
    counted = Counted(services.store, monkeypatch)
    writer: Writer = services.writer
    client = sync_redis(settings)
    sessions = [f"{settings.key_prefix}:session:test-{n}" for n in range(3)]
    try:
        client.set(sessions[0], b"{}"), client.set(sessions[2], b"{}")
    finally:
        client.close()
    head = services.replica.tournaments["gc"].version
    commits = [
        writer.commit("gc", [score(n + 1)], key=f"s-{n}", session=sessions[n]) for n in range(3)
    ]
    answers = await held_together(services, "gc", commits)
    assert isinstance(answers[1], ApiError) and answers[1].status == 401
    assert answers[0] == Committed(head + 1, False) and answers[2] == Committed(head + 2, False)
    assert counted.sizes == [3, 2]  # refused whole, then the other two in one append
    assert [seq for seq, _ in logged(settings, "gc")][-2:] == [head + 1, head + 2]
    with pytest.raises(ApiError) as again:
        await writer.commit("gc", [score(2)], key="s-1", session=sessions[1])
    assert again.value.status == 401
    assert len(logged(settings, "gc")) == head + 2
