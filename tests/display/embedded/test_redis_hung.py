"""A Redis that hangs (SIGSTOP) mid-push and then resumes runs the append it had queued, so a 503
for that push must not say "nothing was recorded": it says the outcome is unknown and gives the
Idempotency-Key to send it again with, and sending it again records it once (display/errors.py).
A real embedded Redis process, stopped and continued; the server on loopback."""

from __future__ import annotations

import asyncio
import signal
import time
import uuid
from pathlib import Path

import websockets

from display.embedded.redis import EmbeddedRedis
from display.settings import Settings
from tests.utils import TD_PASSWORD, Api, receive, serve_in_loop, ws_url


async def test_a_push_while_redis_hangs_may_have_been_recorded_and_a_retry_records_it_once(
    tmp_path: Path,
) -> None:
    store = EmbeddedRedis(tmp_path / "redis")
    url = store.start()
    assert store.process is not None
    settings = Settings(
        redis_url=url,
        data_dir=tmp_path / "data",
        key_prefix=f"bgtest-{uuid.uuid4().hex[:12]}",
        td_password=TD_PASSWORD,
        heartbeat_seconds=1.0,
    )
    try:
        async with serve_in_loop(settings) as base:
            api = Api(base)
            api.http.timeout = 30
            await api.sign_in_td()
            await api.tournament("hung", "epc-qualifying", players=2, machines=1)
            store.process.send_signal(signal.SIGSTOP)
            try:
                r = await api.score("hung", 1, 1, 4_560, key="push-while-hung")
            finally:
                store.process.send_signal(signal.SIGCONT)
            assert r.status_code == 503, r.text
            body = r.json()
            assert body["error"] == "outcome_unknown"
            assert "may have been recorded" in body["message"]
            assert "nothing was recorded" not in body["message"]
            assert body["idempotency_key"] == "push-while-hung"
            assert "push-while-hung" in body["message"]
            # the same key again, once Redis is back: recorded exactly once
            for _ in range(50):
                again = await api.score("hung", 1, 1, 4_560, key="push-while-hung")
                if again.status_code != 503:
                    break
                await asyncio.sleep(0.2)
            assert again.status_code in (200, 201), again.text
            log = (await api.http.get("/api/t/hung/log")).json()["records"]
            assert [rec["score"] for rec in log if rec["type"] == "score_recorded"] == [4_560]
            await api.close()
    finally:
        store.process.send_signal(signal.SIGCONT)
        store.stop()


async def test_displays_hear_of_a_hung_redis_long_before_the_socket_timeout(
    tmp_path: Path,
) -> None:
    """A stopped Redis answers nothing, and redis-py would wait out its 5 s socket timeout: the
    tail tells connected displays "store down" once its read is a second late, and "back" when
    Redis continues (the bound here is loose for a loaded machine, but below the 5 s)."""
    store = EmbeddedRedis(tmp_path / "redis")
    url = store.start()
    assert store.process is not None
    settings = Settings(
        redis_url=url,
        data_dir=tmp_path / "data",
        key_prefix=f"bgtest-{uuid.uuid4().hex[:12]}",
        td_password=TD_PASSWORD,
        heartbeat_seconds=30.0,  # no routine pings: the ones read are the store's news
    )
    try:
        async with serve_in_loop(settings) as base:
            api = Api(base)
            await api.sign_in_td()
            await api.tournament("hd", "epc-qualifying", players=2, machines=1)
            async with websockets.connect(ws_url(base, "hd")) as ws:
                assert (await receive(ws, skip_pings=False))["type"] == "snapshot"
                stopped = time.monotonic()
                store.process.send_signal(signal.SIGSTOP)
                try:
                    while True:
                        message = await receive(ws, timeout=10, skip_pings=False)
                        if message["type"] == "ping" and message.get("store") == "down":
                            break
                    told = time.monotonic() - stopped
                finally:
                    store.process.send_signal(signal.SIGCONT)
                assert told < 4.0, told  # 1 s block + 1 s grace; the socket timeout is 5 s
                while True:
                    message = await receive(ws, timeout=10, skip_pings=False)
                    if message["type"] == "ping" and "store" not in message:
                        break
            await api.close()
    finally:
        store.process.send_signal(signal.SIGCONT)
        store.stop()
