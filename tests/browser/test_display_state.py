"""The hall display's state at a glance, in Chromium: a board that lost its server dims and says
how old its scores are within a few seconds, and recovers by itself; every text on it, in every
theme, while a row flashes and while it is stale, has a contrast of at least 4.5:1 (WCAG 2.1,
success criterion 1.4.3, level AA), computed from the browser's own colours."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Page, expect

from display.settings import Settings
from tests.browser.conftest import NewPage, serve_on
from tests.utils import Api, free_port

pytestmark = pytest.mark.browser

EPC = "epc-qualifying"
AA = 4.5
FULL_HD = {"width": 1920, "height": 1080}

# Every element with text of its own, visible, inside the board: its text colour over the
# backgrounds of it and its ancestors composed (alpha-blended) down to the page's, and the WCAG
# contrast ratio of the two. Relative luminance and ratio as WCAG 2.1 defines them.
CONTRAST = """
(root) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) throw new Error("unparsed colour " + c);
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = (node) => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) layers.push(parse(getComputedStyle(n).backgroundColor));
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const found = [];
  for (const node of root.querySelectorAll("*")) {
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || node.closest(".probe,[hidden]")) continue;
    const style = getComputedStyle(node);
    if (style.visibility !== "visible" || node.getClientRects().length === 0) continue;
    const bg = background(node);
    const fg = over(parse(style.color), bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    found.push({
      text: node.textContent.trim().slice(0, 40),
      cls: node.className,
      ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100,
      color: style.color,
    });
  }
  return found;
}
"""

# Every running animation (a flashing row) paused at ``phase`` (0..1) of its course.
AT_PHASE = """
(phase) => {
  for (const animation of document.getAnimations()) {
    animation.pause();
    animation.effect.updateTiming({ delay: 0 });
    animation.currentTime = phase * animation.effect.getTiming().duration;
  }
  return document.getAnimations().length;
}
"""


async def low_contrast(page: Page) -> list[dict[str, Any]]:
    texts = await page.locator("#display").evaluate(CONTRAST)
    assert len(texts) > 20  # the board was measured, not an empty page
    return [t for t in texts if t["ratio"] < AA]


async def weekend(api: Api, tid: str) -> None:
    """An EPC qualifying with the cut bands, a flash-worthy machine table and an empty machine."""
    await api.tournament(tid, EPC, players=12, machines=4, settings={"qualify": 4, "standby": 2})
    for player in range(1, 11):
        await api.score(tid, player, 1 + player % 3, 1_000_000 * player)


@pytest.mark.parametrize("theme", ["dark", "light", "contrast"])
@pytest.mark.parametrize("view", ["machines", "standings", "queue"])
async def test_every_text_and_every_flash_keeps_aa_contrast(
    api: Api, server: str, new_page: NewPage, theme: str, view: str
) -> None:
    tid = f"cc{view[:2]}{theme[:2]}"
    await weekend(api, tid)
    page = await new_page(FULL_HD)
    await page.goto(f"{server}/t/{tid}/display?views={view}&seconds=600")
    await expect(page.locator("#status")).to_have_attribute("data-state", "live")
    await page.evaluate(f"document.documentElement.dataset.theme = {theme!r}")
    assert await low_contrast(page) == []

    await api.score(tid, 11, 1, 99_000_000)  # tops machine 1 and moves up the standings
    await expect(page.locator(".flash").first).to_be_visible()
    for phase in (0, 0.2, 0.5, 0.54, 0.56, 0.6, 0.7, 0.8, 0.9, 0.99):
        assert await page.evaluate(AT_PHASE, phase) > 0
        assert await low_contrast(page) == [], phase


async def test_a_board_that_lost_its_server_dims_says_how_old_and_recovers(
    settings: Settings, new_page: NewPage
) -> None:
    port = free_port()
    page = await new_page(FULL_HD)
    board = page.locator("#display")
    banner = page.locator("#stale-banner")
    async with serve_on(settings, port) as base:
        api = Api(base)
        await api.sign_in_td()
        await weekend(api, "st1")
        await api.close()
        await page.goto(f"{base}/t/st1/display?views=standings&seconds=600")
        await expect(page.locator("#status")).to_have_attribute("data-state", "live")
        await expect(banner).to_be_hidden()
        live_text = await page.locator(".standings-row .total").last.evaluate(
            "n => getComputedStyle(n).color"
        )
        await page.evaluate("window.sameDocument = true; Backglass.random = () => 0")
    # within a few seconds of the server going, from across the hall
    await expect(board).to_have_attribute("data-stale", "", timeout=4_000)
    await expect(banner).to_be_visible()
    await expect(banner).to_have_text(re.compile(r"^NOT LIVE — these scores are \d+ s old"))
    await expect(banner).to_have_text(re.compile(r"are ([3-9]|\d\d) s old"), timeout=6_000)
    box = await banner.bounding_box()
    assert box is not None and box["height"] >= 40 and box["width"] >= 1900  # not a corner note
    dimmed = await page.locator(".standings-row .total").last.evaluate(
        "n => getComputedStyle(n).color"
    )
    assert dimmed != live_text
    for theme in ("dark", "light", "contrast"):  # dimmed, yet still readable
        await page.evaluate(f"document.documentElement.dataset.theme = {theme!r}")
        assert await low_contrast(page) == [], theme
    await page.evaluate("document.documentElement.dataset.theme = 'dark'")

    async with serve_on(settings, port) as base:
        await expect(page.locator("#status")).to_have_attribute("data-state", "live")
        await expect(board).not_to_have_attribute("data-stale", "")
        await expect(banner).to_be_hidden()
        api = Api(base)
        await api.sign_in_td()
        await api.score("st1", 12, 4, 5_000)
        await api.close()
        await expect(page.locator('.list-row[data-player="12"] .played')).to_have_text(
            re.compile("^1")
        )
        assert await page.evaluate("window.sameDocument") is True  # no reload
