"""The displays connected now, in Chromium: a board opened with ?name= is listed on the TD's
desk, the desk changes what it shows and the board's rotation follows without a reload; a board
without a name makes one up and keeps it; the desk shows the hall's addresses."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import NewPage
from tests.utils import Api

pytestmark = pytest.mark.browser

EPC = "epc-qualifying"
DESK = {"width": 1440, "height": 900}


async def test_the_desk_lists_a_display_and_changes_its_views_live(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("dsp1", EPC, players=3, machines=2)
    await api.score("dsp1", 1, 1, 5_000)
    board = await new_page({"width": 1280, "height": 720})
    await board.goto(f"{server}/t/dsp1/display?name=bar-left&views=machines&seconds=600")
    title = board.locator("#view-title")
    await expect(title).to_have_text("Machines")
    await expect(board.locator("#display-name")).to_have_text("bar-left")
    await board.evaluate("window.sameDocument = true")

    desk = await new_page(DESK)
    await desk.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
    await desk.goto(f"{server}/t/dsp1/desk")
    row = desk.locator('#screens-table tr[data-display="bar-left"]')
    await expect(row).to_contain_text("machines")
    await expect(row).to_contain_text("127.0.0.1")
    await row.get_by_role("button", name="Change").click()
    await expect(desk.locator("#screen-name")).to_have_text("bar-left")
    form = desk.locator("#screen-form")
    await form.locator('#screen-views input[value="machines"]').uncheck()
    await form.locator('#screen-views input[value="standings"]').check()
    await form.get_by_role("button", name="Show this").click()
    await expect(desk.locator("#screen-notice")).to_have_text("Sent; bar-left shows it now.")

    await expect(title).to_have_text("Standings")  # the board follows, no reload
    await expect(board.locator("#stage .list-row")).to_have_count(3)
    assert await board.evaluate("window.backglassBoard.views()") == ["standings"]
    await expect(row.locator(".screen-shows")).to_have_text("standings · 12 s (set here)")

    await desk.locator("#screen-release").click()
    await expect(title).to_have_text("Machines")  # back to what its own URL says
    assert await board.evaluate("window.sameDocument") is True


async def test_an_unnamed_display_keeps_the_name_it_made_up(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("dsp2", EPC, players=1, machines=1)
    board = await new_page({"width": 1280, "height": 720})
    await board.goto(f"{server}/t/dsp2/display?views=machines")
    name = await board.evaluate("window.backglassBoard.name")
    assert name.startswith("display-") and len(name) == len("display-") + 4
    await board.reload()
    await expect(board.locator("#display-name")).to_have_text(name)
    r = await api.http.get("/api/t/dsp2/displays", headers=api.headers())
    assert name in [d["name"] for d in r.json()["displays"]]


async def test_the_desk_shows_the_hall_addresses(api: Api, server: str, new_page: NewPage) -> None:
    await api.tournament("dsp3", EPC)
    desk = await new_page(DESK)
    await desk.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
    await desk.goto(f"{server}/t/dsp3/desk")
    urls = desk.locator("#hall-urls")
    await expect(urls).to_contain_text("Board (hall display)")
    port = server.rsplit(":", 1)[1]
    link = re.compile(rf"^http://[0-9.]+:{port}/t/dsp3/display$")
    await expect(urls.locator("a").first).to_have_attribute("href", link)
    await expect(urls).to_contain_text("Stewards' phones")
    await expect(desk.locator("#lan-warning")).to_be_visible()  # opened on loopback: said so
