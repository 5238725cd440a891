"""The board and the TD's desk on a 390×844 phone, in Chromium (issue 12, "The hall as people see
it"): nothing makes the page scroll sideways (document scrollWidth within the viewport), the
board shows its title whole, and the desk's players table fits the screen, so every Withdraw and
Merge button is in reach without scrolling."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser

LONG = "Flip Well Pinball League — Spring Season 2026"

# The title's box and whether its text is drawn whole (not cut by its box or the screen).
TITLE = """() => {
  const t = document.querySelector(".display-title");
  const r = t.getBoundingClientRect();
  return { width: r.width, left: r.left, right: r.right, text: t.textContent.trim(),
    whole: t.scrollWidth <= t.clientWidth + 1 && t.scrollHeight <= t.clientHeight + 1,
    page: document.documentElement.scrollWidth };
}"""


@pytest.mark.parametrize("distance", [3, 10])
async def test_the_board_on_a_phone_shows_its_title_whole_and_no_wider(
    api: Api, server: str, new_page: NewPage, distance: int
) -> None:
    body = {"id": "ph2", "name": LONG, "format": "epc-qualifying", "settings": {}}
    (await api.post("/api/tournaments", body)).raise_for_status()
    players = [{"number": str(n), "name": f"Player {n}"} for n in range(1, 13)]
    (await api.post("/api/t/ph2/players", {"players": players})).raise_for_status()
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/ph2/display?views=standings&distance={distance}")
    await expect(page.locator("#status")).to_have_attribute("data-state", "live")
    await expect(page.locator(".display-title")).to_be_visible()
    title = await page.evaluate(TITLE)
    assert title["text"] == LONG
    assert title["whole"], title
    assert title["left"] >= 0 and title["right"] <= PHONE["width"] + 0.5, title
    assert title["page"] <= PHONE["width"], title


# The players table against its box and the screen: widths, and the buttons outside the screen.
TABLE = """() => {
  const table = document.getElementById("players-table");
  const box = table.parentElement;
  const out = [...table.querySelectorAll("button")].filter((b) => b.getBoundingClientRect().right > innerWidth + 0.5);
  return { table: table.scrollWidth, box: box.clientWidth, outside: out.length,
    buttons: table.querySelectorAll("button").length, page: document.documentElement.scrollWidth };
}"""


async def test_the_desk_players_table_fits_a_phone(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("ph3", "epc-qualifying", machines=2)
    players = [
        {"number": str(n), "name": f"Bartholomew Lindqvist-Øvergaard {n}"} for n in range(1, 9)
    ]
    (await api.post("/api/t/ph3/players", {"players": players})).raise_for_status()
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/ph3/desk")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-form button")
    await expect(page.locator("#players-table tbody tr")).to_have_count(8)
    await expect(page.locator("#players-table button").last).to_be_visible()
    fit = await page.evaluate(TABLE)
    assert fit["buttons"] == 16, fit  # Withdraw and Merge on every row
    assert fit["table"] <= fit["box"] + 1, fit  # no scrolling inside the box either
    assert fit["outside"] == 0, fit
    assert fit["page"] <= PHONE["width"], fit
