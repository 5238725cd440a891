"""The players' page in Chromium: the standings, and a player's own line updating live."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage
from tests.display.competitions.epc_main.test_epc_boards import classic, scores
from tests.utils import Api

pytestmark = pytest.mark.browser

EPC = "epc-qualifying"


async def test_players_page_shows_a_players_line_live(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("pp1", EPC, players=3, machines=3)
    await api.score("pp1", 1, 1, 5_000)
    await api.score("pp1", 2, 1, 9_000)
    await api.score("pp1", 1, 2, 100)
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/pp1/standings")
    rows = page.locator("#standings-list .standing")
    await expect(rows).to_have_count(3)
    standings = (await api.views("pp1"))["views"]["standings"]["rows"]
    first = page.locator('.standing[data-player="1"]')
    await expect(first.locator(".place")).to_have_text(str(standings["1"]["place"]))
    await expect(first.locator(".total")).to_have_text(str(standings["1"]["total"]))
    await expect(first.locator(".sub")).to_have_text("2/6 games")

    await first.click()
    await expect(page).to_have_url(re.compile(r"/t/pp1/standings\?player=1$"))
    detail = page.locator("#player-detail")
    await expect(detail.locator(".player-name")).to_have_text("Player 1 #1")
    machines = (await api.views("pp1"))["views"]
    on_one = machines["machine/1"]["rows"]["1"]
    line = detail.locator('.player-machine[data-machine="1"]')
    await expect(line).to_contain_text("Machine 1")
    await expect(line.locator(".score")).to_have_text("5,000")
    await expect(line.locator(".place")).to_have_text("place 2 of 2")
    await expect(line.locator(".points")).to_have_text(f"{on_one['points']} pts")
    await expect(detail.locator(".player-machine")).to_have_count(2)

    await api.score("pp1", 1, 3, 77_000)  # appears without a reload
    third = detail.locator('.player-machine[data-machine="3"]')
    await expect(third.locator(".score")).to_have_text("77,000")
    await expect(third.locator(".points")).to_have_text("100 pts")
    await expect(detail.locator(".facts")).to_contain_text("3 of 6 machines played")
    assert "null" not in await detail.inner_text()  # a player in no queue: no stray "null"

    await page.go_back()
    await expect(page.locator("#standings-list-screen")).to_be_visible()
    await page.fill("#search", "player 2")
    await expect(rows).to_have_count(1)


async def test_players_page_opens_a_player_from_the_url(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("pp2", "ukpl-meeting", players=3, machines=1, guests={3})
    await api.score("pp2", 2, 1, 1_000)
    await api.score("pp2", 3, 1, 5_000)
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/pp2/standings?player=3")
    detail = page.locator("#player-detail")
    await expect(detail.locator(".player-name")).to_have_text("Player 3 #3")
    await expect(detail.locator(".big-place")).to_have_text("Guest — not ranked")
    await expect(detail.locator(".place")).to_have_text("not ranked")
    await page.click("#back")
    guest = page.locator('.standing[data-player="3"]')
    await expect(guest).to_have_class(re.compile(r"\bunranked\b"))
    await expect(guest.locator(".place")).to_have_text("")
    league = (await api.views("pp2"))["views"]["standings"]["rows"]["2"]["league_points"]
    await expect(page.locator('.standing[data-player="2"] .sub')).to_have_text(f"{league} league")


async def test_a_replaced_classic_machine_ranks_no_wiped_score_on_the_phone(
    api: Api, server: str, new_page: NewPage, tmp_path: Path
) -> None:
    """EPC 2009, EPC Classic Tournament: a machine replaced after a fault has its scores wiped;
    a player's page says so instead of "place 1 of 2", and the queues page shows the machine as
    replaced, not free."""
    await classic(api, "pp9")
    await scores(api, "pp9", [(10, 8, 2_000)])
    body = {"machine": "8", "replacement": "9", "replacement_name": "Fathom"}
    assert (await api.post("/api/t/pp9/epc/faults", body)).status_code == 201
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/pp9/standings?player=10")
    line = page.locator('#player-detail .player-machine[data-machine="8"]')
    await expect(line.locator(".place")).to_have_text("wiped: machine replaced")
    await page.screenshot(path=str(tmp_path / "wiped-390.png"))
    queues = await new_page(PHONE)
    await queues.goto(f"{server}/t/pp9/queue")
    summary = queues.locator('.mq[data-machine="8"] .mq-summary')
    await expect(summary).not_to_contain_text("free")
    await expect(summary).to_contain_text("Replaced")
