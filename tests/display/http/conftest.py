"""Fixtures of the HTTP tests."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from display.http.auth import Auth


@pytest.fixture
async def auth(redis_url: str) -> AsyncIterator[Auth]:
    """Auth on the test Redis with a key prefix of its own (removed afterwards)."""
    client = Redis.from_url(redis_url)
    found = Auth(client, f"bgtest-{uuid.uuid4().hex[:12]}")
    yield found
    keys = [key async for key in client.scan_iter(f"{found.prefix}:*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()
