"""The Country Competition's hall display views in Chromium: group tables with the qualifying line,
the 4-ball board, and the final with its tie-breaks, each following pushed records live. Points are
worked by hand (tests/display/competitions/epc_country/test_epc_country_live_builders.py)."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import PHONE, NewPage
from tests.display.competitions.epc_country.test_epc_country_live_builders import (
    country_over_http,
    four_ball_over_http,
    four_ball_scores,
    match_over_http,
    stage_over_http,
)
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser
FLASH = re.compile(r"\bflash\b")


async def teams_in(page: Page, selector: str) -> list[str]:
    return await page.locator(selector).evaluate_all("nodes => nodes.map(n => n.dataset.team)")


async def test_group_tables_follow_a_pushed_match(api: Api, server: str, new_page: NewPage) -> None:
    """EPC 2009, EPC Country Competition: places 9/5/2/0 summed per team. T01 beat T16 23-9 before
    the page opened; T06 then beats T11 28-4 (1st and 2nd on both machines) live: group A reads
    T06 28, T01 23, T16 9, T11 4, and T06's line flashes."""
    await country_over_http(api, "cd1")
    await match_over_http(api, "cd1", "T01", "T16", 23, "qualifying")
    page = await new_page()
    await page.goto(f"{server}/t/cd1/display?views=country_groups&seconds=600")
    await expect(page.locator("#view-title")).to_have_text("Team groups")
    group = page.locator('.cc-card[data-group="A"]')
    await expect(group.locator('[data-team="T01"] .total')).to_have_text("23")
    assert await teams_in(page, '.cc-card[data-group="A"] .cc-team[data-team]') == [
        "T01",
        "T16",
        "T06",
        "T11",
    ]
    await expect(group.locator('[data-team="T01"]')).not_to_have_class(FLASH)
    await match_over_http(api, "cd1", "T06", "T11", 28, "qualifying")
    t06 = group.locator('[data-team="T06"]')
    await expect(t06.locator(".m")).to_have_text("28")
    await expect(t06).to_have_class(FLASH)
    assert await teams_in(page, '.cc-card[data-group="A"] .cc-team[data-team]') == [
        "T06",
        "T01",
        "T16",
        "T11",
    ]
    await expect(group.locator(".cc-meta")).to_have_text("2/6 matches")
    await expect(t06).not_to_have_class(FLASH, timeout=6_000)


async def test_the_qualifying_table_and_the_matches_pages(
    api: Api, server: str, new_page: NewPage
) -> None:
    """After the group stage (T03 84 + 12 = 96 at the top; T06 and T07 level on 56 with equal
    4-ball scores) the qualifying table puts five teams above the line and the tie for sixth
    under "Tie at the cut"; the matches page shows T03's 28-4 wins."""
    await country_over_http(api, "cd2")
    maximum = {("T03", "T08"): 28, ("T03", "T13"): 28, ("T03", "T18"): 28}
    await stage_over_http(api, "cd2", maximum)
    await four_ball_over_http(api, "cd2", four_ball_scores(T07=1500))
    page = await new_page()
    await page.goto(f"{server}/t/cd2/display?views=country_groups&seconds=600")
    await expect(page.locator("#status")).to_have_attribute("data-state", "live")
    # the pages are measured on the screen (how many cards a column fits), so each is found by
    # its key and shown, not waited for at a page number
    await expect(page.locator("#page-number")).to_contain_text("/")  # the pages are laid out
    keys = await page.evaluate("backglassBoard.pages()")
    await page.evaluate("(i) => backglassBoard.show(i)", keys.index("country_groups:table:0"))
    await expect(page.locator(".cc-line").first).to_have_text("Final · top 6")
    assert (await teams_in(page, ".cc-team.in"))[:5] == ["T03", "T01", "T02", "T04", "T05"]
    await expect(page.locator(".cc-line.tie")).to_have_text("Tie at the cut · play-off")
    assert await teams_in(page, ".cc-team.tie") == ["T06", "T07"]
    await expect(page.locator('[data-team="T06"] .cc-tag.hot')).to_have_text("play-off")
    c = page.locator('.cc-card[data-matches="C"]')
    for i in [i for i, key in enumerate(keys) if key.startswith("country_groups:matches:")]:
        await page.evaluate("(i) => backglassBoard.show(i)", i)
        if await c.count():
            break
    await expect(c.locator(".cc-match.played")).to_have_count(6)
    await expect(c.locator(".res", has_text="28–4")).to_have_count(3)


