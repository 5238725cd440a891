"""The TD's desk in Chromium: players from an Excel workbook, names stored in NFC whatever system
typed them, and a possible duplicate said in the import's notice."""

from __future__ import annotations

import unicodedata

import pytest
from playwright.async_api import expect

from tests.browser.conftest import NewPage
from tests.display.desk.test_xlsx_import import XLSX, workbook
from tests.utils import Api

pytestmark = pytest.mark.browser

DESK = {"width": 1440, "height": 900}
ASA = "Åsa Lind"
ASA_MAC = unicodedata.normalize("NFD", ASA)


async def test_players_from_a_workbook_in_nfc_with_a_duplicate_warned(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("dn1", "epc-qualifying")
    page = await new_page(DESK)
    await page.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
    await page.goto(f"{server}/t/dn1/desk")
    line = page.locator("#format-line")
    await expect(line).to_contain_text("EPC")
    await expect(line).not_to_contain_text("version")  # the log's version means nothing to a TD

    book = workbook(("number", "name", "country"), (1, ASA_MAC, "SE"), (2, "Bo Sample", "SE"))
    await page.set_input_files(
        "#players-file", {"name": "players.xlsx", "mimeType": XLSX, "buffer": book}
    )
    await page.click("#players-csv button")
    await expect(page.locator("#players-notice")).to_have_text("Imported 2 players.")
    row = page.locator('#players-table tr[data-player="1"]')
    await expect(row).to_contain_text(ASA)  # composed: the text the page holds is NFC
    assert ASA in (await row.text_content() or "")
    assert (await api.views("dn1"))["views"]["players"]["1"]["name"] == ASA

    entry = page.locator("#entry-form")
    await entry.locator("[name=number]").fill("3")
    await entry.locator("[name=name]").fill(ASA_MAC.lower())
    await entry.locator("button").click()
    notice = page.locator("#players-notice")
    await expect(notice).to_have_text(
        "Added åsa lind (#3). Check: Player 3 “åsa lind” may be the same person as player 1 "
        "“Åsa Lind”: withdraw one if they are."
    )
    await expect(notice).to_have_class("notice warn")

    bad = workbook(("number", "name"), (5, "Cy"), (5, "Di"))
    await page.set_input_files(
        "#players-file", {"name": "more.xlsx", "mimeType": XLSX, "buffer": bad}
    )
    await page.click("#players-csv button")
    await expect(notice).to_have_text("Line 3: player number 5 is also on line 2.")
    assert set((await api.views("dn1"))["views"]["players"]) == {"1", "2", "3"}


async def test_settings_are_controls_of_their_kind_with_their_rule(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("dn2", "epc-qualifying", settings={"qualify": 8})
    page = await new_page(DESK)
    await page.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
    await page.goto(f"{server}/t/dn2/desk")
    qualify = page.locator('#settings-table input[data-key="qualify"]')
    await expect(qualify).to_have_attribute("type", "number")
    await expect(qualify).to_have_value("8")
    # after creation the rule each setting comes from is still said, as on the template
    await expect(page.locator('#settings-table tr[data-key="qualify"] .source')).to_contain_text(
        "EPC 2009"
    )
    await expect(page.locator("#settings-about")).to_contain_text("EPC 2009")
    await qualify.fill("6")
    await page.click("#settings-form button[type=submit]")
    await expect(page.locator("#settings-notice")).to_have_text("Saved: qualify.")
    assert (await api.views("dn2"))["views"]["tournament"]["cut"]["qualify"] == 6
