"""Keyed pushes from several stewards at once, for the failover tests (Sentinel and Cluster): every
entry retried with its own Idempotency-Key until acknowledged, and the checks that each acknowledged
score is in a log exactly once."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import redis

from display.log.keys import tournament_key
from tests.utils import Api

EPC = "epc-qualifying"
PLAYERS, MACHINES = 12, 4
STEWARDS = 6


async def push(api: Api, n: int, pushes: list[dict[str, Any]], deadline: float) -> None:
    """Push entry ``n`` (a player on a machine) with its own Idempotency-Key until it is
    acknowledged, retrying with the same key on a 503 or a dropped connection; notes each try."""
    player, machine = n % PLAYERS + 1, n // PLAYERS + 1
    note: dict[str, Any] = {"key": f"entry-{n}", "player": str(player), "machine": str(machine)}
    note |= {"score": 1000 * n + 7, "refused": 0}
    pushes.append(note)
    while time.monotonic() < deadline:
        try:
            r = await api.score("fo", player, machine, note["score"], key=note["key"])
        except httpx.HTTPError:
            r = None
        if r is not None and r.status_code == 201:
            note["version"] = r.json()["version"]
            return
        assert r is None or r.status_code == 503, r.text
        note["refused"] += 1
        await asyncio.sleep(0.05)
    raise AssertionError(f"{note['key']} never acknowledged")


@dataclass
class KeyedLoad:
    """``STEWARDS`` stewards pushing every entry of tournament ``fo`` (``PLAYERS`` × ``MACHINES``)
    through ``api`` until ``seconds`` have passed; ``pushes`` notes each entry's tries."""

    api: Api
    seconds: float
    pushes: list[dict[str, Any]] = field(default_factory=list)
    stewards: list[asyncio.Task[None]] = field(default_factory=list)

    def start(self) -> None:
        """Start the stewards."""
        deadline = time.monotonic() + self.seconds
        entries = iter(range(PLAYERS * MACHINES))

        async def steward() -> None:
            for n in entries:
                await push(self.api, n, self.pushes, deadline)

        self.stewards = [asyncio.create_task(steward()) for _ in range(STEWARDS)]

    async def acknowledged(self, count: int) -> None:
        """Wait until ``count`` pushes are acknowledged (or a steward stopped)."""
        while sum("version" in p for p in self.pushes) < count and not any(
            t.done() for t in self.stewards
        ):
            await asyncio.sleep(0.01)

    async def finished(self) -> None:
        """Wait for every steward; raises what a steward raised."""
        await asyncio.gather(*self.stewards)

    def last_version(self) -> int:
        """The highest version acknowledged."""
        return max(p["version"] for p in self.pushes)

    def check_held(self, held: list[dict[str, Any]]) -> None:
        """Writes did answer 503 during the failover, and every push is in ``held`` (the score
        records of a log) exactly once with its score: retries added none."""
        assert sum(p["refused"] for p in self.pushes) > 0
        assert len(held) == len(self.pushes) == PLAYERS * MACHINES
        recorded = {(r["player"], r["machine"]): r["score"] for r in held}
        for p in self.pushes:
            assert recorded[(p["player"], p["machine"])] == p["score"], p


def score_records(client: redis.Redis, prefix: str) -> list[dict[str, Any]]:
    """The score records in tournament ``fo``'s log as this Redis holds it (``prefix``: the
    store's, ``{P}`` on a cluster)."""
    entries = client.xrange(tournament_key(prefix, "fo", "log"))
    records = [orjson.loads(fields[b"r"]) for _, fields in entries]
    return [r for r in records if r["type"] == "score_recorded"]