async def test_the_four_ball_board_ranks_every_game_together(
    api: Api, server: str, new_page: NewPage
) -> None:
    """EPC 2009, EPC Country Competition, "The 4 ball game": 1st = 17, 2nd = 14, 3rd = 12, on either
    machine; a slam tilt enters the score as zero; a team yet to play shows its allocated slot.
    A better score pushed live takes 1st and moves the others down a place."""
    await country_over_http(api, "cd3")
    await four_ball_over_http(api, "cd3", {"T01": 5_000, "T02": 7_000, "T03": 6_000})
    r = await api.post(
        "/api/t/cd3/country/penalties", {"type": "slam_tilt", "team": "T04", "reason": "shook"}
    )
    assert r.status_code == 201, r.text
    page = await new_page()
    await page.goto(f"{server}/t/cd3/display?views=four_ball&seconds=600")
    await expect(page.locator("#view-title")).to_have_text("4-ball game")
    rows = page.locator(".fb-row[data-team]")
    await expect(rows.first).to_contain_text("7,000")
    assert (await teams_in(page, ".fb-row[data-team]"))[:4] == ["T02", "T03", "T01", "T04"]
    await expect(page.locator('.fb-row[data-team="T02"] .points')).to_have_text("17")
    await expect(page.locator('.fb-row[data-team="T01"] .points')).to_have_text("12")
    await expect(page.locator('.fb-row[data-team="T02"] .where')).to_have_text("4-ball 2")
    await expect(page.locator('.fb-row[data-team="T04"]')).to_contain_text("slam tilt")
    await expect(page.locator('.fb-row[data-team="T04"] .points')).to_have_text("0")
    await expect(page.locator('.fb-row[data-team="T20"] .score')).to_have_text("slot 2 · 4-ball 2")
    await four_ball_over_http(api, "cd3", {"T05": 9_000})
    await expect(page.locator('.fb-row[data-team="T05"] .points')).to_have_text("17")
    await expect(page.locator('.fb-row[data-team="T05"]')).to_have_class(FLASH)
    await expect(page.locator('.fb-row[data-team="T01"] .points')).to_have_text("10")
    await expect(page.locator(".fb-meta").first).to_have_text("4 of 20 played")


async def test_the_td_starts_the_final_and_the_display_shows_its_tie_breaks(
    api: Api, server: str, new_page: NewPage
) -> None:
    """The TD advances the stage from the team-entry page (a record like any other). In the final
    (EPC 2009, EPC Country Competition, Final) T02 and T03 tie on 82 for 2nd: a play-off is
    needed; T07 and T05 tie on 75 for 5th: T07 won their match 18-14, so T07 is 5th "on
    countback from the head to head matches". The play-off (T03 2000, T02 1000) arrives live."""
    await country_over_http(api, "cd4")
    await stage_over_http(api, "cd4", {("T03", "T08"): 28, ("T03", "T13"): 28, ("T03", "T18"): 28})
    await four_ball_over_http(api, "cd4", four_ball_scores(T07=1500))
    playoff = {"scores": [{"team": "T06", "score": 1}, {"team": "T07", "score": 2}]}
    (await api.post("/api/t/cd4/country/playoffs", playoff)).raise_for_status()

    td = await new_page(PHONE)
    await td.goto(f"{server}/t/cd4/team-entry")
    await td.click("#as-td")
    await td.fill("#signin-password", TD_PASSWORD)
    await td.click("#signin-submit")
    await td.click('.task[data-task="td"]')
    await td.click('.pick[data-action="final"]')
    await td.click("#form-check")
    await expect(td.locator("#confirm-card")).to_contain_text("6. Team 07")
    await td.click("#confirm-submit")
    await expect(td.locator("#screen-home")).to_be_visible()
    await expect(td.locator(".hint").first).to_have_text("Stage: final.")

    final = {
        ("T01", "T02"): 14,
        ("T01", "T03"): 14,
        ("T01", "T05"): 19,
        ("T01", "T07"): 23,
        ("T07", "T05"): 18,
    }
    await stage_over_http(api, "cd4", final, stage="final")
    page = await new_page()
    await page.goto(f"{server}/t/cd4/display?views=country_final&seconds=600")
    table = page.locator('[data-final="table"]')
    await expect(table.locator('[data-team="T01"] .pts')).to_have_text("86")
    assert await teams_in(page, '[data-final="table"] .cf-team[data-team]') == [
        "T01",
        "T02",
        "T03",
        "T04",
        "T07",
        "T05",
    ]
    await expect(table.locator('[data-team="T07"] .place')).to_have_text("5")
    await expect(table.locator('[data-team="T07"] .cf-tag')).to_have_text("head to head")
    await expect(table.locator('[data-team="T02"] .place')).to_have_text("2=")
    await expect(page.locator(".cf-po.needed .what")).to_have_text(
        "Play-off needed: Tie for 2nd · final"
    )
    await expect(page.locator(".cf-card[data-rounds] .cf-match.played")).to_have_count(15)
    done = {"scores": [{"team": "T02", "score": 1000}, {"team": "T03", "score": 2000}]}
    (await api.post("/api/t/cd4/country/playoffs", done)).raise_for_status()
    await expect(table.locator('[data-team="T03"] .place')).to_have_text("2")
    await expect(table.locator('[data-team="T03"] .cf-tag')).to_have_text("play-off")
    await expect(page.locator(".cf-po.needed")).to_have_count(0)
    await expect(page.locator(".cf-po[data-played]").last).to_contain_text(
        "Team 03 2,000 · Team 02 1,000"
    )
