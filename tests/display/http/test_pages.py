"""The HTML pages against a real server: what they serve, their config, hashed static URLs, 404s.

What the pages draw is tested in a real browser (tests/browser/)."""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

import httpx
import pytest

from display import competitions
from display.http import pages
from display.http.venue_time import server_zone
from tests.utils import Api

EPC = "epc-qualifying"
STATIC = pages.STATIC


def page_config(text: str) -> dict[str, object]:
    found = re.search(r'<script id="page-config" type="application/json">(.*?)</script>', text)
    assert found, "the page has no config"
    return json.loads(html.unescape(found.group(1)))  # type: ignore[no-any-return]


def scripts(text: str) -> list[str]:
    return re.findall(r'<script src="([^"]+)"', text)


async def test_index_lists_tournaments_with_links(api: Api) -> None:
    await api.tournament("ix1", EPC, players=3, machines=2)
    await api.tournament("ix2", "ukpl-meeting", players=2, machines=1)
    r = await api.http.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    for tid in ("ix1", "ix2"):
        assert f'data-tournament="{tid}"' in r.text
        for page in ("display", "standings", "steward"):
            assert f'href="/t/{tid}/{page}"' in r.text
    assert "Test ix1" in r.text and "3 players" in r.text and "2 machines" in r.text


async def test_index_without_tournaments_says_so(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as http:
        r = await http.get("/")
    assert r.status_code == 200
    assert "No tournaments yet" in r.text


async def test_display_page_takes_its_settings_from_the_url(api: Api) -> None:
    await api.tournament("dp1", EPC, players=2, machines=2)
    r = await api.http.get(
        "/t/dp1/display?views=standings,bogus,queue&seconds=20&rows=9&machines=1,2"
    )
    assert r.status_code == 200
    assert "<title>Test dp1 — hall display</title>" in r.text
    assert page_config(r.text) == {
        "tournament": "dp1",
        "views": ["standings", "queue"],
        "seconds": 20.0,
        "rows": 9,
        "machines": ["1", "2"],
        "time_zone": server_zone(),  # every page's times in the venue's zone (the server's here)
    }
    found = [s.split("?")[0] for s in scripts(r.text)]
    plugins = [s for s in found if "/views/" in s]
    assert [s for s in found if s not in plugins] == ["/static/live.js", "/static/display.js"]
    assert found.index("/static/display.js") == len(found) - 1  # plugins load before display.js
    assert sorted(plugins) == sorted(
        f"/static/{p.relative_to(STATIC)}" for p in STATIC.glob("competitions/*/views/*.js")
    )


async def test_display_defaults_and_clamps_bad_values(api: Api) -> None:
    await api.tournament("dp2", EPC, players=1, machines=1)
    r = await api.http.get("/t/dp2/display?views=&seconds=0.1&rows=abc")
    config = page_config(r.text)
    assert config["views"] == ["queue", "queues", "standings", "machines"]  # EPC's, now first
    assert config["seconds"] == 2
    assert config["rows"] is None and config["machines"] is None
    config = page_config((await api.http.get("/t/dp2/display?seconds=nan")).text)
    assert config["seconds"] == 12


async def test_steward_and_standings_pages(api: Api) -> None:
    await api.tournament("sp1", EPC, players=2, machines=2)
    r = await api.http.get("/t/sp1/steward")
    assert r.status_code == 200
    assert page_config(r.text) == {"tournament": "sp1", "time_zone": server_zone()}
    assert 'id="signin-form"' in r.text and 'inputmode="numeric"' in r.text
    assert [s.split("?")[0] for s in scripts(r.text)] == [
        "/static/live.js",
        "/static/entry.js",
        "/static/steward.js",
    ]
    r = await api.http.get("/t/sp1/standings?player=2")
    assert r.status_code == 200
    assert page_config(r.text) == {"tournament": "sp1", "player": "2", "time_zone": server_zone()}
    assert [s.split("?")[0] for s in scripts(r.text)] == ["/static/live.js", "/static/standings.js"]


@pytest.mark.parametrize("page", ["display", "steward", "standings"])
async def test_unknown_tournament_is_a_404_page(server: str, page: str) -> None:
    async with httpx.AsyncClient(base_url=server) as http:
        r = await http.get(f"/t/nope/{page}")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "There is no tournament <strong>nope</strong>" in r.text


async def test_static_urls_carry_the_hash_of_the_contents(api: Api) -> None:
    await api.tournament("hs1", EPC, players=1, machines=1)
    text = (await api.http.get("/t/hs1/display")).text
    urls = scripts(text) + re.findall(r'<link rel="stylesheet" href="([^"]+)"', text)
    # live.js, display.js, base.css, display.css, each competition's views.css, a script per view
    assert len(urls) == 4 + len(competitions.view_styles()) + len(
        list(STATIC.glob("competitions/*/views/*.js"))
    )
    for url in urls:
        path, version = url.split("?v=")
        contents = (STATIC / path.removeprefix("/static/")).read_bytes()
        assert version == hashlib.sha256(contents).hexdigest()[:12]
        served = await api.http.get(url)
        assert served.status_code == 200 and served.content == contents


def test_static_url_changes_when_the_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "STATIC", tmp_path)
    monkeypatch.setattr(pages, "_hashes", {})
    script = tmp_path / "app.js"
    script.write_text("one")
    first = pages.static_url("app.js")
    assert first == f"/static/app.js?v={hashlib.sha256(b'one').hexdigest()[:12]}"
    script.write_text("two, longer")
    assert pages.static_url("app.js") != first
    with pytest.raises(FileNotFoundError):
        pages.static_url("../secret.txt")
    with pytest.raises(FileNotFoundError):
        pages.static_url("missing.js")


async def test_a_display_with_no_views_in_its_url_shows_the_formats_own(api: Api) -> None:
    """An FWPL league night's hall screen rotates the league views, not machine tables."""
    await api.tournament("dv1", "fwpl-league")
    text = (await api.http.get("/t/dv1/display")).text
    config = json.loads(re.search(r'id="page-config"[^>]*>(.*?)</script>', text, re.S)[1])
    assert config["views"] == ["fwpl_groups", "fwpl_night", "fwpl_season", "fwpl_bracket"]
    await api.tournament("dv2", EPC, players=1, machines=1)
    text = (await api.http.get("/t/dv2/display")).text
    config = json.loads(re.search(r'id="page-config"[^>]*>(.*?)</script>', text, re.S)[1])
    assert config["views"] == ["queue", "queues", "standings", "machines"]


async def test_index_links_every_page_of_a_format(api: Api) -> None:
    await api.tournament("pl1", "fwpl-league")
    text = (await api.http.get("/")).text
    for path in ("display", "league", "league-entry", "queue", "audit", "desk"):
        assert f'href="/t/pl1/{path}"' in text
    assert 'href="/desk"' in text
    for path in ("league", "league-entry", "queue", "audit", "desk"):  # every link answers
        assert (await api.http.get(f"/t/pl1/{path}")).status_code == 200, path
