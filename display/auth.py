"""Sign-in for the tournament director (TD) and stewards; hashing by argon2-cffi.

The TD has one password per installation. The TD issues each steward a 6-digit PIN per tournament;
signing in with it gives a bearer token. Only hashes are stored: the PIN hash (argon2id) and the
token's SHA-256 (a token is 256 random bits, so a fast hash is enough for it). Credentials are kept
out of the tournament log, which is public.

Keys: ``P:td`` (argon2 hash), ``P:t:{id}:stewards`` (HASH name -> argon2 hash),
``P:session:{sha256(token)}`` (JSON {role, tournament, name}, expires after 24 hours).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from dataclasses import dataclass

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
        """A new 6-digit PIN for steward ``name`` (replacing any earlier one)."""
        pin = f"{secrets.randbelow(10**6):06d}"
        await self.redis.hset(f"{self.prefix}:t:{tournament}:stewards", name, await _hash(pin))
        return pin

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
        await self.redis.set(self._session_key(token), body, ex=SESSION_SECONDS)
        return token

    async def principal(self, authorization: str | None) -> Principal | None:
        """The signed-in principal for an ``Authorization: Bearer`` header, or None."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return None
        raw = await self.redis.get(self._session_key(authorization[7:].strip()))
        return Principal(**orjson.loads(raw)) if raw else None

    def _session_key(self, token: str) -> str:
        return f"{self.prefix}:session:{hashlib.sha256(token.encode()).hexdigest()}"


async def _hash(secret: str) -> str:
    return await asyncio.to_thread(_hasher.hash, secret)


async def _verify(stored: str, secret: str) -> bool:
    try:
        return await asyncio.to_thread(_hasher.verify, stored, secret)
    except (VerificationError, InvalidHashError):
        return False
