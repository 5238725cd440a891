"""Redis trouble seen from Chromium: the hall display says "reconnecting" while Redis is down and
catches up by itself after; the steward's phone says NOT SAVED while the disk under Redis is full
(or "may already be recorded" when the server cannot be sure), and "may already be recorded" while
Redis hangs, keeps retrying with the same key, and records the score once when the store is back."""

from __future__ import annotations

import asyncio
import re
import signal
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from playwright.async_api import Response, expect

from display.embedded.redis import EmbeddedRedis
from display.settings import Settings
from tests.browser.conftest import PHONE, NewPage, score_records, serve_on, steward_pin
from tests.browser.test_steward import enter, sign_in
from tests.display.log.test_disk_full import fill, small_tmpfs
from tests.utils import TD_PASSWORD, Api, free_port

pytestmark = pytest.mark.browser

EPC = "epc-qualifying"


async def test_display_shows_reconnecting_while_redis_is_down(
    tmp_path: Path, new_page: NewPage
) -> None:
    """kill -9 Redis under a running server: the display's websocket stays open, yet its status
    corner turns to "reconnecting — data N s old" (the server's pings say the store is down); Redis
    restarted on the same data dir, it is live again and shows the next score, without a reload."""
    store = EmbeddedRedis(tmp_path / "redis")
    settings = Settings(
        redis_url=store.start(),
        data_dir=tmp_path / "data",
        td_password=TD_PASSWORD,
        heartbeat_seconds=1.0,
    )
    page = await new_page()
    status = page.locator("#status")
    try:
        async with serve_on(settings, free_port()) as base:
            api = Api(base)
            await api.sign_in_td()
            await api.tournament("ro", EPC, players=3, machines=1)
            await api.score("ro", 1, 1, 1_000)
            await page.goto(f"{base}/t/ro/display?views=machines&seconds=600")
            await expect(status).to_have_attribute("data-state", "live")
            await page.evaluate("window.sameDocument = true")

            assert store.process is not None
            store.process.send_signal(signal.SIGKILL)
            store.process.wait()
            await expect(status).to_have_attribute("data-state", "reconnecting")
            await expect(status.locator(".status-text")).to_have_text(
                re.compile(r"^reconnecting — data \d+ s old$")
            )
            # the socket is fine, yet the board is not live: dimmed, with the banner
            await expect(page.locator("#display")).to_have_attribute("data-stale", "")
            await expect(page.locator("#stale-banner")).to_have_text(
                re.compile(r"^NOT LIVE — these scores are \d+ s old")
            )
            refused = await api.score("ro", 2, 1, 2_000)
            assert refused.status_code == 503

            store.start()
            await expect(status).to_have_attribute("data-state", "live", timeout=15_000)
            await expect(page.locator("#stale-banner")).to_be_hidden()
            key = uuid.uuid4().hex
            for _ in range(100):
                pushed = await api.score("ro", 2, 1, 2_000, key=key)
                if pushed.status_code == 201:
                    break
                await asyncio.sleep(0.1)
            assert pushed.status_code == 201, pushed.text
            await expect(page.locator('.row[data-player="2"]')).to_contain_text("2,000")
            assert await page.evaluate("window.sameDocument") is True  # no reload
            await api.close()
    finally:
        store.stop()


async def until(condition: Callable[[], bool], timeout: float = 5) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)


def use_up_the_aof_page(data_dir: Path) -> None:
    """On a full disk the AOF's last page may still hold a few hundred bytes, enough for one more
    score. Tiny writes fill that room until one fails and Redis exits; the supervisor restarts it
    with under ~40 bytes left, which no score (or session touch) fits in."""
    admin_url = EmbeddedRedis(data_dir).admin_url
    for i in range(1000):
        try:
            with redis.Redis.from_url(admin_url) as admin:
                admin.set(f"p:{i}", "x")
        except redis.ConnectionError:
            break
    else:
        raise AssertionError("Redis kept writing on a full disk")
    for _ in range(200):  # back up (the supervisor), before the steward submits
        try:
            with redis.Redis.from_url(admin_url) as admin:
                if admin.ping():
                    return
        except redis.ConnectionError:
            time.sleep(0.05)
    raise AssertionError("the supervisor did not restart Redis")


