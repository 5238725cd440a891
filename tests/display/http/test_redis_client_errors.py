"""A connection redis-py closed under a request is the store failing (503), not a server bug (500):
the AttributeError a write on a closed redis-py connection raises is told apart from one of ours."""

from __future__ import annotations

import pytest
from redis.asyncio.connection import Connection

from display.errors import raised_in_redis_client


async def test_a_write_on_a_closed_redis_connection_is_the_store_failing() -> None:
    closed = Connection()  # never connected: its writer is None, as after a disconnect
    with pytest.raises(AttributeError) as raised:
        await closed._send_packed_command([b"PING\\r\\n"])
    assert raised_in_redis_client(raised.value)


def test_an_attribute_error_of_our_own_is_still_a_bug() -> None:
    with pytest.raises(AttributeError) as raised:
        None.writelines  # type: ignore[attr-defined]  # noqa: B018
    assert not raised_in_redis_client(raised.value)
    assert not raised_in_redis_client(ValueError("not an attribute error"))
