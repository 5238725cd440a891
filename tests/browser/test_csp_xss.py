"""Every page under the Content-Security-Policy, and stored XSS through names, in Chromium.

One tournament of each format is built through the API with hostile names: every player, the
machines, the teams, the tournament itself, a machine's status note and a correction's reason are
HTML (``<img src=x onerror=…>``, ``"><script>…</script>``). Then every page route of the app is
opened (``test_the_walk_covers_every_page_route`` fails when a page is added without joining the
walk), and the hall display once per view of the format. On each page: no CSP violation (the
``securitypolicyviolation`` event, or Chromium's console report), no script of ours set
``window.__xss``, no ``<img src=x>`` was made, and where the page lists names, a hostile name is
shown as the literal text the TD typed.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Page, expect
from starlette.routing import Route

from display.app import create_app
from display.settings import Settings
from tests.browser.conftest import HALL, NewPage
from tests.display.competitions.epc_country.test_epc_country_live_builders import (
    TEAMS,
    match_over_http,
    players,
)
from tests.display.competitions.epc_main.helpers import ok, register_all
from tests.display.competitions.fwpl.test_fwpl_live import start
from tests.utils import Api

pytestmark = pytest.mark.browser


def evil(n: int) -> str:
    """A hostile name; odd numbers an event handler, even numbers a script element."""
    if n % 2:
        return f"<img src=x onerror=window.__xss={n}>"
    return f'"><script>window.__xss={n}</script>'


SHOWN = re.compile(r"<img src=x onerror=window\.__xss=\d+>|\"><script>window\.__xss=\d+</script>")
"""A hostile name as text on the page (innerText: a name parsed as HTML leaves no text)."""

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || ""));
});
"""

COMMON = ("display", "standings", "steward", "queue", "audit", "desk", "results", "qr.svg")
"""Pages every tournament has, under /t/{id}/."""
OWN = {
    "epc-main": ("epc", "stages"),
    "epc-country": ("country", "team-entry"),
    "fwpl-league": ("league", "league-entry"),
    "ukpl-meeting": ("season", "adjust"),
}
"""Pages of one format (display/http/pages.py PAGE_LINKS)."""
SITE = ("/", "/desk", "/openapi.json")
NAMELESS = {"qr.svg", "team-entry", "league-entry", "stages", "adjust"}
"""Pages that show no names until someone acts on them (entry forms, the QR code)."""


def test_the_walk_covers_every_page_route() -> None:
    """A new page must join the walk below (so it is checked under the CSP)."""
    app = create_app(Settings())
    pages = set()
    for route in app.routes:
        get = isinstance(route, Route) and "GET" in (route.methods or ())
        if get and not route.path.startswith("/api"):
            pages.add(route.path.removeprefix("/t/{tournament}/"))
    walked = {*COMMON, *SITE, *(p for own in OWN.values() for p in own)}
    assert pages == walked


class Watch:
    """One browser tab that walks pages and checks each (see the module docstring)."""

    def __init__(self, page: Page, server: str) -> None:
        self.page, self.server = page, server
        self.console: list[str] = []
        page.on("console", self.on_console)

    def on_console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.console.append(message.text)

    async def visit(self, path: str, names: bool) -> None:
        page = self.page
        answer = await page.goto(self.server + path)
        assert answer is not None and answer.status < 500, path
        csp = answer.headers.get("content-security-policy", "")
        assert "script-src 'self'" in csp and "style-src 'self'" in csp, (path, csp)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, (path, csp)
        if path.endswith((".svg", ".json")):
            await page.wait_for_load_state("load")
        elif await page.locator("#status").count():
            await expect(page.locator("#status")).to_have_attribute("data-state", "live")
        if names:
            await expect(page.locator("body")).to_contain_text(SHOWN, use_inner_text=True)
        found = await page.evaluate(
            """() => ({
              csp: window.__csp || [],
              xss: window.__xss === undefined ? null : String(window.__xss),
              img: document.querySelectorAll('img[src="x"]').length,
              scripts: [...document.scripts].filter(
                (s) => s.type !== "application/json" && s.textContent.includes("__xss")).length,
            })"""
        )
        assert found == {"csp": [], "xss": None, "img": 0, "scripts": 0}, (path, found)
        assert not self.console, (path, self.console)

    async def tournament(self, tid: str, fmt: str, views: list[str], named: set[str]) -> None:
        """Every page of ``tid`` and the display once per view; ``named``: the pages and views
        that must show a hostile name."""
        for name in (*COMMON, *OWN.get(fmt, ())):
            await self.visit(f"/t/{tid}/{name}", name in named)
        for view in views:
            await self.visit(f"/t/{tid}/display?views={view}&seconds=600", view in named)


