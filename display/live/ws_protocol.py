"""uvicorn's websockets-sansio protocol with the guards a hall of displays needs (docs/protocol.md).

uvicorn frees a peer that stops answering pings with ``transport.close()``, which waits for the
write buffer to drain, and its ``send`` waits for the buffer to drain too: a peer whose TCP stack
is alive but never reads (a hung tab, a hostile client) would hold its socket, buffer and writer
forever, and keep a graceful shutdown waiting on it. This subclass adds:

- **stall**: a write buffer that stays above asyncio's high-water mark (64 KiB) for
  ``stall_seconds`` aborts the connection (RST, the buffer dropped; the client sees 1006). Armed
  only by ``pause_writing``, so it costs nothing per message.
- **closes that finish**: after a ping timeout, a refusal or a server shutdown, a socket that has not
  drained within ``CLOSE_GRACE`` seconds is aborted.
- **flood**: more than ``MAX_FRAMES_PER_SECOND`` frames of any kind (data, ping, pong, continuation)
  in one second closes with 1008. Clients need send nothing; a browser answers one ping per interval.
- **bad UTF-8** in a text message closes with 1007, logged at info, not as a server error.
- **direct writes** for the hub (``display/live/hub.py``'s ``Link``): ``write_frame`` puts a frame
  built once per broadcast straight on the transport, ``over_limit`` says whether the write buffer
  is above its high-water mark (``write_buffer`` bytes), and ``on_drained`` is called when it falls
  below the low-water mark again. The protocol puts itself in the scope's extensions under
  ``DIRECT`` so the app's websocket endpoint can find it.
- **lean when held**: once the hub holds the connection (``detach``), what only the app's task
  reads (the handshake, the scope's headers, the receive queue) is freed: about 9 KiB of server
  memory per display instead of 16 (``scripts/bench``, memory per connected client).

Frames larger than ``MAX_FRAME_BYTES`` (a message's fragments together) close with 1009 and
malformed or unmasked frames with 1002 before this code runs (websockets' parser, ``max_size``).
"""

from __future__ import annotations

