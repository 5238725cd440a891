"""Connecting to the score store: one Redis server, or the master of a Redis Sentinel set.

``REDIS_URL`` names either a server (``redis://``, ``rediss://``, ``unix://``: redis-py's own URL
forms) or a Sentinel set::

    redis+sentinel://[user:password@]host:port[,host:port ...]/service[/db][?sentinel_username=…&sentinel_password=…]

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
import redis.sentinel
from redis.asyncio import Redis
from redis.asyncio.sentinel import Sentinel as AsyncSentinel

SENTINEL_SCHEME = "redis+sentinel"


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
    credentials, _, hosts = parts.netloc.rpartition("@")
    username, _, password = credentials.partition(":")
    sentinels = []
    for host_port in hosts.split(","):
        host, _, port = host_port.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"REDIS_URL: a sentinel is host:port, not {host_port!r}")
        sentinels.append((host.strip("[]"), int(port)))
    service, _, db = parts.path.strip("/").partition("/")
    if not service:
        raise ValueError("REDIS_URL: a Sentinel URL names its master: redis+sentinel://h:p/NAME")
    query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
    return SentinelUrl(
        tuple(sentinels),
        unquote(service),
        int(db or query.get("db", "0")),
        unquote(username) or None,
        unquote(password) if credentials and password else None,
        query.get("sentinel_username"),
        query.get("sentinel_password"),
    )


def store_hosts(url: str) -> list[str]:
    """The host names ``url`` reaches (the sentinels' for a Sentinel set), lower case; empty for
    a unix socket. ``display.settings.insecure_redis`` checks each."""
    found = sentinel_url(url)
    if found is not None:
        return [host.lower() for host, _ in found.sentinels]
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return []
    return [(parts.hostname or "localhost").lower()]


def has_password(url: str) -> bool:
    """Whether ``url`` signs in to the data servers with a password."""
    found = sentinel_url(url)
    return bool(found.password) if found is not None else bool(urlsplit(url).password)


def connect(url: str, **kwargs: Any) -> Redis:
    """An asyncio client for ``url``: ``Redis.from_url``, or the master of a Sentinel set that
    follows failovers (module docstring). ``kwargs`` go to every data connection."""
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
    found = sentinel_url(url)
    if found is None:
        return redis.Redis.from_url(url)
    sentinel = redis.sentinel.Sentinel(  # type: ignore[no-untyped-call]
        list(found.sentinels), sentinel_kwargs=found.sentinel_kwargs(), **found.connection_kwargs()
    )
    return cast(redis.Redis, sentinel.master_for(found.service))  # type: ignore[no-untyped-call]
