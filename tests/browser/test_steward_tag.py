"""The steward's lookup shows a player's city or tag, in Chromium (issue 13): two "J. Smith" are
told apart before the score goes to the wrong one; a player without one shows the name alone."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage, steward_pin
from tests.browser.test_steward import sign_in
from tests.utils import Api

pytestmark = pytest.mark.browser


async def test_the_lookup_tells_two_j_smiths_apart(
    api: Api, server: str, new_page: NewPage
) -> None:
    tid = "stg"
    await api.tournament(tid, "epc-qualifying", machines=1)
    players = [{"number": "11", "name": "J. Smith", "tag": "Leeds"},
               {"number": "12", "name": "J. Smith", "tag": "Bristol"},
               {"number": "13", "name": "Ann Other"}]  # fmt: skip
    assert (await api.post(f"/api/t/{tid}/players", {"players": players})).status_code == 201
    page = await new_page(PHONE)
    await sign_in(page, server, tid, "Sam", await steward_pin(api, tid, "Sam"))
    await page.click('.machine-button[data-machine="1"]')
    await page.fill("#entry-player", "11")
    await expect(page.locator("#entry-lookup")).to_have_text("J. Smith · Leeds")
    await page.fill("#entry-player", "12")
    await expect(page.locator("#entry-lookup")).to_have_text("J. Smith · Bristol")
    await page.fill("#entry-player", "13")
    await expect(page.locator("#entry-lookup")).to_have_text("Ann Other")
