"""The demo's HTTP client sends an Idempotency-Key with every write (its own when the caller
names none), so its retries after a lost answer or an unknown outcome record once; against a
real server, the headers read as they went out."""

from __future__ import annotations

import httpx

from display.cli.demo.common import Client, Target
from tests.utils import TD_PASSWORD


async def test_every_write_of_the_demo_client_carries_a_key(server: str) -> None:
    sent: list[tuple[str, str | None]] = []

    async def record(request: httpx.Request) -> None:
        sent.append((request.method, request.headers.get("idempotency-key")))

    async with Client(Target(server, TD_PASSWORD), echo=lambda _: None) as client:
        client.http.event_hooks["request"].append(record)
        await client.sign_in_td()
        body = {"id": "dk1", "name": "Keys", "format": "epc-qualifying", "settings": {}}
        await client.must("POST", "/api/tournaments", body)
        await client.must("GET", "/api/t/dk1/views")
        named = await client.call("POST", "/api/t/dk1/machines", {"machines": []}, key="mine")
        assert named.status_code < 500
    writes = [key for method, key in sent if method != "GET"]
    assert len(writes) >= 3 and all(writes), sent
    assert writes[-1] == "mine" and len(set(writes)) == len(writes)
    assert [key for method, key in sent if method == "GET"] == [None]
