"""The steward's phone in Chromium: sign in, enter, confirm (EPC Qualifying: the player sees what
is recorded), submit; a lost answer retried with the same Idempotency-Key records one score."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from playwright.async_api import Page, Request, Route, expect

from tests.browser.conftest import PHONE, NewPage, score_records, steward_pin
from tests.utils import Api

pytestmark = pytest.mark.browser

EPC = "epc-qualifying"


async def sign_in(page: Page, base: str, tid: str, name: str, pin: str) -> None:
    await page.goto(f"{base}/t/{tid}/steward")
    await page.fill("#signin-name", name)
    await page.fill("#signin-pin", pin)
    await page.click("#signin-submit")


async def enter(page: Page, machine: str, player: str, score: str) -> None:
    await expect(
        page.locator("#screen-machines, #screen-entry").locator("visible=true")
    ).to_have_count(1)
    if await page.locator("#screen-machines").is_visible():
        await page.click(f'.machine-button[data-machine="{machine}"]')
    await page.fill("#entry-player", player)
    await page.locator("#entry-score").press_sequentially(score)
    await page.click("#entry-check")


async def font_px(page: Page, selector: str) -> float:
    size = await page.locator(selector).evaluate("n => getComputedStyle(n).fontSize")
    return float(size.removesuffix("px"))


async def test_steward_flow_and_a_retried_submit_records_once(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("st1", EPC, players=3, machines=2)
    pin = await steward_pin(api, "st1", "Sam")
    page = await new_page(PHONE)
    await sign_in(page, server, "st1", "Sam", pin)
    await page.click('.machine-button[data-machine="2"]')
    await expect(page.locator("#entry-machine")).to_have_text("Machine 2")
    await page.fill("#entry-player", "3")
    await expect(page.locator("#entry-lookup")).to_have_text("Player 3")
    await page.locator("#entry-score").press_sequentially("12345670")
    await expect(page.locator("#entry-score")).to_have_value("12,345,670")
    await page.click("#entry-check")

    await expect(page.locator("#screen-confirm")).to_be_visible()
    await expect(page.locator("#screen-entry")).to_be_hidden()
    await expect(page.locator("#confirm-name")).to_have_text("Player 3")
    await expect(page.locator("#confirm-number")).to_have_text("#3")
    await expect(page.locator("#confirm-machine")).to_have_text("Machine 2")
    await expect(page.locator("#confirm-score")).to_have_text("12,345,670")
    assert await font_px(page, "#confirm-score") >= 48
    assert await font_px(page, ".confirm-player") >= 30
    assert await score_records(api, "st1") == []  # nothing is recorded before Submit

    keys: list[str | None] = []

    async def lose_first_answer(route: Route, request: Request) -> None:
        keys.append(request.headers.get("idempotency-key"))
        if len(keys) == 1:
            answer = await route.fetch()  # the server records the score ...
            assert answer.status == 201
            await route.abort("connectionreset")  # ... but the phone never hears back
        else:
            await route.continue_()

    await page.route("**/api/t/st1/scores", lose_first_answer)
    replayed: list[str | None] = []
    page.on(
        "response",
        lambda r: (
            replayed.append(r.headers.get("idempotent-replayed"))
            if r.url.endswith("/scores")
            else None
        ),
    )
    await page.click("#confirm-submit")
    await expect(page.locator("#confirm-notice")).to_contain_text("will not be recorded twice")
    await expect(page.locator("#result")).to_contain_text("Recorded")
    await expect(page.locator("#result-place")).to_contain_text(
        "This machine: place 1 of 1 · 100 points"
    )
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]
    assert replayed == ["true"]
    records = await score_records(api, "st1")
    assert len(records) == 1
    assert records[0]["player"] == "3" and records[0]["machine"] == "2"
    assert records[0]["score"] == 12_345_670 and records[0]["by"] == "steward:Sam"
    views = (await api.views("st1"))["views"]
    assert views["machine/2"]["rows"]["3"]["score"] == 12_345_670

    # reset for the next entry on the same machine, which gets a key of its own
    await expect(page.locator("#screen-entry")).to_be_visible()
    await expect(page.locator("#entry-player")).to_have_value("")
    await expect(page.locator("#entry-score")).to_have_value("")
    await enter(page, "2", "1", "999")
    await expect(page.locator("#confirm-score")).to_have_text("999")
    await page.click("#confirm-submit")
    await expect(page.locator("#result")).to_contain_text("Player 1")
    await expect(page.locator("#result-place")).to_contain_text("place 2 of 2")
    assert len(keys) == 3 and keys[2] != keys[0]
    assert len(await score_records(api, "st1")) == 2


async def test_steward_sees_the_servers_messages(api: Api, server: str, new_page: NewPage) -> None:
    await api.tournament("st2", EPC, players=2, machines=1)
    await api.score("st2", 1, 1, 100)
    await api.score("st2", 1, 1, 200)  # the joker game
    refused = await api.score("st2", 1, 1, 300)
    assert refused.status_code == 409
    pin = await steward_pin(api, "st2", "Ann")

    page = await new_page(PHONE)
    await sign_in(page, server, "st2", "Ann", "000000" if pin != "000000" else "111111")
    await expect(page.locator("#signin-error")).to_have_text(
        "Wrong steward name or PIN. Ask the TD if you need a new one."
    )
    await page.fill("#signin-pin", pin)
    await page.click("#signin-submit")
    await page.click('.machine-button[data-machine="1"]')
    await page.fill("#entry-player", "1")
    await expect(page.locator("#entry-lookup")).to_contain_text("has used their joker game")
    await page.fill("#entry-player", "7")
    await expect(page.locator("#entry-lookup")).to_have_text(
        "No player number 7 in this tournament."
    )
    await page.fill("#entry-player", "1")
    await page.locator("#entry-score").press_sequentially("300")
    await page.click("#entry-check")
    await page.click("#confirm-submit")
    await expect(page.locator("#confirm-error")).to_have_text(refused.json()["message"])
    assert len(await score_records(api, "st2")) == 2
    # the steward goes back, corrects the player and submits
    await page.click("#confirm-edit")
    await expect(page.locator("#entry-score")).to_have_value("300")
    await page.fill("#entry-player", "2")
    await page.click("#entry-check")
    await page.click("#confirm-submit")
    await expect(page.locator("#result")).to_contain_text("Player 2")
    assert [r["player"] for r in await score_records(api, "st2")] == ["1", "1", "2"]


async def test_steward_sign_in_survives_a_reload(api: Api, server: str, new_page: NewPage) -> None:
    await api.tournament("st3", EPC, players=1, machines=2)
    pin = await steward_pin(api, "st3", "Kim")
    page = await new_page(PHONE)
    await sign_in(page, server, "st3", "Kim", pin)
    await page.click('.machine-button[data-machine="2"]')
    await page.reload()
    await expect(page.locator("#entry-machine")).to_have_text("Machine 2")
    await page.click("#change-machine")
    await expect(page.locator("#steward-name")).to_have_text("Kim")
    token = await page.evaluate("JSON.parse(localStorage.getItem('backglass.steward.st3')).token")
    assert (await api.score("st3", 1, 1, 100, token=token, key="st3-before")).status_code == 201
    await page.click("#sign-out")
    await expect(page.locator("#screen-signin")).to_be_visible()
    # signing out ended the session on the server: the token pushes nothing any more
    for _ in range(50):
        r = await api.score("st3", 1, 2, 200, token=token, key="st3-after")
        if r.status_code == 401:
            break
        await asyncio.sleep(0.1)
    assert r.status_code == 401, r.text


async def test_an_entry_in_flight_survives_a_reload_and_is_recorded_once(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("st4", EPC, players=2, machines=1)
    pin = await steward_pin(api, "st4", "Lee")
    page = await new_page(PHONE)
    await sign_in(page, server, "st4", "Lee", pin)
    await enter(page, "1", "2", "4321")
    keys: list[str | None] = []

    async def no_answers(route: Route, request: Request) -> None:
        keys.append(request.headers.get("idempotency-key"))
        if len(keys) == 1:
            await route.fetch()  # recorded, answer lost
        await route.abort("timedout")

    await page.route("**/api/t/st4/scores", no_answers)
    await page.click("#confirm-submit")
    await expect(page.locator("#confirm-notice")).to_contain_text("try 2")
    assert len(await score_records(api, "st4")) == 1
    await page.unroute("**/api/t/st4/scores")
    await page.reload()  # the phone's browser was closed mid-retry

    await expect(page.locator("#confirm-score")).to_have_text("4,321")
    await expect(page.locator("#confirm-notice")).to_contain_text("will not be recorded twice")
    async with page.expect_request("**/api/t/st4/scores") as sent:
        await page.click("#confirm-submit")
    assert (await sent.value).headers["idempotency-key"] == keys[0]
    await expect(page.locator("#result")).to_contain_text("Recorded")
    assert len(await score_records(api, "st4")) == 1
    assert await page.evaluate("localStorage.getItem('backglass.pending.st4')") is None


async def test_keys_without_random_uuid_as_on_a_plain_http_lan(
    api: Api, server: str, new_page: NewPage
) -> None:
    """crypto.randomUUID exists only in secure contexts; http://192.168.x.y is not one."""
    await api.tournament("st5", EPC, players=1, machines=1)
    pin = await steward_pin(api, "st5", "Max")
    page = await new_page(PHONE)
    await page.add_init_script("delete Crypto.prototype.randomUUID")
    await sign_in(page, server, "st5", "Max", pin)
    await enter(page, "1", "1", "10")
    async with page.expect_request("**/api/t/st5/scores") as sent:
        await page.click("#confirm-submit")
    assert re.fullmatch(r"[0-9a-f]{32}", (await sent.value).headers["idempotency-key"])
    await expect(page.locator("#result")).to_contain_text("Recorded")


