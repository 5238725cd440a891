"""Sign-in for the tournament director (TD) and stewards; hashing by argon2-cffi.

The TD has one password per installation. Unless ``BACKGLASS_TD_PASSWORD`` gives one, it is made on
the first start and kept in the data directory (``td-password``, mode 0600, directory 0700), so every
later start, every process on that data directory and every demo run signs in with the same one
(``ensure_td_password`` says what happens when Redis holds another). The TD issues each steward a
6-digit PIN per tournament;
signing in with it gives a bearer token. Only hashes are stored: the PIN hash (argon2id) and the
token's SHA-256 (a token is 256 random bits, so a fast hash is enough for it). Credentials are kept
out of the tournament log, which is public.

Keys: ``P:td`` (argon2 hash), ``P:td:by`` (who set it: "env" for ``BACKGLASS_TD_PASSWORD``, the
TD's choice, or "generated"; absent on data from before the password file), ``P:td:more`` (HASH
data directory -> argon2 hash: generated passwords of other data directories, or of this one when
Redis already held another generated password; they sign in too), ``P:t:{id}:stewards`` (HASH name -> argon2 hash),
``P:t:{id}:stewards:issued`` (HASH name -> when the PIN was issued),
``P:session:{sha256(token)}`` (JSON {role, tournament, name}, expires after 24 hours),
``P:sessions`` (HASH sha256 -> JSON {role, tournament, name, since}: every session, so the TD can
see who is signed in and a revoked steward's sessions can be ended; entries of expired sessions
are pruned when listed) and ``P:seen`` (HASH sha256 -> when the session was last used).

Sessions: a session's value never changes after sign-in; it only ends (the key is deleted: sign
out, a new PIN, a revocation, a new TD password; or it expires). Every request reads it, so an
ended session is refused at once, on every process, with one exception that is no weaker: a
write whose append script checks the session itself (``Auth.principal(recent=True)``, the
writer's ``session``) may take the principal this process read within ``SEEN_EVERY`` seconds,
and the script refuses it, atomically with the append, if the session ended meanwhile. A
steward's score then costs one round trip to Redis instead of two, and no write can land after
its session ended (a read first, then an append, leaves a gap a revocation could fall into).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import orjson
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from redis.asyncio import Redis

from display.errors import ApiError
from display.http.names import folded
from display.log.keys import tournament_key

SESSION_SECONDS = 24 * 3600
SEEN_EVERY = 10.0
"""Seconds between two notes of one session's last use (``P:seen``) by one process. The desk
shows when a steward was last active; a phone pushing a score every few seconds need not write
(and, with ``appendfsync always``, fsync) that on every request: the check is then one read."""
NOTED_MAX = 10_000
"""Sessions whose last note (and principal) ``Auth`` remembers before it forgets them all (a
bound: forgetting costs one more read and note each)."""
TD_FILE = "td-password"
"""The data directory's TD password file (plain text, mode 0600)."""
_hasher = PasswordHasher()


@dataclass(frozen=True)
class Principal:
    """Who is calling: role "td" (any tournament) or "steward" (one tournament)."""

    role: str
    name: str
    tournament: str | None = None

    def may_write(self, tournament: str) -> bool:
        """The TD may write to any tournament, a steward to their own."""
        return self.role == "td" or self.tournament == tournament


