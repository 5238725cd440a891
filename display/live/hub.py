"""The websocket hub: fan a serialised message out to every client of a tournament.

Each broadcast's frame is built once (``Outgoing.frame``) and written straight to every
connection's transport, with no queue and no task per client (architecture principle 6; the cost
of a bare ``websockets.broadcast``). A connection whose write buffer is over its limit (the
transport's high-water mark, ``Settings.ws_write_buffer``) is not written to and never waited for:
it is marked behind and, once its buffer drains (or at the next broadcast or ping that finds it
drained), sent one patch from its version folded from recent history, or a fresh snapshot. Once
joined, a connection has no task either (``Hub.hold``): the connection answers pings and closes
itself and unregisters its client when it is gone; a closing one is skipped until then.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from websockets.frames import Frame, Opcode

Resync = Callable[[int], tuple[int, str]]
"""Given the version a client has, the version it will have and the message that takes it there
(a folded patch from recent history, or a snapshot)."""


@dataclass(frozen=True)
class Outgoing:
    """A message to send. ``version`` None for messages outside the version sequence (pings)."""

    text: str
    base: int | None = None
    version: int | None = None

    @cached_property
    def frame(self) -> bytes:
        """The whole RFC 6455 text frame a server sends (unmasked, 5.1; no extension), built once
        per broadcast however many connections it goes to."""
        return text_frame(self.text)


RESYNC = Outgoing("")
"""Not sent as such: each client it is offered to gets the message from its version to the latest."""


def text_frame(text: str) -> bytes:
    """``text`` as one unmasked, final text frame (RFC 6455 5.2), as websockets serialises it."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])


class Link(Protocol):
    """What the hub needs of a connection (``display/live/ws_protocol.py`` provides it).

    ``write_frame`` writes whole frames to the transport without waiting and answers False once
    the connection is closing; ``over_limit`` is True while its write buffer is above the
    high-water mark; ``on_drained`` is called (soon after, from the loop) when it falls back
    below the low-water mark; ``detach`` lets the connection outlive the app's task, calling
    ``on_lost`` when it is gone (False if it already is closing)."""

    on_drained: Callable[[], None] | None

    def write_frame(self, frame: bytes) -> bool:
        """Write one whole frame now; False (nothing written) once the connection is closing."""
        ...

    def over_limit(self) -> bool:
        """True while the write buffer is above its high-water mark."""
        ...

    def detach(self, on_lost: Callable[[], None]) -> bool:
        """Outlive the app's task; call ``on_lost`` once gone. False if already closing."""
        ...


@dataclass(eq=False, slots=True)
class Client:
    """One connected websocket, its link for direct writes, and the version it has been sent.
    ``behind``: a message was held back because the buffer was over its limit; ``resyncs`` counts
    those episodes."""

    link: Link
    resync: Resync
    version: int
    behind: bool = False
    resyncs: int = 0

    def offer(self, message: Outgoing) -> None:
        """Send ``message`` now if the link can take it, else mark the client behind; never waits."""
        if message.version is None and message is not RESYNC:  # a ping: dropped when over limit
            if not self.link.over_limit():
                self.catch_up()
                self.link.write_frame(message.frame)
            return
        if self.link.over_limit():
            if not self.behind:
                self.behind = True
                self.resyncs += 1
            return
        version = message.version
        if version is None or (version > self.version and message.base != self.version):
            self.behind = True  # RESYNC, or a gap between this client and the patch
        if self.behind or version is None:
            self.catch_up()  # to the latest, which includes this message
        elif version > self.version and self.link.write_frame(message.frame):
            self.version = version

    def catch_up(self) -> None:
        """If behind, send the one message from this client's version to the latest."""
        if not self.behind or self.link.over_limit():
            return
        version, text = self.resync(self.version)
        if self.link.write_frame(text_frame(text)):
            self.version, self.behind = version, False


class Hub:
    """Clients by tournament id. ``broadcast`` is synchronous: it writes to transports only."""

    def __init__(self) -> None:
        self.clients: dict[str, set[Client]] = {}

    def join(
        self,
        tournament: str,
        link: Link,
        version: int,
        resync: Resync,
        first: Outgoing,
    ) -> Client:
        """Register a client already sent nothing and send it ``first`` (RESYNC: a snapshot or
        the patch from ``version``; a ping; or a patch from ``version``) before any broadcast."""
        client = Client(link, resync, version)
        link.on_drained = client.catch_up
        client.behind = first is RESYNC
        client.offer(first)
        self.clients.setdefault(tournament, set()).add(client)
        return client

    def leave(self, tournament: str, client: Client) -> None:
        """Unregister ``client`` and its drain callback; drop a tournament left with no client."""
        client.link.on_drained = None
        clients = self.clients.get(tournament)
        if clients is not None:
            clients.discard(client)
            if not clients:
                del self.clients[tournament]

    def broadcast(self, tournament: str, message: Outgoing) -> int:
        """Send ``message`` (serialised once by the caller, framed once here) to every client of
        ``tournament``; returns how many clients it was offered to."""
        clients = self.clients.get(tournament, ())
        for client in tuple(clients):  # a write can end a connection, but not change the set
            client.offer(message)
        return len(clients)

    def count(self) -> int:
        """How many clients are connected, over every tournament."""
        return sum(len(c) for c in self.clients.values())

    def hold(self, tournament: str, client: Client, gone: Callable[[], None] | None = None) -> None:
        """Keep ``client`` registered until its connection is gone, with no task: the connection
        is ``detach``-ed from the app's task (which then ends) and calls back when lost; ``gone``
        (if given) is called then too."""

        def lost() -> None:
            self.leave(tournament, client)
            if gone is not None:
                gone()

        if not client.link.detach(lost):
            lost()  # already closing: never held
