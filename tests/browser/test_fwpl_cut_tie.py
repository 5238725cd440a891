"""A tie the FWPL playoff line runs through, in Chromium: the league page and the hall's season
view draw the line above the tied run with "tie at the cut: play-off for 2 places", never between
two equal rows (FWPL 6.1; ``scoring.cut_tie``)."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import HALL, PHONE, NewPage
from tests.display.competitions.fwpl.test_fwpl_live import league
from tests.display.competitions.fwpl.test_fwpl_live_playoffs import one_week
from tests.utils import Api

pytestmark = pytest.mark.browser


async def test_the_league_page_draws_the_line_above_the_tied_run(
    api: Api, server: str, new_page: NewPage
) -> None:
    # nine players: 3, 6 and 9 share 7th with 4 points; the top-8 line leaves them 2 places
    await league(api, "fct1", 9)
    await one_week(api, "fct1", 9)
    phone = await new_page(PHONE)
    await phone.goto(f"{server}/t/fct1/league")
    await phone.locator("#tab-season").click()
    line = phone.locator(".season .cut-line")
    await expect(line).to_have_count(1)
    await expect(line).to_have_text(
        "▲ Playoffs · division A · tie at the cut: play-off for 2 places (3, 6, 9)"
    )
    await expect(line).to_have_class(re.compile(r"\bcut-tie\b"))
    # the line sits between 8 (6th) and the tied run, not inside it
    before = await phone.locator(".season > li").evaluate_all(
        "items => items.map(i => i.dataset.player || 'line')"
    )
    assert before == ["1", "4", "7", "2", "5", "8", "line", "3", "6", "9"]
    await expect(phone.locator(".season-row.tied-cut")).to_have_count(3)

    hall = await new_page(HALL)
    await hall.goto(f"{server}/t/fct1/display?views=fwpl_season&seconds=600")
    lines = hall.locator(".fwpl-line")
    await expect(lines).to_have_text(
        ["Playoffs · division A · top 8", "Tie at the cut: play-off for 2 places · 3, 6, 9"]
    )
    await expect(hall.locator(".fwpl-line.tie")).to_have_count(1)
