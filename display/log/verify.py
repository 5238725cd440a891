"""``backglass verify``: check each tournament log's hash chain, in Redis or in an exported file.

The chain is defined in ``display/log/integrity.py`` (``chain_hash``, ``GENESIS``) and ``docs/integrity.md``.
A log checks out when its seqs count 1, 2, 3 … without a gap and every hashed entry's ``h`` equals
``sha256(prev + "\\n" + r)`` recomputed from the bytes stored. Entries without ``h`` before the
first hashed one are "not chained" (a log written before the chain existed, or with it off): not
an error, but nothing protects them. An entry without ``h`` after the chain began is a break.

What a break means: the first entry whose recomputed hash differs is the one that was altered,
or the first after a record was removed or moved (the chain links each entry to the one before).
What the chain cannot show: records cut off the end, or a whole log rewritten with fresh hashes
by someone with write access to Redis. Compare the head (seq and hash, printed) with one noted
earlier, e.g. in an earlier export, for that.

Where it looks: ``--data`` (or REDIS_URL) and ``BACKGLASS_PREFIX``, else the default data directory
(``.data``, prefix ``bg``) and, when that holds no tournaments, the demo's (``.data/demo``, prefix
``bg-demo``, ``display.settings.demo_settings``); it prints which it checked. ``backglass restore``
picks its store the same way (``locate``).

Exit codes: 0 every log checks out, 1 a log is broken, 2 nothing to check (no such tournament,
data directory or file).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import click
import orjson
import redis

from display.embedded.redis import EmbeddedRedis
from display.log.connection import connect_sync
from display.log.integrity import GENESIS, chain_hash
from display.log.keys import store_prefix, tournament_key
from display.log.store import reply_text, stream_entries
from display.settings import Settings, demo_settings

PAGE = 10_000


@dataclass(frozen=True)
class Break:
    """Where a chain first fails: ``seq``, why in words, and the hashes (recomputed ``expected``,
    stored ``found``; None where there is no hash to show)."""

    seq: int
    why: str
    expected: str | None = None
    found: str | None = None


class Chain:
    """One log's check, fed its entries in order with ``feed``; ``report`` says the outcome."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.records = 0
        self.chained = 0
        self.unchained = 0
        self.head: tuple[int, str] | None = None  # the last hashed entry: seq, h
        self.broken: Break | None = None
        self.chained_from = 0
        self.last_seq = 0
        self._prev = GENESIS

    @property
    def ok(self) -> bool:
        """True while no break in the hash chain has been found."""
        return self.broken is None

    def feed(self, seq: int, raw: bytes, h: str | None) -> None:
        """The entry at ``seq``: its stored record bytes ``raw`` and stored hash ``h`` (or None)."""
        self.records += 1
        if h is None:
            self.unchained += 1
        else:
            self.chained += 1
        if self.broken is not None:
            return
        expected_seq, self.last_seq = self.last_seq + 1, seq
        if seq != expected_seq:
            why = f"record {expected_seq} is not there (found {seq}): one was removed or moved"
            self.broken = Break(expected_seq, why)
            return
        want = chain_hash(self._prev, raw)
        if h is None:
            if self.head is not None:
                why = f"it has no hash, though the chain began at seq {self.chained_from}"
                self.broken = Break(seq, why, want, None)
            return
        if h != want:
            why = "its hash does not match: it, or the record before it, was altered or removed"
            self.broken = Break(seq, why, want, h)
            return
        if self.head is None:
            self.chained_from = seq
        self._prev, self.head = h, (seq, h)

    def report(self) -> list[str]:
        """The lines ``backglass verify`` prints for this log."""
        line = f"{self.name}: {self.records} records, {self.chained} chained"
        if self.unchained:
            line += f", {self.unchained} not chained"
        if self.broken is None:
            head = f"; head seq {self.head[0]} {self.head[1]}" if self.head else ""
            return [f"{line}: OK{head}"]
        lines = [f"{line}: FAILED at seq {self.broken.seq}: {self.broken.why}"]
        if self.broken.expected is not None:
            lines.append(f"  expected {self.broken.expected}")
            lines.append(f"  found    {self.broken.found or '(no hash)'}")
        return lines


