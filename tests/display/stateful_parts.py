"""Real parts for the stateful test (``tests/display/test_stateful.py``): Debian's ``redis-server`` as a
process to kill -9 and restart on its directory, the app served from a loop on a thread of its
own (so the test's steps are plain blocking calls), and a display that resumes with ``?since=``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import redis
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from display.live import mergepatch
from display.settings import Settings
from tests.utils import free_port, serve_in_loop, ws_url


class RedisProcess:
    """Debian's ``redis-server`` on a free loopback port with its data in ``directory`` (AOF,
    ``appendfsync always``: an acknowledged write is on disk). ``kill`` is SIGKILL."""

    def __init__(self, directory: Path) -> None:
        self.directory, self.port = directory, free_port()
        self.process: subprocess.Popen[bytes] | None = None
        directory.mkdir(parents=True, exist_ok=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [shutil.which("redis-server") or "redis-server", "--port", str(self.port)]
        args += ["--bind", "127.0.0.1", "--dir", str(self.directory), "--save", ""]
        args += ["--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no"]
        args += ["--logfile", str(self.directory / "redis.log")]
        self.process = subprocess.Popen(args, start_new_session=True)
        client = redis.Redis.from_url(self.url)
        try:
            for _ in range(200):
                with contextlib.suppress(redis.ConnectionError, redis.BusyLoadingError):
                    if client.ping():
                        return
                time.sleep(0.02)
            raise RuntimeError("redis-server did not start")
        finally:
            client.close()

    def kill(self) -> None:
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None


class ServerThread:
    """The app under uvicorn (``serve_in_loop``) in an event loop on its own thread."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.stack: contextlib.AsyncExitStack | None = None
        self.url = ""

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(60)

    def start(self) -> None:
        self.stack = contextlib.AsyncExitStack()
        self.url = self.run(self.stack.enter_async_context(serve_in_loop(self.settings)))
        # The TD password is stored now; a restart need not hash it again (argon2 is slow).
        self.settings = dataclasses.replace(self.settings, td_password=None)

    def stop(self) -> None:
        if self.stack is not None:
            self.run(self.stack.aclose())
            self.stack = None

    def close(self) -> None:
        self.stop()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


class Display:
    """A hall display: folds snapshots and patches into its views; after any close or gap it
    resumes with ``?since=`` its version, as ``static/live.js`` does."""

    def __init__(self, tid: str) -> None:
        self.tid = tid
        self.views: dict[str, Any] = {}
        self.version: int | None = None
        self.ws: ClientConnection | None = None
        self.stack = contextlib.ExitStack()

    def close(self) -> None:
        self.stack.close()
        self.ws = None

    def catch_up(self, base: str, version: int) -> None:
        """Read until at ``version`` (reconnecting after a close or a gap)."""
        for _ in range(50):
            if self.ws is None:
                url = ws_url(base, self.tid, self.version)
                self.ws = self.stack.enter_context(ws_connect(url, open_timeout=5))
            try:
                while self.version != version:
                    if not self.fold(orjson.loads(self.ws.recv(timeout=5))):
                        self.close()  # a gap: resume from the version held
                        break
                else:
                    return
            except (ConnectionClosed, OSError):
                self.close()
        raise AssertionError(f"the display is at {self.version}, not {version}")

    def fold(self, message: dict[str, Any]) -> bool:
        if message["type"] == "snapshot":
            self.views, self.version = message["views"], message["version"]
        elif message["type"] == "patch":
            if message["base"] != self.version:
                return False
            for name, document in message["views"].items():
                self.views[name] = document
            for name, patch in message["patches"].items():
                if patch is None:
                    self.views.pop(name, None)
                else:
                    self.views[name] = mergepatch.apply(self.views.get(name, {}), patch)
            self.version = message["version"]
        return True
