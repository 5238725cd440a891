"""Real Redis processes on loopback for tests: servers, replicas and a Sentinel, started and
killed by the test itself (Debian's ``redis-server``; a sentinel is ``redis-server --sentinel``).

Every data server has the app's ACL user of docs/redis.md (``APP_RULES``) with ``APP_PASSWORD``;
the ``default`` user is the operator's, with ``ADMIN_PASSWORD`` (replicas and the sentinel sign in
with it). Given ``acl`` (``documented_acl``: the ``ACL SETUSER`` lines docs/deploy.md tells an
operator to run), a node starts with no user but ``default`` and has those lines run on it as it
comes up instead, as an operator would."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from display.embedded.redis import APP_RULES, APP_USER
from display.settings import Settings
from tests.utils import ROOT, TD_PASSWORD, free_port

APP_PASSWORD = "app-password"
ADMIN_PASSWORD = "admin-password"
SERVICE = "backglass"
SENTINEL_USER, SENTINEL_PASSWORD = "backglass-sentinel", "sentinel-password"
DEPLOY = ROOT / "docs" / "deploy.md"
PLACEHOLDERS = {
    "ADMIN-PASSWORD": ADMIN_PASSWORD,
    "SENTINEL-PASSWORD": SENTINEL_PASSWORD,
    "PASSWORD": APP_PASSWORD,
}

Acl = list[list[str]]
"""``ACL SETUSER`` commands, each as its arguments (``["ACL", "SETUSER", "backglass", ...]``)."""


def documented_acl(heading: str, block: int = 0) -> Acl:
    """The ``ACL SETUSER`` lines of code block number ``block`` (0: the first) of section
    ``heading`` (a ``###`` title) of docs/deploy.md, with the placeholders PASSWORD,
    ADMIN-PASSWORD and SENTINEL-PASSWORD replaced by the tests' passwords. Raises LookupError
    when the section or the block is missing, or the block holds anything but such lines: the
    test applies exactly what the page says."""
    blocks: list[list[str]] = []  # the section's code blocks, by line
    inside = fenced = False
    for line in DEPLOY.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
            if fenced and inside:
                blocks.append([])
        elif not fenced and line.startswith("#"):  # a heading (a "#" in a code block is not)
            inside = line == f"### {heading}"
        elif fenced and inside:
            blocks[-1].append(line)
    if len(blocks) <= block:
        raise LookupError(f"docs/deploy.md has no code block {block} under '### {heading}'")
    commands = []
    for line in blocks[block]:
        args = shlex.split(line)
        if args[:2] != ["ACL", "SETUSER"]:
            raise LookupError(f"not an ACL SETUSER line in '{heading}': {line}")
        for n, arg in enumerate(args):
            if arg.startswith(">"):  # a password: the whole placeholder, ">PASSWORD"
                if arg[1:] not in PLACEHOLDERS:
                    raise LookupError(f"unknown password placeholder {arg} in '{heading}'")
                args[n] = f">{PLACEHOLDERS[arg[1:]]}"
        commands.append(args)
    return commands


def redis_server() -> str:
    """Debian's redis-server (scripts/install --test installs it); fails the test without it."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("these tests need Debian's redis-server (scripts/install --test)")
    return binary


def wait_until(check: object, timeout: float, what: str) -> None:
    """Call ``check`` (a callable returning truthy) every 50 ms until it does; RuntimeError
    naming ``what`` after ``timeout`` seconds. Redis errors while waiting count as not yet."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(redis.RedisError, OSError):
            if check():  # type: ignore[operator]
                return
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


def run_as_operator(port: int, acl: Acl, what: str) -> None:
    """Run ``acl`` on the server or sentinel at ``port`` as the operator's first connection does:
    its default user has no password yet. Waits up to 10 s for it to answer."""
    bare = redis.Redis(port=port, socket_timeout=2)
    wait_until(bare.ping, 10, what)
    for command in acl:
        bare.execute_command(*command)
    bare.close()


class Node:
    """One ``redis-server`` on 127.0.0.1 with its own directory; ``args`` are extra config;
    ``acl``: commands run on it as soon as it answers (before anything else uses it)."""

    def __init__(self, root: Path, name: str, args: list[str], acl: Acl | None = None) -> None:
        self.port = free_port()
        self.dir = root / name
        self.dir.mkdir(parents=True)
        self.args = args
        self.acl = acl
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        args = [redis_server(), *self.args, "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--dir", str(self.dir), "--logfile", str(self.dir / "redis.log")]
        self.process = subprocess.Popen(args, start_new_session=True, cwd=self.dir)
        if self.acl is not None:
            run_as_operator(self.port, self.acl, f"redis on port {self.port}")
        wait_until(lambda: self.admin().ping(), 10, f"redis on port {self.port}")

    def admin(self) -> redis.Redis:
        return redis.Redis(port=self.port, password=ADMIN_PASSWORD, socket_timeout=2)

    def kill(self) -> None:
        """SIGKILL, as a machine's death would stop it."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None


def data_args(acl: Acl | None = None) -> list[str]:
    """A durable data server with the app's user, as docs/redis.md configures one; with ``acl``
    the users are left to those commands (``Node``), only ``masterauth`` is configured."""
    durable = [
        "--appendonly", "yes", "--appendfsync", "always", "--save", "",
        "--repl-diskless-sync-delay", "0",  # a replica syncs at once, not 5 s later
        "--masterauth", ADMIN_PASSWORD,
    ]  # fmt: skip
    if acl is not None:
        return durable
    return [
        *durable, "--requirepass", ADMIN_PASSWORD,
        "--user", APP_USER, "reset", "on", f">{APP_PASSWORD}", *APP_RULES.split(),
    ]  # fmt: skip


class SentinelSet:
    """A master, ``replicas`` replicas of it and one sentinel watching them (quorum 1: one
    sentinel may decide a failover; production runs three, docs/deploy.md)."""

    def __init__(
        self,
        root: Path,
        replicas: int = 2,
        acl: Acl | None = None,
        sentinel_acl: Acl | None = None,
    ) -> None:
        self.master = Node(root, "master", data_args(acl), acl)
        self.replicas = [Node(root, f"replica-{n}", data_args(acl), acl) for n in range(replicas)]
        self.sentinel_port = free_port()
        self.sentinel_dir = root / "sentinel"
        self.sentinel: subprocess.Popen[bytes] | None = None
        # run on the sentinel once it answers; the app then signs in to it as SENTINEL_USER
        self.sentinel_acl = sentinel_acl

    @property
    def url(self) -> str:
        """REDIS_URL for the app: its ACL user on the master the sentinel names (and, with a
        ``sentinel_acl``, its user on the sentinel)."""
        url = f"redis+sentinel://{APP_USER}:{APP_PASSWORD}@127.0.0.1:{self.sentinel_port}/{SERVICE}"
        if self.sentinel_acl is not None:
            url += f"?sentinel_username={SENTINEL_USER}&sentinel_password={SENTINEL_PASSWORD}"
        return url

    def start(self) -> None:
        self.master.start()
        for node in self.replicas:
            node.args += ["--replicaof", "127.0.0.1", str(self.master.port)]
            node.start()
        wait_until(self._replicas_linked, 15, "the replicas to sync")
        self.sentinel_dir.mkdir()
        conf = self.sentinel_dir / "sentinel.conf"
        conf.write_text(
            f"sentinel monitor {SERVICE} 127.0.0.1 {self.master.port} 1\n"
            f"sentinel auth-pass {SERVICE} {ADMIN_PASSWORD}\n"
            f"sentinel down-after-milliseconds {SERVICE} 400\n"
            f"sentinel failover-timeout {SERVICE} 2000\n"
            # known from the start, as a sentinel's own rewritten config lists them: else it
            # learns them from the master's INFO, every 10 s
            + "".join(
                f"sentinel known-replica {SERVICE} 127.0.0.1 {node.port}\n"
                for node in self.replicas
            )
        )
        args = [redis_server(), str(conf), "--sentinel", "--port", str(self.sentinel_port)]
        args += ["--bind", "127.0.0.1", "--dir", str(self.sentinel_dir)]
        args += ["--logfile", str(self.sentinel_dir / "sentinel.log")]
        self.sentinel = subprocess.Popen(args, start_new_session=True)
        if self.sentinel_acl is not None:
            run_as_operator(
                self.sentinel_port, self.sentinel_acl, f"the sentinel on port {self.sentinel_port}"
            )
        wait_until(self._sentinel_sees_replicas, 20, "the sentinel to find the replicas")

    def _replicas_linked(self) -> bool:
        info = self.master.admin().info("replication")
        return int(info["connected_slaves"]) == len(self.replicas) and all(
            node.admin().info("replication")["master_link_status"] == "up" for node in self.replicas
        )

    def sentinel_client(self) -> redis.Redis:
        """The operator's client of the sentinel (the ``default`` user)."""
        password = ADMIN_PASSWORD if self.sentinel_acl is not None else None
        return redis.Redis(
            port=self.sentinel_port, password=password, socket_timeout=2, decode_responses=True
        )

    def _sentinel_sees_replicas(self) -> bool:
        found = self.sentinel_client().sentinel_slaves(SERVICE)
        return len(found) == len(self.replicas)

    def master_port(self) -> int:
        """The master's port as the sentinel names it now."""
        _, port = self.sentinel_client().sentinel_get_master_addr_by_name(SERVICE)
        return int(port)

    def node(self, port: int) -> Node:
        return next(n for n in (self.master, *self.replicas) if n.port == port)

    def stop(self) -> None:
        if self.sentinel is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.sentinel.pid, signal.SIGKILL)
            self.sentinel.wait()
        for node in (self.master, *self.replicas):
            node.kill()


