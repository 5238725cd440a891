"""Queues in Chromium: the hall display's queue board (every machine: now playing, waiting count,
estimated wait), the steward running a queue from the phone, and a player's place and wait."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage, steward_pin
from tests.utils import Api

pytestmark = pytest.mark.browser

EPC = "epc-qualifying"
FLASH = re.compile(r"\bflash\b")
# For each text animation in a flashing row: how far its clock is from its row's (ms).
FLASH_SKEW = """
() => document.getAnimations()
  .filter((a) => a.animationName === "flash-text")
  .map((a) => {
    const row = a.effect.target.closest(".flash");
    const own = row.getAnimations().find((b) => b.animationName === "flash");
    return Math.abs(a.currentTime - own.currentTime);
  })
"""
# Every animation paused at its start (the dark-on-flash phase).
AT_START = "() => document.getAnimations().forEach((a) => { a.pause(); a.currentTime = 0; })"


async def test_the_queue_board_shows_every_machine_live(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("qb1", EPC, players=5, machines=3, settings={"hall": {"game_minutes": 7}})
    for player in ("1", "2", "3"):
        await api.post("/api/t/qb1/queues/1/join", {"player": player})
    started = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    await api.post("/api/t/qb1/queues/1/start", {"started_at": started})
    await api.post("/api/t/qb1/machines/3/status", {"status": "out_of_order", "note": "coil"})
    page = await new_page({"width": 1920, "height": 1080})
    await page.goto(f"{server}/t/qb1/display?views=queues&seconds=600")
    await expect(page.locator("#view-title")).to_have_text("Queues")
    first = page.locator('.qtile[data-machine="1"]')
    await expect(page.locator(".qtile")).to_have_count(3)
    await expect(first.locator(".qtile-count")).to_have_text("2waiting")
    await expect(first.locator(".qtile-now .state")).to_have_text("playing")
    await expect(first.locator(".qtile-now .name")).to_have_text("Player 1")
    await expect(first.locator(".qtile-next .name")).to_have_text(["Player 2", "Player 3"])
    # three games of 7 minutes before a newcomer plays, less the minute already played
    await expect(first.locator(".qtile-wait")).to_contain_text("~20 min")
    await expect(page.locator('.qtile[data-machine="2"] .qtile-wait')).to_contain_text("no wait")
    down = page.locator('.qtile[data-machine="3"]')
    await expect(down.locator(".qtile-status")).to_have_text("Out of order")
    await expect(down).to_have_class("qtile down")

    await expect(first.locator(".qtile-now")).not_to_have_class(FLASH)  # shown at load
    await api.score("qb1", 1, 1, 1000)  # ends the game, calls the next
    await expect(first.locator(".qtile-now .state")).to_have_text("called")
    await expect(first.locator(".qtile-now")).to_have_class(FLASH)  # a new player is up
    await expect(first.locator(".qtile-now .name")).to_have_text("Player 2")
    await expect(first.locator(".qtile-count")).to_have_text("1waiting")
    await page.wait_for_timeout(1_000)
    await api.post("/api/t/qb1/queues/2/join", {"player": "4"})  # redraws machine 1 mid-flash
    await expect(page.locator('.qtile[data-machine="2"] .qtile-next .name')).to_have_text(
        "Player 4"
    )
    # every text of the flashing row, however deep (the name sits in .who), keeps the row's phase
    # and is dark on the flash colour (the yellow 'called' label was yellow on yellow)
    skews = await page.evaluate(FLASH_SKEW)
    assert skews and max(skews) < 150, skews
    await page.evaluate(AT_START)
    colours = await first.locator(".qtile-now .state, .qtile-now .name").evaluate_all(
        "nodes => nodes.map((n) => getComputedStyle(n).color)"
    )
    assert colours == ["rgb(34, 34, 34)"] * 2, colours


async def test_a_steward_runs_a_queue_from_the_phone(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("qb2", EPC, players=4, machines=2)
    pin = await steward_pin(api, "qb2", "Sam")
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/qb2/queue")
    await page.click("#sign-in-toggle")
    await page.click('.tab[data-role="steward"]')
    await page.fill("#signin-id", "Sam")
    await page.fill("#signin-secret", pin)
    await page.click("#signin-submit")
    await expect(page.locator("#me-who")).to_have_text("Steward Sam")
    machine = page.locator('.mq[data-machine="1"]')
    await machine.locator(".mq-summary").click()
    for player in ("3", "1"):
        await machine.locator(".mq-input").fill(player)
        await machine.locator(".mq-add button").click()
        await expect(machine.locator(f'.mq-row[data-player="{player}"]')).to_be_visible()
    await expect(machine.locator(".mq-row .mq-person")).to_have_text(
        ["Player 3 (3)", "Player 1 (1)"]
    )
    await machine.locator(".mq-input").fill("99")
    await machine.locator(".mq-add button").click()
    await expect(machine.locator(".error")).to_have_text(
        "No player number 99 is registered in this tournament."
    )
    await machine.get_by_role("button", name="Call next").click()
    await expect(machine.locator(".mq-up")).to_contain_text("Player 3 (3)")
    await expect(machine.locator(".mq-up .mq-tag")).to_have_text("Called")
    await machine.get_by_role("button", name="Start game").click()
    await expect(machine.locator(".mq-up .mq-tag")).to_have_text("Playing")
    await machine.locator('.mq-row[data-player="1"]').get_by_role("button", name="Pause").click()
    await expect(machine.locator('.mq-row[data-player="1"] .mq-eta')).to_have_text("paused")
    await expect(machine.locator(".mq-summary .mq-now")).to_have_text("playing: Player 3")
    records = (await api.http.get("/api/t/qb2/log")).json()["records"]
    assert [r["type"] for r in records if r.get("by") == "steward:Sam"] == [
        "queue_joined", "queue_joined", "queue_called", "game_started", "queue_paused",
    ]  # fmt: skip
    await page.reload()  # signed in still, the machine's queue still shown
    await expect(page.locator("#me-who")).to_have_text("Steward Sam")


async def test_a_player_sees_their_place_and_joins_from_the_phone(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("qb3", EPC, players=4, machines=2, settings={"hall": {"game_minutes": 10}})
    await api.post("/api/t/qb3/queues/2/join", {"player": "1"})
    await api.post("/api/t/qb3/queues/2/call", {})
    pin = (await api.post("/api/t/qb3/players/4/pin", {})).json()["pin"]
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/qb3/queue")
    await page.click("#sign-in-toggle")
    await page.fill("#signin-id", "4")
    await page.fill("#signin-secret", pin)
    await page.click("#signin-submit")
    await expect(page.locator("#me-who")).to_have_text("Player Player 4 (4)")
    await expect(page.locator("#me-queue")).to_contain_text("Not in a queue")
    await expect(page.locator("#me-queue")).to_contain_text("Ask a steward")
    await api.post("/api/t/qb3/settings", {"settings": {"hall": {"players_may_queue": True}}})
    await expect(page.locator("#me-queue")).to_contain_text("join its queue")
    machine = page.locator('.mq[data-machine="2"]')
    await machine.locator(".mq-summary").click()
    await machine.get_by_role("button", name="Join this queue").click()
    await expect(page.locator("#me-queue .me-big")).to_have_text("Number 1 for Machine 2")
    await expect(page.locator("#me-queue .me-small")).to_have_text("Estimated wait ~10 min")
    await expect(machine).to_have_class("mq open mine")
    await api.score("qb3", 1, 2, 100)  # the player before finishes: number 4 is called
    await expect(page.locator("#me-queue .me-big")).to_have_text("Your turn on Machine 2")
    await machine.get_by_role("button", name="Leave this queue").click()
    await expect(page.locator("#me-queue")).to_contain_text("Not in a queue")
