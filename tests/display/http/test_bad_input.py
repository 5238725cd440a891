"""Bad input never breaks the server: huge, negative, fractional and mistyped scores, unknown ids,
bad UTF-8, JSON nested 100,000 deep, truncated JSON, an array for an object, a 10 MB string. Each
answer is a 4xx in the usual ``{"error", "message"}`` shape, and the log does not move."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.utils import Api

EPC = "epc-qualifying"
T = "/api/t/b1"

SCORES: list[Any] = [2**53, 10**30, -1, 1.5, "1e3", "1000", True, None, [], {}, float("inf")]
RAW_BODIES = {
    "bad UTF-8": b'{"player": "1", "machine": "1", "score": "\xff"}',
    "bad UTF-8 in a key": b'{"pl\xc3\x28yer": "1", "machine": "1", "score": 5}',
    "nested 100,000 deep": b'{"score": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "truncated": b'{"player": "1", "machine": "1", "score": 12',
    "an array, not an object": b'[{"player": "1", "machine": "1", "score": 5}]',
    "a bare number": b"5",
    "empty": b"",
    "NaN": b'{"player": "1", "machine": "1", "score": NaN}',
    "a 10 MB string": b'{"player": "' + b"9" * 10_000_000 + b'", "machine": "1", "score": 5}',
}
# Writes that take a JSON body, to send the raw bodies to ({seq}: a recorded score).
WRITES = [
    f"{T}/scores",
    f"{T}/scores/{{seq}}/correct",
    f"{T}/scores/{{seq}}/void",
    f"{T}/players",
    f"{T}/settings",
    f"{T}/queues/1/join",
    "/api/session",
    "/api/tournaments",
]


@pytest.fixture
async def b1(api: Api) -> int:
    """Tournament b1 (3 players, 2 machines) with one score; answers the score's seq."""
    await api.tournament("b1", EPC, players=3, machines=2)
    r = await api.score("b1", 1, 1, 1000)
    assert r.status_code == 201
    return int(r.json()["version"])


async def version(api: Api) -> tuple[int, int]:
    records = (await api.http.get(f"{T}/log")).json()["records"]
    tournaments = (await api.http.get("/api/tournaments")).json()["tournaments"]
    return len(records), len(tournaments)


def refused(r: httpx.Response, *allowed: int) -> None:
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    if allowed:
        assert r.status_code in allowed, (r.status_code, r.text[:300])
    body = r.json()
    assert isinstance(body["error"], str) and isinstance(body["message"], str)


async def test_scores_that_are_not_whole_numbers_in_range_are_refused(api: Api, b1: int) -> None:
    before = await version(api)
    json_headers = api.headers() | {"Content-Type": "application/json"}
    for score in SCORES:
        text = b"1e999" if score == float("inf") else json.dumps(score).encode()
        r = await api.http.post(
            f"{T}/scores",
            content=b'{"player": "2", "machine": "1", "score": ' + text + b"}",
            headers=json_headers,
        )
        refused(r, 400, 422)
        r = await api.http.post(
            f"{T}/scores/{b1}/correct",
            content=b'{"reason": "typo", "score": ' + text + b"}",
            headers=json_headers | {"If-Match": f'"{b1}"'},
        )
        refused(r, 400, 422)
    assert (await api.score("b1", 2, 1, 2**53 - 1)).status_code == 201  # the largest is taken
    assert await version(api) == (before[0] + 1, before[1])


async def test_unknown_ids_are_404_and_write_nothing(api: Api, b1: int) -> None:
    before = await version(api)
    td = api.headers()
    calls = [
        ("POST", f"{T}/scores", {"player": "99", "machine": "1", "score": 5}),
        ("POST", f"{T}/scores", {"player": "1", "machine": "99", "score": 5}),
        ("POST", "/api/t/nope/scores", {"player": "1", "machine": "1", "score": 5}),
        ("POST", f"{T}/scores/99999/correct", {"score": 5, "reason": "typo"}),
        ("POST", f"{T}/scores/{10**30}/void", {"reason": "typo"}),
        ("POST", f"{T}/scores/abc/void", {"reason": "typo"}),
        ("POST", f"{T}/players/99/withdraw", {"reason": "gone"}),
        ("POST", f"{T}/players/99/pin", {}),
        ("POST", f"{T}/queues/99/join", {"player": "1"}),
        ("POST", f"{T}/queues/1/join", {"player": "99"}),
        ("POST", f"{T}/machines/99/status", {"status": "out_of_order"}),
        ("GET", f"{T}/views/no-such-view", None),
        ("GET", "/api/t/nope/log", None),
    ]
    for method, path, body in calls:
        headers = td | ({"If-Match": '"1"'} if path.endswith(("correct", "void")) else {})
        r = await api.http.request(method, path, json=body, headers=headers)
        refused(r, 404, 409, 422)
    for after in ("abc", "-1", "1e3", str(10**30), ""):
        r = await api.http.get(f"{T}/log", params={"after": after})
        assert r.status_code < 500, (after, r.status_code, r.text[:200])
    assert await version(api) == before


async def test_malformed_bodies_are_refused_on_every_write(api: Api, b1: int) -> None:
    before = await version(api)
    headers = api.headers() | {"Content-Type": "application/json", "If-Match": f'"{b1}"'}
    for what, raw in RAW_BODIES.items():
        for path in WRITES:
            r = await api.http.post(path.replace("{seq}", str(b1)), content=raw, headers=headers)
            assert r.status_code != 201, (what, path)
            refused(r, 400, 404, 413, 422)
    assert await version(api) == before


async def test_json_under_another_content_type_is_415_and_writes_nothing(api: Api, b1: int) -> None:
    before = await version(api)
    raw = json.dumps({"player": "2", "machine": "1", "score": 5}).encode()
    for media in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        headers = api.headers() | {"Content-Type": media}
        r = await api.http.post(f"{T}/scores", content=raw, headers=headers)
        refused(r, 415)
        assert r.json()["error"] == "not_json" and media in r.json()["message"]
    ok = api.headers(key="b1-json") | {"Content-Type": "application/json; charset=utf-8"}
    assert (await api.http.post(f"{T}/scores", content=raw, headers=ok)).status_code == 201
    assert (await version(api))[0] == before[0] + 1


async def test_a_key_named_twice_is_refused_not_taken_last_wins(api: Api, b1: int) -> None:
    before = await version(api)
    headers = api.headers() | {"Content-Type": "application/json"}
    for raw in (
        b'{"player": "2", "machine": "1", "score": 5, "score": 9000000}',
        b'{"player": "2", "machine": "1", "score": 5, "extra": {"a": 1, "a": 2}}',
    ):
        r = await api.http.post(f"{T}/scores", content=raw, headers=headers)
        refused(r, 400)
        assert "twice" in r.json()["message"]
    assert await version(api) == before


async def test_a_null_time_zone_is_the_servers_not_a_500(api: Api) -> None:
    """Found by the long fuzz run: the zone's length limit was applied to null too (a 500)."""
    body = {"id": "tz0", "name": "Zones", "format": EPC, "settings": {}, "time_zone": None}
    r = await api.post("/api/tournaments", body)
    assert r.status_code == 201, r.text
    r = await api.post("/api/tournaments", {**body, "id": "tz1", "time_zone": "x" * 70})
    refused(r, 422)
