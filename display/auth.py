"""Sign-in for the tournament director (TD) and stewards; hashing by argon2-cffi.

The TD has one password per installation. The TD issues each steward a 6-digit PIN per tournament;
signing in with it gives a bearer token. Only hashes are stored: the PIN hash (argon2id) and the
token's SHA-256 (a token is 256 random bits, so a fast hash is enough for it). Credentials are kept
out of the tournament log, which is public.

Keys: ``P:td`` (argon2 hash), ``P:t:{id}:stewards`` (HASH name -> argon2 hash),
``P:t:{id}:stewards:issued`` (HASH name -> when the PIN was issued),
``P:session:{sha256(token)}`` (JSON {role, tournament, name}, expires after 24 hours),
``P:sessions`` (HASH sha256 -> JSON {role, tournament, name, since}: every session, so the TD can
see who is signed in and a revoked steward's sessions can be ended; entries of expired sessions
are pruned when listed) and ``P:seen`` (HASH sha256 -> when the session was last used).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from redis.asyncio import Redis

from display.errors import ApiError

SESSION_SECONDS = 24 * 3600
_hasher = PasswordHasher()


@dataclass(frozen=True)
class Principal:
    """Who is calling: role "td" (any tournament) or "steward" (one tournament)."""

    role: str
    name: str
    tournament: str | None = None

    def may_write(self, tournament: str) -> bool:
        return self.role == "td" or self.tournament == tournament


class Auth:
    """Issue, check and verify credentials in Redis."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis, self.prefix = redis, prefix

    async def ensure_td_password(self, password: str | None) -> str | None:
        """Make ``password`` the TD's (if given); if none is set yet, make one. Returns a new
        password to print, or None when an existing one was kept."""
        stored = await self.redis.get(f"{self.prefix}:td")
        if password is not None:
            if stored is None or not await _verify(stored.decode(), password):
                await self.redis.set(f"{self.prefix}:td", await _hash(password))
            return None
        if stored is not None:
            return None
        fresh = secrets.token_urlsafe(9)
        await self.redis.set(f"{self.prefix}:td", await _hash(fresh), nx=True)
        return fresh

    async def issue_steward(self, tournament: str, name: str) -> str:
        """A new 6-digit PIN for steward ``name`` (replacing any earlier one; sessions signed in
        with the earlier PIN go on until they expire or the steward is revoked)."""
        pin = f"{secrets.randbelow(10**6):06d}"
        key = f"{self.prefix}:t:{tournament}:stewards"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, name, await _hash(pin))
            pipe.hset(f"{key}:issued", name, _now())
            await pipe.execute()
        return pin

    async def revoke_steward(self, tournament: str, name: str) -> bool:
        """Remove steward ``name``'s PIN and end every session they signed in with. False when
        there was no such steward."""
        key = f"{self.prefix}:t:{tournament}:stewards"
        removed = await self.redis.hdel(key, name)
        await self.redis.hdel(f"{key}:issued", name)
        ended = [
            sha
            for sha, who in (await self._index()).items()
            if who.get("role") == "steward"
            and who.get("tournament") == tournament
            and who.get("name") == name
        ]
        await self._end(ended)
        return bool(removed) or bool(ended)

    async def stewards(self, tournament: str) -> list[dict[str, Any]]:
        """Stewards of ``tournament`` by name: when their PIN was issued and their sessions."""
        key = f"{self.prefix}:t:{tournament}:stewards"
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

    async def sessions(self, tournament: str | None = None) -> list[dict[str, Any]]:
        """Sessions signed in now (all, or the stewards of ``tournament``), oldest first:
        role, name, tournament, since, last_seen, expires_in (seconds)."""
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
            {**index[sha], "last_seen": seen.get(sha), "expires_in": ttl}
            for sha, ttl in zip(shas, ttls, strict=True)
            if ttl >= 0 and (tournament is None or index[sha].get("tournament") == tournament)
        ]
        return sorted(found, key=lambda s: str(s.get("since")))

    async def end_session(self, authorization: str | None) -> bool:
        """Sign out: end the session of an ``Authorization: Bearer`` header. False if none."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return False
        sha = _sha(authorization[7:].strip())
        exists = await self.redis.exists(f"{self.prefix}:session:{sha}")
        await self._end([sha])
        return bool(exists)

    async def _index(self) -> dict[str, dict[str, Any]]:
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
            stored = await self.redis.get(f"{self.prefix}:td")
            principal = Principal("td", name or "TD")
        else:
            key = f"{self.prefix}:t:{tournament}:stewards"
            stored = await self.redis.hget(key, name) if tournament else None
            principal = Principal("steward", name, tournament)
        if stored is None or not await _verify(stored.decode(), password):
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

    async def principal(self, authorization: str | None) -> Principal | None:
        """The signed-in principal for an ``Authorization: Bearer`` header, or None. Notes when
        the session was last used, in the same round trip."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return None
        token = authorization[7:].strip()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(self._session_key(token))
            pipe.hset(f"{self.prefix}:seen", _sha(token), _now())
            raw, _ = await pipe.execute()
        if raw is None:
            await self.redis.hdel(f"{self.prefix}:seen", _sha(token))  # no such session
            return None
        return Principal(**orjson.loads(raw))

    def _session_key(self, token: str) -> str:
        return f"{self.prefix}:session:{_sha(token)}"


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def _hash(secret: str) -> str:
    return await asyncio.to_thread(_hasher.hash, secret)


async def _verify(stored: str, secret: str) -> bool:
    try:
        return await asyncio.to_thread(_hasher.verify, stored, secret)
    except (VerificationError, InvalidHashError):
        return False