async def test_steward_sees_not_saved_while_the_disk_is_full(new_page: NewPage) -> None:
    """The embedded Redis on a full tmpfs: Submit answers 503, the phone says NOT SAVED (or, when
    Redis died mid-append, that it may be recorded: outcome_unknown) and retries
    with one Idempotency-Key; once the filler is deleted the supervisor's Redis takes it, the phone
    shows it recorded, and the log holds it once."""
    with small_tmpfs() as disk:
        settings = Settings(data_dir=disk / "data", td_password=TD_PASSWORD)
        async with serve_on(settings, free_port()) as base:
            api = Api(base)
            await api.sign_in_td()
            await api.tournament("df", EPC, players=3, machines=1)
            pin = await steward_pin(api, "df", "Sam")
            page = await new_page(PHONE)
            await sign_in(page, base, "df", "Sam", pin)
            await enter(page, "1", "2", "4242")
            await expect(page.locator("#screen-confirm")).to_be_visible()

            statuses: list[int] = []
            errors: list[str | None] = []
            keys: set[str | None] = set()

            async def on_response(response: Response) -> None:
                request = response.request
                if request.method == "POST" and request.url.endswith("/api/t/df/scores"):
                    statuses.append(response.status)
                    keys.add(request.headers.get("idempotency-key"))
                    errors.append((await response.json()).get("error"))

            page.on("response", on_response)
            filler = fill(disk)
            await asyncio.to_thread(use_up_the_aof_page, settings.data_dir)  # the server runs here
            await page.click("#confirm-submit")
            notice = page.locator("#confirm-notice")
            # Redis exiting mid-append may have run it (outcome_unknown), else nothing was (store_unavailable)
            await expect(notice).to_contain_text(re.compile("NOT SAVED|may already be recorded"))
            await expect(page.locator("#screen-confirm")).to_be_visible()
            await until(lambda: bool(errors))  # the response event may trail the page
            assert set(statuses) == {503}, statuses
            assert set(errors) <= {"store_unavailable", "outcome_unknown"}, errors
            if "NOT SAVED" in await notice.inner_text():  # said only when the server was certain
                assert "store_unavailable" in errors, errors
            for _ in range(200):  # reads work whenever the supervisor has Redis up
                log = await api.http.get("/api/t/df/log")
                if log.status_code == 200:
                    break
                await asyncio.sleep(0.05)
            assert [r for r in log.json()["records"] if r["type"] == "score_recorded"] == []

            filler.unlink()
            await expect(page.locator("#screen-confirm")).to_be_hidden(timeout=20_000)
            await until(lambda: 201 in statuses)
            assert statuses[-1] == 201 and set(statuses[:-1]) == {503}, statuses
            assert len(keys) == 1 and None not in keys  # every try sent the same key
            records = await score_records(api, "df")
            assert [(r["player"], r["score"]) for r in records] == [("2", 4242)]
            await api.close()