async def tab(new_page: NewPage, server: str, api: Api, tids: list[str]) -> Watch:
    """A tab signed in as the TD (and as a steward session on each entry page) for ``tids``."""
    page = await new_page(HALL)
    token = api.token
    seed = [f"localStorage.setItem('backglass.td', {token!r});"]
    for tid in tids:
        steward = f'JSON.stringify({{token: "{token}", name: "TD"}})'
        seed.append(f"localStorage.setItem('backglass.steward.{tid}', {steward});")
        country = f'JSON.stringify({{token: "{token}", name: "TD", role: "td"}})'
        seed.append(f"localStorage.setItem('backglass.country.{tid}', {country});")
    await page.context.add_init_script(WATCH + "\n".join(seed))
    return Watch(page, server)


async def created(api: Api, tid: str, fmt: str, settings: dict[str, Any] | None = None) -> None:
    body = {"id": tid, "name": evil(99), "format": fmt, "settings": settings or {}}
    r = await api.post("/api/tournaments", body)
    assert r.status_code == 201, r.text


async def per_machine(api: Api, tid: str, fmt: str, players: int, **settings: Any) -> None:
    """Players 1..n and machines 1-3 with hostile names, one game each on machine 1 (player 1
    best), player 1 queued on machine 2, machine 3 out of order with a hostile note."""
    await created(api, tid, fmt, settings)
    plist = [{"number": str(n), "name": evil(n)} for n in range(1, players + 1)]
    assert (await api.post(f"/api/t/{tid}/players", {"players": plist})).status_code == 201
    mlist = [{"id": str(m), "name": evil(100 + m)} for m in (1, 2, 3)]
    assert (await api.post(f"/api/t/{tid}/machines", {"machines": mlist})).status_code == 201
    for n in range(1, players + 1):
        r = await api.score(tid, n, 1, (1000 - n) * 1000)
        assert r.status_code == 201, r.text
    await api.post(f"/api/t/{tid}/queues/2/join", {"player": "1"})
    note = {"status": "out_of_order", "note": evil(201)}
    await api.post(f"/api/t/{tid}/machines/3/status", note)


VIEWS_MACHINES = ["machines", "standings", "queue", "queues"]


async def test_per_machine_formats(api: Api, server: str, new_page: NewPage) -> None:
    """EPC Qualifying, Classic, Kids and a UKPL meeting: the machine and standings pages."""
    await per_machine(api, "xq", "epc-qualifying", 4)
    seq = (await api.views("xq"))["views"]["machine/1"]["latest"]["seq"]
    r = await api.http.post(
        f"/api/t/xq/scores/{seq}/void",
        json={"reason": evil(301)},
        headers={**api.headers(), "If-Match": f'"{seq}"'},
    )
    assert r.status_code == 201, r.text
    await per_machine(api, "xk", "epc-kids", 3)
    await per_machine(api, "xl", "epc-classic", 3)
    await per_machine(
        api, "xu", "ukpl-meeting", 4, region="London", season="2025", held="2025-01-11"
    )
    watch = await tab(new_page, api.base, api, ["xq", "xk", "xl", "xu"])
    for path in SITE:
        await watch.visit(path, path != "/openapi.json")
    named = {"display", "standings", "steward", "queue", "audit", "desk", "results"}
    await watch.tournament("xq", "epc-qualifying", VIEWS_MACHINES, named | {*VIEWS_MACHINES})
    # Kids and Classic: the pages walked above, and their own views
    await watch.visit("/t/xk/display?views=kids&seconds=600", names=True)
    await watch.visit("/t/xl/display?views=classic&seconds=600", names=True)
    # a query parameter the page config carries (tojson escapes "<", so no </script> breaks out)
    await watch.visit("/t/xq/standings?player=</script>" + evil(7), names=False)
    ukpl = ["machines", "standings", "ukpl_season", "ukpl_adjustments"]
    await watch.tournament("xu", "ukpl-meeting", ukpl, named | {"season", "machines"})


