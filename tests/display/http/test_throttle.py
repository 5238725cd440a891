"""The sign-in throttle (display/http/throttle.py, docs/sign-in.md) against a real server and Redis.

Sources are real client addresses: the server listens on 127.0.0.1 and each "phone" binds its
own loopback address (127.0.0.2, .3, …), so ``request.client.host`` differs as it would in a hall.
Delays are made small (or long, where a test must not wait) through Settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import httpx

from display.settings import Settings
from tests.utils import Api, serve_in_loop

EPC = "epc-qualifying"


def phone(base: str, address: str) -> httpx.AsyncClient:
    """A client whose connections come from ``address`` (a loopback address of its own)."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=10)


@contextlib.asynccontextmanager
async def hall(settings: Settings, **throttle: Any) -> AsyncIterator[tuple[str, Api]]:
    """A server with the given throttle settings, a TD client (from 127.0.0.1) and tournament
    "th" with 2 players and 1 machine."""
    async with serve_in_loop(dataclasses.replace(settings, **throttle)) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("th", EPC, players=2, machines=1)
        try:
            yield base, api
        finally:
            await api.close()


async def steward_pin(api: Api, name: str = "Sam") -> str:
    r = await api.post("/api/t/th/stewards", {"name": name})
    assert r.status_code == 201
    return str(r.json()["pin"])


async def steward_sign_in(client: httpx.AsyncClient, pin: str, name: str = "Sam") -> httpx.Response:
    body = {"role": "steward", "tournament": "th", "name": name, "pin": pin}
    return await client.post("/api/session", json=body)


def wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10**6:06d}"


async def failures(api: Api, path: str = "/api/t/th/sign-in-failures") -> list[dict[str, Any]]:
    r = await api.http.get(path, headers=api.headers())
    assert r.status_code == 200
    return list(r.json()["failures"])


async def test_guesses_from_one_phone_wait_longer_each_time_and_the_steward_still_gets_in(
    settings: Settings,
) -> None:
    # 2 free wrong PINs, then 0.3 s, 0.6 s, 1.2 s … (source cap 5 s, account cap 0.6 s)
    limits = {
        "throttle_free": 2,
        "throttle_base_seconds": 0.3,
        "throttle_source_cap_seconds": 5.0,
        "throttle_account_cap_seconds": 0.6,
    }
    async with hall(settings, **limits) as (base, api):
        pin = await steward_pin(api)
        before = (await api.http.get("/api/t/th/log")).json()["records"]
        attacker, steward = phone(base, "127.0.0.3"), phone(base, "127.0.0.2")
        for _ in range(3):
            assert (await steward_sign_in(attacker, wrong(pin))).status_code == 401
        delays = []
        for _ in range(2):
            held = await steward_sign_in(attacker, wrong(pin))  # at once: refused unchecked
            assert held.status_code == 429
            body = held.json()
            assert body["error"] == "too_many_attempts" and body["held"] == "source"
            assert "Too many wrong PINs from this phone; try again in" in body["message"]
            assert int(held.headers["Retry-After"]) >= 1
            assert 0 < body["retry_after"] <= body["delay"]
            delays.append(body["delay"])
            await asyncio.sleep(body["retry_after"] + 0.02)
            assert (await steward_sign_in(attacker, wrong(pin))).status_code == 401
        refused = await steward_sign_in(attacker, pin)  # the right PIN inside the delay
        assert refused.status_code == 429 and refused.json()["delay"] == 1.2
        assert delays == [0.3, 0.6]
        # The real steward on their own phone waits at most the account's short cap.
        answer = await steward_sign_in(steward, pin)
        if answer.status_code == 429:
            assert answer.json()["held"] == "account"
            assert answer.json()["retry_after"] <= 0.6
            await asyncio.sleep(answer.json()["retry_after"] + 0.02)
            answer = await steward_sign_in(steward, pin)
        assert answer.status_code == 200 and answer.json()["token"]
        listed = await failures(api)
        assert len(listed) == 5  # every wrong PIN, none of the refused attempts
        assert {(f["source"], f["account"], f["kind"]) for f in listed} == {
            ("127.0.0.3", "steward Sam", "steward PIN")
        }
        assert all(f["at"] and f["tournament"] == "th" for f in listed)
        assert (await api.http.get("/api/t/th/log")).json()["records"] == before
        for client in (attacker, steward):
            await client.aclose()


async def test_a_phone_that_signed_in_before_is_not_held_by_guesses_elsewhere(
    settings: Settings,
) -> None:
    limits = {"throttle_free": 2, "throttle_base_seconds": 30.0}  # long: nothing here waits
    async with hall(settings, **limits) as (base, api):
        pin = await steward_pin(api)
        steward, attacker, new_phone = (
            phone(base, "127.0.0.2"),
            phone(base, "127.0.0.3"),
            phone(base, "127.0.0.4"),
        )
        assert (await steward_sign_in(steward, pin)).status_code == 200
        for _ in range(3):
            assert (await steward_sign_in(attacker, wrong(pin))).status_code == 401
        held = await steward_sign_in(new_phone, pin)  # the account is held now for new phones
        assert held.status_code == 429 and held.json()["held"] == "account"
        assert "Too many wrong PINs for steward Sam just now" in held.json()["message"]
        assert (await steward_sign_in(steward, pin)).status_code == 200  # but not for theirs
        # A success clears the phone's own count: two typos later it is still not held.
        for _ in range(2):
            assert (await steward_sign_in(steward, wrong(pin))).status_code == 401
        assert (await steward_sign_in(steward, pin)).status_code == 200
        for client in (steward, attacker, new_phone):
            await client.aclose()