@contextlib.contextmanager
def sentinel_set(
    root: Path, replicas: int = 2, acl: Acl | None = None, sentinel_acl: Acl | None = None
) -> Iterator[SentinelSet]:
    """A started ``SentinelSet`` under ``root`` (``acl``: run on every data server as it starts,
    ``sentinel_acl`` on the sentinel), killed afterwards whatever happened."""
    found = SentinelSet(root, replicas, acl, sentinel_acl)
    try:
        found.start()
        yield found
    finally:
        found.stop()


class Cluster:
    """A Redis Cluster of ``masters`` masters (and ``replicas`` replicas of each) on loopback (``redis-server --cluster-enabled yes``,
    joined by ``redis-cli --cluster create``), each owning an even share of the 16384 slots in
    port order: the first 0-5460, the second 5461-10922, the third 10923-16383 for three."""

    def __init__(
        self, root: Path, masters: int = 3, replicas: int = 0, acl: Acl | None = None
    ) -> None:
        self.replicas = replicas
        self.nodes = []
        for n in range(masters * (1 + replicas)):
            bus = free_port()  # the cluster bus: set, since port + 10000 may not exist
            args = ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]
            args += ["--cluster-node-timeout", "1000", "--cluster-port", str(bus)]
            self.nodes.append(Node(root, f"node-{n}", [*data_args(acl), *args], acl))

    @property
    def url(self) -> str:
        """REDIS_URL for the app: its ACL user, the first node to start from."""
        return f"redis+cluster://{APP_USER}:{APP_PASSWORD}@127.0.0.1:{self.nodes[0].port}"

    def start(self) -> None:
        for node in self.nodes:
            node.start()
        addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
        replicas = ["--cluster-replicas", str(self.replicas)]
        subprocess.run(
            ["redis-cli", "--cluster", "create", *addresses, *replicas, "--cluster-yes"],
            env={**os.environ, "REDISCLI_AUTH": ADMIN_PASSWORD},
            check=True,
            capture_output=True,
            timeout=30,
        )
        wait_until(self._ok, 20, "the cluster to agree")

    def _ok(self) -> bool:
        for node in self.nodes:
            info = node.admin().cluster("info")
            if info["cluster_state"] != "ok" or int(info["cluster_known_nodes"]) != len(self.nodes):
                return False
        return True

    def master_of(self, key: str) -> Node:
        """The node that is the master of ``key``'s slot now, as a live node sees it."""
        for node in self.nodes:
            if node.process is None:
                continue
            with contextlib.suppress(redis.RedisError):
                admin = node.admin()
                slot = int(admin.execute_command("CLUSTER", "KEYSLOT", key))
                for low, high, master, *_ in admin.execute_command("CLUSTER", "SLOTS"):
                    if low <= slot <= high:
                        return next(n for n in self.nodes if n.port == int(master[1]))
        raise RuntimeError(f"no master for {key}")

    def keys_on(self, node: Node, pattern: str) -> set[str]:
        """The keys matching ``pattern`` that ``node`` itself holds."""
        return {key.decode() for key in node.admin().scan_iter(pattern, count=1000)}

    def stop(self) -> None:
        for node in self.nodes:
            node.kill()


@contextlib.contextmanager
def cluster(
    root: Path, masters: int = 3, replicas: int = 0, acl: Acl | None = None
) -> Iterator[Cluster]:
    """A started ``Cluster`` under ``root`` (``replicas`` per master; ``acl``: run on every node
    as it starts), killed afterwards whatever happened."""
    found = Cluster(root, masters, replicas, acl)
    try:
        found.start()
        yield found
    finally:
        found.stop()


def node_settings(url: str, data_dir: Path, wait_replicas: int = 0) -> Settings:
    """A server's settings for these nodes: ``url`` (a set's or a cluster's), a heartbeat of a
    second, and with ``wait_replicas`` every write acknowledged only once that many replicas have
    it. Its ``WAIT`` timeout is long enough that a loaded machine's replica confirms before a
    test's kill: a write not confirmed in time (503) but read back by the tail from the master,
    then lost with it, would leave the server "ahead" of the new master (docs/store-loss.md)."""
    return Settings(
        redis_url=url,
        data_dir=data_dir,
        td_password=TD_PASSWORD,
        heartbeat_seconds=1.0,
        wait_replicas=wait_replicas,
        wait_timeout_ms=5000,
    )
