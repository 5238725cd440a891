"""The audit page on a long log, in Chromium (issue 12): a few hundred records are shown 50 a
page, newest first, with Newer and Older buttons that reach the oldest record; on a 390×844
phone nothing scrolls sideways and a steward reaches and uses the Void of their own entry."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage
from tests.utils import Api

pytestmark = pytest.mark.browser

SCORES = 270


async def test_a_long_log_is_paged_newest_first_and_a_steward_voids_on_a_phone(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("al1", "epc-qualifying", players=46, machines=6)
    for n in range(SCORES):  # players 1-45 on each of the 6 machines
        r = await api.score("al1", 1 + n % 45, 1 + n // 45, 1_000 + n)
        assert r.status_code == 201, r.text
    pin = (await api.post("/api/t/al1/stewards", {"name": "Sam"})).json()["pin"]
    body = {"role": "steward", "tournament": "al1", "name": "Sam", "pin": pin}
    sam = (await api.http.post("/api/session", json=body)).json()["token"]

    page = await new_page(PHONE)
    await page.goto(f"{server}/t/al1/audit")
    await page.click("#sign-in-toggle")
    await page.select_option("#signin-role", "steward")
    await page.fill("#signin-name", "Sam")
    await page.fill("#signin-secret", pin)
    await page.click("#signin-submit")
    await expect(page.locator("#who")).to_have_text("Signed in as steward Sam")
    mine = (await api.score("al1", 46, 1, 77_000, token=sam)).json()["version"]
    total = len((await api.http.get("/api/t/al1/log")).json()["records"])
    assert total > SCORES
    rows = page.locator(".audit-row")
    count = page.locator("#count")
    await expect(count).to_have_text(f"Showing 1–50 of {total} records, newest first")
    await expect(rows).to_have_count(50)
    await expect(rows.first).to_have_attribute("data-seq", str(mine))
    await expect(page.locator("#page-of")).to_have_text(f"Page 1 of {-(-total // 50)}")
    await expect(page.locator("#newer")).to_be_disabled()

    # the steward's own entry, newest, has its Void in reach on the phone
    void = rows.first.get_by_role("button", name="Void")
    await expect(void).to_be_visible()
    box = await void.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await void.click()
    await rows.first.locator('input[name="reason"]').fill("wrong machine")
    await rows.first.get_by_role("button", name="Void this score").click()
    await expect(page.locator(f'.audit-row[data-seq="{mine}"]')).to_have_class(
        re.compile(r"\bvoided\b")
    )
    total += 1
    await expect(count).to_have_text(f"Showing 1–50 of {total} records, newest first")

    # older pages, down to the tournament's first record
    pages = -(-total // 50)
    await page.click("#older")
    await expect(count).to_have_text(f"Showing 51–100 of {total} records, newest first")
    await expect(rows).to_have_count(50)
    await expect(rows.first).to_have_attribute("data-seq", str(total - 50))
    for _ in range(pages - 2):
        await page.click("#older")
    await expect(page.locator("#page-of")).to_have_text(f"Page {pages} of {pages}")
    await expect(page.locator("#older")).to_be_disabled()
    await expect(rows).to_have_count(total - 50 * (pages - 1))
    await expect(rows.last).to_have_attribute("data-seq", "1")
    await expect(rows.last.locator(".what")).to_contain_text("Tournament created")
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await page.click("#newer")
    await expect(page.locator("#page-of")).to_have_text(f"Page {pages - 1} of {pages}")

    # a filter starts again at the newest page
    await page.fill("#filter-player", "46")
    await expect(count).to_have_text(re.compile(r"^Showing \d+ of \d+ records$"))
    await expect(page.locator("#pager")).to_be_hidden()
