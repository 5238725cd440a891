"""The audit page asks before moving a score onto a player who already has one on that machine
(issue 13): the server's plain words and a "Move it anyway" button, which sends the correction
with ``confirm``; changing the correction asks again. EPC 2009, EPC Qualifying: the second game
on a machine is the joker game."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import HALL, NewPage
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser


async def test_the_audit_page_asks_before_spending_a_joker_game(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("am1", "epc-qualifying", players=3, machines=2)
    await api.score("am1", 2, 1, 900_000)
    seq = (await api.score("am1", 1, 1, 1_200_000)).json()["version"]
    page = await new_page(HALL)
    await page.goto(f"{server}/t/am1/audit")
    await page.click("#sign-in-toggle")
    await page.fill("#signin-secret", TD_PASSWORD)
    await page.click("#signin-submit")
    row = page.locator(f'.audit-row[data-seq="{seq}"]')
    await row.get_by_role("button", name="Correct").click()
    await row.locator('input[name="player"]').fill("2")
    await row.locator('input[name="reason"]').fill("wrong badge")
    anyway = row.get_by_role("button", name="Move it anyway")
    await expect(anyway).to_be_hidden()
    await row.get_by_role("button", name="Save correction").click()
    await expect(row.locator(".editor .error")).to_have_text(
        "Player 2 (2) already has a score on Machine 1 (900,000). Moved to them, this score "
        "(1,200,000) would be their second game there: it uses their joker game, and 1,200,000 "
        "would count for them. Confirm to move it anyway."
    )
    await expect(anyway).to_be_visible()
    assert "joker" not in (await api.views("am1"))["views"]["machine/1"]["rows"]["2"]
    # a changed correction is a new question
    await row.locator('input[name="reason"]').fill("wrong badge number")
    await expect(anyway).to_be_hidden()
    await row.get_by_role("button", name="Save correction").click()
    await expect(anyway).to_be_visible()
    await anyway.click()
    await expect(row.locator(".fixed")).to_have_text(re.compile(r"corrected by #\d+"))
    rows = (await api.views("am1"))["views"]["machine/1"]["rows"]
    assert list(rows) == ["2"] and rows["2"]["joker"] is True
    assert rows["2"]["score"] == 1_200_000
