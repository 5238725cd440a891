"""The desk in Chromium: a setting with a fixed set of values is a select whose options say what
each value means, before the tournament exists and after; a choice made there is recorded, and
the same setting with a value outside them is refused by the API in plain words."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import NewPage
from tests.utils import Api

pytestmark = pytest.mark.browser

SIZES = {"hall": (1920, 1080), "laptop": (1280, 720), "phone": (390, 844)}


async def option_texts(page: Page, selector: str) -> list[str]:
    return await page.locator(f"{selector} option").all_text_contents()


async def test_choices_are_selects_with_their_meaning(
    api: Api, server: str, new_page: NewPage, tmp_path: Path
) -> None:
    page = await new_page({"width": 1440, "height": 900})
    await page.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
    await page.goto(f"{server}/desk")
    await page.select_option("#new-template", "epc-main")
    cut_ties = '#new-settings select[data-key="cut_ties"]'
    await expect(page.locator(cut_ties)).to_have_value("include")
    assert await option_texts(page, cut_ties) == [
        "include — players tied at the cut share the better place and all go through",
        "exclude — a tie that does not fit inside the cut drops whole below it",
    ]
    pairing = '#new-settings select[data-key="pairing"]'
    assert await option_texts(page, pairing) == [
        "fold — best seed with worst (1-16, 2-15 …)",
        "adjacent — neighbouring seeds together (1-2, 3-4 …)",
    ]
    scale = await option_texts(page, '#new-settings select[data-key="scale"]')
    assert scale[0] == "papa — PAPA: 100, 90, 85, then one less per place" and len(scale) == 7
    # numbers stay number boxes
    await expect(page.locator('#new-settings input[data-key="qualify"]')).to_have_attribute(
        "type", "number"
    )

    await page.select_option(pairing, "adjacent")
    # the chosen value's meaning is written out under the select (its box may cut the words)
    await expect(page.locator('#new-settings tr[data-key="pairing"] .meaning')).to_have_text(
        "neighbouring seeds together (1-2, 3-4 …)"
    )
    await page.fill("#new-id", "chx1")
    await page.fill("#new-name", "Choices Open")
    await page.click("#new-form button[type=submit]")
    await expect(page).to_have_url(f"{server}/t/chx1/desk")
    settings = (await api.views("chx1"))["views"]["tournament"]["settings"]
    assert settings["pairing"] == "adjacent" and settings["cut_ties"] == "include"

    # after creation: every choice setting of the format, with the template's meanings
    after = '#settings-table select[data-key="late_corrections"]'
    await expect(page.locator(after)).to_have_value("refuse")
    assert await option_texts(page, after) == [
        "refuse — refused until the TD reopens qualifying",
        "keep-draw — accepted, and the draw stays until the TD re-seeds",
    ]
    await expect(page.locator('#settings-table select[data-key="pairing"]')).to_have_value(
        "adjacent"
    )
    await page.select_option(after, "keep-draw")
    await page.click("#settings-form button[type=submit]")
    await expect(page.locator("#settings-notice")).to_have_text("Saved: late_corrections.")
    settings = (await api.views("chx1"))["views"]["tournament"]["settings"]
    assert settings["late_corrections"] == "keep-draw"

    for name, (width, height) in SIZES.items():
        await page.set_viewport_size({"width": width, "height": height})
        await page.locator("#settings-table").scroll_into_view_if_needed()
        await page.screenshot(path=str(tmp_path / f"desk-settings-{name}.png"))
        # long meanings never push the page sideways (the select cuts, the line under it wraps)
        wide = await page.evaluate("document.documentElement.scrollWidth")
        culprit = await page.evaluate(
            "[...document.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)"
        )
        assert wide <= width, (name, wide, culprit)

    # the API refuses a value outside the choices in plain words, and records nothing
    r = await api.post("/api/t/chx1/settings", {"settings": {"pairing": "random"}})
    assert r.status_code == 422
    assert r.json()["message"] == "Setting pairing must be one of fold, adjacent, not 'random'."
    assert (await api.views("chx1"))["views"]["tournament"]["settings"]["pairing"] == "adjacent"


async def test_a_league_after_creation_offers_every_choice_setting(
    api: Api, server: str, new_page: NewPage
) -> None:
    body = {"id": "chx2", "name": "Tuesday League", "template": "fwpl-league-night"}
    assert (await api.post("/api/tournaments/from-template", body)).status_code == 201
    page = await new_page({"width": 1280, "height": 720})
    await page.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
    await page.goto(f"{server}/t/chx2/desk")
    # a setting the template has no default for (its value comes from the format's own default)
    ladder = '#settings-table select[data-key="ladder_ties"]'
    await expect(page.locator(ladder)).to_have_value("previous")
    assert await option_texts(page, ladder) == [
        "previous — equal points keep last week's ladder order",
        "initial — equal points keep the week-1 order",
        "name — equal points in alphabetical order",
    ]
    await expect(page.locator('#settings-table select[data-key="playoff_cut"]')).to_have_value(
        "table"
    )
    await expect(page.locator("#settings-table input:not([type=number])")).to_have_count(0)


async def test_a_choice_not_yet_saved_survives_a_redraw(
    api: Api, server: str, new_page: NewPage
) -> None:
    """The TD picks a value and, before saving, a record arrives (a late entry) and the desk
    redraws: the pick stays, its meaning with it, and saving records it. A setting the record
    itself changed meanwhile shows the record's value instead."""
    await api.tournament("chx3", "epc-main")
    page = await new_page({"width": 1280, "height": 720})
    await page.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
    await page.goto(f"{server}/t/chx3/desk")
    late = '#settings-table select[data-key="late_corrections"]'
    scale = '#settings-table select[data-key="scale"]'
    await expect(page.locator(late)).to_have_value("refuse")
    await page.select_option(late, "keep-draw")
    await page.select_option(scale, "linear")
    await page.click("#settings-title")  # focus leaves the table: the desk may redraw it
    # meanwhile another desk sets the scale otherwise and a late entry arrives
    r = await api.post("/api/t/chx3/settings", {"settings": {"scale": "top-30"}})
    assert r.status_code == 201, r.text
    players = {"players": [{"number": "7", "name": "Late Entry"}]}
    assert (await api.post("/api/t/chx3/players", players)).status_code == 201
    await expect(page.locator("#players-count")).to_have_text("(1)")
    await expect(page.locator(late)).to_have_value("keep-draw")
    await expect(
        page.locator('#settings-table tr[data-key="late_corrections"] .meaning')
    ).to_have_text("accepted, and the draw stays until the TD re-seeds")
    await expect(page.locator(scale)).to_have_value("top-30")
    await page.click("#settings-form button[type=submit]")
    await expect(page.locator("#settings-notice")).to_have_text("Saved: late_corrections.")
    settings = (await api.views("chx3"))["views"]["tournament"]["settings"]
    assert settings["late_corrections"] == "keep-draw" and settings["scale"] == "top-30"
