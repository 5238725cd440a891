"""A client that goes away mid-body, or sends garbage, over and over: no 500, no traceback, and a
bounded number of log lines (display/security.py, display/http/log_budget.py), over real sockets."""

from __future__ import annotations

import asyncio
import logging

import pytest

from display.http.log_budget import DISCONNECTS, Budget
from tests.utils import Api


async def hang_up_mid_body(port: int, path: str) -> None:
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        'content-length: 100\r\n\r\n{"role":'.encode()
    )
    await writer.drain()
    await asyncio.sleep(0.01)
    writer.close()
    await writer.wait_closed()


async def garbage(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"\x16\x03\x01 not http at all\r\n\r\n")
    await reader.read()
    writer.close()


async def test_clients_that_hang_up_or_send_garbage_cannot_flood_the_log(
    api: Api, server: str, caplog: pytest.LogCaptureFixture
) -> None:
    DISCONNECTS.windows.clear()
    port = int(server.rsplit(":", 1)[1])
    caplog.set_level(logging.INFO)
    for n in range(100):
        await hang_up_mid_body(port, "/api/session" if n % 2 else "/api/t/x/scores")
    for _ in range(100):
        await garbage(port)
    await asyncio.sleep(0.5)
    records = caplog.records
    assert not [r for r in records if r.levelno >= logging.ERROR], [r.getMessage() for r in records]
    assert not [r for r in records if r.exc_info], "a traceback was logged"
    went_away = [r for r in records if "went away" in r.getMessage()]
    assert 1 <= len(went_away) <= 10  # the address's budget
    invalid = [r for r in records if r.name == "uvicorn.error"]
    assert 1 <= len(invalid) <= 10
    assert len(records) <= 40, [r.getMessage() for r in records]
    assert sum(len(r.getMessage()) for r in records) < 4_000
    # and the server still answers
    assert (await api.http.get("/api/tournaments")).status_code == 200


def test_a_budget_grants_lines_per_window_and_says_once_when_it_holds_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    budget = Budget(lines=3, seconds=3600)
    log = logging.getLogger("test.budget")
    with caplog.at_level(logging.WARNING, "test.budget"):
        granted = [budget.allow("10.0.0.1", log) for _ in range(10)]
        assert budget.allow("10.0.0.2", log)
    assert granted == [True] * 3 + [False] * 7
    assert [r.getMessage() for r in caplog.records] == [
        "10.0.0.1: more than 3 log lines in 3600 s, the rest held back"
    ]
