"""The audit page in Chromium: every record with who, when and why, filtered by player and
machine (kept in the URL), new records arriving live, and the TD correcting a score from it."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser

EPC = "epc-qualifying"


async def test_every_record_with_who_when_and_why_filtered_by_player_and_machine(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("au1", EPC, players=3, machines=2)
    sam = await api.sign_in_steward("au1", "Sam")
    first = (await api.score("au1", 1, 1, 1_000_000, token=sam)).json()["version"]
    await api.score("au1", 2, 2, 2_000_000, token=sam)
    slip = {"score": 10_000_000, "reason": "slip"}
    headers = {**api.headers(), "If-Match": f'"{first}"'}
    await api.http.post(f"/api/t/au1/scores/{first}/correct", json=slip, headers=headers)
    await api.post("/api/t/au1/queues/2/join", {"player": "1"}, token=sam)
    page = await new_page()
    await page.goto(f"{server}/t/au1/audit")
    rows = page.locator(".audit-row")
    await expect(page.locator("#count")).to_have_text("Showing 10 of 10 records")
    newest = rows.first
    await expect(newest.locator(".what")).to_have_text(
        "Player 1 (1) joined the queue for Machine 2"
    )
    await expect(newest.locator(".by")).to_have_text("Steward Sam")
    await expect(newest.locator(".when")).not_to_be_empty()
    fix = page.locator('.audit-row[data-type="score_corrected"]')
    await expect(fix.locator(".what")).to_have_text(
        "Score #7 corrected from 1,000,000 to 10,000,000"
    )
    await expect(fix.locator(".by")).to_have_text("TD")
    await expect(fix.locator(".why")).to_have_text("slip")
    original = page.locator(f'.audit-row[data-seq="{first}"]')
    await expect(original).to_have_class(re.compile(r"\bsuperseded\b"))
    await expect(original.locator(".fixed")).to_have_text(" — corrected by #9")

    await page.fill("#filter-player", "1")
    await expect(page.locator("#count")).to_have_text("Showing 4 of 10 records")
    await expect(rows.locator(".what")).to_have_text(
        [
            "Player 1 (1) joined the queue for Machine 2",
            "Score #7 corrected from 1,000,000 to 10,000,000",
            "Player 1 (1) scored 1,000,000 on Machine 1 — corrected by #9",
            "Player added: Player 1 (1)",
        ]
    )
    assert page.url.endswith("/t/au1/audit?player=1")
    await page.select_option("#filter-machine", "2")
    await expect(page.locator("#count")).to_have_text("Showing 1 of 10 records")
    await page.fill("#filter-player", "")
    await expect(page.locator("#count")).to_have_text("Showing 3 of 10 records")
    await api.score("au1", 3, 2, 500, token=sam)  # arrives live, and matches the filter
    await expect(page.locator("#count")).to_have_text("Showing 4 of 11 records")
    await expect(rows.first.locator(".what")).to_have_text("Player 3 (3) scored 500 on Machine 2")

    phone = await new_page(PHONE)
    await phone.goto(f"{server}/t/au1/audit?machine=1&kind=scores")
    await expect(phone.locator("#filter-machine")).to_have_value("1")
    await expect(phone.locator(".audit-row")).to_have_count(1)
    await expect(phone.locator(".audit-row .what")).to_have_text(
        "Player 1 (1) scored 1,000,000 on Machine 1 — corrected by #9"
    )


async def test_the_td_corrects_and_voids_from_the_audit_page(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("au2", EPC, players=2, machines=1)
    seq = (await api.score("au2", 1, 1, 1_234_560)).json()["version"]
    other = (await api.score("au2", 2, 1, 5_000)).json()["version"]
    page = await new_page()
    await page.goto(f"{server}/t/au2/audit")
    row = page.locator(f'.audit-row[data-seq="{seq}"]')
    await expect(row.locator(".what")).to_be_visible()
    await expect(row.get_by_role("button", name="Correct")).to_have_count(0)  # signed out
    await page.click("#sign-in-toggle")
    await page.fill("#signin-secret", TD_PASSWORD)
    await page.click("#signin-submit")
    await expect(page.locator("#who")).to_have_text("Signed in as TD")
    await row.get_by_role("button", name="Correct").click()
    await row.locator('input[name="score"]').fill("12,345,600")
    await row.get_by_role("button", name="Save correction").click()
    await expect(row.locator(".editor .error")).to_contain_text("reason")  # a reason is needed
    await row.locator('input[name="reason"]').fill("a digit short")
    await row.get_by_role("button", name="Save correction").click()
    await expect(row.locator(".fixed")).to_have_text(re.compile(r"corrected by #\d+"))
    views = (await api.views("au2"))["views"]
    assert views["machine/1"]["rows"]["1"]["score"] == 12_345_600
    assert views["machine/1"]["rows"]["1"]["corrected"] is True

    second = page.locator(f'.audit-row[data-seq="{other}"]')
    await second.get_by_role("button", name="Void").click()
    await second.locator('input[name="reason"]').fill("played twice")
    await second.get_by_role("button", name="Void this score").click()
    await expect(second).to_have_class(re.compile(r"\bvoided\b"))
    await expect(second.get_by_role("button", name="Void")).to_have_count(0)
    assert list((await api.views("au2"))["views"]["machine/1"]["rows"]) == ["1"]

    # Another TD corrects the score while this editor is open: saving is refused, not lost.
    await row.get_by_role("button", name="Correct").click()
    opened = int(await row.get_attribute("data-version") or 0)
    elsewhere = {**api.headers(), "If-Match": f'"{opened}"'}
    body = {"score": 20_000_000, "reason": "the other TD"}
    r = await api.http.post(f"/api/t/au2/scores/{seq}/correct", json=body, headers=elsewhere)
    assert r.status_code == 201 and r.headers["ETag"] == f'"{r.json()["version"]}"'
    await row.locator('input[name="score"]').fill("30,000,000")
    await row.locator('input[name="reason"]').fill("mine")
    await row.get_by_role("button", name="Save correction").click()
    await expect(row.locator(".editor .error")).to_contain_text(
        f"Someone changed this entry since you opened it (it is now version {r.json()['version']})"
    )
    assert (await api.views("au2"))["views"]["machine/1"]["rows"]["1"]["score"] == 20_000_000
