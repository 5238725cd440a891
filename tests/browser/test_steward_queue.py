"""The steward's phone with the queue in Chromium: the player up on a machine is one tap (three taps
and the digits per score), Undo voids the steward's own entry while the hall's window is open, the
confirmation card says JOKER GAME, and the score field refuses a decimal point, a malformed
grouping, a score the TD must record, and asks twice about an implausible one."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import PHONE, NewPage, score_records, steward_pin
from tests.browser.test_steward import sign_in
from tests.utils import Api

pytestmark = pytest.mark.browser

EPC = "epc-qualifying"


class Touches:
    """Counts what the steward does: taps (clicks) and keys pressed."""

    def __init__(self, page: Page) -> None:
        self.page, self.taps, self.keys = page, 0, 0

    async def tap(self, selector: str) -> None:
        await self.page.click(selector)
        self.taps += 1

    async def type(self, text: str) -> None:
        """Typed into whatever has the focus, as the phone's keyboard does."""
        for key in text:
            await self.page.keyboard.press(key)
            self.keys += 1


async def signed_in(api: Api, server: str, new_page: NewPage, tid: str, typed: str = "Sam") -> Page:
    pin = await steward_pin(api, tid, "Sam")
    page = await new_page(PHONE)
    await sign_in(page, server, tid, typed, pin)
    await expect(
        page.locator("#screen-machines, #screen-entry").locator("visible=true")
    ).to_have_count(1)
    return page