@dataclass(frozen=True)
class TdPassword:
    """How a start settled the TD password (``Auth.ensure_td_password``).

    ``source``: "env" (``BACKGLASS_TD_PASSWORD``), "file" (the data directory's ``td-password``,
    made on an earlier start), "new" (made now and written there) or "earlier" (one Redis held,
    not kept in this data directory; ``by`` says who set it: "env", "generated" by another data
    directory's server, or "" before the password file existed). ``password`` is the plain text
    for "file" and "new", else None. ``notes``: what else changed, for the log."""

    source: str
    password: str | None
    path: Path
    notes: tuple[str, ...] = field(default=())
    by: str = ""

    def lines(self) -> list[str]:
        """What the server prints at start: where the password comes from, then the notes."""
        if self.source == "new":
            first = (
                f"TD password (new, kept in {self.path}; the same on every start): {self.password}"
            )
        elif self.source == "file":
            first = f"TD password (kept in {self.path}): {self.password}"
        elif self.source == "env":
            first = "TD password: the one in BACKGLASS_TD_PASSWORD"
        else:
            first = f"TD password: {self.earlier()} (not kept in {self.path.parent})"
        return [first, *self.notes]

    def earlier(self) -> str:
        """Which password signs in when none is kept here (source "earlier"), in words."""
        if self.by == "env":
            return "the one chosen with BACKGLASS_TD_PASSWORD on an earlier start"
        if self.by == "generated":
            return "the one another server on this Redis made (kept in its data directory)"
        return "the one set before data directories kept their TD password"


def read_password(path: Path) -> str | None:
    """The password kept in ``path``, or None when there is none (no file, or an empty one).
    Tightens a file others could read to 0600. Raises OSError if it cannot be read."""
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    return text or None


