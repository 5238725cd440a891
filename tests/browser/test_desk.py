"""The TD's desk in Chromium: sign in, create a tournament from a template with a changed
setting, import players, a late entry, a withdrawal, stewards issued and revoked, a display
profile."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Dialog, Request, expect

from tests.browser.conftest import NewPage
from tests.utils import TD_PASSWORD, Api

pytestmark = pytest.mark.browser

DESK = {"width": 1440, "height": 900}
PLAYERS = b"number,name,ifpa,country\n1,Ann Example,101,NL\n2,Bo Sample,202,SE\n3,Cy Test,,UK\n"


async def test_from_sign_in_to_a_running_tournament(
    api: Api, server: str, new_page: NewPage
) -> None:
    page = await new_page(DESK)
    writes: list[Request] = []  # every write the desk sends must carry an Idempotency-Key
    page.on("request", lambda r: writes.append(r) if r.method != "GET" else None)
    await page.goto(f"{server}/desk")
    await page.fill("#signin-password", "wrong")
    await page.click("#signin-form button")
    await expect(page.locator("#signin-error")).to_contain_text("Wrong password")
    await page.fill("#signin-password", TD_PASSWORD)
    await page.click("#signin-form button")

    await expect(page.locator("#new-template option[value=epc-qualifying]")).to_be_enabled()
    await page.select_option("#new-template", "epc-qualifying")
    await expect(page.locator("#new-about")).to_contain_text("EPC 2009")
    await page.fill("#new-id", "dsk1")
    await page.fill("#new-name", "Desk Open")
    await page.fill('#new-settings input[data-key="qualify"]', "8")
    await page.click("#new-form button[type=submit]")
    await expect(page).to_have_url(f"{server}/t/dsk1/desk")
    await expect(page.locator('#settings-table input[data-key="qualify"]')).to_have_value("8")
    view = (await api.views("dsk1"))["views"]["tournament"]
    assert view["cut"]["qualify"] == 8 and view["settings"]["jokers_per_player"] == 1

    await page.set_input_files(
        "#players-file", {"name": "players.csv", "mimeType": "text/csv", "buffer": PLAYERS}
    )
    await page.click("#players-csv button")
    await expect(page.locator("#players-notice")).to_have_text("Imported 3 players.")
    ann = page.locator('#players-table tr[data-player="1"]')
    await expect(ann).to_contain_text("Ann Example")
    await expect(ann).to_contain_text("101")
    await expect(ann).to_contain_text("NL")

    entry = page.locator("#entry-form")
    await entry.locator("[name=number]").fill("9")
    await entry.locator("[name=name]").fill("Late Lena")
    await entry.locator("[name=ifpa]").fill("909")
    await entry.locator("button").click()
    await expect(page.locator('#players-table tr[data-player="9"]')).to_contain_text("909")
    await entry.locator("[name=number]").fill("9")
    await entry.locator("[name=name]").fill("Twice")
    await entry.locator("button").click()
    await expect(page.locator("#players-notice")).to_have_text(
        "The entry: player number 9 is already registered."
    )

    async def answer(dialog: Dialog) -> None:
        await dialog.accept("back pain")

    page.once("dialog", answer)
    await (
        page.locator('#players-table tr[data-player="2"]')
        .get_by_role("button", name="Withdraw")
        .click()
    )
    await expect(page.locator('#players-table tr[data-player="2"]')).to_have_class("withdrawn")
    found = (await api.http.get("/api/t/dsk1/registrations")).json()["players"]
    assert found["2"]["withdrawn"] == "back pain"
    sent = [(r.method, r.url.split(server)[1], r.headers.get("idempotency-key")) for r in writes]
    assert len(sent) >= 6, sent  # sign-ins, create, import, entries, withdrawal
    assert all(key for _, _, key in sent), sent
    assert len({key for _, _, key in sent}) == len(sent)  # one key per write


async def test_stewards_and_display_profiles_from_the_desk(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("dsk2", "epc-qualifying", players=2, machines=1)
    page = await new_page(DESK)
    await page.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
    await page.goto(f"{server}/t/dsk2/desk")

    await page.fill("#steward-form [name=name]", "Sam")
    await page.click("#steward-form button")
    pin = await page.locator("#new-pin").text_content()
    assert pin and re.fullmatch(r"\d{6}", pin)
    sam = page.locator('#stewards-table tr[data-steward="Sam"]')
    await expect(sam.locator(".signed-in")).to_have_text("no")
    body = {"role": "steward", "tournament": "dsk2", "name": "Sam", "pin": pin}
    token = (await api.http.post("/api/session", json=body)).json()["token"]
    wrong = {**body, "pin": f"{(int(pin) + 1) % 10**6:06d}"}
    assert (await api.http.post("/api/session", json=wrong)).status_code == 401
    await page.reload()
    await expect(sam.locator(".signed-in")).to_have_text("1 phone")
    await expect(page.locator("#failures-table tbody")).to_contain_text("steward Sam127.0.0.1")
    page.once("dialog", lambda dialog: dialog.accept())
    await sam.locator("button").click()
    await expect(page.locator("#stewards-notice")).to_have_text("Sam is revoked.")
    await expect(sam).to_have_count(0)
    assert (await api.score("dsk2", 1, 1, 10, token=token)).status_code == 401

    form = page.locator("#profile-form")
    await form.locator("[name=name]").fill("bar")
    await form.locator("[name=seconds]").fill("30")
    await page.uncheck('#profile-views input[value="machines"]')
    await page.select_option("#profile-theme", "light")
    await form.locator("button[type=submit]").click()
    await expect(page.locator('#profiles li[data-profile="bar"]')).to_contain_text(
        "standings · 30 s · light"
    )
    profiles = (await api.views("dsk2"))["views"]["profiles"]
    assert profiles == {
        "bar": {"views": ["standings"], "seconds": 30, "theme": "light", "qr": True}
    }
    link = page.locator('#profiles li[data-profile="bar"] a')
    await expect(link).to_have_attribute("href", "/t/dsk2/display?profile=bar")
    await expect(page.locator("#localhost-warning")).to_be_visible()  # served on 127.0.0.1


async def test_the_desk_lists_sessions_and_ends_one(
    api: Api, server: str, new_page: NewPage
) -> None:
    await api.tournament("dsk3", "epc-qualifying", players=2, machines=1)
    steward = await api.sign_in_steward("dsk3", "Sam")
    page = await new_page(DESK)
    await page.add_init_script(f"localStorage.setItem('backglass.td', {api.token!r})")
    await page.goto(f"{server}/desk")
    row = page.locator("#sessions tr", has_text="Sam")
    await expect(row).to_contain_text("dsk3")
    await row.locator("button.end-session").click()
    await expect(page.locator("#sessions tr", has_text="Sam")).to_have_count(0)
    r = await api.score("dsk3", 1, 1, 100, token=steward, key="dsk3-a")
    assert r.status_code == 401
