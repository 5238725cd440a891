"""If-Match from the pages, in Chromium: the Country Competition's TD page voids a record naming
the version it saw, so a void another TD made meanwhile is refused with the server's 412 message
and nothing more is written. (The UKPL adjustments page's withdrawal, which sends If-Match too, is
tests/browser/test_ukpl_pages.py; the hall's audit page, tests/browser/test_audit_page.py.)"""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage
from tests.display.competitions.epc_country.test_epc_country_live_builders import country_over_http
from tests.display.http.test_preconditions import log
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser


async def test_a_country_void_another_td_made_first_is_refused_with_why(
    api: Api, server: str, new_page: NewPage
) -> None:
    await country_over_http(api, "pv1")
    penalties = []
    for fixture, team in (("A-1-1", "T16"), ("A-1-2", "T11")):
        body = {"type": "late", "fixture": fixture, "team": team, "minutes": 8, "reason": "bar"}
        r = await api.post("/api/t/pv1/country/penalties", body)
        assert r.status_code == 201, r.text
        penalties.append(r.json()["version"])
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/pv1/team-entry")
    await page.click("#as-td")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-submit")

    async def void_from_the_page(seq: int) -> None:
        await page.click('.task[data-task="td"]')
        await page.click('.pick[data-action="void"]')
        await page.select_option('select[name="seq"]', str(seq))
        await page.fill('input[name="reason"]', "wrong team called")
        await page.click("#form-check")

    await void_from_the_page(penalties[0])
    headers = {**api.headers(), "If-Match": f'"{penalties[0]}"'}  # another TD, first
    body = {"seq": penalties[0], "reason": "duplicate"}
    r = await api.http.post("/api/t/pv1/country/void", json=body, headers=headers)
    assert r.status_code == 201, r.text
    before = await log(api, "pv1")
    await page.click("#confirm-submit")
    await expect(page.locator("#confirm-error")).to_have_text(
        f"Someone changed this record since you opened it (it is now version {r.json()['version']})."
        " Reload it and try again."
    )
    assert await log(api, "pv1") == before
    await page.click("#confirm-edit")
    await page.click("#form-back")
    await void_from_the_page(penalties[1])
    await page.click("#confirm-submit")
    await expect(page.locator("#screen-home")).to_be_visible()
    assert [r["type"] for r in await log(api, "pv1")].count("record_voided") == 2
    fixtures = (await api.views("pv1"))["views"]["country/fixtures"]
    assert fixtures["A-1-1"]["status"] == fixtures["A-1-2"]["status"] == "to_play"