async def test_steward_sees_may_be_recorded_while_redis_hangs(
    tmp_path: Path, new_page: NewPage
) -> None:
    """Redis stopped (SIGSTOP) under a steward's Submit: the server cannot tell whether the append
    will run, so it answers 503 outcome_unknown, and the phone must not say NOT SAVED: it says the
    score may already be recorded and that it is sent again with the same key. Redis continued, the
    resend gets the recorded answer, the phone shows it recorded, and the log holds it once."""
    store = EmbeddedRedis(tmp_path / "redis")
    settings = Settings(
        redis_url=store.start(),
        data_dir=tmp_path / "data",
        td_password=TD_PASSWORD,
        heartbeat_seconds=1.0,
    )
    assert store.process is not None
    try:
        async with serve_on(settings, free_port()) as base:
            api = Api(base)
            api.http.timeout = 30
            await api.sign_in_td()
            await api.tournament("hang", EPC, players=3, machines=1)
            pin = await steward_pin(api, "hang", "Sam")
            page = await new_page(PHONE)
            await sign_in(page, base, "hang", "Sam", pin)
            await enter(page, "1", "2", "4343")
            await expect(page.locator("#screen-confirm")).to_be_visible()

            answers: list[tuple[int, str | None]] = []
            keys: set[str | None] = set()

            async def on_response(response: Response) -> None:
                request = response.request
                if request.method == "POST" and request.url.endswith("/api/t/hang/scores"):
                    keys.add(request.headers.get("idempotency-key"))
                    body = await response.json()
                    answers.append((response.status, body.get("error")))

            page.on("response", on_response)
            store.process.send_signal(signal.SIGSTOP)
            try:
                await page.click("#confirm-submit")
                notice = page.locator("#confirm-notice")
                await expect(notice).to_contain_text("may already be recorded", timeout=20_000)
                await expect(notice).to_contain_text("same key")
                await expect(notice).not_to_contain_text("NOT SAVED")
                await until(lambda: bool(answers))
                assert answers[0] == (503, "outcome_unknown"), answers
            finally:
                store.process.send_signal(signal.SIGCONT)
            await expect(page.locator("#screen-confirm")).to_be_hidden(timeout=30_000)
            await expect(page.locator("#result")).to_contain_text("Recorded")
            await until(lambda: answers[-1][0] in (200, 201))
            assert {status for status, _ in answers[:-1]} == {503}, answers
            assert len(keys) == 1 and None not in keys  # every try sent the same key
            records = await score_records(api, "hang")
            assert [(r["player"], r["score"]) for r in records] == [("2", 4343)]
            await api.close()
    finally:
        store.process.send_signal(signal.SIGCONT)
        store.stop()


async def test_the_audit_page_resends_a_void_whose_outcome_is_unknown(
    tmp_path: Path, new_page: NewPage
) -> None:
    """The TD's pages write through live.js ``writeOnce``: a void sent while Redis is stopped
    (SIGSTOP) answers 503 outcome_unknown, the audit page says it may already be recorded and is
    sent again with the same key (not a bare error to press again, with a new key), and once Redis
    continues it shows the score voided; the log holds one void."""
    store = EmbeddedRedis(tmp_path / "redis")
    settings = Settings(
        redis_url=store.start(),
        data_dir=tmp_path / "data",
        td_password=TD_PASSWORD,
        heartbeat_seconds=1.0,
    )
    assert store.process is not None
    try:
        async with serve_on(settings, free_port()) as base:
            api = Api(base)
            api.http.timeout = 30
            await api.sign_in_td()
            await api.tournament("hv", EPC, players=2, machines=1)
            seq = (await api.score("hv", 1, 1, 5_000)).json()["version"]
            page = await new_page()
            await page.goto(f"{base}/t/hv/audit")
            row = page.locator(f'.audit-row[data-seq="{seq}"]')
            await expect(row.locator(".what")).to_be_visible()
            await page.click("#sign-in-toggle")
            await page.fill("#signin-secret", TD_PASSWORD)
            await page.click("#signin-submit")
            await expect(page.locator("#who")).to_have_text("Signed in as TD")
            await row.get_by_role("button", name="Void").click()
            await row.locator('input[name="reason"]').fill("played twice")

            answers: list[tuple[int, str | None]] = []
            keys: set[str | None] = set()

            async def on_response(response: Response) -> None:
                request = response.request
                if request.method == "POST" and request.url.endswith(f"/scores/{seq}/void"):
                    keys.add(request.headers.get("idempotency-key"))
                    answers.append((response.status, (await response.json()).get("error")))

            page.on("response", on_response)
            store.process.send_signal(signal.SIGSTOP)
            try:
                await row.get_by_role("button", name="Void this score").click()
                problem = row.locator(".editor .error")
                await expect(problem).to_contain_text("may already be recorded", timeout=20_000)
                await expect(problem).to_contain_text("same key")
                await until(lambda: bool(answers))
                assert answers[0] == (503, "outcome_unknown"), answers
            finally:
                store.process.send_signal(signal.SIGCONT)
            await expect(row).to_have_class(re.compile(r"\bvoided\b"), timeout=30_000)
            await until(lambda: answers[-1][0] in (200, 201))
            assert len(keys) == 1 and None not in keys  # every try sent the same key
            log = (await api.http.get("/api/t/hv/log")).json()["records"]
            assert [r["type"] for r in log].count("score_voided") == 1
            await api.close()
    finally:
        store.process.send_signal(signal.SIGCONT)
        store.stop()
