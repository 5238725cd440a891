"""The bare broadcast baseline: a minimal ``websockets`` server with no application logic.

On a trigger it sends one pre-loaded message, serialised once, to every connected client with
``websockets.broadcast`` (a synchronous write to each connection, the cheapest fan-out the library
offers). The messages are the real patches Backglass sent in the same run a moment before, byte for
byte, so the clients see the same sizes and the same versions.

Same conditions as Backglass: uvloop when installed (uvicorn picks it too), no per-message deflate,
a process of its own. Control is a line protocol on a second TCP port:

    hello <v>     -> "ok"  clients that connect afterwards first get a tiny snapshot at version v
    msg <n>\n<n bytes> -> "ok"  the message the next "send" broadcasts
    send          -> (no answer) broadcast it; the clients report when they all have it
    count         -> "ok <connected clients>"

Run: ``python -m bench.bare_broadcast --port P --control-port C``.
"""

from __future__ import annotations

import argparse
import asyncio
import socket

from websockets.asyncio.server import ServerConnection, broadcast, serve

from bench.common import raise_nofile, use_uvloop


class Bare:
    def __init__(self) -> None:
        self.clients: set[ServerConnection] = set()
        self.message = ""
        self.hello = '{"type":"snapshot","version":0,"views":{}}'

    async def handler(self, ws: ServerConnection) -> None:
        await ws.send(self.hello)
        self.clients.add(ws)
        try:
            await ws.wait_closed()
        finally:
            self.clients.discard(ws)

    async def control(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:  # a trigger must not wait for a delayed ACK (Nagle)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while line := await reader.readline():
            verb, _, arg = line.decode().strip().partition(" ")
            if verb == "send":
                broadcast(self.clients, self.message)
                continue
            if verb == "msg":
                self.message = (await reader.readexactly(int(arg))).decode()
                writer.write(b"ok\n")
            elif verb == "hello":
                self.hello = f'{{"type":"snapshot","version":{int(arg)},"views":{{}}}}'
                writer.write(b"ok\n")
            elif verb == "count":
                writer.write(f"ok {len(self.clients)}\n".encode())
            else:
                writer.write(f"error unknown command {verb}\n".encode())
            await writer.drain()


async def main(port: int, control_port: int) -> None:
    bare = Bare()
    control = await asyncio.start_server(bare.control, "127.0.0.1", control_port)
    async with serve(bare.handler, "127.0.0.1", port, compression=None, max_size=None), control:
        await asyncio.Future()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--control-port", type=int, required=True)
    args = parser.parse_args()
    raise_nofile()
    use_uvloop()
    asyncio.run(main(args.port, args.control_port))
