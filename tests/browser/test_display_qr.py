"""The board's QR code sized for the board's reading distance, in Chromium (issue 12, "sized for
the board's distance (a scan distance of roughly ten code widths)"): from ``distance`` metres the
code drawn is at least distance/10 m wide on the physical screen (its ``diagonal`` and the
viewport give the px per metre, as the reading size does); where a code that big does not fit, no
smaller code is drawn and the players' page's address is shown at the board's own text size."""

from __future__ import annotations

import math

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage
from tests.browser.test_display_reading import min_text_px
from tests.utils import Api

pytestmark = pytest.mark.browser

DIAGONAL = 55


def required_px(distance: float, diagonal: float, width: int, height: int) -> float:
    """distance/10 metres in CSS px of a ``diagonal``-inch screen ``width``×``height`` px."""
    screen_m = diagonal * 0.0254 / math.hypot(1, width / height)
    return distance / 10 / screen_m * height


@pytest.mark.parametrize(
    ("width", "height", "distance"),
    [(1920, 1080, 3), (1280, 720, 3), (1920, 1080, 4), (PHONE["width"], PHONE["height"], 3)],
)
async def test_the_code_is_a_tenth_of_the_reading_distance_wide(
    api: Api, server: str, new_page: NewPage, width: int, height: int, distance: float
) -> None:
    await api.tournament("qr1", "epc-qualifying", players=30, machines=4)
    page = await new_page({"width": width, "height": height})
    await page.goto(f"{server}/t/qr1/display?views=standings&distance={distance}")
    await expect(page.locator("#status")).to_have_attribute("data-state", "live")
    code = page.locator("#qr-code")
    await expect(code).to_be_visible()
    await page.wait_for_function("() => document.getElementById('qr-code').naturalWidth > 0")
    box = await code.bounding_box()
    assert box is not None
    need = required_px(distance, DIAGONAL, width, height)
    assert box["width"] >= need - 0.5 and box["height"] >= need - 0.5, (box, need)
    # whole on the screen, beside the stage, never over a row
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5
    stage = await page.locator("#stage").bounding_box()
    assert stage is not None
    apart = box["x"] >= stage["x"] + stage["width"] or box["y"] >= stage["y"] + stage["height"]
    assert apart, (box, stage)
    assert await page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
async def test_too_far_for_a_code_the_address_is_shown_instead(
    api: Api, server: str, new_page: NewPage, width: int, height: int
) -> None:
    """10 m from a 55-inch screen needs a code 1 m wide on a screen 0.68 m high: no code is
    drawn (a smaller one would not scan), the address is read at the distance's text size."""
    await api.tournament("qr2", "epc-qualifying", players=30, machines=4)
    page = await new_page({"width": width, "height": height})
    await page.goto(f"{server}/t/qr2/display?views=standings&distance=10")
    await expect(page.locator("#status")).to_have_attribute("data-state", "live")
    await expect(page.locator("#qr-code")).to_be_hidden()
    url = page.locator(".qr-address")
    await expect(url).to_be_visible()
    address = server.split("://", 1)[1]
    await expect(url).to_have_text(f"On your phone: {address}/t/qr2/standings")
    size = await url.evaluate("n => parseFloat(getComputedStyle(n).fontSize)")
    assert size >= min_text_px(10, DIAGONAL, width, height) - 0.05
    await expect(page.locator(".qr-text")).not_to_have_class("too-long")
    box = await url.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    assert box["y"] + box["height"] <= height + 0.5
