"""What every request passes before the app sees it: a pure ASGI middleware (no
BaseHTTPMiddleware: it would add a task and a copy per request to the push path).

In order, for HTTP and websocket handshakes:

0. **One Host, one Origin**: a request with two of either is refused (HTTP 400
   ``duplicate_header``; a websocket handshake 403), so no later reader can take the other one.
1. **Host** (DNS rebinding): the ``Host`` header must name this server: ``localhost``, the
   machine's hostname (and ``<hostname>.local``), any IP address, or ``Settings.allowed_hosts``.
   An IP literal is always fine: a rebinding attack needs a domain name the attacker controls.
   Refused: HTTP 400; a websocket is closed before it is accepted (HTTP 403 on the handshake).
2. **Origin** (cross-site websockets; CSRF): a websocket handshake, and every POST / PUT / PATCH /
   DELETE, with an ``Origin`` header must come from this server's own origin (same host and
   port; http or https, since a TLS proxy may sit in front) or ``Settings.allowed_origins``. A
   state-changing request with ``Sec-Fetch-Site: cross-site`` is refused too. No ``Origin`` (a
   script, a phone app) is allowed: sessions are bearer tokens a browser never sends by itself.
   Refused: HTTP 403 ``{"error": "cross_site"}``; a websocket is closed before accept (403).
3. **Body size**: a request body larger than ``Settings.max_body`` bytes (``max_upload`` on the
   upload endpoints, ``UPLOAD_PATHS``) is answered 413, from ``Content-Length`` before the app
   runs, or as soon as a chunked body passes the limit (the handler never holds more). The
   connection is kept: uvicorn drops the rest of the body once the answer is complete, so the
   client reads its 413 rather than a reset in the middle of its upload.
4. **A client that hangs up** before its body is in gets no answer and costs one short log line
   (within its address's budget, ``display/http/log_budget.py``), not a 500 with a traceback.
5. **Headers** on every HTTP response: the Content-Security-Policy ``CSP`` (no inline script or
   style anywhere), ``nosniff``, ``Referrer-Policy`` and ``X-Frame-Options``.

Why each, and how to configure it: docs/security.md.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import re
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

import orjson
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from display.http.log_budget import DISCONNECTS
from display.settings import Settings

log = logging.getLogger(__name__)

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'; object-src 'none'"
)
HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
)
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
UPLOAD_PATHS = re.compile(
    r"^/api/(?:t/[^/]+/)?(?:import|players/import|machines/import|season/results|restore)$"
)
"""Endpoints that take files (a log export, a CSV, a backup): they get ``max_upload``."""

_HOST = re.compile(r"^(\[[^\]]+\]|[a-z0-9_.-]+)(?::(\d{1,5}))?$")
_DEFAULT_PORT = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def default_hosts() -> frozenset[str]:
    """The names this machine answers to on a LAN with no configuration (IP literals aside)."""
    name = socket.gethostname().lower().rstrip(".")
    short = name.split(".")[0]
    return frozenset({"localhost", name, short, f"{name}.local", f"{short}.local"} - {""})


@functools.lru_cache(maxsize=1024)
def parse_host(value: str) -> tuple[str, int | None] | None:
    """``Host`` header -> (lower-case host without brackets or trailing dot, port or None);
    None when it is not a plain host[:port] (RFC 9110 7.2)."""
    match = _HOST.match(value.strip().lower())
    if match is None:
        return None
    host, port = match[1], match[2]
    if host.startswith("["):
        host = host[1:-1]
        if not is_ip(host):
            return None
    return host.rstrip("."), int(port) if port else None


@functools.lru_cache(maxsize=1024)
def is_ip(host: str) -> bool:
    """Whether ``host`` is an IP literal (always allowed: DNS rebinding needs a name)."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class Policy:
    """The allowed hosts and origins (from ``Settings``), and the checks on them."""

    def __init__(self, hosts: Iterable[str] = (), origins: Iterable[str] = ()) -> None:
        hosts = [h.strip().lower().rstrip(".") for h in hosts if h.strip()]
        self.any_host = "*" in hosts
        self.hosts = default_hosts() | {h for h in hosts if not h.startswith("*.")}
        self.suffixes = tuple(h[1:] for h in hosts if h.startswith("*."))  # "*.club.org"
        origins = [o.strip().lower().rstrip("/") for o in origins if o.strip()]
        self.any_origin = "*" in origins
        self.origins = frozenset(origins)

    def host_allowed(self, host: str) -> bool:
        """Whether a parsed host name (see ``parse_host``) is one this server answers to."""
        return (
            self.any_host
            or host in self.hosts
            or host.endswith(".localhost")  # browsers resolve these to loopback themselves
            or host.endswith(self.suffixes)
            or is_ip(host)
        )

    def origin_allowed(self, origin: str, host: tuple[str, int | None] | None) -> bool:
        """Whether a browser ``Origin`` header (RFC 6454) is this server's own origin as the
        request's ``Host`` names it (either scheme), or one of the allowed origins."""
        origin = origin.strip().lower().rstrip("/")
        if self.any_origin or origin in self.origins:
            return True
        parts = parse_origin(origin)
        if parts is None or host is None:
            return False  # includes "null" (sandboxed frames, file: pages)
        scheme, name, port = parts
        if name != host[0]:
            return False
        if host[1] is None:
            return port is None or port == _DEFAULT_PORT[scheme]
        return (port or _DEFAULT_PORT[scheme]) == host[1]


