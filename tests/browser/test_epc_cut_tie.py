"""A tie at the EPC qualifying cut in Chromium, in the EPC main event and in the plain EPC
qualifying format: the hall board and the phones' standings page say "tie at the cut: play-off for
3 places" over the tied rows, none of which is in the qualifying band (EPC 2009, EPC Qualifying;
``scoring.cut_tie``); the TD's play-off (main event) or a score that breaks part of the tie
(qualifying) changes the words live."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Locator, expect

from tests.browser.conftest import PHONE, NewPage
from tests.display.competitions.epc_main import test_epc_cut_tie as main_tie
from tests.display.competitions.epc_main.helpers import ok
from tests.display.competitions.machines import test_epc_qualifying_cut_tie as qualifying_tie
from tests.utils import Api

pytestmark = pytest.mark.browser

TIED = main_tie.TIED
TIES: dict[str, Callable[[Api, str], Awaitable[None]]] = {
    "epc-main": main_tie.tied_at_the_cut,
    "epc-qualifying": qualifying_tie.tied_at_the_cut,
}
assert qualifying_tie.TIED == TIED


async def board_shows_the_tie(stage: Locator) -> None:
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


async def test_main_board_flags_the_tie_until_the_play_off(
    api: Api, server: str, new_page: NewPage
) -> None:
    await main_tie.tied_at_the_cut(api, "bct1")
    page = await new_page()
    await page.goto(f"{server}/t/bct1/display?views=standings&rows=20&seconds=600")
    stage = page.locator("#stage")
    await board_shows_the_tie(stage)
    # the TD's play-off: 9, 6 and 8 take the three places, 7 drops to stand-by, live
    await ok(api, "bct1", "playoffs", {"tie": "qualifying", "order": ["9", "6", "8", "7"]})
    await expect(stage.locator(".divider").first).to_have_text("Qualify · places 1–8")
    await expect(stage.locator(".list-row.band-qualified")).to_have_count(8)
    await expect(stage.locator('.list-row[data-player="7"]')).to_have_class(
        re.compile(r"\bband-standby\b")
    )
    await expect(stage.locator(".list-row.band-tie")).to_have_count(0)


async def test_qualifying_board_follows_a_score_that_breaks_part_of_the_tie(
    api: Api, server: str, new_page: NewPage
) -> None:
    await qualifying_tie.tied_at_the_cut(api, "bqct1")
    page = await new_page()
    await page.goto(f"{server}/t/bqct1/display?views=standings&rows=20&seconds=600")
    stage = page.locator("#stage")
    await board_shows_the_tie(stage)
    # 9 scores on a second machine and moves clear: three tied for the two places left
    assert (await api.score("bqct1", 9, 2, 5_000)).status_code == 201
    await expect(stage.locator(".divider").nth(1)).to_have_text(
        "Tie at the cut: play-off for 2 places · places 7–8"
    )
    await expect(stage.locator(".list-row.band-tie")).to_have_count(3)


@pytest.mark.parametrize("fmt", list(TIES))
async def test_the_phone_standings_page_says_the_tie(
    api: Api, server: str, new_page: NewPage, fmt: str
) -> None:
    tid = f"bct2-{fmt}"
    await TIES[fmt](api, tid)
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/{tid}/standings")
    dividers = page.locator(".divider")
    await expect(dividers.nth(0)).to_have_text("In the cut · places 1–5")
    await expect(dividers.nth(1)).to_have_text("Tie at the cut: play-off for 3 places · places 6–8")
    await expect(page.locator(".standing.band-tie")).to_have_count(4)
