"""The hall display in Chromium: live scores with highlights, paged standings with the cut bands,
the machines-now view, and recovery from a server restart without a reload."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from display.settings import Settings
from tests.browser.conftest import NewPage, serve_on
from tests.utils import Api, free_port

pytestmark = pytest.mark.browser

EPC = "epc-qualifying"
FLASH = re.compile(r"\bflash\b")


async def order(page: Page, selector: str) -> list[str]:
    return await page.locator(selector).evaluate_all("nodes => nodes.map(n => n.dataset.player)")


async def test_a_pushed_score_appears_and_its_row_highlights(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("bd1", EPC, players=3, machines=2)
    await api.score("bd1", 1, 1, 5_000_000)
    page = await new_page()
    await page.goto(f"{server}/t/bd1/display?views=machines&seconds=600")
    card = page.locator('.card[data-machine="1"]')
    first = card.locator('.row[data-player="1"]')
    await expect(page.locator("#status")).to_have_attribute("data-state", "live")
    await expect(page.locator("#status")).to_have_text("live")
    await expect(first).to_contain_text("5,000,000")
    await expect(first.locator(".name")).to_have_text("Player 1")
    await expect(first).not_to_have_class(FLASH)  # on screen at load, not a change
    await expect(page.locator('.card[data-machine="2"]')).to_contain_text("No scores yet")

    await api.score("bd1", 2, 1, 7_000_000)
    second = card.locator('.row[data-player="2"]')
    await expect(second).to_contain_text("7,000,000")
    await expect(second).to_have_class(FLASH)
    await expect(second.locator(".place")).to_have_text("1")
    await expect(second.locator(".points")).to_have_text("100")
    await expect(first.locator(".place")).to_have_text("2")
    assert await order(page, '.card[data-machine="1"] .row') == ["2", "1"]
    await expect(card.locator(".card-meta")).to_have_text("2 played")
    # moved down, but its score did not change: not highlighted
    await expect(first).not_to_have_class(FLASH)
    # highlighted for a moment only
    await expect(second).not_to_have_class(FLASH, timeout=6_000)


async def test_standings_are_paged_with_the_qualify_and_standby_bands(
    api: Api, server: str, new_page: NewPage
) -> None:
    settings = {"qualify": 3, "standby": 2}
    await api.tournament("bd2", EPC, players=8, machines=1, settings=settings)
    for player in range(1, 9):
        await api.score("bd2", player, 1, (10 - player) * 1_000_000)
    page = await new_page()
    await page.goto(f"{server}/t/bd2/display?views=standings&rows=2&seconds=2&qr=0")
    await expect(page.locator("#view-title")).to_have_text("Standings")
    await expect(page.locator("#page-number")).to_have_text("1 / 2")
    stage = page.locator("#stage")
    await expect(stage.locator(".divider")).to_have_text(
        ["Qualify · places 1–3", "Standby · places 4–5"]
    )
    assert await order(page, "#stage .list-row") == ["1", "2", "3", "4"]
    await expect(stage.locator(".list-row.band-qualified")).to_have_count(3)
    await expect(stage.locator('.list-row[data-player="4"]')).to_have_class(
        re.compile("band-standby")
    )
    # the next page comes round by itself
    await expect(page.locator("#page-number")).to_have_text("2 / 2", timeout=5_000)
    assert await order(page, "#stage .list-row") == ["5", "6", "7", "8"]
    await expect(stage.locator(".divider")).to_have_text(["Below the cut"])
    await expect(stage.locator('.list-row[data-player="5"]')).to_have_class(
        re.compile("band-standby")
    )
    await expect(stage.locator(".list-row.band-out")).to_have_count(3)
    row = stage.locator('.list-row[data-player="6"]')
    await expect(row.locator(".total")).to_have_text(
        str((await api.views("bd2"))["views"]["standings"]["rows"]["6"]["total"])
    )


async def test_long_machine_tables_are_split_and_the_views_rotate(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("bd3", EPC, players=6, machines=2)
    for player in range(1, 7):
        await api.score("bd3", player, 1, player * 1000)
    page = await new_page()
    await page.goto(f"{server}/t/bd3/display?views=machines,queue&rows=4&seconds=2")
    parts = page.locator('.card[data-machine="1"] .card-meta')
    await expect(parts).to_have_text(["1–4 of 6", "5–6 of 6"])
    assert await order(page, '.card[data-machine="1"] .row') == ["6", "5", "4", "3", "2", "1"]
    await expect(page.locator("#view-title")).to_have_text("Machines now", timeout=5_000)
    tile = page.locator('.tile[data-machine="1"]')
    await expect(tile.locator(".none")).to_have_text("Free")  # nobody on it: not its last score
    await expect(tile.locator(".tile-played")).to_contain_text("6")
    for player in ("2", "3"):
        await api.post("/api/t/bd3/queues/2/join", {"player": player})
    await api.post("/api/t/bd3/queues/2/start", {})
    busy = page.locator('.tile[data-machine="2"]')
    await expect(busy.locator(".name")).to_have_text("Player 2")  # who is on the machine now
    await expect(busy.locator(".tile-state")).to_have_text("playing · 1 waiting")
    await expect(busy).to_have_class(FLASH)

    only = await new_page()  # a display for one bank of machines
    await only.goto(f"{server}/t/bd3/display?views=machines&machines=2&seconds=600")
    await expect(only.locator(".card")).to_have_count(1)
    await expect(only.locator('.card[data-machine="2"]')).to_contain_text("No scores yet")


async def test_ukpl_guests_are_greyed_without_a_place(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("bd4", "ukpl-meeting", players=3, machines=1, guests={3})
    for player, score in ((1, 500), (2, 100), (3, 900)):
        await api.score("bd4", player, 1, score)
    page = await new_page()
    await page.goto(f"{server}/t/bd4/display?views=machines,standings&seconds=2")
    guest = page.locator('.card[data-machine="1"] .row[data-player="3"]')
    await expect(guest).to_have_class(re.compile(r"\bunranked\b"))
    await expect(guest.locator(".place")).to_have_text("")
    await expect(guest).to_contain_text("guest")
    top = page.locator('.card[data-machine="1"] .row[data-player="1"]')
    await expect(top.locator(".place")).to_have_text("1")
    await expect(top.locator(".bonus")).to_have_count(1)  # more than double the second
    await expect(page.locator(".list-head .league-points")).to_have_text("League", timeout=5_000)
    league = (await api.views("bd4"))["views"]["standings"]["rows"]["1"]["league_points"]
    await expect(page.locator('.list-row[data-player="1"] .league-points')).to_have_text(
        str(league)
    )


async def test_the_display_recovers_by_itself_after_a_server_restart(
    settings: Settings, new_page: NewPage
) -> None:
    port = free_port()
    page = await new_page()
    status = page.locator("#status")
    async with serve_on(settings, port) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("rs1", EPC, players=3, machines=1)
        await api.score("rs1", 1, 1, 1_000)
        await api.close()
        await page.goto(f"{base}/t/rs1/display?views=machines&seconds=600")
        await expect(status).to_have_attribute("data-state", "live")
        await expect(page.locator('.row[data-player="1"]')).to_contain_text("1,000")
        # retries at the 0.25 s floor: the spread of the jittered backoff is test_live_client's
        await page.evaluate("window.sameDocument = true; Backglass.random = () => 0")
    await expect(status).to_have_attribute("data-state", "offline")
    await expect(status.locator(".status-text")).to_have_text(
        re.compile(r"^offline — data \d+ s old$")
    )
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    async with serve_on(settings, port) as base:
        await expect(status).to_have_attribute("data-state", "live", timeout=15_000)
        api = Api(base)
        await api.sign_in_td()
        await api.score("rs1", 2, 1, 2_000)
        await api.close()
        row = page.locator('.row[data-player="2"]')
        await expect(row).to_contain_text("2,000")
        await expect(row).to_have_class(FLASH)
        assert await page.evaluate("window.sameDocument") is True  # no reload
        # it resumes from its version, and names itself for the desk (display/live/displays.py)
        resumed = r"/ws/rs1\?display=display-\w{4}&views=machines&since=\d+$"
        assert sockets and all(re.search(resumed, url) for url in sockets)


async def test_movers_shows_the_biggest_climbs_since_the_board_came_round(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("mv1", EPC, players=4, machines=2)
    for player, score in ((1, 3_000), (2, 2_000), (3, 1_000), (4, 500)):
        await api.score("mv1", player, 1, score)
    page = await new_page({"width": 1920, "height": 1080})
    await page.goto(f"{server}/t/mv1/display?views=movers&seconds=600")
    await expect(page.locator("#view-title")).to_have_text("Movers")
    await expect(page.locator(".stage-message")).to_have_text(
        "No climbs since the board last came round"
    )
    await api.score("mv1", 3, 2, 9_000)  # 3rd -> 1st
    await api.score("mv1", 4, 2, 8_000)  # 4th -> 2nd
    rows = page.locator(".mover")
    await expect(rows).to_have_count(2)
    assert await order(page, ".mover") == ["3", "4"]  # the biggest climb first, then the place
    first = page.locator('.mover[data-player="3"]')
    await expect(first.locator(".place")).to_have_text("1")
    await expect(first.locator(".played")).to_have_text("3")
    await expect(first.locator(".climb")).to_have_text("▲ 2")
    await expect(first.locator(".name")).to_have_text("Player 3")
