"""The processes of one soak trial (bench/soak.py): a ``backglass serve`` process on a fixed port and
its Redis, started, SIGKILLed and started again on the same data; everything they started is stopped
at the end, by process id or process group only."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.util
import os
import signal
import socket
import ssl
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import redis

from bench.common import Child, free_port, stop_group
from display.embedded.redis import bundled_executable

TD_PASSWORD = "soak-td-password"

if importlib.util.find_spec("sniffio") is None:
    # httpcore imports sniffio on every request (httpcore/_synchronization.py); when it is not
    # installed each failed import searches all of sys.path again, about a millisecond of CPU a
    # request. A None entry makes the import fail at once; httpcore then assumes asyncio.
    sys.modules["sniffio"] = None  # type: ignore[assignment]


KEEPALIVE = 1.0
"""Seconds a soak client keeps an idle connection (well under the server's 5 s keep-alive)."""


@functools.cache
def _tls() -> ssl.SSLContext:
    return ssl.create_default_context()


def client(url: str, **options: Any) -> httpx.AsyncClient:
    """An httpx client for ``url`` (plain HTTP on loopback). All share one TLS context: httpx would
    otherwise load the CA bundle for each client, 0.05-0.25 s of CPU, some ten clients a trial.
    It drops a connection idle for ``KEEPALIVE`` s itself: one the server closes at its keep-alive
    timeout (uvicorn's 5 s) just as a request goes out fails that request with a ReadError, which
    the checks, idle for seconds while they replay a log on a busy machine, met."""
    limits = httpx.Limits(keepalive_expiry=KEEPALIVE)
    return httpx.AsyncClient(base_url=url, verify=_tls(), limits=limits, **options)


def _accepts(port: int) -> bool:
    """True once something listens on 127.0.0.1:``port``. uvicorn binds only after its startup (the
    replay of every log), so a refused connect, a few microseconds, means "not yet"."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _gone(pid: int) -> bool:
    """True once ``pid`` has exited (a zombie counts: it holds no socket and no file)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] in ("Z", "X")


def _signal_and_wait(pid: int, sig: int, timeout: float = 10.0) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)
    deadline = time.monotonic() + timeout
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.005)