async def test_a_rolled_score_is_asked_about_and_entered_with_its_roll_overs(
    api: Api, server: str, new_page: NewPage, tmp_path: Path
) -> None:
    """scoring/rollover.py: on a machine that declares 8 digits, 12,345,678 against a median of
    95,000,000 asks "did the score roll?"; with 1 roll-over the player made 112,345,678."""
    await api.tournament("st9", EPC, players=5)
    machines = [{"id": "afm", "name": "Attack from Mars", "digits": 8},
                {"id": "tz", "name": "Twilight Zone"}]  # fmt: skip
    assert (await api.post("/api/t/st9/machines", {"machines": machines})).status_code == 201
    for player, score in (("1", 90_000_000), ("2", 95_000_000), ("3", 99_000_000)):
        assert (await api.score("st9", player, "afm", score)).status_code == 201
    pin = await steward_pin(api, "st9", "Sam")
    page = await new_page(PHONE)
    await sign_in(page, server, "st9", "Sam", pin)
    await page.click('.machine-button[data-machine="tz"]')
    await expect(page.locator("#rollover-field")).to_be_hidden()  # no digits: no roll-overs
    await page.click("#change-machine")
    await enter(page, "afm", "4", "12345678")
    await expect(page.locator("#rollover-field")).to_be_visible()
    await expect(page.locator("#entry-warning")).to_contain_text(
        "Did the score roll? That is far below this machine's usual scores (median 95,000,000)."
        " If the display went past its 8 digits, type how many times in Roll-overs."
    )
    await page.screenshot(path=str(tmp_path / "rolled-390.png"))
    await page.fill("#entry-rollovers", "1")
    await page.click("#entry-check")
    await expect(page.locator("#screen-confirm")).to_be_visible()
    await expect(page.locator("#confirm-score")).to_have_text("112,345,678")
    await expect(page.locator("#confirm-rolled")).to_have_text("shown 12,345,678 + 1 roll-over")
    await page.screenshot(path=str(tmp_path / "rolled-confirm-390.png"))
    await page.click("#confirm-submit")
    await expect(page.locator("#result")).to_contain_text("112,345,678")
    records = await score_records(api, "st9")
    assert [(r["score"], r.get("displayed"), r.get("rollovers")) for r in records][-1] == (
        112_345_678, 12_345_678, 1
    )  # fmt: skip
    rows = (await api.views("st9"))["views"]["machine/afm"]["rows"]
    assert rows["4"]["place"] == 1
