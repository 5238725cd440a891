"""Sign-in throttle: growing delays per source and per account, and a failure list for the TD.

Every sign-in path (TD password, steward PIN, player PIN) runs its check inside ``guard``::

    async with guard(request, account_for(request, "steward", tid, name)):
        token = await auth.sign_in(...)

Before the check, one Lua script (atomic, so concurrent guesses cannot slip through together)
refuses the attempt with 429 + ``Retry-After`` while the source or the account is held, and
otherwise *charges* the attempt as if it failed: after the n-th charged attempt the next one waits
``delay(n) = 0 if n <= free else min(base * 2**(n - free - 1), cap)`` seconds. A wrong credential
(the check's ApiError 401) restarts the charged delays from the moment it is known and is
appended to the failure list; a success clears the source's count, gives the account back its
charge and remembers the source for the account for a session's lifetime. A remembered source is not held or charged by the account,
so an attacker elsewhere cannot lock the real steward's phone out. The arithmetic and the figures
are in docs/sign-in.md.

Keys (every process shares them): ``P:throttle:source:{address}`` and
``P:throttle:account:{account}`` (HASH n -> charged attempts, until -> epoch seconds before which
attempts are refused, delay -> the delay it was given; dropped a day after the last attempt),
``P:throttle:known:{account}|{address}`` (a source that signed in to the account; expires with
the session), ``P:t:{id}:sign-in-failures`` and ``P:sign-in-failures`` (TD sign-ins and unknown
tournaments): capped LISTs of JSON ``{at, source, account, kind, tournament}``, newest first.
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

import orjson
from redis.asyncio import Redis
from starlette.requests import Request

from display.errors import ApiError
from display.http.auth import SESSION_SECONDS
from display.http.endpoint import services
from display.log.keys import store_prefix, tournament_key
from display.settings import Settings

FAILURES_KEPT = 200  # per list: enough for a day's typos, bounded under a flood
FORGET_SECONDS = 24 * 3600  # a count is dropped a day after its last attempt

# KEYS: source, account, known. ARGV: free, base, source cap, account cap, forget seconds.
# Returns {"", "0", "0"} when the attempt may go ahead (and is charged), else {which, seconds
# left, the whole delay}.
# Numbers travel as strings: Redis truncates Lua numbers it returns to integers.
_ATTEMPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local free, base = tonumber(ARGV[1]), tonumber(ARGV[2])
local known = redis.call('EXISTS', KEYS[3]) == 1
local function held(key)
  return (tonumber(redis.call('HGET', key, 'until')) or 0) - now
end
local function refuse(which, key, wait)
  return {which, string.format('%.6f', wait), redis.call('HGET', key, 'delay')}
end
local function charge(key, cap)
  local before = redis.call('HMGET', key, 'until', 'delay')
  local n = redis.call('HINCRBY', key, 'n', 1)
  local d = 0
  if n > free then d = math.min(base * 2 ^ (n - free - 1), cap) end
  redis.call('HSET', key, 'until', string.format('%.6f', now + d), 'delay', tostring(d),
             'was_until', before[1] or '0', 'was_delay', before[2] or '0')
  redis.call('EXPIRE', key, ARGV[5])
end
local wait = held(KEYS[1])
if wait > 0 then return refuse('source', KEYS[1], wait) end
if not known then
  wait = held(KEYS[2])
  if wait > 0 then return refuse('account', KEYS[2], wait) end
end
charge(KEYS[1], tonumber(ARGV[3]))
if not known then charge(KEYS[2], tonumber(ARGV[4])) end
return {'', '0', '0'}
"""

# A wrong credential restarts the delays it was charged from now (KEYS: source, account, known):
# the check itself (argon2) takes a while, and the delay is meant to follow the answer.
_FAILED = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local keys = {KEYS[1]}
if redis.call('EXISTS', KEYS[3]) == 0 then keys[2] = KEYS[2] end
for _, key in ipairs(keys) do
  local d = tonumber(redis.call('HGET', key, 'delay'))
  if d then redis.call('HSET', key, 'until', string.format('%.6f', now + d)) end
end
return 0
"""

# A success (KEYS: source, account, known; ARGV: session seconds) clears the source, gives the
# account back the attempt it was charged (a steward's new phone is not a wrong PIN) and
# remembers the source for the account.
_SUCCEEDED = """
redis.call('DEL', KEYS[1])
if redis.call('EXISTS', KEYS[3]) == 0 and redis.call('HEXISTS', KEYS[2], 'n') == 1 then
  local was = redis.call('HMGET', KEYS[2], 'was_until', 'was_delay')
  redis.call('HINCRBY', KEYS[2], 'n', -1)
  redis.call('HSET', KEYS[2], 'until', was[1] or '0', 'delay', was[2] or '0')
