"""Every error a client can see, mapped to HTTP in one place.

Bodies are ``{"error": code, "message": text}``; the message is for a steward, not a developer.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Mapping
from pathlib import Path

import redis
from pydantic import ValidationError
from redis.asyncio.sentinel import MasterNotFoundError as RedisMasterNotFoundError
from redis.exceptions import BusyLoadingError as RedisBusyLoadingError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import OutOfMemoryError as RedisOutOfMemoryError
from redis.exceptions import ReadOnlyError as RedisReadOnlyError
from redis.exceptions import RedisClusterException
from redis.exceptions import ResponseError as RedisResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from display.log.store import IdempotencyMismatch, NotReplicated
from scoring import errors as scoring_errors

log = logging.getLogger("backglass")

STATUS = {
    scoring_errors.UnknownPlayer: 404,
    scoring_errors.UnknownMachine: 404,
    scoring_errors.DuplicateRegistration: 409,
    scoring_errors.EntryNotAllowed: 409,
    scoring_errors.InvalidScore: 422,
    scoring_errors.SettingsError: 422,
}


class ApiError(Exception):
    """An error with its HTTP status, stable code and message."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        headers: dict[str, str] | None = None,
        extra: Mapping[str, object] | None = None,
    ) -> None:
        """``headers`` go on the response (e.g. ``Retry-After``); ``extra`` fields join the body."""
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers, self.extra = headers, extra or {}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """The house error body ``{"error": code, "message": message}`` with HTTP ``status``."""
    return JSONResponse({"error": code, "message": message}, status_code=status)


def status_for(exc: scoring_errors.ScoringError) -> int:
    """HTTP status for a rule-engine error: ``STATUS`` of its nearest listed class, else 422."""
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 422


async def on_scoring_error(request: Request, exc: Exception) -> Response:
    """A ``ScoringError`` as its ``status_for`` status, its ``code`` and its steward message."""
    assert isinstance(exc, scoring_errors.ScoringError)
    return error_response(status_for(exc), exc.code, exc.message)


async def on_api_error(request: Request, exc: Exception) -> Response:
    """An ``ApiError`` as its own status and headers; ``extra`` fields join the body."""
    assert isinstance(exc, ApiError)
    body = {"error": exc.code, "message": exc.message, **exc.extra}
    return JSONResponse(body, status_code=exc.status, headers=exc.headers)


async def on_validation_error(request: Request, exc: Exception) -> Response:
    """422 ``invalid_request`` for a body pydantic refused: each problem as ``field.path: why``,
    joined by ``; ``."""
    assert isinstance(exc, ValidationError)
    problems = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "body"
        problems.append(f"{where}: {error['msg']}")
    return error_response(422, "invalid_request", "; ".join(problems))


async def on_idempotency_mismatch(request: Request, exc: Exception) -> Response:
    """422 ``idempotency_key_reused``: the key came with a different request; nothing recorded."""
    return error_response(
        422,
        "idempotency_key_reused",
        "This Idempotency-Key was already used for a different request; send a new key.",
    )


async def on_http_error(request: Request, exc: Exception) -> Response:
    """Starlette's ``HTTPException`` (404, 405 …) in the house body, code ``http_error``."""
    assert isinstance(exc, HTTPException)
    body = {"error": "http_error", "message": exc.detail}
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


NOT_RECORDED = (
    "The score store is not answering, so nothing was recorded. Send it again in a moment."
)
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def certainly_not_sent(exc: Exception) -> bool:
    """Whether a Redis failure ``exc`` happened before any command of the request reached Redis:
    no connection could be made (redis-py's "Error N connecting to …", "Timeout connecting to
    server"), no Sentinel master is known, or Redis answered that it is loading its AOF. A timeout
    or a connection lost while waiting for an answer is not certain: Redis may have run the append
    (a hung Redis that resumes runs what it had queued)."""
    if isinstance(exc, RedisBusyLoadingError | RedisMasterNotFoundError):
        return True
    return "connecting to" in str(exc)


def store_unavailable(request: Request, certain: bool) -> Response:
    """503 when the score store failed. ``certain``: nothing of this request can have been
    recorded (``store_unavailable``, "nothing was recorded"); otherwise, for a write, the outcome
    is unknown (``outcome_unknown``): it may have been recorded, and the answer gives the
    ``Idempotency-Key`` to send it again with, which records it at most once (docs/redis.md)."""
    if certain or request.method not in WRITE_METHODS:
        return error_response(503, "store_unavailable", NOT_RECORDED)
    key = request.headers.get("idempotency-key")
    if key:
        message = (
            "The score store did not answer in time, so this may have been recorded. Send it "
            f"again with the same Idempotency-Key ({key[:200]}): it is recorded at most once."
        )
    else:
        message = (
            "The score store did not answer in time, so this may have been recorded. Check the "
            "audit page before sending it again (with an Idempotency-Key it is recorded once)."
        )
    body: dict[str, object] = {"error": "outcome_unknown", "message": message}
    if key:
        body["idempotency_key"] = key[:200]
    return JSONResponse(body, status_code=503, headers={"Retry-After": "1"})


