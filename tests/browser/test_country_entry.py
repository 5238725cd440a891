"""The Country Competition's phone pages in Chromium: a steward enters a match's two machines through
a dropped connection without recording it twice, a 4-ball game, a refused penalty explained to the
TD, and the teams' page for phones."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, Route, expect

from tests.browser.conftest import PHONE, NewPage, steward_pin
from tests.display.competitions.epc_country.test_epc_country_live_builders import (
    country_over_http,
    match_over_http,
)
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser


async def sign_in_steward(page: Page, server: str, api: Api, tid: str) -> None:
    pin = await steward_pin(api, tid, "Sam")
    await page.goto(f"{server}/t/{tid}/team-entry")
    await page.fill("#signin-name", "Sam")
    await page.fill("#signin-pin", pin)
    await page.click("#signin-submit")
    await expect(page.locator("#screen-home")).to_be_visible()


async def log(api: Api, tid: str) -> list[dict[str, Any]]:
    r = await api.http.get(f"/api/t/{tid}/log")
    return list(r.json()["records"])


async def test_a_match_survives_a_dropped_connection_and_is_recorded_once(
    api: Api, server: str, new_page: NewPage
) -> None:
    """Machine 1: T01's players 40,000 and 30,000 (1st, 2nd: 9+5 = 14), T16's 20,000 and 10,000
    (2+0 = 2). Machine 2: T01 40,000 and 10,000 (1st, 4th: 9), T16 30,000 and 20,000 (5+2 = 7).
    The first submit never reaches the server; the page retries with the same Idempotency-Key
    and the match is recorded once: 23-9 (EPC 2009, EPC Country Competition)."""
    await country_over_http(api, "ce1")
    page = await new_page(PHONE)
    await sign_in_steward(page, server, api, "ce1")
    keys: list[str] = []

    async def flaky(route: Route) -> None:
        keys.append(route.request.headers.get("idempotency-key", ""))
        if len(keys) == 1:
            await route.abort()
        else:
            await route.continue_()

    await page.route("**/api/t/ce1/country/games", flaky)
    await page.click('.pick[data-fixture="A-1-1"]')
    await expect(page.locator("#form-title")).to_have_text("Team 01 v Team 16")
    await page.select_option('select[name="g0-machine"]', "m1")
    await page.select_option('select[name="g1-machine"]', "m2")
    await expect(page.locator('select[name="g1-T01-p0"]')).to_have_value("T01 P3")
    scores = {"g0-T01-s0": "40000", "g0-T01-s1": "30000", "g0-T16-s0": "20000"}
    scores |= {"g0-T16-s1": "10000", "g1-T01-s0": "40000", "g1-T01-s1": "10000"}
    scores |= {"g1-T16-s0": "30000", "g1-T16-s1": "20000"}
    await page.click("#form-check")
    await expect(page.locator("#form-error")).to_have_text("Type every score (T01 P1, machine 1).")
    for name, value in scores.items():
        await page.fill(f'input[name="{name}"]', value)
    await page.click("#form-check")
    card = page.locator("#confirm-card")
    await expect(card.locator(".confirm-title")).to_have_text("Team 01 v Team 16")
    await expect(card.locator(".confirm-value")).to_have_text(
        ["40,000", "30,000", "20,000", "10,000", "40,000", "10,000", "30,000", "20,000"]
    )
    await page.click("#confirm-submit")
    await expect(page.locator("#result-place")).to_have_text("Team 01 23 – 9 Team 16")
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0]
    games = [r for r in await log(api, "ce1") if r["type"] == "match_game_recorded"]
    assert [g["machine"] for g in games] == ["m1", "m2"]
    assert all(g["by"] == "steward:Sam" for g in games)
    await expect(page.locator('.pick[data-fixture="A-1-1"]')).to_have_count(0)


async def test_a_four_ball_game_on_the_allocated_machine(
    api: Api, server: str, new_page: NewPage
) -> None:
    """EPC 2009, EPC Country Competition, "The 4 ball game": "All teams have been allocated a
    machine and a time to play" (T01: slot 2, 4-ball 1); the first game recorded is 1st, 17."""
    await country_over_http(api, "ce2")
    page = await new_page(PHONE)
    await sign_in_steward(page, server, api, "ce2")
    await page.click('.task[data-task="four-ball"]')
    await expect(page.locator('.pick[data-team="T01"] .pick-meta')).to_have_text(
        "slot 2 · 4-ball 1"
    )
    await page.click('.pick[data-team="T01"]')
    await expect(page.locator('select[name="machine"]')).to_have_value("4b1")
    await page.fill('input[name="score"]', "1234567")
    await page.click("#form-check")
    await expect(page.locator("#confirm-card .confirm-value")).to_have_text("1,234,567")
    await page.click("#confirm-submit")
    await expect(page.locator("#result-place")).to_have_text("4-ball: place 1 · 17 points")
    await expect(page.locator('.pick[data-team="T01"]')).to_have_count(0)


