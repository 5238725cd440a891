"""Shared fixtures: a real Redis (embedded, or ``REDIS_URL``), settings with a fresh key prefix,
and a real server on a free port."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from display.embedded.redis import EmbeddedRedis
from display.settings import Settings
from tests.utils import TD_PASSWORD, Api, serve_in_loop

# The suite must pass on a loaded 2-core machine: no property test fails for being slow (a
# per-example deadline, or the health check on slow data generation); speed is the bench's job.
hypothesis_settings.register_profile(
    "backglass", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("backglass")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``REDIS_URL`` if set (the suite then runs against that server), else an embedded Redis."""
    url = os.environ.get("REDIS_URL")
    if url:
        redis.Redis.from_url(url).ping()
        yield url
        return
    embedded = EmbeddedRedis(tmp_path_factory.mktemp("redis"))
    yield embedded.start()
    embedded.stop()


@pytest.fixture
def settings(redis_url: str, tmp_path: Path) -> Iterator[Settings]:
    """Settings on the shared test Redis with a key prefix of its own; keys removed afterwards."""
    prefix = f"bgtest-{uuid.uuid4().hex[:12]}"
    yield Settings(
        redis_url=redis_url,
        data_dir=tmp_path / "data",
        key_prefix=prefix,
        td_password=TD_PASSWORD,
        heartbeat_seconds=1.0,
    )
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
async def server(settings: Settings) -> AsyncIterator[str]:
    async with serve_in_loop(settings) as base:
        yield base


@pytest.fixture
async def api(server: str) -> AsyncIterator[Api]:
    client = Api(server)
    await client.sign_in_td()
    yield client
    await client.close()