@functools.lru_cache(maxsize=1024)
def parse_origin(origin: str) -> tuple[str, str, int | None] | None:
    """A lower-case http(s) ``Origin`` -> (scheme, host, port or None); None for anything else."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or "@" in origin:
        return None
    return parts.scheme, parts.hostname.rstrip("."), port


class BodyTooLarge(Exception):
    """Raised from ``receive`` once a request body passes its limit; the middleware answers 413."""


class SecurityMiddleware:
    """The checks above around ``app``. ``settings`` gives the allowed hosts and origins and the
    body limits (bytes)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.policy = Policy(settings.allowed_hosts, settings.allowed_origins)
        self.max_body, self.max_upload = settings.max_body, settings.max_upload

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """ASGI entry: the Host, Origin and body-size checks, then the response headers."""
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = origin = fetch_site = length = None
        twice = ""  # the name of a header sent twice
        for name, value in scope["headers"]:
            if name == b"host":
                twice = twice or ("Host" if host is not None else "")
                host = value.decode("latin-1")
            elif name == b"origin":
                twice = twice or ("Origin" if origin is not None else "")
                origin = value.decode("latin-1")
            elif name == b"sec-fetch-site":
                fetch_site = value
            elif name == b"content-length":
                length = value
        if twice:  # read one way here and maybe another by the app or a proxy: RFC 9110 5.3
            message = f"The request has two {twice} headers; send one."
            await self.refuse(scope, send, 400, "duplicate_header", message)
            return
        parsed = parse_host(host) if host is not None else None
        known = parsed is not None and self.policy.host_allowed(parsed[0])
        if not (known or self.policy.any_host):
            await self.refuse(scope, send, 400, "unknown_host", _host_message(host))
            return
        if kind == "websocket" or scope["method"] in UNSAFE_METHODS:
            foreign = origin is not None and not self.policy.origin_allowed(origin, parsed)
            if foreign or (kind == "http" and fetch_site == b"cross-site"):
                await self.refuse(scope, send, 403, "cross_site", CROSS_SITE)
                return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        limit = self.max_upload if UPLOAD_PATHS.match(scope["path"]) else self.max_body
        if length is not None and length.isdigit() and int(length) > limit:
            await self.refuse(scope, send, 413, "too_large", _size_message(limit))
            return
        await self.guarded(scope, receive, send, limit)

    async def guarded(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        """Run the app with the body counted as it arrives and the headers added to its answer;
        past ``limit`` the app's own answer is dropped and a 413 goes out instead."""
        seen = 0
        over = started = False

        async def counted() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    over = True
                    raise BodyTooLarge(f"request body over {limit} bytes")
            return message

        async def with_headers(message: Message) -> None:
            nonlocal started
            if over:
                return
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", ()), *HEADERS]
            await send(message)

        try:
            await self.app(scope, counted, with_headers)
        except ClientDisconnect:
            # The client hung up before its body was in: nobody to answer, and not the server's
            # fault, so one short line (within the address's budget), no traceback, no 500.
            address = scope["client"][0] if scope.get("client") else "unknown"
            if DISCONNECTS.allow(address, log):
                log.info("%s went away during %s %s", address, scope["method"], scope["path"])
            return
        except Exception:
            if not over or started:  # the app's own failure, or too late to answer 413
                raise
        if over and not started:
            await self.refuse(scope, send, 413, "too_large", _size_message(limit))

    @staticmethod
    async def refuse(scope: Scope, send: Send, status: int, code: str, message: str) -> None:
        """Answer ``{"error": code, "message": message}`` with ``status``; a websocket handshake
        is closed before accept instead, which the server sends as HTTP 403."""
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": ""})
            return
        body = orjson.dumps({"error": code, "message": message})
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *HEADERS,
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


CROSS_SITE = (
    "This request came from another web site, so it was refused. "
    "Open the page from this Backglass server and try again."
)


def _host_message(host: str | None) -> str:
    name = f"the name {host!r}" if host else "no name"
    return (
        f"This server was reached by {name}, which it does not answer to. Open it by its IP "
        "address, or add the name to BACKGLASS_ALLOWED_HOSTS."
    )


def _size_message(limit: int) -> str:
    size = f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit // 1024} KiB"
    return f"The request is too large: at most {size} is accepted here."