async def test_a_refused_penalty_says_why_and_nothing_is_recorded(
    api: Api, server: str, new_page: NewPage
) -> None:
    """EPC 2009, EPC Country Competition, Timekeeping: only "more than 5 minutes after the
    announcement" forfeits a match; 3 minutes is refused with the reason, 7 is recorded: 28-0."""
    await country_over_http(api, "ce3")
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/ce3/team-entry")
    await page.click("#as-td")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-submit")
    await page.click('.task[data-task="td"]')
    await page.click('.pick[data-action="penalty"]')
    await page.select_option('select[name="fixture"]', "A-1-1")
    await page.select_option('select[name="team"]', "T16")
    await page.fill('input[name="minutes"]', "3")
    await page.fill('input[name="reason"]', "called at 18:00")
    await page.click("#form-check")
    await page.click("#confirm-submit")
    await expect(page.locator("#confirm-error")).to_have_text(
        "T16 arrived 3 minutes after the call; a team forfeits a match only when more than 5 "
        "minutes late."
    )
    assert not [r for r in await log(api, "ce3") if r["type"] == "late_recorded"]
    await page.click("#confirm-edit")
    await page.fill('input[name="minutes"]', "7")
    await page.click("#form-check")
    await page.click("#confirm-submit")
    await expect(page.locator("#screen-home")).to_be_visible()
    fixture = (await api.views("ce3"))["views"]["country/fixtures"]["A-1-1"]
    assert (fixture["status"], fixture["home_points"], fixture["away_points"]) == ("forfeit", 28, 0)


async def test_the_phones_page_shows_my_team_everywhere(
    api: Api, server: str, new_page: NewPage
) -> None:
    """The teams' page draws the display's blocks in one column; ?team=T16 outlines T16 in its
    group and its matches; the final tab appears only once there is a final."""
    await country_over_http(api, "ce4")
    await match_over_http(api, "ce4", "T01", "T16", 23, "qualifying")
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/ce4/country?team=T16")
    group = page.locator('.cc-card[data-group="A"]')
    await expect(group.locator('[data-team="T16"] .m')).to_have_text("9")
    await expect(group.locator('[data-team="T16"]')).to_have_class("cc-row cc-team in mine")
    await expect(page.locator(".cc-card[data-group]")).to_have_count(5)
    await expect(page.locator("#tabs button")).to_have_text(
        ["Groups", "Table", "Matches", "4-ball"]
    )
    await page.click('#tabs [data-tab="matches"]')
    await expect(page.locator('.cc-match[data-fixture="A-1-1"] .res')).to_have_text("23–9")
    await expect(page.locator(".cc-match.mine")).to_have_count(3)
    await page.select_option("#my-team", "T01")
    await expect(page.locator(".cc-match.mine")).to_have_count(3)
    await expect(page.locator('.cc-match.mine[data-fixture="A-1-1"]')).to_have_count(1)
    await match_over_http(api, "ce4", "T06", "T11", 28, "qualifying")
    await expect(page.locator('.cc-match[data-fixture="A-1-2"] .res')).to_have_text("28–4")


async def test_the_td_registers_machines_and_the_draw_from_the_page(
    api: Api, server: str, new_page: NewPage
) -> None:
    """EPC 2009, EPC Country Competition: "Teams will be divided into 5 groups of 4 teams" by seed
    (Group A: 1st, 6th, 11th & 16th seeds); the two 4-ball machines are marked apart from the
    3-ball match machines. The draw appears once the twentieth seed is in."""
    body = {"id": "ce5", "name": "Country 2009", "format": "epc-country", "settings": {}}
    (await api.post("/api/tournaments", body)).raise_for_status()
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/ce5/team-entry")
    await page.click("#as-td")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-submit")
    await expect(page.locator("#task")).to_contain_text("The draw is not made yet (0 of 20")
    await page.click('.task[data-task="td"]')
    await page.click('.pick[data-action="machines"]')
    await page.fill(
        'textarea[name="machines"]', "mm; Medieval Madness\ntz; Twilight Zone; 4-ball\n"
    )
    await page.click("#form-check")
    await expect(page.locator("#confirm-card .confirm-value")).to_have_text(["3-ball", "4-ball"])
    await page.click("#confirm-submit")
    await page.click('.task[data-task="td"]')
    await page.click('.pick[data-action="teams"]')
    lines = [f"{n}; T{n:02}; Team {n:02}; A{n}; B{n}; C{n}; D{n}" for n in range(1, 21)]
    await page.fill('textarea[name="teams"]', "\n".join([*lines, "; R1; Reserve One; W; X; Y; Z"]))
    await page.click("#form-check")
    await expect(page.locator("#confirm-card .confirm-title")).to_have_text("21 teams")
    await page.click("#confirm-submit")
    await expect(page.locator("#result")).to_contain_text("21 teams")
    views = (await api.views("ce5"))["views"]
    assert (
        views["machines"]["tz"]["four_ball"] is True and "four_ball" not in views["machines"]["mm"]
    )
    assert views["country/groups"]["groups"]["A"]["seeds"] == [1, 6, 11, 16]
    assert [views["teams"][t]["group"] for t in ("T01", "T06", "T11", "T16")] == ["A"] * 4
    assert views["teams"]["R1"] == {
        "name": "Reserve One",
        "players": ["W", "X", "Y", "Z"],
        "reserve": True,
    }
    await page.click('.task[data-task="match"]')
    await expect(page.locator('.pick[data-fixture="A-1-1"] .pick-name')).to_have_text(
        "Team 01 v Team 16"
    )
