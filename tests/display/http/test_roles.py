"""Who may change what: every write and desk route refuses each caller that must not use it
(nobody signed in, a player, a steward of another tournament, a tampered, revoked or expired
token, and a steward where only the TD may), and nothing changes: not the log, the stewards, the
sessions or a player's PIN. Then the same requests from the right role succeed, so the refusals
were about the role and not a malformed request."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from typing import Any

import pytest
from redis.asyncio import Redis

from display.settings import Settings
from tests.utils import Api

EPC = "epc-qualifying"
T = "/api/t/r1"


@dataclass(frozen=True)
class Op:
    method: str
    path: str
    json: Any = None
    content: bytes | None = None
    if_match: bool = False  # corrections and voids name the entry's version
    steward_may: bool = False


# {seq}: the TD's score in r1 (a steward may not void it: it is not their own).
OPS = [
    Op("POST", f"{T}/scores", {"player": "2", "machine": "1", "score": 1000}, steward_may=True),
    Op("POST", f"{T}/scores/{{seq}}/correct", {"score": 5, "reason": "typo"}, if_match=True),
    Op("POST", f"{T}/scores/{{seq}}/void", {"reason": "wrong machine"}, if_match=True),
    Op("POST", f"{T}/players/3/withdraw", {"reason": "went home"}),
    Op("POST", f"{T}/settings", {"settings": {"scale": "linear"}}),
    Op("POST", f"{T}/players", {"number": "9", "name": "Late Entry"}),
    Op("POST", f"{T}/machines", {"id": "9", "name": "Late Machine"}),
    Op("POST", f"{T}/stewards", {"name": "Kim"}),
    Op("POST", f"{T}/players/1/pin", {}),
    Op("POST", f"{T}/entries", {"number": "8", "name": "Desk Entry"}),
    Op("POST", f"{T}/players/import", content=b"name,number\nCsv Player,7\n"),
    Op("POST", f"{T}/machines/import", content=b"name,id\nCsv Machine,7\n"),
    Op("PUT", f"{T}/profiles/bar", {"views": ["standings"], "seconds": 10}),
    Op("DELETE", f"{T}/profiles/hall"),
    Op("GET", f"{T}/stewards"),
    Op("DELETE", f"{T}/stewards/Sam"),
    Op("GET", f"{T}/sign-in-failures"),
    Op("GET", "/api/sessions"),
    Op("GET", "/api/sign-in-failures"),
    Op("POST", "/api/tournaments", {"id": "r9", "name": "New", "format": EPC}),
    Op("POST", "/api/tournaments/from-template", {"id": "r8", "name": "New", "template": "x"}),
    Op("POST", "/api/t/r7/import", content=b'{"seq": 1, "type": "tournament_created"}\n'),
]


@dataclass
class Hall:
    api: Api
    seq: int  # the TD's score
    tokens: dict[str, str]  # role -> bearer token ("" for nobody)
    player_pin: str


async def sign_in(api: Api, tid: str, name: str) -> str:
    pin = (await api.post(f"/api/t/{tid}/stewards", {"name": name})).json()["pin"]
    body = {"role": "steward", "tournament": tid, "name": name, "pin": pin}
    r = await api.http.post("/api/session", json=body)
    assert r.status_code == 200
    return str(r.json()["token"])


async def expire(settings: Settings, token: str) -> None:
    """End a session the way time does: Redis expires its key (display/http/auth.py)."""
    client = Redis.from_url(str(settings.redis_url))
    key = f"{settings.key_prefix}:session:{hashlib.sha256(token.encode()).hexdigest()}"
    assert await client.pexpire(key, 1)
    while await client.exists(key):
        await asyncio.sleep(0.005)
    await client.aclose()


@pytest.fixture
async def hall(api: Api, settings: Settings) -> Hall:
    await api.tournament("r1", EPC, players=3, machines=2)
    await api.tournament("r2", EPC, players=1, machines=1)
    r = await api.score("r1", 1, 1, 12_345)
    assert r.status_code == 201
    seq = r.json()["version"]
    r = await api.http.put(
        f"{T}/profiles/hall", json={"views": ["standings"]}, headers=api.headers()
    )
    assert r.status_code in (200, 201)
    sam, other, revoked, expired = (
        await sign_in(api, "r1", "Sam"),
        await sign_in(api, "r2", "Other"),
        await sign_in(api, "r1", "Rev"),
        await sign_in(api, "r1", "Exp"),
    )
    await expire(settings, expired)
    assert (await api.http.delete(f"{T}/stewards/Rev", headers=api.headers())).status_code == 200
    pin = (await api.post(f"{T}/players/1/pin", {})).json()["pin"]
    r = await api.http.post(f"{T}/player-session", json={"player": "1", "pin": pin})
    assert r.status_code == 200
    swapped = "A" if sam[5] != "A" else "B"
    tokens = {
        "nobody": "",
        "player": r.json()["token"],
        "other tournament's steward": other,
        "tampered": sam[:5] + swapped + sam[6:],
        "revoked": revoked,
        "expired": expired,
        "steward": sam,
    }
    return Hall(api, seq, tokens, pin)


EXPECTED = {
    "nobody": 401,
    "player": 403,
    "other tournament's steward": 403,
    "tampered": 401,
    "revoked": 401,
    "expired": 401,
    "steward": 403,
}


async def call(hall: Hall, op: Op, token: str) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if op.if_match:
        headers["If-Match"] = f'"{hall.seq}"'
    path = op.path.replace("{seq}", str(hall.seq))
    return await hall.api.http.request(
        op.method, path, json=op.json, content=op.content, headers=headers
    )


async def snapshot(api: Api) -> tuple[Any, ...]:
    """Everything a refused request might have changed."""
    td = api.headers()
    log = (await api.http.get(f"{T}/log")).json()
    tournaments = (await api.http.get("/api/tournaments")).json()
    stewards = (await api.http.get(f"{T}/stewards", headers=td)).json()
    sessions = (await api.http.get("/api/sessions", headers=td)).json()
    for s in sessions["sessions"]:
        s.pop("last_seen", None), s.pop("expires_in", None)
    for s in stewards["stewards"]:
        for session in s["sessions"]:
            session.pop("last_seen", None), session.pop("expires_in", None)
    return log, tournaments, stewards, sessions


async def test_every_role_is_refused_where_it_must_be_and_nothing_changes(hall: Hall) -> None:
    before = await snapshot(hall.api)
    refused = []
    for op in OPS:
        for role, token in hall.tokens.items():
            if role == "steward" and op.steward_may:
                continue
            r = await call(hall, op, token)
            if r.status_code != EXPECTED[role]:
                refused.append(f"{op.method} {op.path} as {role}: {r.status_code} {r.text}")
            else:
                assert set(r.json()) >= {"error", "message"}
    assert refused == []
    assert await snapshot(hall.api) == before
    body = {"player": "1", "pin": hall.player_pin}  # the player's PIN was not reissued
    assert (await hall.api.http.post(f"{T}/player-session", json=body)).status_code == 200
    # The same requests from the right role go through: the refusals were about the role.
    td = hall.api.token
    assert td
    for op in OPS:
        if op.path.startswith("/api/t/r7") or op.path.endswith("from-template"):
            continue  # need a real log or template; their refusals are the point above
        token = hall.tokens["steward"] if op.steward_may else td
        r = await call(hall, op, token)
        assert r.status_code < 300, f"{op.method} {op.path}: {r.status_code} {r.text}"
        if op.path.endswith("/correct"):
            hall.seq = r.json()["version"]  # the void names the corrected entry's version
