"""The websocket hub: fan a serialised message out to every client of a tournament.

Each client has a bounded outbound queue and its own writer task, so a broadcast never waits on a
slow client (architecture principle 6; bound every per-client queue, unlike encode/broadcaster's).
A client whose queue overflows is not waited for: its queue is emptied and, when its writer next
runs, it is sent one patch from its version folded from recent history, or a fresh snapshot. A failed send is a disconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.websockets import WebSocket

Resync = Callable[[int], tuple[int, str]]
"""Given the version a client has, the version it will have and the message that takes it there
(a folded patch from recent history, or a snapshot)."""


@dataclass(frozen=True)
class Outgoing:
    """A queued message. ``version`` None for messages outside the version sequence (pings)."""

    text: str
    base: int | None = None
    version: int | None = None


RESYNC = Outgoing("")


@dataclass(eq=False)
class Client:
    """One connected websocket and what it has been sent."""

    websocket: WebSocket
    resync: Resync
    version: int
    queue: asyncio.Queue[Outgoing] = field(default_factory=lambda: asyncio.Queue(64))
    resyncs: int = 0

    def offer(self, message: Outgoing) -> None:
        """Queue ``message`` without waiting; on overflow drop the backlog for a snapshot."""
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            if message.version is None:
                return  # a ping can be dropped; the next patch or snapshot says more
            while not self.queue.empty():
                self.queue.get_nowait()
            self.resyncs += 1
            self.queue.put_nowait(RESYNC)

    async def write(self) -> None:
        """Send queued messages in order until the socket fails; skips what the client already has."""
        while True:
            message = await self.queue.get()
            if message.version is None and message is not RESYNC:
                await self.websocket.send_text(message.text)  # a ping
            elif message.version is not None and message.version <= self.version:
                continue  # already covered by a snapshot sent since it was queued
            elif message.version is None or message.base != self.version:  # RESYNC, or a gap
                self.version, text = self.resync(self.version)
                await self.websocket.send_text(text)
            else:
                await self.websocket.send_text(message.text)
                self.version = message.version


class Hub:
    """Clients by tournament id. ``broadcast`` is synchronous: it only queues."""

    def __init__(self, queue_size: int = 64) -> None:
        self.queue_size = queue_size
        self.clients: dict[str, set[Client]] = {}

    def join(
        self,
        tournament: str,
        websocket: WebSocket,
        version: int,
        resync: Resync,
        first: Outgoing,
    ) -> Client:
        """Register a client already sent nothing; ``first`` is queued before any broadcast."""
        client = Client(websocket, resync, version, asyncio.Queue(self.queue_size))
        client.queue.put_nowait(first)
        self.clients.setdefault(tournament, set()).add(client)
        return client

    def leave(self, tournament: str, client: Client) -> None:
        clients = self.clients.get(tournament)
        if clients is not None:
            clients.discard(client)
            if not clients:
                del self.clients[tournament]

    def broadcast(self, tournament: str, message: Outgoing) -> int:
        """Queue ``message`` (serialised once by the caller) for every client; returns how many."""
        clients = self.clients.get(tournament, ())
        for client in clients:
            client.offer(message)
        return len(clients)

    def count(self) -> int:
        return sum(len(c) for c in self.clients.values())

    async def serve(self, tournament: str, client: Client) -> None:
        """Run a client's writer until the peer closes or a send fails, then unregister it."""
        writer = asyncio.create_task(client.write())
        reader = asyncio.create_task(_drain(client.websocket))
        try:
            await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.leave(tournament, client)
            for task in (writer, reader):
                task.cancel()
            for task in (writer, reader):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


async def _drain(websocket: WebSocket) -> None:
    """Read and ignore client frames until it disconnects (clients need send nothing)."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
