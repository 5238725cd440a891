"""Venue time in Chromium: the audit page and the desk show a record's time in the tournament's
zone with the zone's name, whatever zone the browser is in (here the machine's own)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.async_api import Browser, expect

from display.http.venue_time import server_zone
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


async def test_the_desk_home_shows_each_sessions_time_in_its_venues_zone(
    api: Api, server: str, browser: Browser
) -> None:
    body = {"id": "vz3", "name": "Berlin Open", "format": "epc-qualifying", "settings": {},
            "time_zone": "Europe/Berlin"}  # fmt: skip
    assert (await api.post("/api/tournaments", body)).status_code == 201
    await api.sign_in_steward("vz3", "Sam")
    sessions = (await api.http.get("/api/sessions", headers=api.headers())).json()["sessions"]

    def shown(session: dict[str, Any], zone: str) -> str:
        when = session.get("last_seen") or session["since"]
        local = datetime.fromisoformat(when).astimezone(ZoneInfo(zone))
        word = "active " if session.get("last_seen") else "signed in "
        return word + local.strftime("%H:%M:%S %Z")  # "active 02:10:05 CET"

    (steward,) = [s for s in sessions if s["role"] == "steward"]
    # a browser on the other side of the world: the page must not show the laptop's zone
    context = await browser.new_context(timezone_id="Pacific/Auckland")
    try:
        await context.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
        page = await context.new_page()
        await page.goto(f"{server}/desk")
        rows = page.locator("#sessions tr")
        await expect(rows.filter(has_text="Sam").locator(".session-time")).to_have_text(
            shown(steward, "Europe/Berlin")
        )
        await expect(rows.filter(has_text="TD").first.locator(".session-time")).to_contain_text(
            datetime.now(ZoneInfo(server_zone())).strftime(" %Z")  # the server's zone name
        )
    finally:
        await context.close()
