"""A Redis that hangs (SIGSTOP) mid-push and then resumes runs the append it had queued, so a 503
for that push must not say "nothing was recorded": it says the outcome is unknown and gives the
Idempotency-Key to send it again with, and sending it again records it once (display/errors.py).
A real embedded Redis process, stopped and continued; the server on loopback."""

from __future__ import annotations

import asyncio
import signal
import uuid
from pathlib import Path

from display.embedded.redis import EmbeddedRedis
from display.settings import Settings
from tests.utils import TD_PASSWORD, Api, serve_in_loop


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