async def test_epc_main_through_the_stages(api: Api, server: str, new_page: NewPage) -> None:
    """EPC main to the quarter-finals: the stage pages and the stage views."""
    await per_machine(api, "xm", "epc-main", 10, qualify=8, standby=2)
    await ok(api, "xm", "stage", {"stage": "quarterfinal"})
    await register_all(api, "xm", 1, [5, 6, 7, 8])
    await ok(api, "xm", "rounds", {"round": 1})
    watch = await tab(new_page, api.base, api, ["xm"])
    views = ["epc", "quarterfinal", "semifinal", "finals", "placings", "classic", "standings"]
    named = {"display", "standings", "steward", "audit", "desk", "results", "epc"}
    await watch.tournament("xm", "epc-main", views, named | {"epc", "quarterfinal", "standings"})


async def test_country_competition(api: Api, server: str, new_page: NewPage) -> None:
    def hostile(seed: int) -> list[str]:
        return [evil(500 + 4 * seed + p) for p in range(4)]

    await created(api, "xc", "epc-country")
    match = [{"id": m, "name": evil(110 + i)} for i, m in enumerate(("m1", "m2", "m3"))]
    four = [
        {"id": m, "name": evil(120 + i), "four_ball": True} for i, m in enumerate(("4b1", "4b2"))
    ]
    machines = {"machines": [*match, *four]}
    assert (await api.post("/api/t/xc/country/machines", machines)).status_code == 201
    teams = [
        {
            "id": team,
            "name": evil(400 + seed),
            # the match below names T01's and T16's players as the builders do
            "players": players(team) if team in ("T01", "T16") else hostile(seed),
            "seed": seed,
        }
        for seed, team in enumerate(TEAMS, start=1)
    ]
    assert (await api.post("/api/t/xc/country/teams", {"teams": teams})).status_code == 201
    await match_over_http(api, "xc", "T01", "T16", 23, "qualifying")
    watch = await tab(new_page, api.base, api, ["xc"])
    views = ["country_groups", "four_ball", "country_final"]
    named = {"display", "standings", "country", "audit", "desk", "country_groups"}
    await watch.tournament("xc", "epc-country", views, named)


async def test_fwpl_league(api: Api, server: str, new_page: NewPage) -> None:
    await created(api, "xf", "fwpl-league")
    players = [{"number": str(n), "name": evil(n), "ifpa_rank": n} for n in range(1, 11)]
    assert (await api.post("/api/t/xf/league/players", {"players": players})).status_code == 201
    kit = [{"id": f"m{n}", "name": evil(100 + n)} for n in range(1, 7)]
    assert (await api.post("/api/t/xf/machines", {"machines": kit})).status_code == 201
    await start(api, "xf", 1)
    watch = await tab(new_page, api.base, api, ["xf"])
    views = ["fwpl_groups", "fwpl_night", "fwpl_season", "fwpl_bracket"]
    named = {"display", "league", "audit", "desk", "fwpl_groups", "fwpl_season"}
    await watch.tournament("xf", "fwpl-league", views, named)
