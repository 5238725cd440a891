"""Redis key names, on one server and on a Redis Cluster.

On one server (and a Sentinel set) the names are as they always were: ``P:name`` for what the
whole installation shares (``P:registry``, ``P:td``, ``P:sessions`` …) and ``P:t:ID:name`` for a
tournament's keys (``P:t:ID:log``, ``P:t:ID:idem:KEY``, ``P:t:ID:stewards`` …), so an existing
store (a user's ``.data``) is read as it is.

On a Redis Cluster a command, a script or a MULTI may only touch keys of one hash slot, and the
slot of a key is that of the text between its first ``{`` and ``}`` (its hash tag) when it has
one. So there every tournament's keys carry the tournament's id as their tag, ``P:t:{ID}:name``:
a tournament lives on one shard and its compare-and-append script runs there; and the shared keys
carry the prefix as theirs, ``{P}:name``, so the sign-in transactions (a session and the list of
sessions) stay in one slot. A cluster store's *key prefix* is therefore written ``{P}``
(``store_prefix``), and ``tournament_key`` takes the braces off it and puts them round the id.
"""

from __future__ import annotations

from display.log.connection import cluster_url


def store_prefix(prefix: str, url: str | None) -> str:
    """The prefix the store's shared keys start with: ``prefix`` itself, or ``{prefix}`` when
    ``url`` names a Redis Cluster (module docstring). Raises ValueError for a cluster prefix with
    a brace (it would end the hash tag early)."""
    if url is None or cluster_url(url) is None:
        return prefix
    if "{" in prefix or "}" in prefix:
        raise ValueError(f"BACKGLASS_PREFIX {prefix!r}: no braces on a Redis Cluster")
    return f"{{{prefix}}}"


def is_cluster(prefix: str) -> bool:
    """Whether ``prefix`` (a ``store_prefix``) is a cluster store's ``{P}``."""
    return prefix.startswith("{") and prefix.endswith("}")


def tournament_key(prefix: str, tournament: str, name: str) -> str:
    """Key ``name`` of ``tournament`` (``log``, ``idem:KEY``, ``stewards`` …): ``P:t:ID:name``, or
    ``P:t:{ID}:name`` in a cluster store (``prefix`` ``{P}``)."""
    if is_cluster(prefix):
        return f"{prefix[1:-1]}:t:{{{tournament}}}:{name}"
    return f"{prefix}:t:{tournament}:{name}"


def tournament_of_log(prefix: str, key: str) -> str | None:
    """The tournament whose log ``key`` is (``tournament_key(prefix, ID, "log")``), else None."""
    head = f"{prefix[1:-1]}:t:{{" if is_cluster(prefix) else f"{prefix}:t:"
    tail = "}:log" if is_cluster(prefix) else ":log"
    if key.startswith(head) and key.endswith(tail) and len(key) > len(head) + len(tail):
        return key[len(head) : -len(tail)]
    return None
