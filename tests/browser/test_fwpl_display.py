"""FWPL on the hall display and the players' league page in Chromium: the groups board follows a
night live (machine, who picks, play order, scores entered; FWPL 5, 5.2), tonight's standings show
points per game and the match bonus (3.2, 3.3), the season table draws the playoff line (6.1), the
bracket shows PAPA points and who goes through (6.3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import expect

from tests.browser.conftest import HALL, PHONE, NewPage
from tests.display.competitions.fwpl.test_fwpl_live import TEN, league, play, start
from tests.display.competitions.fwpl.test_fwpl_live_playoffs import one_week, playoff_game
from tests.utils import Api

pytestmark = pytest.mark.browser


async def test_the_groups_board_and_tonight_follow_the_night_live(
    api: Api, server: str, new_page: NewPage
) -> None:
    await league(api, "fd1", TEN)
    doc = await start(api, "fd1", 1)
    page = await new_page(HALL)
    await page.goto(f"{server}/t/fd1/display?views=fwpl_groups&seconds=600")
    await expect(page.locator("#view-title")).to_have_text("Groups")
    card = page.locator('.fwpl-card[data-group="1"]')
    await expect(page.locator(".fwpl-card")).to_have_count(3)
    await expect(card.locator(".fwpl-card-meta")).to_have_text("Game 1 of 4")
    machine = doc["groups"]["1"]["machine"]
    await expect(card.locator(".fwpl-machine")).to_have_text(f"Machine {machine[1:]}")
    order = await card.locator(".fwpl-order").evaluate_all(
        "rows => rows.map(r => r.dataset.player)"
    )
    assert order == ["9", "4", "2", "8"]  # FWPL 5.2: seeding order for the first game

    # a score entered one by one shows at once
    ref = {"week": 1, "group": 1, "game_no": 1, "machine": machine}
    await api.post(
        "/api/t/fd1/league/scores", {**ref, "lines": [{"player": "4", "score": 1234567}]}
    )
    await expect(card.locator('.fwpl-order[data-player="4"] .entered')).to_have_text("1,234,567")
    # the game complete: 9 (1000) > 600 + 300 and 600 > 300 + 200 (FWPL 3.2): 8, 6, 3, 1; the
    # 4th placed picks next (FWPL 5), shown with the machines open to them
    await api.post(
        "/api/t/fd1/league/games", {**ref, "scores": {"9": 1000, "4": 600, "2": 300, "8": 200}}
    )
    await expect(card.locator(".fwpl-machine")).to_have_text("Gus picks the next machine")
    await expect(card.locator(".fwpl-order.picker")).to_have_attribute("data-player", "8")
    await expect(card.locator(".fwpl-card-meta")).to_have_text("Game 2 of 4")
    await expect(card.locator('.fwpl-order[data-player="9"] .tonight')).to_have_text("8")
    await expect(card.locator(".fwpl-played")).to_contain_text(f"1 Machine {machine[1:]}")

    tonight = await new_page(HALL)
    await tonight.goto(f"{server}/t/fd1/display?views=fwpl_night&seconds=600")
    group = tonight.locator('.fwpl-nt[data-group="1"]')
    await expect(group.locator('.fwpl-nt-row[data-player="9"] .tot')).to_have_text("8")
    await expect(group.locator('.fwpl-nt-row[data-player="9"] .g').first).to_have_text("8★")
    await expect(group.locator(".meta")).to_have_text("1 of 4 games")


async def test_a_dead_machine_shows_replay_pending_until_the_replay_is_in(
    api: Api, server: str, new_page: NewPage, tmp_path: Path
) -> None:
    """FWPL 7.3: the TD declares the group's machine dead and names the replay's machine; the
    board and the phones say "replay pending" until the replay is in."""
    await league(api, "fd5", TEN)
    groups = (await start(api, "fd5", 1))["groups"]
    dead = groups["1"]["machine"]
    taken = {g["machine"] for g in groups.values()}  # the LO names one no group is on
    other = next(m for m in ("m1", "m2", "m3", "m4", "m5", "m6") if m not in taken)
    page = await new_page(HALL)
    await page.goto(f"{server}/t/fd5/display?views=fwpl_groups&seconds=600")
    card = page.locator('.fwpl-card[data-group="1"]')
    ref = {"week": 1, "group": 1, "game_no": 1}
    lines = {**ref, "machine": dead, "lines": [{"player": "4", "score": 1234567}]}
    assert (await api.post("/api/t/fd5/league/scores", lines)).status_code == 201
    await expect(card.locator('.fwpl-order[data-player="4"] .entered')).to_have_text("1,234,567")
    body = {**ref, "machine": dead, "replay_on": other, "reason": "reset on ball 2"}
    assert (await api.post("/api/t/fd5/league/dead-machines", body)).status_code == 201
    await expect(card.locator(".fwpl-machine")).to_have_text(f"Machine {other[1:]}replay pending")
    await expect(card.locator(".fwpl-dead")).to_have_text(
        f"Machine {dead[1:]} died · scores there void"
    )
    await expect(card.locator('.fwpl-order[data-player="4"] .entered')).to_have_text("")
    for width, height in ((1920, 1080), (1280, 720)):
        await page.set_viewport_size({"width": width, "height": height})
        await page.screenshot(path=str(tmp_path / f"dead-{width}.png"))
    phone = await new_page(PHONE)
    await phone.goto(f"{server}/t/fd5/league")
    await phone.click("#tab-tonight")
    status = phone.locator('.card[data-group="1"] .status-line')
    await expect(status).to_have_text(
        f"Game 1 on Machine {other[1:]} (replay pending: Machine {dead[1:]} died)"
    )
    await phone.screenshot(path=str(tmp_path / "dead-390.png"))
    game = {**ref, "scores": {"9": 1000, "4": 600, "2": 300, "8": 200}}
    assert (await api.post("/api/t/fd5/league/games", game)).status_code == 201
    await expect(card.locator(".fwpl-flag.replay")).to_have_count(0)
    await expect(status).not_to_contain_text("replay pending")


async def test_match_bonus_season_table_and_the_league_page(
    api: Api, server: str, new_page: NewPage
) -> None:
    await league(api, "fd2", 9)
    # three groups of three; each game 8, 4, 1; 32 > 16 + 4 gives the winners the match bonus
    await one_week(api, "fd2", 9)
    page = await new_page(HALL)
    await page.goto(f"{server}/t/fd2/display?views=fwpl_night,fwpl_season&seconds=600")
    winner = page.locator('.fwpl-nt[data-group="1"] .fwpl-nt-row[data-player="1"]')
    await expect(winner.locator(".mb")).to_have_text("+1")
    await expect(winner.locator(".tot")).to_have_text("33")
    await expect(winner.locator(".place")).to_have_text("1")
    await page.goto(f"{server}/t/fd2/display?views=fwpl_season&seconds=600")
    await expect(page.locator("#view-title")).to_have_text("Season")
    rows = page.locator(".fwpl-srow[data-player]")
    await expect(rows).to_have_count(9)
    assert await rows.evaluate_all("rs => rs.map(r => r.dataset.player)") == [
        "1", "4", "7", "2", "5", "8", "3", "6", "9",
    ]  # fmt: skip
    await expect(page.locator(".fwpl-line").first).to_have_text("Playoffs · division A · top 8")
    await expect(page.locator('.fwpl-srow[data-player="1"] .place')).to_have_text("1=")
    await expect(page.locator('.fwpl-srow[data-player="1"] .pts')).to_have_text("33")

    phone = await new_page(PHONE)
    await phone.goto(f"{server}/t/fd2/league?player=5")
    await expect(phone.locator("#tab-season")).to_have_attribute("aria-selected", "true")
    mine = phone.locator('.season-row[data-player="5"]')
    await expect(mine).to_have_class(re.compile(r"\bme\b"))
    await mine.locator(".season-line").click()
    await expect(mine.locator(".season-detail")).to_contain_text("W1 16")
    await phone.click("#tab-tonight")
    await expect(phone.locator(".card").first).to_have_attribute(
        "data-group", "2"
    )  # 5's group first


async def test_the_bracket_shows_points_and_who_goes_through(
    api: Api, server: str, new_page: NewPage
) -> None:
    await league(api, "fd3", 8)
    await one_week(api, "fd3", 8)
    await api.post("/api/t/fd3/league/playoffs", {})
    one = ["1", "6", "3", "8"]
    await api.post("/api/t/fd3/league/playoff-matches", {"division": "A", "players": one})
    page = await new_page(HALL)
    await page.goto(f"{server}/t/fd3/display?views=fwpl_bracket&seconds=600")
    semi = page.locator('.fwpl-match[data-match="semifinal-1"]')
    await expect(semi).to_be_visible()
    await expect(page.locator('.fwpl-match[data-match="semifinal-2"]')).to_have_class(
        re.compile("pending")
    )
    for order in (["1", "6", "3", "8"], ["1", "6", "3", "8"], ["3", "1", "6", "8"]):
        await playoff_game(api, "fd3", one, order)
    # FWPL 6.3: 4-2-1-0 a game: 1 has 10, 3 has 6; both go through
    await expect(semi.locator('.fwpl-mrow[data-player="1"] .pts')).to_have_text("10")
    await expect(semi.locator(".fwpl-mrow.through")).to_have_count(2)
    through = await semi.locator(".fwpl-mrow.through").evaluate_all(
        "rs => rs.map(r => r.dataset.player)"
    )
    assert through == ["1", "3"]
    await expect(semi.locator(".fwpl-match-head")).to_contain_text("final")

    phone = await new_page(PHONE)
    await phone.goto(f"{server}/t/fd3/league")
    await expect(phone.locator("#tab-playoffs")).to_have_attribute("aria-selected", "true")
    await expect(phone.locator('[data-match="semifinal-1"] .pm-row.through')).to_have_count(2)


async def test_league_pages_refuse_other_formats(api: Api, server: str, new_page: NewPage) -> None:
    await api.tournament("fd4", "epc-qualifying", players=2, machines=1)
    answer = await api.http.get("/t/fd4/league-entry")
    assert answer.status_code == 404 and "not a Flip Well league" in answer.text
    assert (await api.http.get("/t/nosuch/league")).status_code == 404
    await league(api, "fd5", TEN)
    await start(api, "fd5", 1)
    await play(api, "fd5", 1, 2, {"7": 100, "1": 40, "10": 50})
    page = await new_page(PHONE)
    await page.goto(f"{server}/t/fd5/league")
    await expect(page.locator("#tab-tonight")).to_have_attribute("aria-selected", "true")
    row = page.locator('.card[data-group="2"] .nt-row[data-player="7"]')
    await expect(row.locator(".tot")).to_have_text("8")