async def test_a_score_from_the_queue_is_three_taps_and_the_digits(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("sq1", EPC, players=30, machines=3)
    for player in ("24", "5", "9"):
        (await api.post("/api/t/sq1/queues/2/join", {"player": player})).raise_for_status()
    (await api.post("/api/t/sq1/queues/2/call", {})).raise_for_status()
    # "sam" signs in as steward Sam: names match without regard to case
    page = await signed_in(api, server, new_page, "sq1", typed="sam")
    await expect(page.locator("#steward-name")).to_have_text("Sam")

    # from the machine list: the card of machine 2 shows who is up; tapping them is the first tap
    touches = Touches(page)
    up = page.locator('.machine-up[data-machine="2"]')
    await expect(up).to_have_text("Player 24 #24 · called")
    await touches.tap('.machine-up[data-machine="2"]')
    await expect(page.locator("#entry-player")).to_have_value("24")
    await expect(page.locator("#entry-score")).to_be_focused()
    await touches.type("123456789")
    await expect(page.locator("#entry-score")).to_have_value("123,456,789")
    await touches.tap("#entry-check")
    await expect(page.locator("#confirm-name")).to_have_text("Player 24")
    await expect(page.locator("#confirm-machine")).to_have_text("Machine 2")
    await expect(page.locator("#confirm-score")).to_have_text("123,456,789")
    await expect(page.locator("#confirm-joker")).to_be_hidden()
    await touches.tap("#confirm-submit")
    await expect(page.locator("#result")).to_contain_text("Recorded")
    assert (touches.taps, touches.keys) == (3, 9)  # was 4 taps + 2 + 9 digits (issue 12)

    # staying on the machine: the queue called player 5 next; tap them, digits, check, submit
    touches = Touches(page)
    pick = page.locator('#queue-picks .queue-pick[data-player="5"]')
    await expect(pick).to_contain_text("Player 5 #5")
    await expect(pick).to_contain_text("called")
    await expect(page.locator('#queue-picks .queue-pick[data-player="9"]')).to_contain_text("next")
    await touches.tap('#queue-picks .queue-pick[data-player="5"]')
    await expect(page.locator("#entry-score")).to_be_focused()
    await touches.type("4500")
    await touches.tap("#entry-check")
    await expect(page.locator("#confirm-name")).to_have_text("Player 5")
    await touches.tap("#confirm-submit")
    await expect(page.locator("#result")).to_contain_text("Player 5")
    assert (touches.taps, touches.keys) == (3, 4)

    # typing a player number still works
    await page.fill("#entry-player", "17")
    await page.locator("#entry-score").press_sequentially("777")
    await page.click("#entry-check")
    await expect(page.locator("#confirm-name")).to_have_text("Player 17")
    await page.click("#confirm-submit")
    await expect(page.locator("#result")).to_contain_text("Player 17")
    recorded = [
        (r["player"], r["machine"], r["score"], r["by"]) for r in await score_records(api, "sq1")
    ]
    assert recorded == [
        ("24", "2", 123_456_789, "steward:Sam"),
        ("5", "2", 4500, "steward:Sam"),
        ("17", "2", 777, "steward:Sam"),
    ]


async def void_records(api: Api, tid: str) -> list[dict[str, object]]:
    r = await api.http.get(f"/api/t/{tid}/log")
    return [rec for rec in r.json()["records"] if rec["type"] == "score_voided"]


async def test_undo_voids_the_stewards_own_entry_while_the_window_is_open(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("sq2", EPC, players=3, machines=1)
    page = await signed_in(api, server, new_page, "sq2")
    await page.click('.machine-button[data-machine="1"]')
    await page.fill("#entry-player", "2")
    await page.locator("#entry-score").press_sequentially("5400")
    await page.click("#entry-check")
    await page.click("#confirm-submit")
    await expect(page.locator("#result")).to_contain_text("Recorded")
    await expect(page.locator("#result-undo")).to_be_visible()
    # the hall's 120 s, less 5 so that a last-second tap is not refused; it counts down
    await expect(page.locator(".result-undo-time")).to_have_text(re.compile(r"for 1[01]\d s"))
    seq = (await score_records(api, "sq2"))[0]["seq"]
    await page.click("#result-undo")
    await expect(page.locator("#result")).to_contain_text("Undone — not counted")
    await expect(page.locator("#result-undo")).to_have_count(0)
    voids = await void_records(api, "sq2")
    assert [(v["voids"], v["by"]) for v in voids] == [(seq, "steward:Sam")]
    views = (await api.views("sq2"))["views"]
    assert views["machine/1"].get("rows", {}) == {}
    # the entry is back in the form, to be entered right
    await expect(page.locator("#entry-player")).to_have_value("2")
    await expect(page.locator("#entry-score")).to_have_value("5,400")

    # with no window the steward cannot void their own entry, so no Undo is offered
    r = await api.post("/api/t/sq2/settings", {"settings": {"hall": {"void_window_seconds": 0}}})
    assert r.status_code == 201
    await page.click("#entry-check")
    await page.click("#confirm-submit")
    await expect(page.locator("#result")).to_contain_text("✓ Recorded")
    await expect(page.locator("#result-undo")).to_have_count(0)


async def test_the_confirmation_says_joker_game_when_it_is_one(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("sq3", EPC, players=2, machines=1)
    await api.score("sq3", 1, 1, 1000)
    page = await signed_in(api, server, new_page, "sq3")
    await page.click('.machine-button[data-machine="1"]')
    await page.fill("#entry-player", "1")
    await page.locator("#entry-score").press_sequentially("2000")
    await page.click("#entry-check")
    await expect(page.locator("#confirm-joker")).to_be_visible()
    await expect(page.locator("#confirm-joker")).to_have_text("JOKER GAME")
    await page.click("#confirm-edit")
    await page.fill("#entry-player", "2")
    await page.click("#entry-check")
    await expect(page.locator("#confirm-name")).to_have_text("Player 2")
    await expect(page.locator("#confirm-joker")).to_be_hidden()


async def test_the_score_field_refuses_a_decimal_point_and_a_bad_grouping(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("sq4", EPC, players=7, machines=1)
    page = await signed_in(api, server, new_page, "sq4")
    await page.click('.machine-button[data-machine="1"]')
    score = page.locator("#entry-score")
    error = page.locator("#entry-error")

    await page.fill("#entry-player", "1")
    await score.press_sequentially("12.3")
    await expect(score).to_have_value("12.3")  # kept as typed, never taken for 123
    await expect(error).to_have_text(
        "A score has no decimal point: type the whole number on the machine, digits only."
    )
    await page.click("#entry-check")
    await expect(page.locator("#screen-confirm")).to_be_hidden()
    await expect(error).to_contain_text("no decimal point")

    await score.fill("")
    await score.press_sequentially("1,23,456")
    await page.click("#entry-check")
    await expect(page.locator("#screen-confirm")).to_be_hidden()
    await expect(error).to_have_text(
        "“1,23,456” is not a score: commas go every three digits (1,234,567). Type the digits only."
    )

    await score.fill("")
    await score.press_sequentially("1,234,567")  # grouped right: taken as it says
    await page.click("#entry-check")
    await expect(page.locator("#confirm-score")).to_have_text("1,234,567")
    await page.click("#confirm-edit")

    # an unknown player is said once, not twice
    await page.fill("#entry-player", "70")
    await page.click("#entry-check")
    await expect(page.get_by_text("No player number 70 in this tournament.")).to_have_count(1)
    assert await score_records(api, "sq4") == []


async def test_implausible_scores_ask_twice_and_above_the_maximum_is_the_tds(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("sq5", EPC, players=7, machines=1)
    for player, value in ((1, 1000), (2, 2000), (3, 3000)):
        (await api.score("sq5", player, 1, value)).raise_for_status()
    page = await signed_in(api, server, new_page, "sq5")
    await page.click('.machine-button[data-machine="1"]')
    warning, check = page.locator("#entry-warning"), page.locator("#entry-check")

    await page.fill("#entry-player", "4")
    await page.locator("#entry-score").press_sequentially("123000")
    await check.click()
    await expect(warning).to_contain_text("That is 41× the best score on this machine (3,000).")
    await expect(check).to_have_text("Yes, this score is right")
    await expect(page.locator("#screen-confirm")).to_be_hidden()
    await check.click()  # the second confirmation
    await expect(page.locator("#confirm-score")).to_have_text("123,000")
    await page.click("#confirm-edit")

    await page.fill("#entry-score", "")
    await page.locator("#entry-score").press_sequentially("2")
    await expect(check).to_have_text("Check entry")  # a changed score is asked about afresh
    await check.click()
    await expect(warning).to_contain_text("far below this machine's usual scores (median 2,000)")
    await expect(page.locator("#screen-confirm")).to_be_hidden()

    # above the tournament's maximum: refused here, and by the server too
    r = await api.post("/api/t/sq5/settings", {"settings": {"hall": {"max_score": 100000}}})
    assert r.status_code == 201
    await page.fill("#entry-score", "")
    await page.locator("#entry-score").press_sequentially("100001")
    await check.click()
    await expect(page.locator("#entry-error")).to_have_text(
        "100,001 is above this tournament's maximum score (100,000): check it with the player; "
        "only the TD can record a score this high."
    )
    await check.click()
    await expect(page.locator("#screen-confirm")).to_be_hidden()
    assert len(await score_records(api, "sq5")) == 3
