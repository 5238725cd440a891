"""The EPC main board after the TD's close of qualifying, in Chromium: "qualifying closed · 1 game
in progress" beside the standings' title until the game started before the close is scored (EPC
2009, EPC Qualifying; docs/rules.md)."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import NewPage
from tests.display.competitions.epc_main.helpers import ok, qualified
from tests.utils import Api

pytestmark = pytest.mark.browser


async def test_the_main_board_says_the_games_in_progress_after_the_close(
    api: Api, server: str, new_page: NewPage
) -> None:
    tid = "bcl1"
    await qualified(api, tid, 12, {"qualify": 8, "standby": 2})
    for action, body in (("join", {"player": "9"}), ("call", {}), ("start", {})):
        assert (await api.post(f"/api/t/{tid}/queues/2/{action}", body)).status_code == 201
    page = await new_page()
    await page.goto(f"{server}/t/{tid}/display?views=standings&seconds=600")
    title = page.locator("#view-title")
    await expect(title).to_have_text("Standings")
    await ok(api, tid, "close", {})
    await expect(title).to_have_text("Standings · qualifying closed · 1 game in progress")
    assert (await api.score(tid, 9, 2, 995_000)).status_code == 201
    await expect(title).to_have_text("Standings · qualifying closed")
