"""Every competition display view keeps WCAG AA contrast (4.5:1, WCAG 2.1 success criterion
1.4.3) on the browser's computed colours (issue 12), in every theme, in the three states a hall
sees: live, not live (the board dimmed, ``#display[data-stale]``, display.js showLiveness), and
while a row flashes (the flash paused at each phase of its course). The scenes are the display
walk's (EPC qualifying, main stages, Classic, Kids, Country, FWPL, UKPL); the generic views'
flash is measured on a live change in test_display_state.

A flash is given as the views give it, on the row elements each view flashes (class ``flash``,
what ``ctx.flash`` and ``Backglass.rowFlash`` hand a row), all at once, so each view's flash is
measured on every kind of row it has without a change scripted per view."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, expect

from display.http.pages import offered_views
from tests.browser.conftest import NewPage
from tests.browser.test_display_state import CONTRAST
from tests.browser.test_display_walk import SCENES
from tests.utils import Api

pytestmark = pytest.mark.browser

AA = 4.5
THEMES = ("dark", "light", "contrast")
PHASES = (0, 0.3, 0.54, 0.56, 0.7, 0.99)

# The row elements each view flashes (the class it gives a changed row).
FLASHED = {
    "machines": ".card .row[data-player]",
    "standings": ".standings-row[data-player]",
    "queue": ".tile[data-machine]",
    "movers": ".mover",
    "kids": ".epc-row[data-player]",
    "country_groups": ".cc-row[data-team], .cc-row[data-fixture]",
    "country_final": ".cf-row[data-team], .cf-row[data-fixture]",
    "four_ball": ".fb-row[data-team]",
    "queues": ".qtile-now",
}

# In one task (so no status tick of display.js undoes it in between): the board dimmed or not,
# the view's rows flashing at ``phase`` or not, the contrast of every text, the board restored.
MEASURE = (
    """
({ stale, flashed, phase }) => {
  const contrast = """
    + CONTRAST
    + """;
  const board = document.getElementById("display");
  const wasStale = "stale" in board.dataset;
  if (stale) board.dataset.stale = ""; else delete board.dataset.stale;
  const within = flashed ? flashed.split(",").map((one) => "#stage " + one.trim()).join(",") : "";
  const rows = flashed ? [...document.querySelectorAll(within)].filter((n) => !n.classList.contains("flash")) : [];
  for (const row of rows) row.classList.add("flash");
  if (flashed) {
    for (const animation of document.getAnimations()) {
      animation.pause();
      animation.effect.updateTiming({ delay: 0 });
      animation.currentTime = phase * animation.effect.getTiming().duration;
    }
  }
  const found = contrast(board);
  for (const row of rows) row.classList.remove("flash");
  if (wasStale) board.dataset.stale = ""; else delete board.dataset.stale;
  return { texts: found.length, rows: rows.length, low: found.filter((t) => t.ratio < 4.5) };
}
"""
)


async def measure(page: Page, stale: bool, flashed: str | None, phase: float) -> dict[str, Any]:
    args = {"stale": stale, "flashed": flashed, "phase": phase}
    result: dict[str, Any] = await page.evaluate(MEASURE, args)
    return result


@pytest.mark.parametrize("scene", list(SCENES))
async def test_every_view_keeps_aa_contrast_live_dimmed_and_flashing(
    api: Api, server: str, new_page: NewPage, scene: str
) -> None:
    setup = SCENES[scene]
    tid = "vc" + str(list(SCENES).index(scene))
    await setup.build(api, tid)
    page = await new_page({"width": 1920, "height": 1080})
    problems: list[str] = []
    for view in offered_views(setup.fmt):
        await page.goto(f"{server}/t/{tid}/display?views={view}&seconds=3600")
        await expect(page.locator("#status")).to_have_attribute("data-state", "live")
        if view == "movers" and setup.size != (0, 0):  # climbs since the board came round
            await expect(page.locator("#stage")).to_contain_text("No climbs")
            await setup.climb(api, tid, 1)
            await expect(page.locator("#stage .mover").first).to_be_visible()
        if view not in setup.empty:
            await expect(page.locator("#stage .stage-message")).to_have_count(0)
        for theme in THEMES:
            await page.evaluate(f"document.documentElement.dataset.theme = {theme!r}")
            states: list[tuple[str, bool, str | None, float]] = [
                ("live", False, None, 0),
                ("dimmed", True, None, 0),
            ]
            if view in FLASHED and view not in setup.empty:
                states += [(f"flash at {p}", False, FLASHED[view], p) for p in PHASES]
            for name, stale, flashed, phase in states:
                found = await measure(page, stale, flashed, phase)
                assert found["texts"] > 3, f"{view}: nothing measured"
                if flashed:
                    assert found["rows"] > 0, f"{view}: no {flashed} to flash"
                problems += [
                    f"{view}, {theme}, {name}: {t['ratio']} '{t['text']}' ({t['cls']}, {t['color']})"
                    for t in found["low"][:3]
                ]
    assert problems == [], "\n".join(problems)
