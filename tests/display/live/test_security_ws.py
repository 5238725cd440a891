"""Websocket handshakes against display/security.py with the real ``websockets`` client: a foreign
``Origin`` or ``Host`` is refused before the socket is accepted (HTTP 403), so a page on another
site cannot follow a tournament through a visitor's browser (Starlette's CORS middleware does not
look at websockets). Scripts and kiosks that send no ``Origin`` connect as before."""

from __future__ import annotations

import dataclasses
import socket
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import websockets
from websockets.exceptions import InvalidStatus

from display.settings import Settings
from tests.utils import Api, receive, serve_in_loop, ws_url

EPC = "epc-qualifying"


def dial(url: str, headers: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """(URI, connect options) for a handshake to ``url``'s server sending ``headers``. A ``Host``
    among them goes in the URI, over a socket to the real server: the client sends one Host (a
    second one is refused as such, RFC 9110 5.3, which is not what these tests are about)."""
    rest = dict(headers)
    host = rest.pop("Host", None)
    if host is None:
        return url, {"additional_headers": rest}
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port))
    return urlunsplit(parts._replace(netloc=host)), {"additional_headers": rest, "sock": sock}


async def refused(url: str, headers: dict[str, str]) -> int:
    """The HTTP status of a refused handshake; fails the test if the socket opens."""
    uri, options = dial(url, headers)
    with pytest.raises(InvalidStatus) as caught:
        async with websockets.connect(uri, **options):
            pass
    return caught.value.response.status_code


async def snapshot(url: str, headers: dict[str, str]) -> dict[str, object]:
    uri, options = dial(url, headers)
    async with websockets.connect(uri, **options) as ws:
        return await receive(ws)


async def test_foreign_origins_are_refused_before_accept_and_own_ones_not(
    api: Api, server: str
) -> None:
    await api.tournament("w1", EPC, players=2, machines=1)
    url = ws_url(server, "w1")
    port = int(server.rsplit(":", 1)[1])
    for origin in (
        "http://evil.example",
        "https://evil.example",
        "null",
        f"http://localhost:{port}",  # another origin on this machine
        f"http://127.0.0.1:{port + 1}",  # another port
        "http://127.0.0.1.evil.example",
    ):
        assert await refused(url, {"Origin": origin}) == 403, origin
    for headers in ({}, {"Origin": server}, {"Origin": server.replace("http:", "https:")}):
        message = await snapshot(url, headers)
        assert message["type"] == "snapshot", headers


async def test_a_foreign_host_is_refused_and_an_ip_address_is_not(api: Api, server: str) -> None:
    """DNS rebinding over a websocket: Host evil.example, even with a matching Origin."""
    await api.tournament("w3", EPC, players=1, machines=1)
    url = ws_url(server, "w3")
    bad = {"Host": "evil.example", "Origin": "http://evil.example"}
    assert await refused(url, bad) == 403
    assert await refused(url, {"Host": "evil.example"}) == 403
    lan = {"Host": "192.168.1.10:8000", "Origin": "http://192.168.1.10:8000"}
    assert (await snapshot(url, lan))["type"] == "snapshot"
    with pytest.raises(InvalidStatus) as twice:  # the client's own Host and this one: two
        async with websockets.connect(url, additional_headers={"Host": "192.168.1.10:8000"}):
            pass
    assert twice.value.response.status_code == 403


async def test_allowed_origins_and_hosts_are_honoured(api: Api, settings: Settings) -> None:
    await api.tournament("w4", EPC, players=1, machines=1)
    named = dataclasses.replace(
        settings, allowed_origins=("https://club.example",), allowed_hosts=("scores.club.org",)
    )
    async with serve_in_loop(named) as base:
        url = ws_url(base, "w4")
        assert (await snapshot(url, {"Origin": "https://club.example"}))["type"] == "snapshot"
        host = {"Host": "scores.club.org", "Origin": "https://scores.club.org"}
        assert (await snapshot(url, host))["type"] == "snapshot"
        assert await refused(url, {"Origin": "https://other.example"}) == 403
