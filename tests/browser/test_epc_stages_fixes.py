"""The EPC stages page's buttons for the TD's records that undo or put right a step, in Chromium:
close qualifying, reinstate a withdrawn player, re-seed and reopen a stage (issue 13). Each asks
first (a confirmation, or the reason the record keeps); a click writes the record to the log and
the page shows its effect; Cancel writes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Dialog, Page, expect

from tests.browser.conftest import NewPage
from tests.display.competitions.epc_main.helpers import ok, qualified, views
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser


async def log_types(api: Api, tid: str) -> list[str]:
    records: list[dict[str, Any]] = (await api.http.get(f"/api/t/{tid}/log")).json()["records"]
    return [r["type"] for r in records]


def answer(page: Page, reply: str | None) -> None:
    """Answer the next dialog: accept a confirmation, type ``reply`` into a prompt, or dismiss
    it (``reply`` None)."""

    async def handle(dialog: Dialog) -> None:
        await (dialog.dismiss() if reply is None else dialog.accept(reply))

    page.once("dialog", handle)


async def test_close_reinstate_reseed_and_reopen_from_the_stages_page(
    api: Api, server: str, new_page: NewPage
) -> None:
    tid = "bfix1"
    await qualified(api, tid, 12, {"qualify": 8, "standby": 2})
    withdrawn = await api.post(f"/api/t/{tid}/players/4/withdraw", {"reason": "left early"})
    assert withdrawn.status_code == 201, withdrawn.text
    page = await new_page()
    await page.goto(f"{server}/t/{tid}/stages")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-form button[type=submit]")
    fixes = page.locator("#fix-controls")
    done = page.locator("#control-ok")

    close = fixes.get_by_role("button", name="Close qualifying", exact=True)
    answer(page, None)  # Cancel: nothing recorded
    await close.click()
    await expect(close).to_be_visible()
    assert "qualifying_closed" not in await log_types(api, tid)
    answer(page, "")
    await close.click()
    await expect(done).to_have_text("Qualifying closed.")
    await expect(close).to_have_count(0)
    assert (await log_types(api, tid))[-1] == "qualifying_closed"

    reinstate = fixes.get_by_role("button", name="Reinstate Player 4 #4")
    answer(page, "came back after lunch")
    await reinstate.click()
    await expect(done).to_have_text("Player 4 reinstated.")
    await expect(reinstate).to_have_count(0)
    assert (await log_types(api, tid))[-1] == "player_reinstated"
    assert "withdrawn" not in (await views(api, tid))["players"]["4"]

    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await expect(page.locator("#stage-name")).to_have_text("Quarter-finals")
    answer(page, "a late correction accepted")
    await fixes.get_by_role("button", name="Re-seed from qualifying").click()
    await expect(done).to_have_text("Re-seeded.")
    assert (await log_types(api, tid))[-1] == "reseeded"

    answer(page, "")  # a prompt left empty records nothing
    await fixes.get_by_role("button", name="Reopen qualifying").click()
    await expect(page.locator("#stage-name")).to_have_text("Quarter-finals")
    assert (await log_types(api, tid))[-1] == "reseeded"
    answer(page, "a score was entered on the wrong machine")
    await fixes.get_by_role("button", name="Reopen qualifying").click()
    await expect(done).to_have_text("Reopened qualifying.")
    await expect(page.locator("#stage-name")).to_have_text("Qualifying")
    records = (await api.http.get(f"/api/t/{tid}/log")).json()["records"]
    assert records[-1]["type"] == "stage_reopened"
    assert records[-1]["reason"] == "a score was entered on the wrong machine"
