"""The EPC stage views in Chromium: quarter-finals, semi-finals, finals, final placings, the Classic
board, the kids' high scores (hall display plugins) and the TD's stage page; each updates live."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import PHONE, NewPage
from tests.display.competitions.epc_main.helpers import (
    ok,
    play_game,
    play_quarterfinal,
    qualified,
    register_all,
)
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser

SMALL = {"qualify": 8, "standby": 2}


def seed_games(player: str, machine: str) -> tuple[int, int]:
    """Seed s scores (9 - s) x 1000 everywhere: quarter-final places follow the seeds."""
    best = (9 - int(player)) * 1000
    return best - 100, best


async def order(page: Page, selector: str) -> list[str]:
    return await page.locator(selector).evaluate_all("nodes => nodes.map(n => n.dataset.player)")


async def display(page: Page, server: str, tid: str, views: str) -> None:
    await page.goto(f"{server}/t/{tid}/display?views={views}&seconds=600")
    await expect(page.locator("#status")).to_have_attribute("data-state", "live")


async def to_semifinals(api: Api, tid: str) -> None:
    await qualified(api, tid, 8, {**SMALL, "standby": 0})
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 6, 7, 8])
    await ok(api, tid, "rounds", {"round": 1})
    await play_quarterfinal(api, tid, "B", seed_games)
    await register_all(api, tid, 2, [1, 2, 3, 4])
    await ok(api, tid, "rounds", {"round": 2})
    await play_quarterfinal(api, tid, "A", seed_games)
    await ok(api, tid, "stage", {"stage": "semifinal"})


async def test_quarterfinal_pairs_show_the_standby_and_running_points(
    api: Api, server: str, new_page: NewPage
) -> None:
    tid = "bq1"
    await qualified(api, tid, 10, SMALL)
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 6, 7, 9])
    await ok(api, tid, "rounds", {"round": 1})
    page = await new_page()
    await display(page, server, tid, "quarterfinal")
    await expect(page.locator("#view-title")).to_have_text("Quarter-finals")
    pair = page.locator(".epc-pair").filter(has_text="Pair B1")
    await expect(pair.locator(".epc-row")).to_have_count(2)
    assert await order(page, ".epc-pair:has-text('Pair B1') .epc-row") == ["5", "9"]
    await expect(pair.locator('[data-player="9"]')).to_contain_text("for #8")
    await expect(pair.locator('[data-player="5"] .points')).to_have_text("0")
    await api.score(tid, 5, 1, 40_000)
    await expect(pair.locator('[data-player="5"] .points')).to_have_text("100")
    await expect(pair.locator('[data-player="5"] .note')).to_have_text("1/6")


async def test_semifinal_groups_in_choice_order_with_results(
    api: Api, server: str, new_page: NewPage
) -> None:
    tid = "bs1"
    await to_semifinals(api, tid)
    page = await new_page()
    await display(page, server, tid, "epc")  # follows the stage: the semi-finals now
    panels = page.locator(".epc-game")
    await expect(panels).to_have_count(2)
    # EPC Semi-Finals: group A = quarter-final places 1, 3, 5, 7, in the order they choose
    assert await order(page, ".epc-game >> nth=0 >> .epc-row") == ["1", "3", "5", "7"]
    await expect(panels.nth(0).locator('[data-player="1"]')).to_contain_text("1st pick")
    await play_game(api, tid, "semifinal", "A", {"1": 10, "3": 40, "5": 30, "7": 20})
    await expect(panels.nth(0).locator('[data-player="3"] .result')).to_have_text("Final")
    await expect(panels.nth(0).locator('[data-player="1"] .result')).to_have_text("5th–8th")


async def test_finals_and_final_placings(api: Api, server: str, new_page: NewPage) -> None:
    tid = "bf1"
    await to_semifinals(api, tid)
    await play_game(api, tid, "semifinal", "A", {"1": 10, "3": 40, "5": 30, "7": 20})
    await play_game(api, tid, "semifinal", "B", {"2": 5, "4": 15, "6": 25, "8": 35})
    await ok(api, tid, "stage", {"stage": "final"})
    page = await new_page()
    await display(page, server, tid, "finals,placings")
    await expect(page.locator("#view-title")).to_have_text("Finals")
    final = page.locator(".epc-game").nth(1)
    # finalists 3, 5 (A) and 6, 8 (B) choose in quarter-final order
    assert await order(page, ".epc-game >> nth=1 >> .epc-row") == ["3", "5", "6", "8"]
    await play_game(api, tid, "finals", "final", {"3": 70, "5": 60, "6": 90, "8": 80})
    await expect(final.locator('[data-player="6"] .result')).to_have_text("Champion")
    await expect(final.locator('[data-player="5"] .result')).to_have_text("4th")
    await play_game(api, tid, "finals", "playoff", {"1": 20, "2": 30, "4": 40, "7": 50})
    await ok(api, tid, "stage", {"stage": "complete"})
    placings = await new_page()
    await display(placings, server, tid, "placings")
    await expect(placings.locator("#view-title")).to_have_text("Final placings")
    # the podium first: champion in the middle, highest; 2nd left, 3rd right
    steps = placings.locator(".podium-step")
    assert await steps.evaluate_all("ns => ns.map(n => n.dataset.place)") == ["2", "1", "3"]
    for place, player in (("1", "6"), ("2", "8"), ("3", "3")):
        who = placings.locator(f'.podium-step[data-place="{place}"] .podium-who')
        await expect(who).to_have_attribute("data-player", player)
        await expect(who).to_contain_text(f"Player {player}")
    heights = await placings.locator(".podium-block").evaluate_all(
        "ns => ns.map(n => n.getBoundingClientRect().height)"
    )
    assert heights[1] > heights[0] > heights[2] > 0  # 1st > 2nd > 3rd
    assert await placings.evaluate("backglassBoard.pages()") == ["placings:podium", "placings:0"]
    await placings.evaluate("backglassBoard.show(1)")
    await expect(placings.locator(".epc-placings .epc-row")).to_have_count(8)
    assert await order(placings, ".epc-placings .epc-row") == [
        "6",
        "8",
        "3",
        "5",
        "7",
        "4",
        "2",
        "1",
    ]
    await expect(placings.locator('.epc-row[data-player="6"]')).to_contain_text("grand final")


async def test_classic_board_shows_holders_and_leads_live(
    api: Api, server: str, new_page: NewPage
) -> None:
    tid = "bc1"
    await api.tournament(tid, "epc-classic", players=12, machines=8)
    for player, machine, score in [(1, 1, 50_000), (2, 1, 10_000), (1, 2, 900_000),
                                   (3, 2, 800_000)]:  # fmt: skip
        await api.score(tid, player, machine, score)
    page = await new_page()
    await display(page, server, tid, "classic")
    slot = page.locator('.epc-slot [data-slot="2"]')
    await expect(slot).to_contain_text("Player 1")
    await expect(slot.locator(".lead")).to_have_text("+100,000 over Player 3")
    await expect(page.locator('.epc-slot [data-slot="1"]')).to_contain_text("Player 2")
    await expect(page.locator(".epc-panel-meta")).to_have_text("qualifying open · leaders now")
    await api.score(tid, 3, 2, 950_000)  # player 3 takes machine 2; player 1 keeps machine 1
    await expect(slot).to_contain_text("Player 3")
    await expect(page.locator('.epc-slot [data-slot="1"]')).to_contain_text("Player 1")
    await api.post(f"/api/t/{tid}/epc/close", {})
    await expect(page.locator(".epc-panel-meta")).to_have_text("qualifying closed · qualifiers")


async def test_kids_high_scores_and_trophies(api: Api, server: str, new_page: NewPage) -> None:
    tid = "bk1"
    await api.tournament(tid, "epc-kids", players=5, machines=1)
    for player, score in [(1, 300), (2, 500), (3, 400), (4, 100)]:
        await api.score(tid, player, 1, score)
    page = await new_page()
    await display(page, server, tid, "kids")
    await expect(page.locator("#view-title")).to_have_text("High scores")
    assert await order(page, ".epc-row[data-player]") == ["2", "3", "1", "4"]
    await api.score(tid, 5, 1, 900)
    await expect(page.locator('.epc-row[data-player="5"] .place')).to_have_text("1")
    assert await order(page, ".epc-row[data-player]") == ["5", "2", "3", "1", "4"]
    # the plugin's rowKeys hook: the new best flashes, a row that only moved down does not
    await expect(page.locator('.epc-row[data-player="5"]')).to_have_class(re.compile(r"\bflash\b"))
    await expect(page.locator('.epc-row[data-player="2"]')).not_to_have_class(re.compile("flash"))
    await expect(page.locator(".epc-trophy")).to_have_count(0)
    await api.post(f"/api/t/{tid}/epc/close", {})
    await expect(page.locator(".epc-trophy")).to_have_count(3)
    await expect(page.locator('.epc-row[data-player="1"] .epc-trophy')).to_have_count(0)


async def test_td_stage_page_starts_the_quarterfinals_and_a_round(
    api: Api, server: str, new_page: NewPage
) -> None:
    tid = "bt1"
    await qualified(api, tid, 10, SMALL)
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/{tid}/stages")
    await expect(page.locator("#stage-name")).to_have_text("Qualifying")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-form button")
    await page.get_by_role("button", name="Close qualifying and start the quarter-finals").click()
    await expect(page.locator("#stage-name")).to_have_text("Quarter-finals")
    for player in ("5", "6", "7", "8"):
        toggle = page.locator(f'.epc-toggle[data-player="{player}"]')
        await toggle.click()
        await expect(toggle).to_have_attribute("aria-pressed", "true")
    await page.get_by_role("button", name="Deadline passed: start round 1").click()
    await expect(page.locator("#control-ok")).to_have_text("Round 1 started.")
    views = (await api.views(tid))["views"]
    assert views["quarterfinal"]["round"] == 1
    records = (await api.http.get(f"/api/t/{tid}/log")).json()["records"]
    assert [r["type"] for r in records[-6:]] == ["stage_advanced", *["registered"] * 4,
                                                 "round_started"]  # fmt: skip
    public = await new_page(PHONE)
    await public.goto(f"{server}/t/{tid}/epc")
    await expect(public.locator("#stage-name")).to_have_text("Quarter-finals")
    await expect(public.locator("#controls")).to_have_count(0)
    await api.score(tid, 6, 1, 5_000)
    await expect(public.locator('.epc-list li[data-player="6"] .fig')).to_contain_text("100")


async def test_classic_board_names_the_players_owed_a_free_game(
    api: Api, server: str, new_page: NewPage
) -> None:
    """EPC Classic: a replaced machine's players "will be given a free game"; the board says who by
    name, as everywhere else on it, not by player number."""
    tid = "bc2"
    await api.tournament(tid, "epc-classic", players=12, machines=8)
    for player in (9, 10):
        await api.score(tid, player, 8, 1_000 * player)
    r = await api.post(f"/api/t/{tid}/epc/faults", {"machine": "8", "replacement": "9",
                                                     "replacement_name": "Fathom"})  # fmt: skip
    assert r.status_code == 201, r.text
    page = await new_page()
    await display(page, server, tid, "classic")
    await expect(page.locator(".epc-note.warn")).to_have_text(
        "Machine 8 replaced by Fathom; free game for Player 9, Player 10"
    )


async def test_classic_board_says_a_game_is_in_progress_after_the_close(
    api: Api, server: str, new_page: NewPage
) -> None:
    """A game started before the close counts (EPC 2009, EPC Classic Tournament: "ends at 3pm
    promptly"): the board says "qualifying closed · 1 game in progress" until its score is in."""
    tid = "bc3"
    await api.tournament(tid, "epc-classic", players=12, machines=8)
    for action, body in (("join", {"player": "5"}), ("call", {}), ("start", {})):
        assert (await api.post(f"/api/t/{tid}/queues/2/{action}", body)).status_code == 201
    assert (await api.post(f"/api/t/{tid}/epc/close", {})).status_code == 201
    page = await new_page()
    await display(page, server, tid, "classic")
    head = page.locator(".epc-slot .epc-panel-head")
    await expect(head).to_contain_text("qualifying closed · 1 game in progress")
    assert (await api.score(tid, 5, 2, 12_345)).status_code == 201
    await expect(head).to_contain_text("qualifying closed · qualifiers")
    await expect(page.locator('.epc-row[data-slot="2"]')).to_contain_text("12,345")