end
redis.call('SET', KEYS[3], 1, 'EX', ARGV[1])
return 0
"""


@dataclass(frozen=True)
class Account:
    """What is being signed in to: ``role`` "td" | "steward" | "player", the tournament id (None
    for the TD), the steward's name or player's number, and the tournament whose failure list
    gets the failures (None: the TD's list, also for tournaments that do not exist)."""

    role: str
    tournament: str | None
    name: str
    listed_in: str | None

    @property
    def key(self) -> str:
        """This account's Redis key part: "td", or ``role:tournament:name``."""
        return "td" if self.role == "td" else f"{self.role}:{self.tournament}:{self.name}"

    @property
    def label(self) -> str:
        """How the TD reads it: "TD", "steward Sam", "player 12"."""
        return "TD" if self.role == "td" else f"{self.role} {self.name}"


class Throttle:
    """The throttle's Redis side for one server process (state is shared through Redis)."""

    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis, self.settings = redis, settings
        self.prefix = store_prefix(settings.key_prefix, settings.redis_url)
        self._attempt = redis.register_script(_ATTEMPT)
        self._failed = redis.register_script(_FAILED)
        self._succeeded = redis.register_script(_SUCCEEDED)

    async def attempt(self, source: str, account: Account, noun: str) -> None:
        """Charge one attempt, or raise ApiError 429 (``Retry-After``) while it is held.

        ``noun`` names the credential in the message ("PINs", "passwords")."""
        s = self.settings
        which, wait, delay = await self._attempt(
            keys=self._keys(source, account),
            args=[
                s.throttle_free,
                s.throttle_base_seconds,
                s.throttle_source_cap_seconds,
                s.throttle_account_cap_seconds,
                FORGET_SECONDS,
            ],
        )
        which = which.decode() if isinstance(which, bytes) else which
        if not which:
            return
        seconds = float(wait)
        whole = max(1, math.ceil(seconds))
        device = "this device" if account.role == "td" else "this phone"
        where = f"from {device}" if which == "source" else f"for {account.label} just now"
        raise ApiError(
            429,
            "too_many_attempts",
            f"Too many wrong {noun} {where}; try again in {whole} s.",
            headers={"Retry-After": str(whole)},
            extra={"retry_after": round(seconds, 3), "delay": float(delay or 0), "held": which},
        )

    async def succeeded(self, source: str, account: Account) -> None:
        """Clear the source's count, refund the account's charge, remember the source for the
        account (a session's lifetime)."""
        await self._succeeded(keys=self._keys(source, account), args=[SESSION_SECONDS])

    async def failed(self, source: str, account: Account, kind: str) -> None:
        """Restart the charged delays from now, and list the failure for the TD."""
        await self._failed(keys=self._keys(source, account))
        entry = {
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
            "source": source,
            "account": account.label,
            "kind": kind,
            "tournament": account.tournament,
        }
        key = self._failures(account.listed_in)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.lpush(key, orjson.dumps(entry))
            pipe.ltrim(key, 0, FAILURES_KEPT - 1)
            await pipe.execute()

    async def failures(
        self, tournament: str | None, count: int = FAILURES_KEPT
    ) -> list[dict[str, object]]:
        """Recent failures, newest first: of ``tournament``'s stewards and players, or (None) of
        TD sign-ins and sign-ins to tournaments that do not exist."""
        raw = await self.redis.lrange(self._failures(tournament), 0, count - 1)
        return [orjson.loads(item) for item in raw]

    def _keys(self, source: str, account: Account) -> list[str]:
        return [self._source(source), self._account(account), self._known(account, source)]

    def _source(self, source: str) -> str:
        return f"{self.prefix}:throttle:source:{source}"

    def _account(self, account: Account) -> str:
        return f"{self.prefix}:throttle:account:{account.key}"

    def _known(self, account: Account, source: str) -> str:
        return f"{self.prefix}:throttle:known:{account.key}|{source}"

    def _failures(self, tournament: str | None) -> str:
        if tournament is None:
            return f"{self.prefix}:sign-in-failures"
        return tournament_key(self.prefix, tournament, "sign-in-failures")


def of(request: Request) -> Throttle:
    """The app's Throttle (made on first use, on the app's Redis connection)."""
    svc, state = services(request), request.app.state
    found: Throttle | None = getattr(state, "throttle", None)
    if found is None or found.redis is not svc.redis:
        found = state.throttle = Throttle(svc.redis, svc.settings)
    return found


def source_of(request: Request, trust_proxy: bool) -> str:
    """The client's address: the TCP peer, or behind a trusted proxy (``BACKGLASS_TRUST_PROXY``)
    the last X-Forwarded-For entry (the proxy appends the peer it saw; entries before it are the
    client's to forge). Only a valid IP address is taken, in its normal form, so what is stored
    in the failure lists and shown on the desk is one address, bounded; anything else counts as
    the peer's own. uvicorn's own proxy-header handling is off (``uvicorn_config``)."""
    peer = request.client.host if request.client else "unknown"
    if trust_proxy:
        forwarded = request.headers.get("x-forwarded-for", "").split(",")[-1].strip()
        try:
            return str(ipaddress.ip_address(forwarded[:64]))
        except ValueError:
            return peer
    return peer


def account_for(request: Request, role: str, tournament: str | None, name: str) -> Account:
    """The account a sign-in names: the TD (one per installation), or a steward or player of
    ``tournament``. Failures for a tournament this server does not have go to the TD's list, so
    guessed tournament ids cannot make lists of their own."""
    if role == "td":
        return Account("td", None, "TD", None)
    known = tournament in services(request).replica.registered
    return Account(role, tournament, name, tournament if known else None)


KINDS = {"td": "TD password", "steward": "steward PIN", "player": "player PIN"}


@asynccontextmanager
async def guard(request: Request, account: Account) -> AsyncIterator[None]:
    """Throttle the sign-in check inside (module docstring). Raises ApiError 429 before the
    check while held; re-raises the check's errors after noting a 401 as a failure."""
    throttle = of(request)
    source = source_of(request, throttle.settings.trust_proxy)
    noun = "passwords" if account.role == "td" else "PINs"
    await throttle.attempt(source, account, noun)
    try:
        yield
    except ApiError as exc:
        if exc.status == 401:
            await throttle.failed(source, account, KINDS[account.role])
        raise
    await throttle.succeeded(source, account)
