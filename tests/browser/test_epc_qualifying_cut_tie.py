"""A tie at the cut in the plain EPC qualifying format, in Chromium: the hall board and the phones'
standings page say "tie at the cut: play-off for 3 places" over the tied rows, none of which is in
the qualifying band, as in the EPC main event (EPC 2009, EPC Qualifying; ``scoring.cut_tie``); a
score that breaks part of the tie changes the words live."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage
from tests.display.competitions.machines.test_epc_qualifying_cut_tie import TIED, tied_at_the_cut
from tests.utils import Api

pytestmark = pytest.mark.browser


async def test_the_board_flags_the_tie_and_marks_no_tied_player_qualified(
    api: Api, server: str, new_page: NewPage
) -> None:
    await tied_at_the_cut(api, "bqct1")
    page = await new_page()
    await page.goto(f"{server}/t/bqct1/display?views=standings&rows=20&seconds=600")
    stage = page.locator("#stage")
    await expect(stage.locator(".divider")).to_have_text(
        [
            "Qualify · places 1–5",
            "Tie at the cut: play-off for 3 places · places 6–8",
            "Standby · places 9–10",
            "Below the cut",
        ]
    )
    await expect(stage.locator(".list-row.band-qualified")).to_have_count(5)
    for player in TIED:
        row = stage.locator(f'.list-row[data-player="{player}"]')
        await expect(row).to_have_class(re.compile(r"\bband-tie\b"))
    # 9 scores on a second machine and moves clear: three tied for the two places left
    assert (await api.score("bqct1", 9, 2, 5_000)).status_code == 201
    await expect(stage.locator(".divider").nth(1)).to_have_text(
        "Tie at the cut: play-off for 2 places · places 7–8"
    )
    await expect(stage.locator(".list-row.band-tie")).to_have_count(3)


async def test_the_phone_standings_page_says_the_tie(
    api: Api, server: str, new_page: NewPage
) -> None:
    await tied_at_the_cut(api, "bqct2")
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/bqct2/standings")
    dividers = page.locator(".divider")
    await expect(dividers.nth(0)).to_have_text("In the cut · places 1–5")
    await expect(dividers.nth(1)).to_have_text("Tie at the cut: play-off for 3 places · places 6–8")
    await expect(page.locator(".standing.band-tie")).to_have_count(4)
