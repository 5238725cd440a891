"""UKPL meetings in Chromium: the season table beside the meeting on the hall display and on a
phone, adjustments on the hall display, and the TD's adjustments page. Values worked by hand from
ukpl-rules.txt (3B machine points, 3D league points, 3E best results, 3F ties, 1G finals places,
7D slam tilt)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import HALL, PHONE, NewPage
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser

UKPL = "ukpl-meeting"
SEASON = {"region": "London and South East", "season": "2025", "qualifiers": 2}


async def meeting(api: Api, tid: str, held: str, order: list[int], **settings: Any) -> None:
    """Players 1-5 on one machine, ``order`` best first (league points 20, 19, 18, ...)."""
    body = {**SEASON, "held": held, **settings}
    await api.tournament(tid, UKPL, players=5, machines=1, settings=body)
    for rank, player in enumerate(order):
        assert (await api.score(tid, player, 1, (10 - rank) * 1000)).status_code == 201


async def test_the_season_table_beside_the_meeting_changes_live(
    api: Api, server: str, new_page: NewPage
) -> None:
    """Meeting 1: 1, 2, 3, 4, 5 -> 20 .. 16. Meeting 2 (live, here) so far: 2, 1, 3, 5 (four
    region players: it does not count yet, UKPL 1E). Then player 4 plays: 20, 19, 18, 17, 16 for
    2, 1, 3, 5, 4. Season: 1 and 2 on 39 share 1st, both inside the 2 finals places (1G);
    3 on 36; 4 and 5 on 33 share 4th."""
    await meeting(api, "hd-1", "2025-01-11", [1, 2, 3, 4, 5])
    await meeting(api, "hd-2", "2025-02-08", [2, 1, 3, 5])
    await api.post("/api/t/hd-2/players", {"number": "41", "name": "Rory Quinn", "guest": True})
    await api.score("hd-2", 41, 1, 50)
    page = await new_page(HALL)
    await page.goto(f"{server}/t/hd-2/display?views=ukpl_season&seconds=600")
    await expect(page.locator("#view-title")).to_have_text("Season table")
    stage = page.locator("#stage")
    await expect(stage.locator(".season-note")).to_contain_text(
        "hd-2 does not count: 4 region players"
    )
    row = stage.locator('.season-row[data-player="1"]')
    await expect(row.locator(".points")).to_have_text("20")

    await api.score("hd-2", 4, 1, 1)
    await expect(row.locator(".points")).to_have_text("39")
    await expect(row.locator('.result[data-meet="hd-2"]')).to_have_text("19")
    await expect(row.locator('.result[data-meet="hd-2"]')).to_have_class(re.compile(r"\blive\b"))
    await expect(stage.locator(".season-note")).not_to_contain_text("does not count")
    places = await stage.locator(".list-row.season-row:not(.unranked)").evaluate_all(
        "rows => rows.map(r => [r.dataset.player, r.querySelector('.place').textContent])"
    )
    assert places == [["1", "1="], ["2", "1="], ["3", "3"], ["4", "4="], ["5", "4="]]
    await expect(stage.locator(".season-row.band-qualified")).to_have_count(2)
    await expect(stage.locator(".divider")).to_have_text(
        ["Grand final · places 1–2", "Below the line", "For fun · other regions"]
    )
    await expect(stage.locator('.season-row[data-player="41"]')).to_contain_text("Rory Quinn")


async def test_a_play_off_and_dropped_results_on_a_phone(
    api: Api, server: str, new_page: NewPage
) -> None:
    """Best 1 result counts and 1 finals place (settings of the latest meeting, UKPL 3E, 1G):
    players 1 and 2 both have 20 and 19; the countback (3F) cannot part them: play-off. Player
    1's 19 (meeting 2) is discarded, shown struck through."""
    await meeting(api, "ph-1", "2025-01-11", [1, 2, 3, 4, 5])
    await meeting(api, "ph-2", "2025-02-08", [2, 1, 3, 5, 4], counted=1, qualifiers=1)
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/ph-1/season")
    one = page.locator('.standing[data-player="1"]')
    await expect(one.locator(".results")).to_have_text("ph-1: 20 · ph-2: 19")
    await expect(one.locator(".playoff-tag")).to_have_text("play-off")
    await expect(page.locator('.standing[data-player="2"] .playoff-tag')).to_be_visible()
    await expect(one.locator(".results .dropped")).to_have_text("ph-2: 19")
    await expect(one.locator(".total")).to_have_text("20")
    await expect(page.locator("#season-note")).to_contain_text("Best 1 results count")
    await page.fill("#search", "Player 3")
    await expect(page.locator(".standing")).to_have_count(1)


