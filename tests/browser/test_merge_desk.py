"""A duplicate registration merged from the TD's desk, in Chromium (issue 13): "Merge…" asks for
the number to keep and why; the desk lists the clash for the TD to check, the audit page says it
too, and the steward's lookup of the joined number says which number to enter. EPC 2009, EPC
Qualifying: one result per machine, the better score kept."""

from __future__ import annotations

import pytest
from playwright.async_api import Dialog, expect

from tests.browser.conftest import PHONE, NewPage, steward_pin
from tests.browser.test_steward import sign_in
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser

DESK = {"width": 1440, "height": 900}


async def test_the_td_merges_a_duplicate_and_sees_the_clash(
    api: Api, server: str, new_page: NewPage
) -> None:
    tid = "mgd"
    await api.tournament(tid, "epc-qualifying", players=3, machines=2)
    await api.score(tid, 1, 1, 900_000)
    await api.score(tid, 3, 1, 500_000)
    await api.score(tid, 3, 2, 700_000)
    page = await new_page(DESK)
    await page.goto(f"{server}/t/{tid}/desk")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-form button")
    row = page.locator('#players-table tr[data-player="3"]')
    await expect(row).to_contain_text("Player 3")
    await expect(page.locator("#players-count")).to_have_text("(3)")

    answers = iter(["1", "registered twice"])

    async def answer(dialog: Dialog) -> None:
        await dialog.accept(next(answers))

    page.on("dialog", answer)
    await row.get_by_role("button", name="Merge…").click()
    await expect(page.locator("#players-notice")).to_have_text("Player 3 (#3) is merged into #1.")
    await expect(row.locator(".tag")).to_have_text("merged into 1")
    await expect(row.get_by_role("button")).to_have_count(0)
    await expect(page.locator("#players-count")).to_have_text("(2)")
    note = page.locator('#players-table tr[data-player="1"] .merge-note.clash')
    await expect(note).to_have_text(
        "merged from 3 · check Machine 1: kept 900,000, dropped 500,000"
    )
    rows = (await api.views(tid))["views"]["machine/2"]["rows"]
    assert rows["1"]["score"] == 700_000

    audit = await new_page(DESK)
    await audit.goto(f"{server}/t/{tid}/audit")
    await expect(audit.locator(".audit-row.type-players_merged .what")).to_have_text(
        "Player 3 (3) merged into Player 1 (1): check Machine 1 (kept 900,000, dropped 500,000)"
    )

    phone = await new_page(PHONE)
    await sign_in(phone, server, tid, "Sam", await steward_pin(api, tid, "Sam"))
    await phone.click('.machine-button[data-machine="2"]')
    await phone.fill("#entry-player", "3")
    await expect(phone.locator("#entry-lookup")).to_have_text(
        "Player 3 (3) was merged into number 1: enter 1."
    )
