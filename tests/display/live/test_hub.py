"""The hub's promises: a broadcast never waits on a slow client; an overflowing client is resynced;
a burst of pushes goes out as fewer, folded messages."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from display.live.hub import Hub, Outgoing
from display.live.mergepatch import apply
from tests.utils import Api, connect, receive, ws_url


class Link:
    """A stand-in connection: records the frames written; ``full`` plays a write buffer over its
    limit (a stalled peer), and ``drain`` what the transport does when it empties again."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.full = False
        self.on_drained: Callable[[], None] | None = None
        self.on_lost: Callable[[], None] | None = None
        self.closing = False

    def detach(self, on_lost: Callable[[], None]) -> bool:
        if self.closing:
            return False
        self.on_lost = on_lost
        return True

    def write_frame(self, frame: bytes) -> bool:
        self.sent.append(payload(frame))
        return True

    def over_limit(self) -> bool:
        return self.full

    def drain(self) -> None:
        self.full = False
        assert self.on_drained is not None
        self.on_drained()


def payload(frame: bytes) -> str:
    """The text of one unmasked final text frame (RFC 6455 5.2), read with websockets' parser."""
    reader = StreamReader()
    reader.feed_data(frame)
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        parsed: Frame = done.value
        assert parsed.opcode is Opcode.TEXT and parsed.fin
        return parsed.data.decode()
    raise AssertionError("an incomplete frame")


def resync(version: int) -> tuple[int, str]:
    return 100, "resync"


def test_stalled_client_does_not_hold_up_the_others() -> None:
    """Every frame goes to a connection that can take it at once; one over its limit is skipped
    (never waited for) and, once drained, sent one message to the latest version."""
    hub = Hub()
    slow, fast = Link(), Link()
    clients = [
        hub.join("t", link, 0, resync, Outgoing("hello", None, None)) for link in (slow, fast)
    ]
    slow.full = True
    for v in range(1, 51):
        hub.broadcast("t", Outgoing(f"p{v}", v - 1, v))
    assert fast.sent == ["hello"] + [f"p{v}" for v in range(1, 51)]
    assert slow.sent == ["hello"] and clients[0].resyncs == 1 and clients[0].behind
    slow.drain()
    assert slow.sent[-1] == "resync" and clients[0].version == 100 and not clients[0].behind
    hub.broadcast("t", Outgoing("p51", 50, 51))  # already covered by the resync: skipped
    assert slow.sent[-1] == "resync"


def test_a_gap_gets_a_resync_and_a_frame_is_built_once() -> None:
    """A patch that does not start at a client's version is replaced by its resync; the frame of
    a broadcast is the same bytes object for every connection."""
    hub = Hub()
    links = [Link() for _ in range(3)]
    for link in links:
        hub.join("t", link, 5, resync, Outgoing("ping"))
    message = Outgoing("p7", 6, 7)
    hub.broadcast("t", message)
    assert all(link.sent == ["ping", "resync"] for link in links)
    assert message.frame is message.frame


def test_a_held_client_leaves_when_its_connection_is_lost() -> None:
    """``hold`` adds no task: the connection calls back when it is gone and the client leaves;
    one already closing when held is never kept."""
    hub = Hub()
    link, closing = Link(), Link()
    hub.hold("t", hub.join("t", link, 0, resync, Outgoing("ping")))
    closing.closing = True
    hub.hold("t", hub.join("t", closing, 0, resync, Outgoing("ping")))
    assert hub.count() == 1
    assert link.on_lost is not None
    link.on_lost()
    assert hub.count() == 0 and "t" not in hub.clients


async def test_a_client_that_sends_messages_still_gets_every_patch(api: Api) -> None:
    """A detached connection drops what a client sends (no app reads it) without pausing its
    reads, so pings, patches and the close still flow."""
    await api.tournament("talk", "epc-qualifying", players=4, machines=2)
    async with connect(ws_url(api.base, "talk")) as ws:
        snap = await receive(ws)
        for n in range(5):
            await ws.send('{"type": "hello"}')
            r = await api.score("talk", 1 + n % 4, 1 + n // 4, 100 + n)
            message = await receive(ws)
            assert message["version"] == r.json()["version"]
        assert (await api.views("talk"))["version"] == message["version"] > snap["version"]


async def test_burst_is_folded_and_clients_converge(api: Api) -> None:
    await api.tournament("b1", "epc-qualifying", players=60, machines=6)
    async with connect(ws_url(api.base, "b1")) as ws:
        snap = await receive(ws)
        pushes = [api.score("b1", p, 1 + p % 6, p * 37) for p in range(1, 61)]
        await asyncio.gather(*pushes)
        final = await api.views("b1")
        state: dict[str, Any] = snap["views"]
        version, messages = snap["version"], 0
        while version < final["version"]:
            message = await receive(ws)
            assert message["base"] == version
            state.update(message["views"])
            for name, patch in message["patches"].items():
                state[name] = apply(state.get(name, {}), patch)
            version, messages = message["version"], messages + 1
        assert state == final["views"]
        assert messages < 60  # pushes inside the broadcast window went out together
