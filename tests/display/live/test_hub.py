"""The hub's promises: a broadcast never waits on a slow client; an overflowing client is resynced;
a burst of pushes goes out as fewer, folded messages."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from starlette.websockets import WebSocket

from display.live.hub import Hub, Outgoing
from display.live.mergepatch import apply
from tests.utils import Api, connect, receive, ws_url


class Socket:
    """A stand-in transport: records what is sent; ``gate`` can hold every send (a stalled peer)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gate = asyncio.Event()
        self.gate.set()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(text)


def resync(version: int) -> tuple[int, str]:
    return 100, "resync"


async def test_stalled_client_does_not_hold_up_the_others() -> None:
    hub = Hub(queue_size=4)
    slow, fast = Socket(), Socket()
    slow.gate.clear()
    clients = [
        hub.join("t", cast(WebSocket, sock), 0, resync, Outgoing("hello", None, None))
        for sock in (slow, fast)
    ]
    writers = [asyncio.create_task(c.write()) for c in clients]
    for v in range(1, 51):
        hub.broadcast("t", Outgoing(f"p{v}", v - 1, v))
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)
    assert fast.sent == ["hello"] + [f"p{v}" for v in range(1, 51)]
    assert clients[0].queue.qsize() <= 4 and clients[0].resyncs > 0
    slow.gate.set()
    await asyncio.sleep(0.01)
    assert slow.sent[-1] == "resync" and clients[0].version == 100
    for task in writers:
        task.cancel()


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
