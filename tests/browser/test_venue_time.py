"""Venue time in Chromium: the audit page and the desk show a record's time in the tournament's
zone with the zone's name, whatever zone the browser is in (here the machine's own)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.async_api import expect

from tests.browser.conftest import NewPage, score_records
from tests.utils import Api

pytestmark = pytest.mark.browser


async def test_the_audit_page_shows_the_venues_time_and_zone(
    api: Api, server: str, new_page: NewPage
) -> None:
    body = {"id": "vz1", "name": "Berlin Open", "format": "epc-qualifying", "settings": {},
            "time_zone": "Europe/Berlin"}  # fmt: skip
    assert (await api.post("/api/tournaments", body)).status_code == 201
    await api.post("/api/t/vz1/players", {"number": "1", "name": "Ann"})
    await api.post("/api/t/vz1/machines", {"id": "1", "name": "Machine 1"})
    await api.score("vz1", 1, 1, 1000)
    (record,) = await score_records(api, "vz1")
    berlin = datetime.fromisoformat(record["at"]).astimezone(ZoneInfo("Europe/Berlin"))
    expected = berlin.strftime("%a, %H:%M:%S %Z")  # "Tue, 02:10:05 CET"
    page = await new_page()
    await page.goto(f"{server}/t/vz1/audit")
    row = page.locator(f'.audit-row[data-seq="{record["seq"]}"] .when')
    await expect(row).to_have_text(expected)


async def test_the_desk_creates_a_tournament_in_the_venues_zone(
    api: Api, server: str, new_page: NewPage
) -> None:
    page = await new_page({"width": 1440, "height": 900})
    await page.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
    await page.goto(f"{server}/desk")
    await expect(page.locator("#new-template option[value=epc-qualifying]")).to_be_enabled()
    await page.select_option("#new-template", "epc-qualifying")
    zone = page.locator("#new-zone")
    assert await zone.input_value()  # the server's zone, ready to change
    await page.fill("#new-id", "vz2")
    await page.fill("#new-name", "Lisbon Open")
    await zone.fill("Atlantis/Capital")
    await page.click("#new-form button[type=submit]")
    await expect(page.locator("#new-notice")).to_contain_text("is not a time zone")
    await zone.fill("Europe/Lisbon")
    await page.click("#new-form button[type=submit]")
    await expect(page).to_have_url(f"{server}/t/vz2/desk")
    r = await api.http.get("/api/t/vz2/log")
    assert r.json()["records"][0]["time_zone"] == "Europe/Lisbon"
