"""The hall display as a kiosk, in Chromium: full screen on the first click, the screen kept awake
where the browser grants a Screen Wake Lock, the cursor hidden while it rests, and a reload that
keeps the views (they are in the URL)."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import NewPage
from tests.utils import Api

pytestmark = pytest.mark.browser


async def test_first_click_goes_full_screen_the_cursor_hides_and_a_reload_keeps_the_views(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("ks1", "epc-qualifying", players=3, machines=2)
    page = await new_page({"width": 1280, "height": 720})
    await page.goto(f"{server}/t/ks1/display?views=standings&seconds=600")
    await expect(page.locator("#status")).to_have_attribute("data-state", "live")
    assert await page.evaluate("document.fullscreenElement") is None
    await page.mouse.click(640, 360)
    await page.wait_for_function("document.fullscreenElement === document.documentElement")
    awake = await page.locator("#display").get_attribute("data-awake")
    has_wake_lock = await page.evaluate("'wakeLock' in navigator")
    assert has_wake_lock and awake == ""  # headless Chromium grants the Screen Wake Lock

    body = page.locator("body")
    await page.mouse.move(100, 100)
    await expect(body).not_to_have_attribute("data-idle", "")
    await expect(body).to_have_attribute("data-idle", "", timeout=6_000)  # 3 s at rest
    assert await page.evaluate("getComputedStyle(document.body).cursor") == "none"
    await page.mouse.move(200, 200)
    await expect(body).not_to_have_attribute("data-idle", "")

    await page.reload()
    await expect(page.locator("#view-title")).to_have_text("Standings")