async def on_store_unavailable(request: Request, exc: Exception) -> Response:
    """Redis did not answer: 503, "nothing was recorded" only when that is certain
    (``certainly_not_sent``), else "may have been recorded: retry with the same key"."""
    return store_unavailable(request, certainly_not_sent(exc))


async def on_not_replicated(request: Request, exc: Exception) -> Response:
    """Too few replicas confirmed an append in time (``Settings.wait_replicas``, docs/deploy.md):
    the master has it, a failover might lose it, so it is not acknowledged; the same key again is
    recorded once (``display/log/store.py``)."""
    return JSONResponse(
        {
            "error": "not_replicated",
            "message": "The score store's replica did not confirm this in time, so it may have "
            "been recorded. Send it again with the same Idempotency-Key: it is recorded once.",
        },
        status_code=503,
        headers={"Retry-After": "1"},
    )


REDIS_CLIENT_DIR = Path(redis.__file__).parent


def raised_in_redis_client(exc: BaseException) -> bool:
    """Whether ``exc`` is an AttributeError or TypeError raised inside redis-py itself: its cluster
    client can close a pooled connection that another request is about to write to (when it
    learns the slots again after a failover), and the write then fails on the closed socket
    (``'NoneType' object has no attribute 'writelines'``) instead of raising ConnectionError."""
    if not isinstance(exc, AttributeError | TypeError) or exc.__traceback__ is None:
        return False
    innermost = traceback.extract_tb(exc.__traceback__)[-1]
    return Path(innermost.filename).is_relative_to(REDIS_CLIENT_DIR)


async def on_unexpected(request: Request, exc: Exception) -> Response:
    """Last resort for a bug: a plain 500 in the usual shape instead of Starlette's text page.
    Starlette re-raises the exception after this answer, so the server log keeps the traceback;
    ``log`` adds which request it was. A connection that redis-py closed under the request
    (``raised_in_redis_client``) is the store failing, not a bug: 503, outcome unknown."""
    if raised_in_redis_client(exc):
        log.warning("score store connection closed under %s %s", request.method, request.url.path)
        return store_unavailable(request, certain=False)
    log.error("unexpected %s on %s %s", type(exc).__name__, request.method, request.url.path)
    return error_response(
        500,
        "internal_error",
        "Something went wrong on the server. Check whether it shows before sending it again, "
        "and tell the TD if it keeps happening.",
    )


STORE_REFUSALS = re.compile(
    r"\b(MISCONF|NOREPLICAS|OOM|READONLY|MASTERDOWN|TRYAGAIN|BUSY|CLUSTERDOWN)\b"
)
"""Redis answers that mean "up, but not persisting now" (docs/redis.md): a failed AOF or RDB write
(MISCONF), too few replicas (NOREPLICAS), maxmemory (OOM), a replica (READONLY, MASTERDOWN), a
long script (BUSY), a cluster that lost a shard's master and has not failed over yet
(CLUSTERDOWN). redis-py strips the code from the classes it maps, hence the isinstance too;
inside a Lua script or a pipeline the code sits mid-message, hence ``search``."""


async def on_store_refused(request: Request, exc: Exception) -> Response:
    """A Redis refusal that means the write could not be persisted: 503 like an outage. Any other
    refusal (e.g. NOPERM from a too-narrow ACL) is a bug: re-raised for the logged catch-all."""
    refused = isinstance(exc, RedisOutOfMemoryError | RedisReadOnlyError)
    if refused or STORE_REFUSALS.search(str(exc)):
        return store_unavailable(request, certain=True)  # Redis answered: it ran nothing
    raise exc


HANDLERS = {
    RedisResponseError: on_store_refused,
    RedisConnectionError: on_store_unavailable,
    RedisClusterException: on_store_unavailable,  # no node for a slot, too many redirects
    RedisTimeoutError: on_store_unavailable,
    scoring_errors.ScoringError: on_scoring_error,
    ApiError: on_api_error,
    ValidationError: on_validation_error,
    IdempotencyMismatch: on_idempotency_mismatch,
    NotReplicated: on_not_replicated,
    HTTPException: on_http_error,
    Exception: on_unexpected,
}
