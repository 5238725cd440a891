"""Connecting to the score store: one Redis server, the master of a Redis Sentinel set, or a
Redis Cluster.

``REDIS_URL`` names either a server (``redis://``, ``rediss://``, ``unix://``: redis-py's own URL
forms), a Sentinel set or a cluster::

    redis+sentinel://[user:password@]host:port[,host:port ...]/service[/db][?sentinel_username=…&sentinel_password=…]
    redis+cluster://[user:password@]host:port[,host:port ...]

A cluster's URL names any of its nodes (redis-py's ``RedisCluster`` learns the rest and follows
slot moves and failovers); its keys are named for it (``display/log/keys.py``).

``user:password`` sign in to the data servers (the app's ACL user, docs/redis.md); the sentinels
are asked with ``sentinel_username``/``sentinel_password`` when they need a password of their own.
A client on a Sentinel set asks the sentinels for the master whenever it opens a connection
(redis-py's ``SentinelConnectionPool``), so after a failover the next connection goes to the new
master by itself; while no master is known a command raises ``MasterNotFoundError`` (a
``ConnectionError``, which every route answers with 503 ``store_unavailable``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import parse_qs, unquote, urlsplit

import redis
import redis.cluster
import redis.sentinel
from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.sentinel import Sentinel as AsyncSentinel

SENTINEL_SCHEME = "redis+sentinel"
CLUSTER_SCHEME = "redis+cluster"


@dataclass(frozen=True)
class ClusterUrl:
    """A ``redis+cluster://`` URL taken apart: the nodes to start from, the user and password."""

    nodes: tuple[tuple[str, int], ...]
    username: str | None = None
    password: str | None = None


def _hosts(netloc: str) -> tuple[str | None, str | None, list[tuple[str, int]]]:
    """``user:password@host:port,host:port`` as (user, password, [(host, port) …]); raises
    ValueError for a host without a port."""
    credentials, _, hosts = netloc.rpartition("@")
    username, _, password = credentials.partition(":")
    found = []
    for host_port in hosts.split(","):
        host, _, port = host_port.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"REDIS_URL: a node is host:port, not {host_port!r}")
        found.append((host.strip("[]"), int(port)))
    return unquote(username) or None, unquote(password) if password else None, found


def cluster_url(url: str) -> ClusterUrl | None:
    """``url`` parsed as a Redis Cluster (module docstring), or None when it names no cluster.
    Raises ValueError for a node without a port."""
    parts = urlsplit(url)
    if parts.scheme != CLUSTER_SCHEME:
        return None
    username, password, nodes = _hosts(parts.netloc)
    return ClusterUrl(tuple(nodes), username, password)


@dataclass(frozen=True)
class SentinelUrl:
    """A ``redis+sentinel://`` URL taken apart: the sentinels' (host, port), the service (master)
    name, the database number, the data servers' user and password, and the sentinels' own."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_username: str | None = None
    sentinel_password: str | None = None

    def connection_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for the data servers' connections (redis-py's ``master_for``)."""
        return {"db": self.db, "username": self.username, "password": self.password}

    def sentinel_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for the connections to the sentinels themselves."""
        kwargs: dict[str, Any] = {}
        if self.sentinel_password is not None:
            kwargs["password"] = self.sentinel_password
        if self.sentinel_username is not None:
            kwargs["username"] = self.sentinel_username
        return kwargs


def sentinel_url(url: str) -> SentinelUrl | None:
    """``url`` parsed as a Sentinel set (module docstring), or None when it names one server.
    Raises ValueError for a ``redis+sentinel://`` URL without a sentinel, a port or a service."""
    parts = urlsplit(url)
    if parts.scheme != SENTINEL_SCHEME:
        return None
    username, password, sentinels = _hosts(parts.netloc)
    service, _, db = parts.path.strip("/").partition("/")
    if not service:
        raise ValueError("REDIS_URL: a Sentinel URL names its master: redis+sentinel://h:p/NAME")
    query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
    return SentinelUrl(
        tuple(sentinels),
        unquote(service),
        int(db or query.get("db", "0")),
        username,
        password,
        query.get("sentinel_username"),
        query.get("sentinel_password"),
    )


def store_hosts(url: str) -> list[str]:
    """The host names ``url`` reaches (the sentinels' for a Sentinel set), lower case; empty for
    a unix socket. ``display.settings.insecure_redis`` checks each."""
    found = sentinel_url(url)
    if found is not None:
        return [host.lower() for host, _ in found.sentinels]
    if (cluster := cluster_url(url)) is not None:
        return [host.lower() for host, _ in cluster.nodes]
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return []
    return [(parts.hostname or "localhost").lower()]


def has_password(url: str) -> bool:
    """Whether ``url`` signs in to the data servers with a password."""
    found = sentinel_url(url) or cluster_url(url)
    return bool(found.password) if found is not None else bool(urlsplit(url).password)


def connect(url: str, **kwargs: Any) -> Redis:
    """An asyncio client for ``url``: ``Redis.from_url``, or the master of a Sentinel set that
    follows failovers, or a ``RedisCluster`` (module docstring). ``kwargs`` go to every data
    connection."""
    if (cluster := cluster_url(url)) is not None:
        nodes = [ClusterNode(host, port) for host, port in cluster.nodes]
        client = RedisCluster(
            startup_nodes=nodes, username=cluster.username, password=cluster.password, **kwargs
        )
        # Not a subclass of Redis, but it has every command the server uses with the same
        # signatures (keys of one slot per command: display/log/keys.py).
        return cast(Redis, client)
    found = sentinel_url(url)
    if found is None:
        return Redis.from_url(url, **kwargs)
    # redis-py leaves Sentinel's constructor and the sync master_for unannotated
    sentinel = AsyncSentinel(  # type: ignore[no-untyped-call]
        list(found.sentinels), sentinel_kwargs=found.sentinel_kwargs(), **found.connection_kwargs()
    )
    return cast(Redis, sentinel.master_for(found.service, **kwargs))


def connect_sync(url: str) -> redis.Redis:
    """A blocking client for ``url`` (the command line's ``verify``), as ``connect``."""
    if (cluster := cluster_url(url)) is not None:
        nodes = [
            redis.cluster.ClusterNode(host, port)  # type: ignore[no-untyped-call]
            for host, port in cluster.nodes
        ]
        client = redis.cluster.RedisCluster(
            startup_nodes=nodes, username=cluster.username, password=cluster.password
        )
        return cast(redis.Redis, client)  # as in ``connect``
    found = sentinel_url(url)
    if found is None:
        return redis.Redis.from_url(url)
    sentinel = redis.sentinel.Sentinel(  # type: ignore[no-untyped-call]
        list(found.sentinels), sentinel_kwargs=found.sentinel_kwargs(), **found.connection_kwargs()
    )
    return cast(redis.Redis, sentinel.master_for(found.service))  # type: ignore[no-untyped-call]
