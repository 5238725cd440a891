"""Connections as a hall needs them: nobody on the network can hold the server's sockets.

uvicorn on its own closes an idle keep-alive connection, but not one that never sends a request,
or sends only part of its head or body: such connections, opened by the thousand with no
credentials, fill the process's open-file limit, and from then on health checks, pushes and views
all fail. ``GuardedHttpProtocol`` (uvicorn's httptools protocol, which ``uvicorn[standard]`` runs)
adds, per connection:

- **time limits**: the request head (line and headers) must be complete within
  ``Limits.header_seconds`` of the connection's first byte being awaited (a new connection, or a
  keep-alive one that started its next request); the body may pause at most
  ``Limits.body_gap_seconds`` between pieces and must be complete within
  ``Limits.body_seconds``. Past a limit the client gets ``408 Request Timeout`` (RFC 9110 15.5.9)
  and the connection is closed; the handler, if one is waiting on the body, sees a disconnect.
- **a cap per client address** (HTTP and websockets alike; a websocket keeps the slot it took as
  an HTTP connection until it closes): one more is answered ``503`` in plain text
  (``Retry-After``, RFC 9110 15.6.4) and closed, before anything is read.
- **headroom for the hall**: at most ``Limits.total`` connections in all, kept below the open-file
  limit (Redis, the log files and the AOF need descriptors too). When they are all taken, the
  connection that has waited longest without sending a request head (an idle or slow one: a
  display's websocket or a steward between requests is never that for long) is closed to make
  room; only when none is waiting is the newcomer refused.

``raise_open_file_limit`` lifts the soft ``RLIMIT_NOFILE`` to the hard one at start, so the cap is
not the common default of 1,024 where the system allows more. Settings and figures:
docs/security.md ("Connections").
"""

from __future__ import annotations

import asyncio
import logging
import resource
from asyncio import TimerHandle
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from display.http.log_budget import DISCONNECTS
from display.settings import Settings

log = logging.getLogger(__name__)