def check(name: str, entries: Iterable[tuple[int, bytes, str | None]]) -> Chain:
    """Check one log given as (seq, record bytes, hash or None) in order."""
    chain = Chain(name)
    for seq, raw, h in entries:
        chain.feed(seq, raw, h)
    return chain


def redis_entries(
    client: redis.Redis, prefix: str, tournament: str
) -> Iterator[tuple[int, bytes, str | None]]:
    """A tournament's log entries as stored (``display/log/store.py`` keys), a page at a time."""
    key, after = tournament_key(prefix, tournament, "log"), "-"
    while True:
        page = stream_entries(client.xrange(key, min=after, count=PAGE))
        for entry_id, fields in page:
            h = fields.get(b"h")
            raw = fields[b"r"]  # the bytes stored: the chain hashes exactly these
            yield (
                int(entry_id.partition("-")[0]),
                raw if isinstance(raw, bytes) else raw.encode(),
                None if h is None else reply_text(h),
            )
        if len(page) < PAGE:
            return
        after = "(" + page[-1][0]


def tournaments(client: redis.Redis, prefix: str) -> list[str]:
    """Every registered tournament, in creation order (as ``LogStore.tournaments``)."""
    seen: dict[str, None] = {}
    for _, fields in stream_entries(client.xrange(f"{prefix}:registry")):
        seen.setdefault(reply_text(fields[b"t"]), None)
    return list(seen)


class BadLine(ValueError):
    """A line of an exported log that is not a record (a JSON object with an integer seq)."""

    def __init__(self, line: int) -> None:
        super().__init__(f"line {line} is not a JSON record")


def file_entries(text: bytes) -> Iterator[tuple[int, bytes, str | None]]:
    """An exported log's entries: each line's record re-serialised without ``seq`` and ``h``,
    which gives back the bytes stored (the export is ``orjson`` of the same dict, and orjson
    round-trips its own output byte for byte). Raises BadLine."""
    seq = 0
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = orjson.loads(line)
        except orjson.JSONDecodeError:
            raise BadLine(line_no) from None
        if not isinstance(data, dict) or not isinstance(data.get("seq", 0), int):
            raise BadLine(line_no)
        seq = data.pop("seq", seq + 1)
        h = data.pop("h", None)
        yield seq, orjson.dumps(data), h if isinstance(h, str) else None


def verify_file(path: Path) -> Chain:
    """Check an exported log file (``GET /api/t/{id}/export/log.jsonl``)."""
    return verify_file_bytes(path.read_bytes(), path.name)


def verify_file_bytes(text: bytes, name: str = "log") -> Chain:
    """Check an exported log's bytes; a line that is not a record breaks the chain there."""
    chain = Chain(name)
    try:
        for seq, raw, h in file_entries(text):
            chain.feed(seq, raw, h)
    except BadLine as bad:
        chain.broken = chain.broken or Break(chain.last_seq + 1, str(bad))
    return chain


def verify_redis(client: redis.Redis, prefix: str, only: Iterable[str] = ()) -> list[Chain]:
    """Check ``only`` these tournaments (every one when empty). Raises click.UsageError (exit 2)
    for an unknown one."""
    known = tournaments(client, prefix)
    wanted = list(only) or known
    for tid in wanted:
        if tid not in known:
            raise click.UsageError(f"There is no tournament {tid} in this Redis.")
    return [check(tid, redis_entries(client, prefix, tid)) for tid in wanted]


def candidates(data: Path | None) -> list[Settings]:
    """Where to look, in order: ``--data`` alone; else the environment's data directory and prefix
    and then the demo's (``demo_settings``), when that is another place."""
    settings = Settings.from_env()
    if data is not None:
        return [dataclasses.replace(settings, data_dir=data)]
    demo = demo_settings(settings)
    same = (demo.data_dir, demo.key_prefix) == (settings.data_dir, settings.key_prefix)
    return [settings] if same else [settings, demo]


def where(settings: Settings) -> str:
    """The store of ``settings`` in words: "in .data/demo (prefix bg-demo)"; never the URL (it
    may hold a password)."""
    place = "the Redis of REDIS_URL" if settings.redis_url else str(settings.data_dir)
    return f"in {place} (prefix {settings.key_prefix})"


