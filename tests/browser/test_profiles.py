"""Hall display profiles in Chromium: a display opened with ?profile= takes its views, seconds,
theme and QR code from the TD's profile and follows changes live; the players' page QR code."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import NewPage
from tests.utils import Api

pytestmark = pytest.mark.browser

EPC = "epc-qualifying"


async def put_profile(api: Api, tid: str, name: str, body: dict[str, object]) -> None:
    r = await api.http.put(f"/api/t/{tid}/profiles/{name}", json=body, headers=api.headers())
    assert r.status_code == 201, r.text


async def test_a_display_follows_its_profile_live(api: Api, server: str, new_page: NewPage) -> None:
    await api.tournament("pr1", EPC, players=3, machines=2)
    await api.score("pr1", 1, 1, 5_000)
    await put_profile(api, "pr1", "bar", {"views": ["standings"], "seconds": 600,
                                          "theme": "light", "qr": False})  # fmt: skip
    page = await new_page()
    await page.goto(f"{server}/t/pr1/display?profile=bar")
    html, title, qr = page.locator("html"), page.locator("#view-title"), page.locator("#qr-corner")
    await expect(title).to_have_text("Standings")
    await expect(html).to_have_attribute("data-theme", "light")
    await expect(qr).to_be_hidden()
    await expect(page.locator("#stage .list-row")).to_have_count(3)
    await page.evaluate("window.sameDocument = true")

    await put_profile(api, "pr1", "bar", {"views": ["machines"], "seconds": 600,
                                          "theme": "contrast"})  # fmt: skip
    await expect(title).to_have_text("Machines")
    await expect(html).to_have_attribute("data-theme", "contrast")
    await expect(qr).to_be_visible()
    await expect(page.locator(".card")).to_have_count(2)

    await put_profile(api, "pr1", "bar", {"views": ["standings", "machines"], "seconds": 2})
    await expect(title).to_have_text("Standings")
    await expect(title).to_have_text("Machines", timeout=5_000)  # 2 s a page now

    r = await api.http.delete("/api/t/pr1/profiles/bar", headers=api.headers())
    assert r.status_code == 200
    await expect(page.locator("#profile-note")).to_have_text("no display profile “bar”")
    await expect(html).to_have_attribute("data-theme", "dark")
    assert await page.evaluate("window.sameDocument") is True  # no reload


async def test_the_qr_code_shows_by_default_and_hides_on_request(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("pr2", EPC, players=1, machines=1)
    page = await new_page()
    await page.goto(f"{server}/t/pr2/display?views=machines")
    corner = page.locator("#qr-corner")
    await expect(corner).to_be_visible()
    await expect(corner).to_contain_text(f"{server}/t/pr2/standings")
    image = page.locator("#qr-code")
    await expect(image).to_have_attribute("src", "/t/pr2/qr.svg")
    await page.wait_for_function("() => document.getElementById('qr-code').naturalWidth > 0")
    await expect(page.locator("#profile-note")).to_be_hidden()
    await page.goto(f"{server}/t/pr2/display?views=machines&qr=0")
    await expect(page.locator(".card")).to_have_count(1)
    await expect(page.locator("#qr-corner")).to_be_hidden()


QR_CAPTION_INSIDE = """() => {
  const box = document.querySelector('.qr-text').getBoundingClientRect();
  const drawn = [...document.querySelectorAll('.qr-text > *')].filter((l) => l.getClientRects().length);
  return drawn.map((line) => {
    const r = line.getBoundingClientRect();
    return r.left >= box.left - 1 && r.right <= box.right + 1 && r.left >= 0;
  });
}"""


async def test_the_qr_caption_is_read_whole_on_a_phone_or_not_shown(
    api: Api, server: str, new_page: NewPage
) -> None:
    """The caption beside the QR code is right-aligned, so a line too long for a phone spilled out
    on the left ("cores, and what you need…"): on a 390-px screen its lines wrap inside their box;
    on a wide one, above the code in its column, they wrap inside the code's width."""
    await api.tournament("pr3", EPC, players=1, machines=1)
    for width, height in ((390, 844), (1920, 1080)):
        page = await new_page({"width": width, "height": height})
        await page.goto(f"{server}/t/pr3/display?views=machines")
        await expect(page.locator("#status")).to_have_attribute("data-state", "live")
        caption = page.locator(".qr-text")
        await expect(caption).to_be_visible()
        await expect(caption).not_to_have_class("too-long")
        assert await page.evaluate(QR_CAPTION_INSIDE) == [True, True]
        await expect(caption).to_have_class(re.compile("wrapped"))
        if width > height:  # in the code's column
            code = await page.locator("#qr-code").bounding_box()
            box = await caption.bounding_box()
            assert code is not None and box is not None and box["width"] <= code["width"] + 1


async def test_a_profile_sizes_the_board_for_its_reading_distance(
    api: Api, server: str, new_page: NewPage
) -> None:
    """The profile's distance and diagonal win over the URL's (docs/display.md)."""
    await api.tournament("pr9", EPC, players=3, machines=1)
    await put_profile(api, "pr9", "far", {"views": ["standings"], "distance": 10, "diagonal": 55})
    page = await new_page({"width": 1920, "height": 1080})
    await page.goto(f"{server}/t/pr9/display?profile=far&distance=3")
    board = page.locator("#display")
    await expect(board).to_have_attribute("data-distance", "10")
    assert float(await board.get_attribute("data-min-text") or 0) == pytest.approx(73.4, abs=0.1)
    size = await page.locator(".list-row .name").first.evaluate(
        "n => parseFloat(getComputedStyle(n).fontSize)"
    )
    assert size >= 73.4
    await put_profile(api, "pr9", "far", {"views": ["standings"]})  # no distance: the URL's
    await expect(board).to_have_attribute("data-distance", "3")
