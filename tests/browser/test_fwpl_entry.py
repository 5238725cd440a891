"""The league entry page in Chromium (FWPL): a steward enters a group's game together, shows the
group a large confirmation, submits (a lost answer is retried with the same Idempotency-Key and
recorded once), records the next machine picked by the last placed player (FWPL 5), enters scores
one by one, and settles equal scores by the one-ball play-off order (3.2)."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Page, Request, Route, expect

from tests.browser.conftest import PHONE, NewPage, steward_pin
from tests.display.competitions.fwpl.test_fwpl_live import TEN, league, night, start
from tests.utils import Api

pytestmark = pytest.mark.browser


async def sign_in(page: Page, base: str, tid: str, pin: str) -> None:
    await page.goto(f"{base}/t/{tid}/league-entry")
    await page.fill("#signin-name", "Sam")
    await page.fill("#signin-pin", pin)
    await page.click("#signin-submit")
    await expect(page.locator("#screen-groups")).to_be_visible()


async def choose(page: Page, week: int, group: int) -> None:
    target = json.dumps({"kind": "night", "week": week, "group": str(group)}, separators=(",", ":"))
    await page.click(f".group-button[data-target='{target}']")
    await expect(page.locator("#screen-game")).to_be_visible()


async def records(api: Api, tid: str, kind: str) -> list[dict[str, object]]:
    log = (await api.http.get(f"/api/t/{tid}/log")).json()["records"]
    return [r for r in log if r["type"] == kind]


async def test_a_game_entered_together_and_a_retried_submit_records_once(
    api: Api, server: str, new_page: NewPage
) -> None:
    await league(api, "fe1", TEN)
    doc = await start(api, "fe1", 1)
    pin = await steward_pin(api, "fe1", "Sam")
    page = await new_page(PHONE)
    await sign_in(page, server, "fe1", pin)
    await expect(page.locator(".group-button")).to_have_count(3)
    await choose(page, 1, 2)
    await expect(page.locator("#game-title")).to_have_text("Group 2 · game 1 of 4")
    machine = doc["groups"]["2"]["machine"]
    await expect(page.locator("#machine-name")).to_have_text(f"Machine {machine[1:]}")
    # FWPL 5.2: the first game in seeding order
    order = await page.locator(".game-row").evaluate_all("rows => rows.map(r => r.dataset.player)")
    assert order == ["7", "1", "10"]
    for player, score in (("7", "1000000"), ("1", "400000"), ("10", "500000")):
        await page.locator(f'.game-row[data-player="{player}"] .gr-score').press_sequentially(score)
    await expect(page.locator('.game-row[data-player="7"] .gr-score')).to_have_value("1,000,000")
    await page.click("#game-check")
    await expect(page.locator("#screen-confirm")).to_be_visible()
    line = page.locator('.confirm-line[data-player="7"]')
    await expect(line.locator(".confirm-line-name")).to_contain_text("Fox")
    await expect(line.locator(".confirm-line-score")).to_have_text("1,000,000")
    size = await line.locator(".confirm-line-score").evaluate(
        "n => parseFloat(getComputedStyle(n).fontSize)"
    )
    assert size >= 36  # large enough to show the group
    assert await records(api, "fe1", "game_recorded") == []  # nothing before Submit

    keys: list[str | None] = []

    async def lose_first_answer(route: Route, request: Request) -> None:
        keys.append(request.headers.get("idempotency-key"))
        if len(keys) == 1:
            answer = await route.fetch()  # recorded by the server ...
            assert answer.status == 201
            await route.abort("connectionreset")  # ... the phone never hears back
        else:
            await route.continue_()

    await page.route("**/api/t/fe1/league/games", lose_first_answer)
    await page.click("#confirm-submit")
    await expect(page.locator("#result")).to_contain_text("recorded")
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]
    games = await records(api, "fe1", "game_recorded")
    assert len(games) == 1 and games[0]["by"] == "steward:Sam"
    assert games[0]["scores"] == {"7": 1_000_000, "1": 400_000, "10": 500_000}
    # FWPL 3.2: 1,000,000 > 500,000 + 400,000: 8, 4, 1
    rows = (await night(api, "fe1", 1))["groups"]["2"]["games"]["1"]["rows"]
    assert {p: r["points"] for p, r in rows.items()} == {"7": 8, "10": 4, "1": 1}

    # FWPL 5: the last placed player picks the next machine
    await expect(page.locator("#game-title")).to_have_text("Group 2 · game 2 of 4")
    await expect(page.locator("#pick-lead")).to_have_text("Cleo picks the next machine:")
    buttons = page.locator("#pick-grid .machine-button")
    await expect(buttons).not_to_have_count(0)
    assert machine not in await buttons.evaluate_all("bs => bs.map(b => b.dataset.machine)")
    chosen = await buttons.first.get_attribute("data-machine")
    assert chosen
    await buttons.first.click()
    await expect(page.locator("#machine-name")).to_have_text(f"Machine {chosen[1:]}")
    group = (await night(api, "fe1", 1))["groups"]["2"]
    assert group["machine"] == chosen and group["picked_by"] == "1"
    # the next game's play order follows the last result (FWPL 5.2)
    order = await page.locator(".game-row").evaluate_all("rows => rows.map(r => r.dataset.player)")
    assert order == ["7", "10", "1"]


async def test_scores_one_by_one_and_equal_scores_need_the_playoff_order(
    api: Api, server: str, new_page: NewPage
) -> None:
    await league(api, "fe2", TEN)
    await start(api, "fe2", 1)
    pin = await steward_pin(api, "fe2", "Sam")
    page = await new_page(PHONE)
    await sign_in(page, server, "fe2", pin)
    await choose(page, 1, 1)
    # two scores now, the other two later
    await page.locator('.game-row[data-player="9"] .gr-score').fill("5000")
    await page.locator('.game-row[data-player="4"] .gr-forfeit').click()
    await page.click("#game-check")
    await expect(page.locator('.confirm-line[data-player="4"] .confirm-line-score')).to_have_text(
        "FORFEIT"
    )
    await page.click("#confirm-submit")
    await expect(page.locator('.game-row.entered[data-player="9"]')).to_contain_text("5,000")
    await expect(page.locator('.game-row.entered[data-player="4"]')).to_contain_text("forfeit")
    assert len(await records(api, "fe2", "game_line_recorded")) == 2
    entered = (await night(api, "fe2", 1))["groups"]["1"]
    assert entered["entered"] == {"9": {"score": 5000}, "4": {"forfeit": True}}
    # the rest: 2 ties with 9 on 5,000
    await page.locator('.game-row[data-player="2"] .gr-score').fill("5000")
    await page.locator('.game-row[data-player="8"] .gr-score').fill("100")
    await page.click("#game-check")
    await expect(page.locator("#tie-order")).to_be_visible()
    await expect(page.locator("#confirm-submit")).to_be_disabled()
    await page.click('#tie-order button[data-player="2"]')  # 2 won the one-ball play-off
    await page.click('#tie-order button[data-player="9"]')
    await expect(page.locator("#confirm-submit")).to_be_enabled()
    await page.click("#confirm-submit")
    await expect(page.locator("#game-title")).to_have_text("Group 1 · game 2 of 4")
    rows = (await night(api, "fe2", 1))["groups"]["1"]["games"]["1"]["rows"]
    # three players (4 forfeited): 2 first by the play-off; 5000 <= 5000 + 100: 3rd's bonus
    assert {p: (r.get("place"), r["points"]) for p, r in rows.items()} == {
        "2": (1, 7),
        "9": (2, 4),
        "8": (3, 2),
        "4": (None, 0),
    }