def has_store(settings: Settings) -> bool:
    """Whether ``settings`` point at a store that may hold tournaments: an external Redis, or a
    data directory whose embedded Redis has been started (its ``redis-password``), so a look
    never makes a Redis in a directory that had none."""
    return settings.redis_url is not None or (settings.data_dir / "redis-password").exists()


@contextlib.contextmanager
def connected(settings: Settings) -> Iterator[redis.Redis]:
    """A client of the store of ``settings``: REDIS_URL's, or the data directory's embedded Redis
    (the running server's, else started here and stopped again)."""
    embedded = None
    url = settings.redis_url
    if url is None:
        embedded = EmbeddedRedis(settings.data_dir)
        url = embedded.start()
    client = connect_sync(url)
    try:
        yield client
    finally:
        client.close()
        if embedded is not None:
            embedded.stop()  # only if this command started it


def known(settings: Settings, client: redis.Redis) -> set[str]:
    """Tournaments of this store: registered, or in the high-water file (one Redis lost)."""
    found = set(tournaments(client, store_prefix(settings.key_prefix, settings.redis_url)))
    path = settings.data_dir / f"watermark-{settings.key_prefix}.json"
    with contextlib.suppress(OSError, orjson.JSONDecodeError, AttributeError):
        found.update(orjson.loads(path.read_bytes()).get("tournaments", {}))
    return found


def locate(
    places: list[Settings], data: Path | None, wanted: Iterable[str] = (), strict: bool = True
) -> Settings:
    """The store to use: the first of ``places`` (``candidates(data)``) that holds every
    ``wanted`` tournament (any tournament when none is wanted), else the first. ``strict``: raise
    click.UsageError (exit 2) when ``--data`` names no directory, or when there is no data
    directory at all (``restore`` may make one)."""
    wanted = set(wanted)
    for settings in places if len(places) > 1 else ():  # one place: nothing to choose
        if not has_store(settings):
            continue
        with connected(settings) as client:
            held = known(settings, client)
        if (wanted <= held) if wanted else held:
            return settings
    first = places[0]
    if strict and first.redis_url is None and not first.data_dir.is_dir():
        named = data or first.data_dir
        raise click.UsageError(f"No data directory {named} (give --data, or REDIS_URL).")
    return first


@click.command("verify")
@click.option("--data", type=click.Path(path_type=Path), default=None, help="Data directory.")
@click.option("--tournament", "only", multiple=True, help="Only this tournament (repeatable).")
@click.option(
    "--file",
    "files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="An exported log (log.jsonl) to check instead of Redis (repeatable).",
)
def verify(data: Path | None, only: tuple[str, ...], files: tuple[Path, ...]) -> None:
    """Check that no record of a tournament log was altered, removed or reordered.

    Checks each tournament's hash chain in Redis (REDIS_URL, else the embedded Redis of the data
    directory: --data, BACKGLASS_DATA, or .data and, when that holds none, the demo's .data/demo),
    or exported logs with --file. Prints per log: records, chained, and OK with the head (note it:
    records cut off the end show only against it) or the first record that fails, then which
    store it checked. Exit code 0 when all are OK, 1 when one is not.
    """
    if files:
        chains = [verify_file(path) for path in files]
    else:
        places = candidates(data)
        settings = locate(places, data, only)
        chains = _from_redis(settings, only)
    for chain in chains:
        for line in chain.report():
            click.echo(line)
    if not files:
        click.echo(summary(chains, settings, places))
    if not all(chain.ok for chain in chains):
        raise click.exceptions.Exit(1)


def summary(chains: list[Chain], settings: Settings, places: list[Settings]) -> str:
    """The last line: how many were checked, where, and how it went (with none: every place
    looked in)."""
    if not chains:
        return f"No tournaments {' or '.join(where(place) for place in places)}."
    failed = sum(not chain.ok for chain in chains)
    count = f"{len(chains)} tournament{'s' if len(chains) != 1 else ''}"
    outcome = "all OK" if not failed else f"{failed} FAILED"
    return f"Checked {count} {where(settings)}: {outcome}."


def _from_redis(settings: Settings, only: tuple[str, ...]) -> list[Chain]:
    if not has_store(settings):
        if only:
            raise click.UsageError(f"There is no tournament {only[0]} {where(settings)}.")
        return []
    with connected(settings) as client:
        return verify_redis(client, store_prefix(settings.key_prefix, settings.redis_url), only)