class OwnRedis:
    """A redis-server of the rig's own: the embedded one's command line (display/embedded/redis.py)
    plus ``extra`` arguments, to show what the soak catches (``--appendonly no`` must fail it)."""

    def __init__(self, data_dir: Path, extra: list[str]) -> None:
        self.data_dir, self.extra = data_dir.resolve(), extra
        self.socket = self.data_dir / "redis.sock"
        self.process: Child | None = None

    def start(self, timeout: float = 20.0) -> str:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        args = [
            bundled_executable(), "--port", "0", "--unixsocket", str(self.socket),
            "--unixsocketperm", "700", "--dir", str(self.data_dir), "--appendonly", "yes",
            "--appendfsync", "always", "--save", "", "--daemonize", "no", *self.extra,
        ]  # fmt: skip
        self.process = Child("redis", args, log=self.data_dir / "redis.log")
        client = redis.Redis(unix_socket_path=str(self.socket))
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                with contextlib.suppress(redis.RedisError):
                    if client.ping():
                        return f"unix://{self.socket}"
                time.sleep(0.01)
        finally:
            client.close()
        raise RuntimeError(f"redis-server did not start:\n{self.process.log_tail()}")

    def kill(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()
            self.process.process.wait()  # reaped by stop(); this only records it
            self.process = None


class Rig:
    """A ``backglass serve`` process on a fixed port and its Redis, on data of one trial's own.

    Redis: the embedded one the server starts under ``work/data`` (the default; it outlives a
    killed server and is reused, as in production), ``redis_url`` with a fresh key prefix (never
    killed), or, with ``redis_args``, an ``OwnRedis``."""

    def __init__(
        self,
        work: Path,
        redis_url: str | None = None,
        redis_args: str = "",
        port: int | None = None,
    ) -> None:
        self.work = work.resolve()
        self.work.mkdir(parents=True, exist_ok=True)
        self.data = self.work / "data"
        self.port = port or free_port()
        self.own = OwnRedis(self.work / "own-redis", redis_args.split()) if redis_args else None
        self.external = None if self.own else redis_url
        self.prefix = f"soak-{uuid.uuid4().hex[:12]}" if self.external else "bg"
        self.server: Child | None = None
        self.td_token: str | None = None
        """The TD's session, made by the first trial on this rig; it outlives every restart."""

    @property
    def serving(self) -> bool:
        """True while the server started last is running (not killed, not exited)."""
        return self.server is not None and self.server.alive()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def can_kill_redis(self) -> bool:
        return self.external is None

    async def start(self, timeout: float = 60.0) -> float:
        """Start the server (and an own Redis that is down); seconds until it answers, i.e. until
        it has replayed every log (the replica catches up before the first request)."""
        began = time.perf_counter()
        redis_url = self.external or ""
        if self.own is not None and self.own.process is None:
            redis_url = await asyncio.to_thread(self.own.start)
        elif self.own is not None:
            redis_url = f"unix://{self.own.socket}"
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "BACKGLASS_DATA": str(self.data),
            "BACKGLASS_PREFIX": self.prefix,
            "BACKGLASS_TD_PASSWORD": TD_PASSWORD,
        }
        args = [sys.executable, "-m", "display", "serve", "--port", str(self.port)]
        self.server = Child("server", args, env, log=self.work / "server.log")
        async with client(self.url, timeout=2) as http:
            while time.perf_counter() - began < timeout:
                if not self.server.alive():
                    raise RuntimeError(f"the server exited:\n{self.server.log_tail()}")
                # a cheap connect every 5 ms, then one request to be sure it answers
                if _accepts(self.port):
                    with contextlib.suppress(httpx.TransportError):
                        if (await http.get("/api/tournaments")).status_code == 200:
                            return time.perf_counter() - began
                await asyncio.sleep(0.005)
        raise RuntimeError(f"the server did not answer in {timeout} s:\n{self.server.log_tail()}")

    def kill(self, with_redis: bool) -> None:
        """SIGKILL the server's process group, then (``with_redis``) its Redis; returns when both
        are gone. The embedded Redis runs in a session of its own, so a server kill spares it."""
        if self.server is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.server.pid, signal.SIGKILL)
            self.server.process.wait()
            self.server = None
        if with_redis and self.own is not None:
            self.own.kill()
        elif with_redis and not self._signal_embedded(signal.SIGKILL):
            raise RuntimeError(f"no embedded Redis to kill under {self.data}")

    def kill_redis(self) -> None:
        """SIGKILL the rig's Redis only (own or embedded), the server running on; returns when it
        is gone. The server's supervisor starts the embedded one again (an own Redis: ``recovered``)."""
        if self.own is not None:
            self.own.kill()
        elif not self._signal_embedded(signal.SIGKILL):
            raise RuntimeError(f"no embedded Redis to kill under {self.data}")

    async def recovered(self, tid: str, timeout: float = 60.0) -> float:
        """Seconds until the server that rode through a Redis kill is whole again: ``/api/health``
        says Redis answers and tournament ``tid`` is loaded, at the version of its last record in
        the store (``GET /api/t/{tid}/log``): the replica has read what landed while Redis went
        down (an append Redis ran before its death, answered "outcome unknown"), which it does only
        once its tail reconnects. Raises RuntimeError if that takes over ``timeout`` s or the
        server died."""
        began = time.perf_counter()
        if self.own is not None and self.own.process is None:
            await asyncio.to_thread(self.own.start)
        async with client(self.url, timeout=2) as http:
            while time.perf_counter() - began < timeout:
                if not self.serving:
                    raise RuntimeError("the server died while Redis was down")
                with contextlib.suppress(httpx.TransportError, ValueError, KeyError):
                    health = (await http.get("/api/health")).json()
                    shown = health.get("tournaments", {}).get(tid, {})
                    if health.get("redis") == "ok" and shown.get("state") == "ok":
                        log = await http.get(f"/api/t/{tid}/log")
                        if log.status_code == 200:
                            stored = max((r["seq"] for r in log.json()["records"]), default=0)
                            if shown.get("version") == stored:
                                return time.perf_counter() - began
                await asyncio.sleep(0.02)
        raise RuntimeError(f"Redis did not come back under the server in {timeout} s")

    def hang_redis(self, hung: bool) -> None:
        """SIGSTOP (``hung``) or SIGCONT the rig's Redis (own or embedded): a stopped Redis keeps
        its sockets, so commands sent meanwhile wait in them and run when it continues."""
        sig = signal.SIGSTOP if hung else signal.SIGCONT
        if self.own is not None and self.own.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.own.process.pid, sig)
        elif self.own is None and (pid := self._embedded_pid()) is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        elif hung:
            raise RuntimeError(f"no Redis to stop under {self.work}")

    def _embedded_pid(self) -> int | None:
        """The embedded Redis named by ``redis.pid``, only if it is the one serving this rig's
        socket (a stale pid file may name a reused pid). Its ``cmdline`` is the title Redis gives
        itself: ``redis-server unixsocket:<path>``."""
        try:
            pid = int((self.data / "redis.pid").read_text())
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (FileNotFoundError, ValueError):
            return None
        if b"redis-server" not in cmdline or str(self.data / "redis.sock").encode() not in cmdline:
            return None
        return pid

    def _signal_embedded(self, sig: int) -> bool:
        """Signal the embedded Redis (``_embedded_pid``) and wait until it is gone."""
        if (pid := self._embedded_pid()) is None:
            return False
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)  # a stopped process would not act on SIGTERM
        _signal_and_wait(pid, sig)
        return True

    def close(self) -> None:
        """Stop everything this rig started; delete its keys on an external Redis."""
        if self.server is not None:
            stop_group(self.server.process)
            self.server.process.wait()  # reaped by stop_group; this only records it
            self.server = None
        if self.own is not None:
            self.hang_redis(False)  # a stopped Redis would not act on SIGTERM
            self.own.stop()
        elif self.external is None:
            self._signal_embedded(signal.SIGTERM)
        else:
            client = redis.Redis.from_url(self.external)
            keys = list(client.scan_iter(f"{self.prefix}:*", count=1000))
            if keys:
                client.delete(*keys)
            client.close()