def raise_open_file_limit() -> int:
    """Lift the soft open-file limit to the hard one (where the system allows it); return the soft
    limit now in force (descriptors). An unlimited hard limit is left as it is (setting the soft
    one to it can fail, and a million descriptors is beyond any hall)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            log.warning("could not raise the open-file limit from %d to %d", soft, hard)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def reserve_for(open_files: int) -> int:
    """Descriptors kept out of the connection cap for the process's own use (Redis connections,
    the AOF, log and static files, the tail): an eighth of the limit, at least 64."""
    return max(64, open_files // 8)


@dataclass(frozen=True)
class Limits:
    """``per_address``: connections one client address may hold (0: no cap; off behind a proxy,
    where every client has the proxy's address). ``total``: connections in all. Seconds:
    ``header_seconds`` for a request's head, ``body_gap_seconds`` the longest pause inside a
    body, ``body_seconds`` the whole body."""

    per_address: int = 64
    total: int = 900
    header_seconds: float = 10.0
    body_gap_seconds: float = 10.0
    body_seconds: float = 120.0

    @classmethod
    def for_process(cls, settings: Settings, open_files: int) -> Limits:
        """The limits from ``settings`` (``BACKGLASS_CONNECTIONS_PER_ADDRESS``,
        ``BACKGLASS_HEADER_SECONDS``, ``BACKGLASS_BODY_SECONDS``) and this process's open-file
        limit (``raise_open_file_limit``)."""
        return cls(
            per_address=0 if settings.trust_proxy else settings.connections_per_address,
            total=max(16, open_files - reserve_for(open_files)),
            header_seconds=settings.header_seconds,
            body_gap_seconds=settings.header_seconds,
            body_seconds=settings.body_seconds,
        )


class Ledger:
    """Every open connection of one server, by transport: its client address, and whether it is
    waiting for a request head (evictable). Single-threaded (the event loop's)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.address: dict[Any, str] = {}
        self.per_address: dict[str, int] = {}
        self.waiting: dict[Any, None] = {}  # insertion order: the longest waiting first

    def admit(self, transport: Any, address: str) -> str | None:
        """Count ``transport`` in, or say why not (a message for the client): its address holds
        its cap, or every slot is taken by a connection that has sent its request."""
        per_address = self.limits.per_address
        if per_address and self.per_address.get(address, 0) >= per_address:
            return (
                f"Too many connections from {address}: at most {per_address} from one address. "
                "Close some pages, or wait a moment, and try again."
            )
        if len(self.address) >= self.limits.total:
            if not self.waiting:
                return "The server is full. Try again in a moment."
            oldest = next(iter(self.waiting))
            self.release(oldest)  # counted out now: its connection_lost comes later
            oldest.abort()
        self.address[transport] = address
        self.per_address[address] = self.per_address.get(address, 0) + 1
        self.waiting[transport] = None
        return None

    def busy(self, transport: Any) -> None:
        """``transport`` sent a request head (or became a websocket): not evictable."""
        self.waiting.pop(transport, None)

    def idle(self, transport: Any) -> None:
        """``transport`` finished a request and waits for the next: evictable again (last)."""
        if transport in self.address:
            self.waiting.pop(transport, None)
            self.waiting[transport] = None

    def release(self, transport: Any) -> None:
        """``transport`` is gone (idempotent)."""
        self.waiting.pop(transport, None)
        address = self.address.pop(transport, None)
        if address is not None:
            left = self.per_address[address] - 1
            if left:
                self.per_address[address] = left
            else:
                del self.per_address[address]

    def count(self, address: str | None = None) -> int:
        """Open connections in all, or from ``address``."""
        return len(self.address) if address is None else self.per_address.get(address, 0)


def _plain(status: bytes, message: str, extra: bytes = b"") -> bytes:
    body = message.encode()
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: "
        + str(len(body)).encode()
        + b"\r\nconnection: close\r\n"
        + extra
        + b"\r\n"
        + body
    )


class GuardedHttpProtocol(HttpToolsProtocol):
    """One HTTP connection under ``ledger``'s cap and the time limits (module docstring); the
    ledger is set per server by ``http_protocol_class``."""

    ledger: Ledger = Ledger(Limits())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._timer: TimerHandle | None = None
        self._body_deadline = 0.0
        self._counted = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection in, or refuse it (plain 503) before reading; time its head."""
        super().connection_made(transport)
        address = self.client[0] if self.client else "unknown"
        refusal = self.ledger.admit(transport, address)
        if refusal is not None:
            if DISCONNECTS.allow(address, log):
                log.info("connection from %s refused: %s", address, refusal)
            transport.write(_plain(b"503 Service Unavailable", refusal, b"retry-after: 5\r\n"))
            transport.close()
            return
        self._counted = True
        self._arm(self.ledger.limits.header_seconds, "head")

    def connection_lost(self, exc: Exception | None) -> None:
        """Free its slot and timer, then let uvicorn tell the handler."""
        self._disarm()
        if self._counted:
            self.ledger.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Bytes in: ignored on a refused connection, else uvicorn parses them."""
        if not self._counted:
            return  # refused: nothing is read
        super().data_received(data)

    # -- the timers ------------------------------------------------------------------------------

    def _arm(self, seconds: float, what: str) -> None:
        self._disarm()
        if seconds > 0:
            self._timer = self.loop.call_later(seconds, self._timed_out, what)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _timed_out(self, what: str) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        address = self.client[0] if self.client else "unknown"
        if DISCONNECTS.allow(address, log):
            log.info("connection from %s: request %s not complete in time, closed", address, what)
        cycle = self.cycle
        if cycle is None or cycle.response_complete or not cycle.response_started:
            message = "The request took too long to arrive. Try again."
            self.transport.write(_plain(b"408 Request Timeout", message))
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # the handler's receive() answers http.disconnect
            cycle.message_event.set()
        self.transport.close()

    def on_message_begin(self) -> None:
        """A request's first byte: its head is timed (on a keep-alive connection too)."""
        super().on_message_begin()
        if self._timer is None:  # a keep-alive connection's next request: its head is timed
            self._arm(self.ledger.limits.header_seconds, "head")

    def on_headers_complete(self) -> None:
        """Head complete: not evictable now; a body is timed from here (a websocket is not)."""
        self._disarm()
        self.ledger.busy(self.transport)
        super().on_headers_complete()
        limits = self.ledger.limits
        if self.scope.get("type") == "http" and "path" in self.scope:  # not an upgrade
            self._body_deadline = self.loop.time() + limits.body_seconds
            self._arm(min(limits.body_gap_seconds, limits.body_seconds), "body")

    def on_body(self, body: bytes) -> None:
        """A piece of body: the pause timer starts again, within the whole body's deadline."""
        super().on_body(body)
        if self._timer is not None:
            left = self._body_deadline - self.loop.time()
            self._arm(min(self.ledger.limits.body_gap_seconds, left), "body")

    def on_message_complete(self) -> None:
        """The whole request is in: no timer while the handler answers."""
        self._disarm()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        """Answered: evictable again while it waits for its next request."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self.ledger.idle(self.transport)  # uvicorn's keep-alive timeout closes it if idle


def http_protocol_class(ledger: Ledger) -> type[GuardedHttpProtocol]:
    """The protocol uvicorn should build for each connection (its ``http`` setting)."""
    return type("GuardedHttpProtocol", (GuardedHttpProtocol,), {"ledger": ledger})
