"""Small helpers shared by the benchmark processes: clocks, ports, limits, child processes,
percentiles and a minimal keep-alive HTTP/1.1 client for score pushes.

Timestamps: every process uses ``time.perf_counter``. On Linux it is ``clock_gettime(CLOCK_MONOTONIC)``,
one clock for the whole machine, so a time taken in the client process can be subtracted from one
taken in the pusher. ``check_clock`` refuses to run where that does not hold.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

now = time.perf_counter


def check_clock() -> None:
    """Exit unless perf_counter is the system-wide CLOCK_MONOTONIC (comparable across processes)."""
    info = time.get_clock_info("perf_counter")
    if "CLOCK_MONOTONIC" not in info.implementation or "RAW" in info.implementation:
        sys.exit(
            f"bench: perf_counter is {info.implementation}; cross-process timestamps need "
            "clock_gettime(CLOCK_MONOTONIC) (Linux)."
        )


def raise_nofile(wanted: int = 65536) -> int:
    """Raise the soft RLIMIT_NOFILE towards ``wanted`` (capped by the hard limit); returns it.

    Children inherit it, so raising it in the orchestrator covers the server processes too."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def use_uvloop() -> str:
    """Install uvloop's event loop policy if available (uvicorn's ``loop="auto"`` does the same, so
    the bare server and the clients run on the loop Backglass runs on). Returns the loop's name."""
    try:
        import uvloop  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return "asyncio"
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return "uvloop"


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) with linear interpolation between closest ranks (numpy's
    default). With 100 samples p99 lies between the two largest."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def summary_ms(values: Sequence[float]) -> dict[str, float]:
    """Seconds -> {p50, p90, p99, max, mean} in milliseconds."""
    if not values:
        return {
            "p50": math.nan,
            "p90": math.nan,
            "p99": math.nan,
            "max": math.nan,
            "mean": math.nan,
        }
    return {
        "p50": percentile(values, 50) * 1e3,
        "p90": percentile(values, 90) * 1e3,
        "p99": percentile(values, 99) * 1e3,
        "max": max(values) * 1e3,
        "mean": sum(values) / len(values) * 1e3,
    }


class Child:
    """A child process in a session of its own (Ctrl-C in the terminal reaches only the
    orchestrator, which then ends each child and everything the child started, e.g. the embedded
    Redis, by process group)."""

    def __init__(
        self, name: str, args: list[str], env: dict[str, str] | None = None, log: Path | None = None
    ) -> None:
        self.name = name
        self.log = log
        out = open(log, "ab") if log is not None else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            args,
            env=env,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
        if log is not None:
            out.close()  # type: ignore[union-attr]

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, chars: int = 3000) -> str:
        if self.log is None or not self.log.exists():
            return ""
        return self.log.read_text(errors="replace")[-chars:]

    def stop(self, timeout: float = 10) -> None:
        """SIGTERM the process group, then SIGKILL it if still there after ``timeout``."""
        stop_group(self.process, timeout)


def stop_group(process: subprocess.Popen[Any], timeout: float = 10) -> None:
    """End a child started with ``start_new_session=True`` and its whole process group."""
    pid = process.pid
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            break
        time.sleep(0.05)
    # the group may outlive its leader (an embedded redis-server): make sure it is gone
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


class HttpError(RuntimeError):
    pass


class RawHttp:
    """One keep-alive HTTP/1.1 connection that POSTs JSON and reads the answer.

    Deliberately minimal (no httpx) so the pusher adds as little as possible to a measured push;
    it understands exactly what uvicorn answers: a status line, headers with Content-Length, a body.
    """

    def __init__(self, host: str, port: int, token: str) -> None:
        self.host, self.port, self.token = host, port, token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        sock = self.writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def request(self, path: str, body: bytes) -> bytes:
        """The bytes of a POST (built before the clock starts)."""
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Authorization: Bearer {self.token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        return head.encode() + body

    async def send(self, request: bytes) -> tuple[int, bytes]:
        """Write a prepared request and read its response: (status, body)."""
        assert self.reader is not None and self.writer is not None
        self.writer.write(request)
        status_line = await self.reader.readline()
        if not status_line:
            raise HttpError("connection closed by the server")
        status = int(status_line.split()[1])
        length = None
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value.strip())
            elif name == b"transfer-encoding":
                raise HttpError("chunked responses are not expected from the score API")
        body = await self.reader.readexactly(length) if length else b""
        return status, body

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
