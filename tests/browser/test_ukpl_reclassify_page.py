"""A guest made a region player on the TD's adjustments page, in Chromium (UKPL rules 1C, 3B,
3C): the meeting's header on the hall display, the players' page and the adjustments page counts
the field ("4 players + 1 guest") and follows the record live; the machine's points are worked
out again with the new N."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import HALL, PHONE, NewPage
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser


async def test_the_td_makes_a_guest_a_region_player_and_every_header_follows(
    api: Api, server: str, new_page: NewPage
) -> None:
    """Players 1-4 and guest 5 on one machine, 5 the best: while a guest, N = 4 and player 5 is
    not ranked; made a region player, N = 5 and player 5 takes 1st with 5 machine points."""
    tid = "rcp"
    await api.tournament(tid, "ukpl-meeting", players=5, machines=1, guests={5})
    for player, score in ((1, 500), (2, 400), (3, 300), (4, 200), (5, 600)):
        assert (await api.score(tid, player, 1, score)).status_code == 201
    hall = await new_page(HALL)
    await hall.goto(f"{server}/t/{tid}/display?views=standings&seconds=600")
    await expect(hall.locator("#field-note")).to_have_text(" · 4 players + 1 guest")
    await expect(hall.locator('.standings-row[data-player="5"].unranked')).to_have_count(1)
    phone = await new_page(PHONE)
    await phone.goto(f"{server}/t/{tid}/standings")
    await expect(phone.locator("#field-note")).to_have_text(" · 4 players + 1 guest")

    page = await new_page(PHONE)
    await page.goto(f"{server}/t/{tid}/adjust")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-form button[type=submit]")
    await expect(page.locator("#field-note")).to_have_text(" · 4 players + 1 guest")
    await page.select_option("#kind", "reclassify")
    await page.fill("#player", "5")
    await expect(page.locator("#player-lookup")).to_have_text(
        "Player 5 (guest) · 600 on this machine"
    )
    await expect(page.locator("#guest-to")).to_have_value("region")
    await expect(page.locator("#machine")).to_be_hidden()
    await page.click("#adjust-submit")
    await expect(page.locator("#adjust-error")).to_have_text(
        "Say why: it is kept in the log with your name."
    )
    await page.fill("#reason", "joined the league today")
    await page.click("#adjust-submit")
    await expect(page.locator("#adjust-done")).to_contain_text("Recorded")
    await expect(page.locator("#field-note")).to_have_text(" · 5 players")
    await expect(hall.locator("#field-note")).to_have_text(" · 5 players")
    await expect(phone.locator("#field-note")).to_have_text(" · 5 players")
    await expect(hall.locator('.standings-row[data-player="5"] .place')).to_have_text("1")
    rows = (await api.views(tid))["views"]["machine/1"]["rows"]
    assert rows["5"]["points"] == 5 and rows["1"]["points"] == 4

    # the same again: the server says they already are, in plain words
    await page.fill("#player", "")
    await page.fill("#player", "5")
    await page.select_option("#guest-to", "region")
    await page.fill("#reason", "again")
    await page.click("#adjust-submit")
    await expect(page.locator("#adjust-error")).to_have_text(
        "Player 5 (5) is already a region player at this meeting."
    )
