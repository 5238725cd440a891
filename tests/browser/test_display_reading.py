"""The hall display at its reading distance, in Chromium: every display view walked page by page
at 1920×1080 and 1280×720, for players 3 m and 10 m from a 55″ screen, with a field large enough
to page. Every row is wholly on screen on some page (none cut off by a column's end or the
viewport), and no text on the board is smaller than 16 arcminutes at that distance
(docs/display.md, "Reading distance")."""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import NewPage
from tests.display.competitions.epc_main.helpers import ok, qualified, register_all
from tests.utils import Api

pytestmark = pytest.mark.browser

PLAYERS = 70
MACHINES = 12

# Row keys the views hold (what must be shown), and the rows wholly inside the viewport and the
# stage (which clips) on the page showing now, and the smallest text size drawn.
EXPECTED = """
(view) => {
  const v = window.backglassLive.views;
  if (view === "standings") return Object.keys(v.standings.rows).map((p) => "s:" + p);
  if (view === "placings") return Object.keys(v.placings.rows).map((p) => "p:" + p);
  const ids = Object.keys(v.machines);
  if (view === "queue") return ids.map((id) => "q:" + id);
  return ids.flatMap((id) => {
    const rows = Object.keys((v["machine/" + id] || {}).rows || {});
    return rows.length ? rows.map((p) => "m:" + id + ":" + p) : ["m:" + id + ":none"];
  });
}
"""
SHOWN = """
() => {
  const stage = document.getElementById("stage").getBoundingClientRect();
  const inside = (r) => r.top >= Math.max(0, stage.top) - 0.5 && r.left >= Math.max(0, stage.left) - 0.5
    && r.bottom <= Math.min(innerHeight, stage.bottom) + 0.5 && r.right <= Math.min(innerWidth, stage.right) + 0.5;
  const keys = [];
  const add = (node, key) => { if (inside(node.getBoundingClientRect())) keys.push(key); };
  for (const n of document.querySelectorAll("#stage .card .row")) {
    add(n, "m:" + n.closest(".card").dataset.machine + ":" + (n.dataset.player || "none"));
  }
  for (const n of document.querySelectorAll("#stage .list-row[data-player]")) add(n, "s:" + n.dataset.player);
  for (const n of document.querySelectorAll("#stage .tile[data-machine]")) add(n, "q:" + n.dataset.machine);
  for (const n of document.querySelectorAll("#stage .epc-placings .epc-row[data-player]")) add(n, "p:" + n.dataset.player);
  let smallest = Infinity;
  let where = "";
  for (const node of document.querySelectorAll("#display *")) {
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || node.closest(".probe,[hidden]")) continue;
    const style = getComputedStyle(node);
    if (style.visibility !== "visible" || node.getClientRects().length === 0) continue;
    const size = parseFloat(style.fontSize);
    if (size < smallest) { smallest = size; where = node.className + " " + node.textContent.trim().slice(0, 30); }
  }
  return { keys: keys, smallest: smallest, where: where };
}
"""


def min_text_px(distance: float, diagonal: float, width: int, height: int) -> float:
    """16 arcminutes at ``distance`` metres, in CSS px of a ``diagonal``-inch screen ``height``
    px high (the same formula as display.js, written again here)."""
    screen_m = diagonal * 0.0254 / math.hypot(1, width / height)
    return 2 * distance * math.tan(math.radians(16 / 60 / 2)) / screen_m * height


async def field(api: Api) -> str:
    """An EPC main event of PLAYERS on MACHINES, through qualifying into the quarter-finals."""
    tid = "rd1"
    await qualified(api, tid, PLAYERS, {"qualify": 8, "standby": 0}, machines=MACHINES)
    for n in range(1, PLAYERS + 1, 3):  # entries on more machines, so machine cards split
        r = await api.score(tid, n, 2 + n % 3, 5_000 + n)
        assert r.status_code == 201, r.text
    rows = (await api.views(tid))["views"]["standings"]["rows"]
    by_place = sorted(rows, key=lambda p: rows[p]["place"])
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [int(p) for p in by_place[4:8]])  # round 1: places 5-8
    await ok(api, tid, "rounds", {"round": 1})  # every entrant has a place so far: placings
    return tid


