"""The LAN, found (display/http/lan.py): the URLs the server prints, and the address the QR code
encodes — BACKGLASS_PUBLIC_URL when set, else the address the screen used."""

from __future__ import annotations

import ipaddress
from dataclasses import replace

import pytest

from display.cli.serve import announce
from display.http import lan, qr
from display.settings import Settings
from tests.utils import Api, serve_in_loop


def test_serving_everywhere_lists_every_lan_address() -> None:
    addresses = ["192.168.1.20", "10.0.0.5"]
    assert lan.serve_urls("0.0.0.0", 8000, addresses) == [
        "http://192.168.1.20:8000/",
        "http://10.0.0.5:8000/",
    ]
    assert lan.serve_urls("::", 9000, []) == ["http://127.0.0.1:9000/"]  # no network at all
    assert lan.serve_urls("127.0.0.1", 8000) == ["http://127.0.0.1:8000/"]
    assert lan.serve_urls("fe80::1", 8000) == ["http://[fe80::1]:8000/"]


def test_this_machines_lan_addresses_leave_out_loopback_and_link_local() -> None:
    for address in lan.lan_addresses():
        ip = ipaddress.ip_address(address)
        assert ip.version == 4 and not ip.is_loopback and not ip.is_link_local


def test_the_server_prints_where_to_open_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["192.168.1.20"])
    announce("0.0.0.0", 8000, Settings(public_url="https://pin.example.org"))
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Backglass at http://192.168.1.20:8000/ (desk: http://192.168.1.20:8000/desk)",
        "QR codes open https://pin.example.org/ (BACKGLASS_PUBLIC_URL)",
    ]


async def test_the_qr_code_encodes_the_public_url_when_set(settings: Settings) -> None:
    public = replace(settings, public_url="http://192.168.1.20:8000")
    async with serve_in_loop(public) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("lan1", "epc-qualifying")
        code = await api.http.get("/t/lan1/qr.svg")
        assert code.text == qr.svg("http://192.168.1.20:8000/t/lan1/standings")
        page = await api.http.get("/t/lan1/display")
        assert '<span class="qr-url">http://192.168.1.20:8000/t/lan1/standings</span>' in page.text
        await api.close()
    async with serve_in_loop(settings) as base:  # unset: the address the screen used
        api = Api(base)
        code = await api.http.get("/t/lan1/qr.svg")
        assert code.text == qr.svg(f"{base}/t/lan1/standings")
        await api.close()
