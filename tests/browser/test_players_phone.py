"""The players' page on a phone in Chromium: it remembers the player ("This is me") with their
place and queue place on the list, marks shared places as the board does ("1="), says "in the cut"
while qualifying runs and "qualified" once it closed, and leaves out "any score" lines that say
nothing."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, NewPage
from tests.utils import Api

pytestmark = pytest.mark.browser


async def test_the_page_remembers_the_player_and_marks_ties(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament(
        "pp1", "epc-qualifying", players=5, machines=2, settings={"qualify": 2, "standby": 1}
    )
    # Players 1 and 2 share 1st overall (100 each); 3 and 4 share 2nd on machine 1
    for player, machine, score in ((1, 1, 5000), (2, 2, 5000), (3, 1, 3000), (4, 1, 3000)):
        (await api.score("pp1", player, machine, score)).raise_for_status()
    (await api.post("/api/t/pp1/queues/2/join", {"player": "3"})).raise_for_status()
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/pp1/standings?player=1")
    detail = page.locator("#player-detail")
    await expect(detail.locator(".big-place")).to_have_text("Place 1=")
    await expect(detail.locator(".facts")).to_contain_text("In the cut · places 1–2")
    # at the cut already: "any score" on a machine says nothing, so it is not listed
    await expect(detail.locator(".need-now")).to_contain_text("You are there now")
    await expect(detail.locator(".need-item", has_text="any score")).to_have_count(0)

    await page.goto(f"{server}/t/pp1/standings?player=3")
    machine = detail.locator('.player-machine[data-machine="1"] .place')
    await expect(machine).to_have_text("place 2= of 3")
    await expect(page.locator("#me-button")).to_have_text("☆ This is me")
    await page.click("#me-button")
    await expect(page.locator("#me-button")).to_have_text("★ This is me (tap to forget)")

    await page.goto(f"{server}/t/pp1/standings")  # later, from the QR code: the list
    card = page.locator("#me-card")
    await expect(card).to_contain_text("Player 3 #3")
    await expect(card).to_contain_text("place 3=")
    await expect(card).to_contain_text(
        re.compile(r"1st in the queue for Machine 2|called to Machine 2")
    )
    await page.reload()
    await expect(card).to_contain_text("Player 3 #3")
    await card.click()
    await expect(detail.locator(".big-place")).to_have_text("Place 3=")
    await page.click("#me-button")  # forget
    await page.goto(f"{server}/t/pp1/standings")
    await expect(page.locator(".standing").first).to_be_visible()
    await expect(page.locator("#me-card")).to_have_count(0)


async def test_in_the_cut_while_qualifying_runs_and_qualified_after(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("pp2", "epc-classic", players=12, machines=8)
    for player in range(1, 13):
        (await api.score("pp2", player, 1 + player % 8, 1000 * player)).raise_for_status()
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/pp2/standings?player=12")
    facts = page.locator("#player-detail .facts")
    await expect(facts).to_contain_text("In the cut")
    await expect(facts).not_to_contain_text("Qualified")
    (await api.post("/api/t/pp2/epc/close", {})).raise_for_status()
    await expect(facts).to_contain_text("Qualified")
    await expect(facts).not_to_contain_text("In the cut")


async def test_the_rank_over_time_chart_draws_place_and_points(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("pp3", "epc-qualifying", players=3, machines=2)
    await api.score("pp3", 2, 1, 1000)  # 2: 1st, 100
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/pp3/standings?player=2")
    chart = page.locator("#chart")
    # from registration (0 points, everyone 1st) to the first score
    await expect(chart).to_have_attribute("data-points", "2")
    await api.score("pp3", 1, 1, 2000)  # 2: 2nd, 90
    await api.score("pp3", 2, 2, 500)  # 2: 1st, 190 — drawn live, no reload
    await expect(chart).to_have_attribute("data-points", "4")
    place = chart.locator("polyline.chart-place")
    await expect(place).to_have_count(1)
    coords = [
        tuple(float(v) for v in pair.split(","))
        for pair in (await place.get_attribute("points") or "").split()
    ]
    assert len(coords) == 4
    ys = [y for _, y in coords]
    assert ys[1] == ys[3] < ys[2]  # 1st, 2nd, 1st: 1st is drawn at the top
    assert [x for x, _ in coords] == sorted(x for x, _ in coords)
    points = await chart.locator("polyline.chart-points").get_attribute("points") or ""
    totals_y = [float(pair.split(",")[1]) for pair in points.split()]
    assert totals_y[3] < totals_y[1] < totals_y[2] < totals_y[0]  # 190, 100, 90, 0
    await expect(chart.locator(".chart-legend")).to_have_text(
        "— place (now 1) ‑ ‑ points (now 190)"
    )
    box = await chart.locator("svg").bounding_box()
    assert box is not None and 300 <= box["width"] <= 390  # the phone's width, no overflow