async def walk(page: Page, view: str) -> tuple[set[str], set[str], float, str, int]:
    expected = set(await page.evaluate(EXPECTED, view))
    pages = await page.evaluate("backglassBoard.pages()")
    shown: set[str] = set()
    smallest = math.inf
    where = ""
    for i in range(len(pages)):
        await page.evaluate("(i) => backglassBoard.show(i)", i)
        found: dict[str, Any] = await page.evaluate(SHOWN)
        shown |= set(found["keys"])
        if found["smallest"] < smallest:
            smallest, where = found["smallest"], found["where"]
    return expected, shown, smallest, where, len(pages)


HEADER = """
() => {
  const cut = [];
  for (const node of document.querySelectorAll(".display-head *")) {
    const r = node.getBoundingClientRect();
    if (getComputedStyle(node).display === "none" || r.width === 0) continue;
    if (r.left < -0.5 || r.right > innerWidth + 0.5) cut.push(node.className || node.id);
  }
  const title = document.querySelector(".display-title").getBoundingClientRect().width;
  const em = parseFloat(getComputedStyle(document.querySelector(".display-head")).fontSize);
  return {cut, titleEms: title / em};
}
"""


async def header_fits(page: Page, at: str) -> None:
    """Nothing of the header runs off the screen, and the title keeps some room (it may be cut
    with an ellipsis, never pushed out of sight)."""
    found = await page.evaluate(HEADER)
    assert found["cut"] == [], f"{at}: header parts off the screen: {found['cut']}"
    assert found["titleEms"] >= 2, f"{at}: the title has {found['titleEms']:.1f} em"


@pytest.mark.parametrize("view", ["machines", "standings", "queue", "placings"])
async def test_every_row_is_shown_at_a_readable_size(
    api: Api, server: str, new_page: NewPage, view: str
) -> None:
    tid = await field(api)
    page = await new_page()
    for width, height in [(1920, 1080), (1280, 720)]:
        await page.set_viewport_size({"width": width, "height": height})
        for distance in (3, 10):
            await page.goto(
                f"{server}/t/{tid}/display?views={view}&seconds=3600&distance={distance}&diagonal=55"
            )
            await expect(page.locator("#status")).to_have_attribute("data-state", "live")
            at = f"{view} at {width}x{height}, {distance} m"
            minimum = min_text_px(distance, 55, width, height)
            shown_min = float(await page.locator("#display").get_attribute("data-min-text") or 0)
            assert shown_min == pytest.approx(minimum, abs=0.01), at
            await header_fits(page, at)
            expected, shown, smallest, where, pages = await walk(page, view)
            assert len(expected) >= MACHINES, at
            assert expected - shown == set(), f"{at}: rows never wholly on screen, {pages} pages"
            assert smallest >= minimum - 0.05, f"{at}: {smallest:.1f} px < {minimum:.1f}: {where}"


async def test_a_name_is_shortened_only_when_it_does_not_fit_and_keeps_its_letters(
    api: Api, server: str, new_page: NewPage
) -> None:
    long_name = "A\u030asa Bartholomew-Lindqvist Øvergaard"  # typed on a Mac: A + combining ring
    await api.tournament("rd2", "epc-qualifying", machines=1)
    players = [{"number": "1", "name": long_name}, {"number": "2", "name": "Ann Lee"}]
    (await api.post("/api/t/rd2/players", {"players": players})).raise_for_status()
    page = await new_page({"width": 1920, "height": 1080})
    name = page.locator('.list-row[data-player="1"] .name')
    await page.goto(f"{server}/t/rd2/display?views=standings&seconds=600&distance=3")
    await expect(name).to_have_text(re.compile("Bartholomew-Lindqvist Øvergaard$"))  # room: whole
    await expect(name).not_to_have_attribute("title", re.compile("."))
    # no QR corner: at 12 m its address takes the lines both rows need
    await page.goto(f"{server}/t/rd2/display?views=standings&seconds=600&distance=12&qr=0")
    await expect(name).to_have_text("\u00c5. B. Øvergaard")  # whole letters, NFC
    assert unicodedata.normalize("NFC", await name.get_attribute("title") or "") == (
        unicodedata.normalize("NFC", long_name)
    )
    await expect(page.locator('.list-row[data-player="2"] .name')).to_have_text("Ann Lee")
