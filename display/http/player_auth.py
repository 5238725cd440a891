"""Players' PINs: a player signs in on their phone with their number and a PIN the TD issued, to
join or leave queues when the TD allows it (hall setting ``players_may_queue``).

Hashed with argon2id like stewards' PINs (``display.http.auth``); only hashes are kept. A player's
session lives under a key of its own, so ``Auth.principal`` never sees it: a player token is not
a steward's and cannot push scores.

Keys: ``P:t:{id}:player-pins`` (HASH number -> argon2 hash), ``P:player-session:{sha256(token)}``
(JSON {tournament, player}, expires after 24 hours).
"""

from __future__ import annotations

import hashlib
import secrets

import orjson
from redis.asyncio import Redis
from starlette.requests import Request

from display.errors import ApiError
from display.http.auth import SESSION_SECONDS, Auth, _hash, _verify
from display.log.keys import tournament_key


class PlayerPins:
    """Issue players' PINs and check players' sessions in Redis."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis, self.prefix = redis, prefix

    async def issue(self, tournament: str, player: str) -> str:
        """A new 6-digit PIN for ``player`` (replacing any earlier one)."""
        pin = f"{secrets.randbelow(10**6):06d}"
        await self.redis.hset(self._pins(tournament), player, await _hash(pin))
        return pin

    async def sign_in(self, tournament: str, player: str, pin: str) -> str:
        """A bearer token for ``player``; ApiError 401 on a wrong number or PIN."""
        stored = await self.redis.hget(self._pins(tournament), player)
        text = stored.decode() if isinstance(stored, bytes) else stored
        if text is None or not await _verify(text, pin):
            raise ApiError(
                401,
                "sign_in_failed",
                "Wrong player number or PIN. Ask the tournament desk for a new PIN.",
            )
        token = secrets.token_urlsafe(32)
        body = orjson.dumps({"tournament": tournament, "player": player})
        await self.redis.set(self._session(token), body, ex=SESSION_SECONDS)
        return token

    async def player(self, tournament: str, authorization: str | None) -> str | None:
        """The player number signed in for ``tournament`` by an ``Authorization: Bearer`` header,
        or None."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return None
        raw = await self.redis.get(self._session(authorization[7:].strip()))
        if not raw:
            return None
        session = orjson.loads(raw)
        return str(session["player"]) if session.get("tournament") == tournament else None

    async def exists(self, authorization: str | None) -> bool:
        """Whether an ``Authorization: Bearer`` header holds a player's session (any tournament)."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return False
        return bool(await self.redis.exists(self._session(authorization[7:].strip())))

    async def end(self, authorization: str | None) -> bool:
        """Sign a player out: end the session of an ``Authorization: Bearer`` header; False if
        it held none."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return False
        return bool(await self.redis.delete(self._session(authorization[7:].strip())))

    def _pins(self, tournament: str) -> str:
        return tournament_key(self.prefix, tournament, "player-pins")

    def _session(self, token: str) -> str:
        return f"{self.prefix}:player-session:{hashlib.sha256(token.encode()).hexdigest()}"


async def is_player_session(auth: Auth, request: Request) -> bool:
    """Whether the request is signed in with a player's PIN (so a refusal can say 403, not 401)."""
    return await PlayerPins(auth.redis, auth.prefix).exists(request.headers.get("authorization"))
