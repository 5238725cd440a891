"""Where phones and displays find this server on the venue's LAN.

``serve_urls(host, port)``: the URLs to print at start-up, one per non-loopback IPv4 address of
this machine when the server listens beyond localhost (``--host 0.0.0.0``), so the TD need not
look the address up (addresses from ``ifaddr``). ``public_base(request)``: the address a QR code
encodes: ``BACKGLASS_PUBLIC_URL`` when set (a name, or a proxy in front), else the address the
requesting screen itself used.
"""

from __future__ import annotations

import ipaddress

import ifaddr
from starlette.requests import Request

from display.http.endpoint import services

EVERYWHERE = ("0.0.0.0", "::", "")
"""Listen addresses that mean every interface."""


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses a phone on the LAN can reach: not loopback, not link-local
    (169.254/16, RFC 3927), sorted; empty on a machine with no network."""
    found: set[str] = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6: (address, flowinfo, scope id); phones are given IPv4
            address = ipaddress.ip_address(ip.ip)
            if not (address.is_loopback or address.is_link_local or address.is_unspecified):
                found.add(str(address))
    return sorted(found, key=ipaddress.ip_address)


def serve_urls(host: str, port: int, addresses: list[str] | None = None) -> list[str]:
    """The base URLs this server answers on: every LAN address (``addresses``, default
    ``lan_addresses()``) when ``host`` is every interface, else ``host`` itself."""
    if host in EVERYWHERE:
        lan = lan_addresses() if addresses is None else addresses
        return [f"http://{a}:{port}/" for a in lan] or [f"http://127.0.0.1:{port}/"]
    shown = f"[{host}]" if ":" in host else host
    return [f"http://{shown}:{port}/"]


def public_base(request: Request) -> str:
    """The base URL (no trailing slash) a QR code on a page of ``request`` encodes."""
    public = services(request).settings.public_url
    return public if public else str(request.base_url).rstrip("/")
