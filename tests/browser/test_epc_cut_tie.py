"""A tie at the EPC qualifying cut in Chromium: the hall board and the phones' standings page say
"tie at the cut: play-off for 3 places" over the tied rows, none of which is in the qualifying band,
until the TD's play-off settles it (EPC 2009, EPC Qualifying; ``scoring.cut_tie``)."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage
from tests.display.competitions.epc_main.helpers import ok
from tests.display.competitions.epc_main.test_epc_cut_tie import TIED, tied_at_the_cut
from tests.utils import Api

pytestmark = pytest.mark.browser


async def test_the_board_flags_the_tie_and_marks_no_tied_player_qualified(
    api: Api, server: str, new_page: NewPage
) -> None:
    await tied_at_the_cut(api, "bct1")
    page = await new_page()
    await page.goto(f"{server}/t/bct1/display?views=standings&rows=20&seconds=600")
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

    # the TD's play-off: 9, 6 and 8 take the three places, 7 drops to stand-by, live
    await ok(api, "bct1", "playoffs", {"tie": "qualifying", "order": ["9", "6", "8", "7"]})
    await expect(stage.locator(".divider").first).to_have_text("Qualify · places 1–8")
    await expect(stage.locator(".list-row.band-qualified")).to_have_count(8)
    await expect(stage.locator('.list-row[data-player="7"]')).to_have_class(
        re.compile(r"\bband-standby\b")
    )
    await expect(stage.locator(".list-row.band-tie")).to_have_count(0)


async def test_the_phone_standings_page_says_the_tie(
    api: Api, server: str, new_page: NewPage
) -> None:
    await tied_at_the_cut(api, "bct2")
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/bct2/standings")
    dividers = page.locator(".divider")
    await expect(dividers.nth(0)).to_have_text("In the cut · places 1–5")
    await expect(dividers.nth(1)).to_have_text("Tie at the cut: play-off for 3 places · places 6–8")
    await expect(page.locator(".standing.band-tie")).to_have_count(4)


async def test_the_td_stages_desk_says_the_tie_before_the_td_acts(
    api: Api, server: str, new_page: NewPage
) -> None:
    await tied_at_the_cut(api, "bct3")
    page = await new_page()
    await page.goto(f"{server}/t/bct3/stages")
    await expect(page.locator("#stage-waiting")).to_contain_text(
        "Tie at the cut: play-off for 3 places (players 6, 7, 8, 9)"
    )
    # a score that breaks part of the tie changes the desk's words live
    assert (await api.score("bct3", 9, 2, 5_000)).status_code == 201
    await expect(page.locator("#stage-waiting")).to_contain_text("play-off for 2 places")