import asyncio
import logging
from asyncio import BaseTransport, TimerHandle
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame
from websockets.protocol import State

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 64 * 1024
"""uvicorn's ``ws_max_size``: the largest message a client may send (it needs send none)."""
MAX_FRAMES_PER_SECOND = 32
CLOSE_GRACE = 2.0
"""Seconds a closing socket may take to drain before it is aborted."""
DIRECT = "backglass.direct"
"""The scope extension under which a connection offers the hub its direct writes."""


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """One websocket connection; ``stall_seconds`` and ``write_buffer`` (bytes) are set per server
    by ``protocol_class``."""

    stall_seconds = 30.0
    write_buffer = 64 * 1024
    released: Callable[[Any], None] | None = None
    """Told the transport when the connection closes: the slot it took as an HTTP connection
    (display/http/connections.py) is free again."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._stall: TimerHandle | None = None
        self._window = 0.0  # loop time the current one-second frame count started
        self._frames = 0
        self.on_drained: Callable[[], None] | None = None
        self.on_lost: Callable[[], None] | None = None
        self.detached = False

    def connection_made(self, transport: BaseTransport) -> None:
        """Write buffer high-water mark ``write_buffer`` bytes (asyncio: low-water a quarter)."""
        super().connection_made(transport)
        self.transport.set_write_buffer_limits(high=self.write_buffer)

    async def run_asgi(self) -> None:
        """Offer this connection to the app under the scope extension ``DIRECT``, then run it.
        An app that ``detach``-ed the connection returns while it stays open; uvicorn's own
        ``run_asgi`` would close it then, so this is that method without the close."""
        self.scope["extensions"][DIRECT] = {"link": self}
        try:
            result = await self.app(self.scope, self.receive, self.send)
        except ClientDisconnected:
            pass
        except BaseException:
            self.logger.exception("Exception in ASGI application\n")
            self.send_500_response()
        else:
            if not self.handshake_complete:
                self.logger.error("ASGI callable returned without completing handshake.")
                self.send_500_response()
            elif result is not None:
                self.logger.error("ASGI callable should return None, but returned '%s'.", result)
        if self.detached and not self.disconnected:
            return  # the hub writes to it and hears of its end through ``on_lost``
        if self.close_timer is None:
            self.transport.close()

    def detach(self, on_lost: Callable[[], None]) -> bool:
        """Let the app's task end while the connection stays open, with no task of its own:
        messages it receives are dropped (clients need send nothing), pings and closes are
        answered here, and ``on_lost`` is called when the socket is gone. False (nothing
        changed) if it is already closing."""
        if self.disconnected or self.close_sent or self.transport.is_closing():
            return False
        self.on_lost, self.detached = on_lost, True
        self._shed()
        return True

    def _shed(self) -> None:
        """Free what only the app's task reads, once it has let go (about 7 KiB of the 16 a
        connection held, measured with tracemalloc over 1,000 displays): the handshake's request
        and response with their headers, the ASGI scope's headers, state and extensions (which
        hold this protocol), and the receive queue with its deques; the write-paused flag gets
        a lighter event too. Only uvicorn's ``send`` and ``receive``, the app's calls, read
        these, and a detached connection's app has returned."""
        del self.request, self.response
        self.scope["headers"], self.scope["state"], self.scope["extensions"] = [], {}, {}
        self.queue = _DISCARD
        paused = not self.writable.is_set()
        self.writable = _Flag()
        if not paused:
            self.writable.set()

    # -- direct writes for the hub ---------------------------------------------------------------

    def write_frame(self, frame: bytes) -> bool:
        """Write one whole frame now; False (nothing written) once the connection is closing."""
        if self.close_sent or self.transport.is_closing() or self.conn.state is not State.OPEN:
            return False
        self.transport.write(frame)
        return True

    def over_limit(self) -> bool:
        """True while the write buffer is above its high-water mark (writing is paused)."""
        return not self.writable.is_set()

    # -- stall: a peer that does not read -------------------------------------------------------

    def pause_writing(self) -> None:
        """Write buffer above its high-water mark: arm the stall timer (``stall_seconds``)."""
        super().pause_writing()
        if self._stall is None and self.stall_seconds > 0:
            self._stall = self.loop.call_later(self.stall_seconds, self._stalled)

    def resume_writing(self) -> None:
        """Buffer below its low-water mark: disarm the stall timer, call ``on_drained`` soon."""
        super().resume_writing()
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        if self.on_drained is not None:  # from the loop, not inside the transport's callback
            self.loop.call_soon(self.on_drained)

    def _stalled(self) -> None:
        self._stall = None
        log.info("websocket %s: not read for %.0f s, dropped", self.client, self.stall_seconds)
        self.transport.abort()  # connection_lost follows: the app sees a disconnect

    def connection_lost(self, exc: Exception | None) -> None:
        """Socket gone: cancel a pending stall timer, then let uvicorn tell the app."""
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        if self.released is not None:
            self.released(self.transport)
        super().connection_lost(exc)
        if self.on_lost is not None:
            on_lost, self.on_lost, self.on_drained = self.on_lost, None, None
            on_lost()

    def handle_close(self, event: Frame) -> None:
        """The peer's close frame: uvicorn answers it; when it echoes ours, a detached connection
        closes its socket here (uvicorn leaves that to the app's task, which has ended)."""
        super().handle_close(event)
        if self.detached and self.close_sent and not self.transport.is_closing():
            self.transport.close()

    def _abort_later(self) -> None:
        # A no-op if the connection is gone by then (asyncio ignores abort after connection_lost).
        self.loop.call_later(CLOSE_GRACE, self.transport.abort)

    def keepalive_timeout(self) -> None:
        """No pong in time: uvicorn fails it (1011); abort if not drained in ``CLOSE_GRACE`` s."""
        super().keepalive_timeout()
        self._abort_later()

    def shutdown(self) -> None:
        """Server shutdown: close with 1012, then abort if not drained within ``CLOSE_GRACE`` s."""
        super().shutdown()
        self._abort_later()

    def handle_parser_exception(self) -> None:
        """A malformed frame (1002) or a message over ``max_size`` (1009): closed, then aborted if
        not drained within ``CLOSE_GRACE`` s."""
        super().handle_parser_exception()
        self._abort_later()

    # -- input: floods and bad UTF-8 ------------------------------------------------------------

    def handle_events(self) -> None:
        """Count received frames per one-second window; over ``MAX_FRAMES_PER_SECOND`` closes with
        1008 (policy violation, RFC 6455 7.4.1), else uvicorn dispatches the events."""
        events = self.conn.events_received()
        frames = sum(isinstance(event, Frame) for event in events)
        if frames:
            now = self.loop.time()
            if now - self._window >= 1.0:
                self._window, self._frames = now, 0
            self._frames += frames
            if self._frames > MAX_FRAMES_PER_SECOND and not self.close_sent:
                self._refuse(1008, "too many messages")
                return
        self.conn.events = events + self.conn.events  # hand them to uvicorn's dispatch unchanged
        super().handle_events()

    def send_receive_event_to_app(self) -> None:
        """Hand a complete message to the app, but a text message that is not UTF-8 closes with 1007
        (RFC 6455 8.1, 7.4.1) instead."""
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                self._refuse(1007, "invalid UTF-8")
                return
        if self.detached:  # no app reads it: drop it rather than queue it and pause reading
            self.frames = []
            return
        super().send_receive_event_to_app()

    def _refuse(self, code: int, reason: str) -> None:
        """Fail the connection (RFC 6455 7.1.7): close frame, the app told, the socket closed."""
        log.info("websocket %s: closed %s (%s)", self.client, code, reason)
        self.conn.fail(code, reason)
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.close()
        self._abort_later()


class _Discard(asyncio.Queue[Any]):
    """The ASGI receive queue of a detached connection: its app has returned, so nothing reads
    it; what uvicorn puts in it (the disconnect) is dropped, and it holds no deques."""

    def __init__(self) -> None:  # no super().__init__(): its deques and Event are what it saves
        pass

    def put_nowait(self, item: Any) -> None:
        """Drop ``item``: no app will ``receive`` it."""

    def empty(self) -> bool:
        """Always empty."""
        return True


_DISCARD = _Discard()


class _Flag(asyncio.Event):
    """``writable`` of a detached connection: set and cleared by the transport's flow control and
    read by ``over_limit``, but never waited on (only the app's ``send`` waits), so it needs no
    deque of waiters."""

    _waiters = ()  # type: ignore[assignment]

    def __init__(self) -> None:  # no super().__init__(): no deque
        self._value = False


def protocol_class(
    stall_seconds: float,
    write_buffer: int = 64 * 1024,
    released: Callable[[Any], None] | None = None,
) -> type[GuardedWebSocketProtocol]:
    """The protocol uvicorn should build for each websocket (its ``ws`` setting); ``released`` is
    called with the transport when a connection closes."""
    attributes = {
        "stall_seconds": stall_seconds,
        "write_buffer": write_buffer,
        "released": staticmethod(released) if released else None,
    }
    return type("GuardedWebSocketProtocol", (GuardedWebSocketProtocol,), attributes)
