"""The FWPL bracket's lines in Chromium (FWPL 6.3): a stub from a finished semi-final while the
final is still to come, then a line from each semi-final to the final, joined at the final's left
edge, and the final's line to the places."""

from __future__ import annotations

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import HALL, NewPage
from tests.display.competitions.fwpl.test_fwpl_live import league
from tests.display.competitions.fwpl.test_fwpl_live_playoffs import one_week, playoff_game
from tests.utils import Api

pytestmark = pytest.mark.browser


async def lines(page: Page) -> list[list[tuple[float, float]]]:
    """Every line of the bracket as its points, in the page's own pixels."""
    found: list[str] = await page.locator(".fwpl-lines polyline").evaluate_all(
        "ls => ls.map(l => l.getAttribute('points'))"
    )
    return [[tuple(float(v) for v in p.split(",")) for p in text.split()] for text in found]


async def left_edge(page: Page, selector: str) -> float:
    """The left edge of ``selector`` relative to the bracket's box."""
    return float(
        await page.locator(selector).evaluate(
            "n => n.getBoundingClientRect().left"
            " - n.closest('.view-fwpl_bracket').getBoundingClientRect().left"
        )
    )


async def test_the_bracket_draws_its_lines(api: Api, server: str, new_page: NewPage) -> None:
    await league(api, "fb1", 8)
    await one_week(api, "fb1", 8)
    await api.post("/api/t/fb1/league/playoffs", {})
    one, two = ["1", "6", "3", "8"], ["5", "2", "7", "4"]
    await api.post("/api/t/fb1/league/playoff-matches", {"division": "A", "players": one})
    for order in (one, one, ["3", "1", "6", "8"]):
        await playoff_game(api, "fb1", one, order)
    page = await new_page(HALL)
    await page.goto(f"{server}/t/fb1/display?views=fwpl_bracket&seconds=600")
    await expect(
        page.locator('.fwpl-match[data-match="semifinal-1"] .fwpl-mrow.through')
    ).to_have_count(2)
    await expect(page.locator(".fwpl-lines polyline")).to_have_count(2)  # one stub per semi-final
    assert all(len(points) == 2 for points in await lines(page))

    await api.post("/api/t/fb1/league/playoff-matches", {"division": "A", "players": two})
    for order in (two, two, two):
        await playoff_game(api, "fb1", two, order)
    final = '.fwpl-match[data-match="final-1"]'
    await expect(page.locator(final)).to_be_visible()
    # two elbows into the final, and the final's line to the places
    await expect(page.locator(".fwpl-lines polyline")).to_have_count(3)
    drawn = await lines(page)
    elbows = [points for points in drawn if len(points) == 4]
    assert len(elbows) == 2
    into_final = await left_edge(page, final)
    for points in elbows:
        assert abs(points[-1][0] - into_final) < 1  # ends at the final's left edge
        assert points[0][0] < points[1][0] == points[2][0] < points[3][0]  # right, across, right
    places = await left_edge(page, ".fwpl-places")
    (to_places,) = [points for points in drawn if len(points) == 2]
    assert abs(to_places[-1][0] - places) < 1