async def test_guesses_sent_together_are_charged_one_by_one(settings: Settings) -> None:
    limits = {"throttle_free": 2, "throttle_base_seconds": 30.0, "trust_proxy": True}
    async with hall(settings, **limits) as (base, api):
        pin = await steward_pin(api)
        attacker = phone(base, "127.0.0.3")
        answers = await asyncio.gather(*(steward_sign_in(attacker, wrong(pin)) for _ in range(12)))
        codes = sorted(r.status_code for r in answers)
        assert codes.count(401) == 3 and codes.count(429) == 9  # 2 free + the one that set it
        assert len(await failures(api)) == 3
        # Behind a trusted proxy the source is the address the proxy added, not the client's.
        body = {"role": "td", "password": "guess"}
        forwarded = {"X-Forwarded-For": "6.6.6.6, 10.9.8.7"}
        assert (
            await attacker.post("/api/session", json=body, headers=forwarded)
        ).status_code == 401
        listed = await failures(api, "/api/sign-in-failures")
        assert [f["source"] for f in listed] == ["10.9.8.7"]
        await attacker.aclose()


async def test_td_passwords_and_player_pins_are_throttled_and_listed(settings: Settings) -> None:
    async with hall(settings, throttle_free=1, throttle_base_seconds=30.0) as (base, api):
        guesser = phone(base, "127.0.0.3")
        for status in (401, 401, 429):
            body = {"role": "td", "password": "guess"}
            forged = {"X-Forwarded-For": f"10.0.0.{status}"}  # no proxy here: not believed
            r = await guesser.post("/api/session", json=body, headers=forged)
            assert r.status_code == status
        assert "Too many wrong passwords from this device" in r.json()["message"]
        td = await failures(api, "/api/sign-in-failures")
        assert [(f["account"], f["kind"], f["source"]) for f in td] == [
            ("TD", "TD password", "127.0.0.3")
        ] * 2
        r = await api.post("/api/t/th/players/1/pin", {})
        assert r.status_code == 201
        player_pin = r.json()["pin"]
        player_phone = phone(base, "127.0.0.4")
        for status in (401, 401, 429):
            body = {"player": "1", "pin": wrong(player_pin)}
            r = await player_phone.post("/api/t/th/player-session", json=body)
            assert r.status_code == status
        r = await player_phone.post("/api/t/th/player-session", json=body | {"pin": player_pin})
        assert r.status_code == 429  # the right PIN too, while held
        other = phone(base, "127.0.0.5")
        r = await other.post("/api/t/th/player-session", json=body | {"pin": player_pin})
        assert r.status_code == 429 and r.json()["held"] == "account"
        listed = await failures(api)
        assert [(f["account"], f["kind"]) for f in listed] == [("player 1", "player PIN")] * 2
        for client in (guesser, player_phone, other):
            await client.aclose()


async def test_forwarded_headers_are_ignored_unless_the_proxy_is_trusted(
    settings: Settings,
) -> None:
    """With BACKGLASS_TRUST_PROXY off (the default), X-Forwarded-For from loopback changes
    nothing (uvicorn would otherwise believe it from 127.0.0.1): a client cannot skip the
    per-address limit by naming a new address each try."""
    limits = {"throttle_free": 1, "throttle_base_seconds": 30.0}
    async with hall(settings, **limits) as (base, api):
        client = phone(base, "127.0.0.1")
        body = {"role": "td", "password": "guess"}
        codes = []
        for n in range(3):
            forged = {"X-Forwarded-For": f"10.0.0.{n}"}
            codes.append((await client.post("/api/session", json=body, headers=forged)).status_code)
        assert codes == [401, 401, 429]  # one source, held after its free try
        listed = await failures(api, "/api/sign-in-failures")
        assert {f["source"] for f in listed} == {"127.0.0.1"}
        await client.aclose()


async def test_a_forwarded_address_is_validated_and_bounded_before_it_is_stored(
    settings: Settings,
) -> None:
    """Behind a trusted proxy a last entry that is not an IP address (5,000 characters, or a
    name) is not stored as the source: the proxy's own address is."""
    async with hall(settings, trust_proxy=True, throttle_free=10) as (base, api):
        client = phone(base, "127.0.0.4")
        body = {"role": "td", "password": "guess"}
        for forged in ("1" * 5028, "evil.example", "<script>", "2001:DB8::0:1"):
            r = await client.post("/api/session", json=body, headers={"X-Forwarded-For": forged})
            assert r.status_code == 401
        listed = await failures(api, "/api/sign-in-failures")
        assert sorted(f["source"] for f in listed) == ["127.0.0.4"] * 3 + ["2001:db8::1"]
        await client.aclose()