async def test_the_td_records_and_withdraws_a_slam_tilt_on_the_adjustments_page(
    api: Api, server: str, new_page: NewPage
) -> None:
    """UKPL 7D: player 1's 10,000 on the machine becomes 0, last of 5 (1 point); the hall
    display's adjustments view shows it with who and why; withdrawn, it is struck through and
    the score counts again (5 points)."""
    await meeting(api, "ad-1", "2025-01-11", [1, 2, 3, 4, 5])
    hall = await new_page(HALL)
    await hall.goto(f"{server}/t/ad-1/display?views=ukpl_adjustments&seconds=600")
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/ad-1/adjust")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-form button[type=submit]")
    await expect(page.locator("#work")).to_be_visible()

    await page.select_option("#kind", "slam_tilt")
    await page.fill("#player", "1")
    await expect(page.locator("#player-lookup")).to_have_text("Player 1 · 10,000 on this machine")
    await page.click("#adjust-submit")
    await expect(page.locator("#adjust-error")).to_have_text(
        "Say why: it is kept in the log with your name."
    )
    await page.fill("#reason", "slam tilt on ball 2")
    await page.click("#adjust-submit")
    await expect(page.locator("#adjust-done")).to_contain_text("Recorded")
    record = page.locator(".record[data-status=applied]")
    await expect(record.locator(".change")).to_have_text("10,000 → 0")
    await expect(record.locator(".why")).to_have_text("slam tilt on ball 2 — TD")
    rows = (await api.views("ad-1"))["views"]["machine/1"]["rows"]
    assert rows["1"] == {"score": 0, "place": 5, "points": 1}

    shown = hall.locator(".adjust-row")
    await expect(shown.locator(".what")).to_have_text("Slam tilt")
    await expect(shown.locator(".change")).to_have_text("10,000 → 0")
    await expect(shown.locator(".why")).to_have_text("Machine 1 · slam tilt on ball 2 — TD")

    await record.get_by_role("button", name="Withdraw…").click()
    await page.fill(".reason-input", "it was a plumb-bob tilt")
    await page.click("[data-action=confirm-withdraw]")
    await expect(page.locator(".record[data-status=withdrawn]")).to_be_visible()
    await expect(hall.locator(".adjust-row.withdrawn")).to_have_count(1)
    rows = (await api.views("ad-1"))["views"]["machine/1"]["rows"]
    assert rows["1"] == {"score": 10_000, "place": 1, "points": 5}


async def test_a_refused_adjustment_shows_the_rule_and_a_multiplayer_game_goes_in(
    api: Api, server: str, new_page: NewPage
) -> None:
    """UKPL 6C: a replay needs a game to replay; UKPL 2F: players 1 and 2 on machine 2 at once,
    200 and 50: N = 2, 2 + the bonus point (200 > 2 x 50) and 1."""
    await api.tournament("ad-2", UKPL, players=5, machines=2, settings=SEASON)
    page: Page = await new_page(PHONE)
    await page.goto(f"{server}/t/ad-2/adjust")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-form button[type=submit]")
    await page.select_option("#kind", "fault_replay")
    await page.fill("#player", "3")
    await page.fill("#reason", "ball stuck")
    await page.click("#adjust-submit")
    await expect(page.locator("#adjust-error")).to_have_text(
        "Player 3 has no game on Machine 1 yet: record the game itself, no fault is needed."
    )

    await page.select_option("#kind", "multiplayer")
    await page.select_option("#machine", "2")
    await page.fill('[data-role=player][data-n="1"]', "1")
    await page.fill('[data-role=score][data-n="1"]', "200")
    await page.fill('[data-role=player][data-n="2"]', "2")
    await page.fill('[data-role=score][data-n="2"]', "50")
    await page.click("#adjust-submit")
    await expect(page.locator("#adjust-done")).to_contain_text("Recorded")
    rows = (await api.views("ad-2"))["views"]["machine/2"]["rows"]
    assert rows == {
        "1": {"score": 200, "place": 1, "points": 3, "bonus": 1},
        "2": {"score": 50, "place": 2, "points": 1},
    }