def make_password(path: Path) -> tuple[str, bool]:
    """A new random password written to ``path`` (0600; its directory made 0700), unless another
    process wrote one first: then that one. Returns (password, whether this call made it). The file
    appears whole (written aside, then linked in place), so a reader never sees half of it."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fresh = secrets.token_urlsafe(9)
    temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(fresh + "\n")
        out.flush()
        os.fsync(out.fileno())
    try:
        os.link(temp, path)  # fails if the file is there: two first starts keep one password
    except FileExistsError:
        kept = read_password(path)
        if kept is not None:
            return kept, False
        os.replace(temp, path)  # an empty file: nothing worth keeping
    finally:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
    return fresh, True


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _where(path: Path) -> str:
    """This data directory's name in ``P:td:more``: host and full path, so two machines sharing
    one Redis keep an entry each."""
    return f"{socket.gethostname()}:{path.resolve().parent}"


class Auth:
    """Issue, check and verify credentials in Redis."""

    def __init__(
        self, redis: Redis, prefix: str, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.redis, self.prefix, self._clock = redis, prefix, clock
        # token's sha256 -> monotonic time of its last note, and the principal that read found
        self._noted: dict[str, tuple[float, Principal]] = {}

    async def ensure_td_password(self, password: str | None, data_dir: Path) -> TdPassword:
        """Settle the TD password for a start on ``data_dir``; returns what was done (to print).

        ``password`` (``BACKGLASS_TD_PASSWORD``) is the TD's choice: it replaces every other one
        (and the TD sessions signed in with another end) and removes a ``td-password`` file that holds another. With
        none, the data directory's ``td-password`` is the source: written to Redis when Redis has
        none (a new or emptied store), and added beside a different one Redis holds unless the TD
        chose that one, so no password that worked stops working. Without the file it is made,
        unless Redis holds a password already (the TD's, one from before this data directory kept
        one, or another data directory's on a shared Redis): that one stays, nothing is made.
        Raises OSError when the file cannot be written."""
        path = data_dir / TD_FILE
        if password is not None:
            return await self._choose(password, path)
        stored, by = await self._stored()
        found = await asyncio.to_thread(read_password, path)
        made = False
        if found is not None:
            kept = found
        elif stored is not None:
            return TdPassword("earlier", None, path, by=_text(by or b""))
        else:
            kept, made = await asyncio.to_thread(make_password, path)
        source = "new" if made else "file"
        if stored is None:
            if await self.redis.set(f"{self.prefix}:td", await _hash(kept), nx=True):
                await self.redis.set(f"{self.prefix}:td:by", "generated")
                return TdPassword(source, kept, path)
            stored, by = await self._stored()  # another process set one first: go on with it
        if await _verify_any(await self._td_hashes(), kept):
            return TdPassword(source, kept, path)
        if by == b"env":  # the TD chose another since this file was written (on another server)
            await asyncio.to_thread(_remove, path)
            note = f"{path} held a password replaced since with BACKGLASS_TD_PASSWORD; removed"
            return TdPassword("earlier", None, path, (note,), by="env")
        await self.redis.hset(f"{self.prefix}:td:more", _where(path), await _hash(kept))
        note = (
            "this store had another TD password (set before this data directory kept one, or by "
            "another data directory's server): it still works too"
        )
        return TdPassword(source, kept, path, (note,))

    async def _choose(self, password: str, path: Path) -> TdPassword:
        """``ensure_td_password`` with the TD's own password: the only one from now on."""
        stored, by = await self._stored()
        same = stored is not None and await _verify(stored.decode(), password)
        notes = []
        others = await self.redis.hlen(f"{self.prefix}:td:more")
        if not same or others or by != b"env":
            async with self.redis.pipeline(transaction=True) as pipe:
                if not same:
                    pipe.set(f"{self.prefix}:td", await _hash(password))
                pipe.set(f"{self.prefix}:td:by", "env")
                pipe.delete(f"{self.prefix}:td:more")
                await pipe.execute()
        if stored is not None and (not same or others):
            await self._end(await self._sessions_of("td"))
            notes.append(
                "BACKGLASS_TD_PASSWORD replaced the TD password: the one used before no longer "
                "signs in, and the TD sessions signed in with it have ended"
            )
        kept = await asyncio.to_thread(read_password, path)
        if kept is not None and kept != password:
            await asyncio.to_thread(_remove, path)
            notes.append(f"{path} held the password generated earlier; removed")
        return TdPassword("env", None, path, tuple(notes))

    async def _stored(self) -> tuple[bytes | None, bytes | None]:
        """``P:td`` and ``P:td:by`` (None where unset)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(f"{self.prefix}:td")
            pipe.get(f"{self.prefix}:td:by")
            stored, by = await pipe.execute()
        return stored, by

    async def _td_hashes(self) -> list[str]:
        """Every hash a TD password may match: ``P:td`` first, then ``P:td:more``'s."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(f"{self.prefix}:td")
            pipe.hvals(f"{self.prefix}:td:more")
            stored, more = await pipe.execute()
        return [_text(h) for h in ([stored] if stored is not None else []) + list(more)]

    async def issue_steward(self, tournament: str, name: str) -> str:
        """A new 6-digit PIN for steward ``name``, replacing any earlier one: the sessions signed
        in with the earlier PIN end (whoever held it is out)."""
        pin = f"{secrets.randbelow(10**6):06d}"
        key = tournament_key(self.prefix, tournament, "stewards")
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, name, await _hash(pin))
            pipe.hset(f"{key}:issued", name, _now())
            await pipe.execute()
        await self._end(await self._sessions_of("steward", tournament, name))
        return pin

    async def _sessions_of(
        self, role: str, tournament: str | None = None, name: str | None = None
    ) -> list[str]:
        """The listed sessions (SHA-256 of their tokens) of ``role``, for ``tournament`` and
        ``name`` when given."""
        return [
            sha
            for sha, who in (await self._index()).items()
            if who.get("role") == role
            and (tournament is None or who.get("tournament") == tournament)
            and (name is None or who.get("name") == name)
        ]

    async def steward_name(self, tournament: str, typed: str) -> str:
        """The issued steward name ``typed`` means: itself when issued, else the one equal to it
        without regard to case or Unicode form (NFC, then case folding: "sam", "SAM" and "Sam"
        sign in as "Sam"); ``typed`` when none is."""
        key = tournament_key(self.prefix, tournament, "stewards")
        if await self.redis.hexists(key, typed):
            return typed
        wanted = folded(typed)
        names = sorted(_text(n) for n in await self.redis.hkeys(key))
        return next((n for n in names if folded(n) == wanted), typed)

    async def revoke_steward(self, tournament: str, name: str) -> bool:
        """Remove steward ``name``'s PIN and end every session they signed in with. False when
        there was no such steward."""
        key = tournament_key(self.prefix, tournament, "stewards")
        removed = await self.redis.hdel(key, name)
        await self.redis.hdel(f"{key}:issued", name)
        ended = await self._sessions_of("steward", tournament, name)
        await self._end(ended)
        return bool(removed) or bool(ended)

    async def stewards(self, tournament: str) -> list[dict[str, object]]:
        """Stewards of ``tournament`` by name: when their PIN was issued and their sessions."""
        key = tournament_key(self.prefix, tournament, "stewards")
        names = sorted(_text(n) for n in await self.redis.hkeys(key))
        issued = {
            _text(k): _text(v) for k, v in (await self.redis.hgetall(f"{key}:issued")).items()
        }
        active = await self.sessions(tournament)
        return [
            {
                "name": name,
                "issued_at": issued.get(name),
                "sessions": [
                    {k: v for k, v in s.items() if k not in ("role", "tournament", "name")}
                    for s in active
                    if s["role"] == "steward" and s["name"] == name
                ],
            }
            for name in names
        ]

    async def sessions(self, tournament: str | None = None) -> list[dict[str, object]]:
        """Sessions signed in now (all, or the stewards of ``tournament``), oldest first:
        id (the first 16 hex digits of the token's SHA-256: names it for ``end_listed``, cannot
        sign in), role, name, tournament, since, last_seen, expires_in (seconds)."""
        index = await self._index()
        shas = list(index)
        async with self.redis.pipeline(transaction=False) as pipe:
            for sha in shas:
                pipe.ttl(f"{self.prefix}:session:{sha}")
            ttls = await pipe.execute()
        seen = {
            _text(k): _text(v) for k, v in (await self.redis.hgetall(f"{self.prefix}:seen")).items()
        }
        gone = [sha for sha, ttl in zip(shas, ttls, strict=True) if ttl < 0]
        await self._end(gone)
        found = [
            {**index[sha], "id": sha[:16], "last_seen": seen.get(sha), "expires_in": ttl}
            for sha, ttl in zip(shas, ttls, strict=True)
            if ttl >= 0 and (tournament is None or index[sha].get("tournament") == tournament)
        ]
        return sorted(found, key=lambda s: str(s.get("since")))

    async def end_session(self, authorization: str | None) -> bool:
        """Sign out: end the session of an ``Authorization: Bearer`` header. False if none."""
        sha = _bearer_sha(authorization)
        if sha is None:
            return False
        exists = await self.redis.exists(self._key_of(sha))
        await self._end([sha])
        return bool(exists)

    async def end_listed(self, session_id: str) -> bool:
        """End the listed session whose ``id`` (``sessions``) is ``session_id``; False if none."""
        if len(session_id) != 16:
            return False
        found = [sha for sha in await self._index() if sha.startswith(session_id.lower())]
        await self._end(found)
        return bool(found)

    async def _index(self) -> dict[str, dict[str, object]]:
        """Every session listed (``P:sessions``): sha256 of its token -> {role, tournament,
        name, since}."""
        raw = await self.redis.hgetall(f"{self.prefix}:sessions")
        return {_text(k): orjson.loads(v) for k, v in raw.items()}

    async def _end(self, shas: list[str]) -> None:
        if not shas:
            return
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(*(f"{self.prefix}:session:{sha}" for sha in shas))
            pipe.hdel(f"{self.prefix}:sessions", *shas)
            pipe.hdel(f"{self.prefix}:seen", *shas)
            await pipe.execute()

    async def sign_in(self, role: str, password: str, tournament: str | None, name: str) -> str:
        """Verify a TD password or a steward PIN and return a new bearer token.

        Raises ApiError 401 with a plain message on a wrong password, PIN or steward name.
        """
        if role == "td":
            hashes = await self._td_hashes()
            principal = Principal("td", name or "TD")
        else:
            stored = None
            if tournament:
                key = tournament_key(self.prefix, tournament, "stewards")
                stored = await self.redis.hget(key, name)
            hashes = [] if stored is None else [_text(stored)]
            principal = Principal("steward", name, tournament)
        if not await _verify_any(hashes, password):
            what = "password" if role == "td" else "steward name or PIN"
            raise ApiError(
                401, "sign_in_failed", f"Wrong {what}. Ask the TD if you need a new one."
            )
        token = secrets.token_urlsafe(32)
        body = orjson.dumps(principal.__dict__)
        listed = orjson.dumps({**principal.__dict__, "since": _now()})
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self._session_key(token), body, ex=SESSION_SECONDS)
            pipe.hset(f"{self.prefix}:sessions", _sha(token), listed)
            await pipe.execute()
        return token

    async def principal(
        self, authorization: str | None, *, recent: bool = False
    ) -> Principal | None:
        """The signed-in principal for an ``Authorization: Bearer`` header, or None. Notes when
        the session was last used, in the same round trip, at most once per ``SEEN_EVERY``
        seconds per session and process; every call reads the session, so an ended session is
        refused at once. ``recent``: the caller's write checks the session in its append
        (``session_key``; module docstring, "Sessions"), so the principal of a read that noted
        it less than ``SEEN_EVERY`` seconds ago stands without reading it again."""
        sha = _bearer_sha(authorization)
        if sha is None:
            return None
        key, now = self._key_of(sha), self._clock()
        noted = self._noted.get(sha)
        if noted is not None and now - noted[0] < SEEN_EVERY:
            if recent:
                return noted[1]
            raw = await self.redis.get(key)
        else:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.get(key)
                pipe.hset(f"{self.prefix}:seen", sha, _now())
                raw, _ = await pipe.execute()
        if raw is None:
            self._noted.pop(sha, None)
            await self.redis.hdel(f"{self.prefix}:seen", sha)  # no such session
            return None
        principal = Principal(**orjson.loads(raw))
        if noted is None or now - noted[0] >= SEEN_EVERY:
            if len(self._noted) >= NOTED_MAX:
                self._noted.clear()  # every session is read and noted again on its next request
            self._noted[sha] = (now, principal)
        return principal

    def session_key(self, authorization: str | None) -> str | None:
        """The Redis key of the session an ``Authorization: Bearer`` header names (None: no
        bearer token): what a write gives the writer to check in its append."""
        sha = _bearer_sha(authorization)
        return None if sha is None else self._key_of(sha)

    async def session_exists(self, key: str) -> bool:
        """Whether the session at ``key`` (``session_key``) has not ended."""
        return bool(await self.redis.exists(key))

    def _session_key(self, token: str) -> str:
        return self._key_of(_sha(token))

    def _key_of(self, sha: str) -> str:
        return f"{self.prefix}:session:{sha}"


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _bearer_sha(authorization: str | None) -> str | None:
    """The SHA-256 of an ``Authorization: Bearer`` header's token; None for no bearer token."""
    if not authorization or not authorization.lower().startswith("bearer "):
        return None
    return _sha(authorization[7:].strip())


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def _hash(secret: str) -> str:
    return await asyncio.to_thread(_hasher.hash, secret)


async def _verify_any(hashes: list[str], secret: str) -> bool:
    """Whether ``secret`` matches one of ``hashes`` (False for none)."""
    for stored in hashes:
        if await _verify(stored, secret):
            return True
    return False


async def _verify(stored: str, secret: str) -> bool:
    try:
        return await asyncio.to_thread(_hasher.verify, stored, secret)
    except (VerificationError, InvalidHashError):
        return False
