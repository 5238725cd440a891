"""The demo's printed links: on ``--host 0.0.0.0`` a LAN address a phone reaches without a name
server (it printed the machine's host name, which phones on a venue LAN seldom resolve), and
``BACKGLASS_PUBLIC_URL`` when set (display/cli/demo/common.py ``display_base``)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from display.cli.demo.common import display_base
from display.http.lan import lan_addresses


def test_listening_everywhere_the_links_use_a_lan_address() -> None:
    base = display_base("0.0.0.0", 8731)
    parts = urlsplit(base)
    assert parts.port == 8731 and not base.endswith("/")
    assert ipaddress.ip_address(parts.hostname or "")  # an address, not a host name
    assert parts.hostname in (lan_addresses() or ["127.0.0.1"])


def test_a_public_url_wins_and_a_named_host_is_kept() -> None:
    assert display_base("0.0.0.0", 8731, "https://hall.example.org/") == "https://hall.example.org"
    assert display_base("127.0.0.1", 8731) == "http://127.0.0.1:8731"
