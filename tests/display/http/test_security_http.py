"""display/security.py over real HTTP: Host names (DNS rebinding), CSRF on every state-changing
request, body limits (Content-Length and chunked) and the security headers on every response.
Each test sends what a browser or an attacker would send and checks that nothing was written."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
from collections.abc import AsyncIterator

import httpx
import orjson
import pytest

from display.security import Policy, parse_host
from display.settings import Settings
from tests.utils import TD_PASSWORD, Api, serve_in_loop

EPC = "epc-qualifying"
FOREIGN = "http://evil.example"


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


async def count_scores(api: Api, tid: str) -> int:
    r = await api.http.get(f"/api/t/{tid}/log")
    return sum(rec["type"] == "score_recorded" for rec in r.json()["records"])


# --- Host -----------------------------------------------------------------------------------


async def test_a_foreign_host_name_is_refused_for_pages_and_api(api: Api, server: str) -> None:
    """DNS rebinding: evil.example resolving to this server must get nothing, read or write."""
    await api.tournament("h1", EPC, players=2, machines=1)
    for method, path in (("GET", "/"), ("GET", "/api/t/h1/views"), ("GET", "/t/h1/display")):
        r = await api.http.request(method, path, headers={"Host": "evil.example"})
        assert r.status_code == 400, (path, r.text)
        assert r.json()["error"] == "unknown_host"
        assert "BACKGLASS_ALLOWED_HOSTS" in r.json()["message"]
    body = {"player": "1", "machine": "1", "score": 1000}
    r = await api.http.post(
        "/api/t/h1/scores", json=body, headers={**api.headers(), "Host": "evil.example:80"}
    )
    assert r.status_code == 400
    assert await count_scores(api, "h1") == 0


async def test_lan_names_and_any_ip_address_work_with_no_configuration(server: str) -> None:
    port = port_of(server)
    name = socket.gethostname()
    hosts = [
        f"localhost:{port}",
        f"127.0.0.1:{port}",
        f"[::1]:{port}",
        "192.168.1.10:8000",  # the LAN address the hall displays use
        "10.0.0.5",
        f"{name}:{port}",
        f"{name.split('.')[0]}.local:{port}",
        "LOCALHOST.",
    ]
    async with httpx.AsyncClient(base_url=server) as http:
        for host in hosts:
            r = await http.get("/api/tournaments", headers={"Host": host})
            assert r.status_code == 200, (host, r.text)
        for host in ("", "evil.example", "127.0.0.1.evil.example", "a b", "[not-ip]:80"):
            r = await http.get("/api/tournaments", headers={"Host": host})
            assert r.status_code == 400, host


async def test_allowed_hosts_and_origins_add_to_the_defaults(settings: Settings) -> None:
    named = dataclasses.replace(
        settings,
        allowed_hosts=("scores.club.org", "*.pinball.test"),
        allowed_origins=("https://club.example",),
    )
    signin = {"role": "td", "password": TD_PASSWORD}
    async with serve_in_loop(named) as base, httpx.AsyncClient(base_url=base) as http:
        for host, status in (
            ("scores.club.org", 200),
            ("hall.pinball.test", 200),
            ("pinball.test.evil.example", 400),
            ("evil.example", 400),
        ):
            assert (await http.get("/", headers={"Host": host})).status_code == status, host
        ok = await http.post(
            "/api/session", json=signin, headers={"Origin": "https://club.example"}
        )
        assert ok.status_code == 200, ok.text
        no = await http.post("/api/session", json=signin, headers={"Origin": FOREIGN})
        assert no.status_code == 403


def test_a_star_allows_any_host_or_origin() -> None:
    """For a proxy that checks names itself; off by default (the tests above)."""
    policy = Policy(["*"], ["*"])
    assert policy.host_allowed("evil.example")
    assert policy.origin_allowed(FOREIGN, parse_host("scores.club.org"))
    assert not Policy().host_allowed("evil.example")


# --- CSRF -----------------------------------------------------------------------------------


async def test_a_cross_site_score_push_is_refused_and_nothing_is_written(
    api: Api, server: str
) -> None:
    await api.tournament("c1", EPC, players=3, machines=1)
    body = {"player": "1", "machine": "1", "score": 1000}
    attacks = [
        {"Origin": FOREIGN},
        {"Origin": "null"},  # a sandboxed frame or a file: page
        {"Origin": server.replace("127.0.0.1", "localhost")},  # another origin, same machine
        {"Origin": f"http://127.0.0.1:{port_of(server) + 1}"},  # another port
        {"Sec-Fetch-Site": "cross-site"},
    ]
    for extra in attacks:
        r = await api.http.post("/api/t/c1/scores", json=body, headers={**api.headers(), **extra})
        assert r.status_code == 403, (extra, r.text)
        assert r.json()["error"] == "cross_site"
    assert await count_scores(api, "c1") == 0
    fine = [
        {},  # not a browser: the token alone decides
        {"Origin": server, "Sec-Fetch-Site": "same-origin"},
        # behind a TLS proxy the browser says https://host while the server sees plain http
        {"Host": "192.168.1.10", "Origin": "https://192.168.1.10"},
    ]
    for player, extra in enumerate(fine, start=1):
        body = {**body, "player": str(player)}
        r = await api.http.post("/api/t/c1/scores", json=body, headers={**api.headers(), **extra})
        assert r.status_code == 201, (extra, r.text)
    assert await count_scores(api, "c1") == 3


async def test_login_csrf_and_cross_site_put_and_delete_are_refused(api: Api) -> None:
    await api.tournament("c3", EPC, players=1, machines=1)
    signin = {"role": "td", "password": TD_PASSWORD}
    r = await api.http.post("/api/session", json=signin, headers={"Origin": FOREIGN})
    assert r.status_code == 403 and r.json()["error"] == "cross_site"
    profile = {"views": ["standings"], "seconds": 10}
    r = await api.http.put(
        "/api/t/c3/profiles/lobby", json=profile, headers={**api.headers(), "Origin": FOREIGN}
    )
    assert r.status_code == 403
    assert "profiles" not in (await api.views("c3"))["views"]
    r = await api.http.delete("/api/session", headers={**api.headers(), "Origin": FOREIGN})
    assert r.status_code == 403
    r = await api.post("/api/t/c3/stewards", {"name": "Sam"})  # the session still works
    assert r.status_code == 201, r.text


# --- Body size ------------------------------------------------------------------------------


async def test_an_oversized_body_is_refused_before_the_handler_runs(api: Api) -> None:
    """By its Content-Length, and without one (chunked) as it streams in; valid JSON both times,
    so without the limit the players would be added."""
    await api.tournament("b1", EPC)
    players = [{"number": str(n), "name": "N" * 80} for n in range(1, 3000)]  # ~330 KB
    r = await api.post("/api/t/b1/players", {"players": players})
    assert r.status_code == 413, r.text
    assert r.json()["error"] == "too_large" and "256 KiB" in r.json()["message"]
    raw = orjson.dumps({"players": players})

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(raw), 16384):
            yield raw[start : start + 16384]

    r = await api.http.post("/api/t/b1/players", content=chunks(), headers=api.headers())
    assert r.status_code == 413, r.text
    assert (await api.views("b1"))["views"].get("players", {}) == {}
    r = await api.post("/api/t/b1/players", {"players": players[:100]})  # the client goes on
    assert r.status_code in (200, 201), r.text


async def test_upload_endpoints_take_larger_files_up_to_their_own_limit(
    api: Api, settings: Settings
) -> None:
    big = b"x" * 400_000  # over the API's 256 KiB, under the uploads' 20 MiB
    r = await api.http.post("/api/t/u1/import", content=big, headers=api.headers())
    assert r.status_code == 422 and r.json()["error"] == "invalid_log", (
        r.text
    )  # the handler read it
    small = dataclasses.replace(settings, max_body=1000, max_upload=100_000)
    async with serve_in_loop(small) as base:
        other = Api(base)
        try:
            await other.sign_in_td()
            r = await other.http.post("/api/t/u1/import", content=big, headers=other.headers())
            assert r.status_code == 413 and "97 KiB" in r.json()["message"]
            r = await other.http.post("/api/t/u1/players/import", content=b"x" * 5000)
            assert r.status_code != 413  # a CSV upload: the upload limit applies
            r = await other.post("/api/tournaments", {"id": "u1", "name": "n" * 2000})
            assert r.status_code == 413
        finally:
            await other.close()


# --- Headers --------------------------------------------------------------------------------


async def test_every_response_carries_the_security_headers_and_no_cookie(api: Api) -> None:
    """No cookie either: sessions are bearer tokens (docs/security.md), and a cookie would ride
    cross-site requests."""
    await api.tournament("s1", EPC, players=1, machines=1)
    paths = ["/", "/t/s1/display", "/t/nope/display", "/api/t/s1/views", "/api/nope", "/desk"]
    paths += ["/static/base.css", "/t/s1/qr.svg", "/openapi.json", "/t/s1/desk"]
    paths += ["/api/t/s1/export/results.csv"]
    for path in paths:
        r = await api.http.get(path)
        csp = r.headers.get("content-security-policy", "")
        assert "default-src 'self'" in csp and "script-src 'self'" in csp, path
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert "frame-ancestors 'none'" in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "same-origin"
        assert "set-cookie" not in r.headers, path
    r = await api.http.post("/api/session", json={"role": "td", "password": TD_PASSWORD})
    assert "set-cookie" not in r.headers
    r = await api.http.get("/", headers={"Host": "evil.example"})  # refusals carry them too
    assert r.headers["x-content-type-options"] == "nosniff"


# --- The rules themselves -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://192.168.1.10:8000", "192.168.1.10:8000", True),
        ("https://scores.club.org", "scores.club.org", True),
        ("http://scores.club.org:80", "scores.club.org", True),
        ("https://scores.club.org", "scores.club.org:443", True),
        ("http://scores.club.org", "scores.club.org:8000", False),
        ("http://evil.example", "scores.club.org", False),
        ("http://scores.club.org.evil.example", "scores.club.org", False),
        ("http://evil.example@scores.club.org", "scores.club.org", False),
        ("ftp://scores.club.org", "scores.club.org", False),
        ("null", "scores.club.org", False),
        ("http://[::1]:8000", "[::1]:8000", True),
    ],
)
def test_same_origin_rules(origin: str, host: str, same: bool) -> None:
    assert Policy().origin_allowed(origin, parse_host(host)) is same


@pytest.mark.parametrize(
    "headers",
    [
        b"Host: 127.0.0.1\r\nHost: evil.example\r\n",
        b"Host: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\nOrigin: http://evil.example\r\n",
    ],
    ids=["two-hosts", "two-origins"],
)
async def test_two_host_or_origin_headers_are_refused(
    api: Api, server: str, headers: bytes
) -> None:
    """The check must read the same header as everything after it: two of one are refused, and
    nothing is written (raw socket: a client library might merge or drop one)."""
    await api.tournament("dup1", EPC, players=2, machines=1)
    body = b'{"player": "1", "machine": "1", "score": 100}'
    request = (
        b"POST /api/t/dup1/scores HTTP/1.1\r\n" + headers
        + b"Authorization: Bearer " + str(api.token).encode() + b"\r\n"
        b"Content-Type: application/json\r\nConnection: close\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )  # fmt: skip
    reader, writer = await asyncio.open_connection("127.0.0.1", port_of(server))
    writer.write(request)
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert b"duplicate_header" in answer
    assert await count_scores(api, "dup1") == 0
