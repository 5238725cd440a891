"""A player's phone in Chromium: my page with the "what I need" panel, recomputed live, a chosen
target, and the queue the player waits in. Expected scores worked by hand (EPC 2009, EPC
Qualifying, PAPA scale 100, 90, 85 …; equal scores share the better place's points)."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage
from tests.utils import Api

pytestmark = pytest.mark.browser


async def test_what_i_need_for_the_cut_live_and_for_a_chosen_place(
    api: Api, server: str, new_page: NewPage
) -> None:
    """Cut 2. m1: Player 1 5,000 (100), Player 2 3,000 (90); m2: Player 1 1,000 (100). Player 3
    needs 3,000 on m1 (tying Player 2: both 90, sharing 2nd) and any score on m2 (2nd there, 90).
    Player 4 then scores 500 on m2 (90): Player 3 needs to tie that, 500. For 1st Player 3 is out
    of reach on either machine alone: 100 at most against Player 1's 190 or more."""
    await api.tournament("wn1", "epc-qualifying", players=4, machines=2,
                         settings={"qualify": 2, "standby": 1})  # fmt: skip
    for player, machine, score in ((1, 1, 5_000), (2, 1, 3_000), (1, 2, 1_000)):
        await api.score("wn1", player, machine, score)
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/wn1/standings?player=3")
    panel = page.locator("#need")
    one, two = (
        panel.locator('.need-item[data-machine="1"]'),
        panel.locator('.need-item[data-machine="2"]'),
    )
    await expect(one.locator(".need-score")).to_have_text("3,000")
    await expect(one.locator(".need-place")).to_have_text("→ 2nd")
    await expect(two.locator(".need-score")).to_have_text("any score")
    await expect(panel.locator("#need-target option").first).to_have_text("Default: the cut (2nd)")

    await api.score("wn1", 4, 2, 500)  # recomputed live, no reload
    await expect(two.locator(".need-score")).to_have_text("500")
    await expect(one.locator(".need-score")).to_have_text("3,000")

    await page.select_option("#need-target", "1")
    await expect(one.locator(".need-score")).to_have_text("out of reach")
    await expect(one).to_have_class(re.compile(r"\bout\b"))
    await expect(two.locator(".need-place")).to_have_text("on this machine alone")

    await api.score("wn1", 3, 1, 6_000)  # played m1: only m2 (new) and m1 again (the joker) left
    await expect(one.locator(".joker")).to_have_text("joker")
    await expect(page.locator(".player-machine")).to_have_count(1)


async def test_my_page_shows_the_queue_and_a_withdrawn_player_needs_nothing(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("wn2", "epc-qualifying", players=3, machines=1)
    for player in ("1", "2"):
        r = await api.post("/api/t/wn2/queues/1/join", {"player": player})
        assert r.status_code == 201, r.text
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/wn2/standings?player=2")
    queue = page.locator('.queue-item[data-machine="1"]')
    await expect(queue.locator(".queue-pos")).to_have_text("2nd in the queue")
    await expect(queue.locator(".queue-wait")).to_have_text(re.compile(r"^about \d+ min$"))
    await api.post("/api/t/wn2/queues/1/call", {})
    await api.post("/api/t/wn2/queues/1/start", {})
    await expect(queue.locator(".queue-pos")).to_have_text("1st in the queue")

    await api.post("/api/t/wn2/players/2/withdraw", {"reason": "train"})
    await expect(page.locator(".withdrawn")).to_have_text("Withdrawn")
    await expect(page.locator("#need")).to_have_count(0)
