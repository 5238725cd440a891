"""The TD's desk through the HTTP API: competition templates, creating a tournament from one, the
desk pages and the players' page QR code."""

from __future__ import annotations

import re

import httpx
import pytest

from display import competitions
from display.desk import catalog
from display.http import qr
from tests.display.http.test_pages import page_config
from tests.utils import Api

TEMPLATE_IDS = [t.id for t in competitions.templates()]


async def test_templates_cover_every_competition_and_say_what_runs(api: Api) -> None:
    r = await api.http.get("/api/templates")
    assert r.status_code == 200
    found = {t["id"]: t for t in r.json()["templates"]}
    # one per competition in the rule texts (and EPC qualifying on its own)
    assert set(found) == {
        "epc-main", "epc-qualifying", "epc-country", "epc-classic", "epc-kids",
        "ukpl-meeting", "fwpl-league-night",
    }  # fmt: skip
    running = set((await api.http.get("/api/formats")).json()["formats"])
    for template in found.values():
        assert template["available"] == (template["format"] in running)
        assert template["settings"], template["id"]
        for setting in template["settings"]:
            assert re.search(r"EPC 2009, |UKPL \d[A-G]|FWPL \d", setting["source"]), setting
    qualifying = {s["key"]: s["value"] for s in found["epc-qualifying"]["settings"]}
    assert qualifying["qualify"] == 32 and qualifying["standby"] == 6  # EPC Qualifying: 32, 33-38
    assert qualifying["machines_per_player"] == 6 and qualifying["jokers_per_player"] == 1


async def test_a_template_unavailable_here_is_marked_and_refused(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(competitions, "formats", lambda: ["epc-qualifying"])
    listed = {t["id"]: t for t in (await api.http.get("/api/templates")).json()["templates"]}
    assert listed["epc-qualifying"]["available"] is True
    assert listed["fwpl-league-night"]["available"] is False
    body = {"id": "tmp1", "name": "Tuesday", "template": "fwpl-league-night"}
    r = await api.post("/api/tournaments/from-template", body)
    assert r.status_code == 409
    assert "fwpl-league" in r.json()["message"] and "does not run" in r.json()["message"]
    assert (await api.http.get("/api/t/tmp1")).status_code == 404


@pytest.mark.parametrize("template", TEMPLATE_IDS)
async def test_every_template_the_server_runs_creates_with_its_defaults(
    api: Api, template: str
) -> None:
    spec = catalog.find(template)
    assert spec is not None
    tid = "t-" + template
    r = await api.post(
        "/api/tournaments/from-template", {"id": tid, "name": spec.name, "template": template}
    )
    if spec.format not in competitions.formats():
        assert r.status_code == 409
        return
    assert r.status_code == 201, r.text
    assert r.json()["format"] == spec.format
    view = (await api.views(tid))["views"]["tournament"]
    assert view["format"] == spec.format
    settings = view.get("settings", {})
    for default in spec.defaults:
        if default.key in settings:
            assert settings[default.key] == default.value, default.key
    log = (await api.http.get(f"/api/t/{tid}/log")).json()["records"]
    assert log[0]["template"] == template and log[0]["by"] == "td:TD"


async def test_the_td_adjusts_settings_when_creating(api: Api) -> None:
    body = {
        "id": "adj1", "name": "Mini EPC", "template": "epc-qualifying",
        "settings": {"qualify": 8, "standby": 2, "scale": "papa-quick-decay"},
    }  # fmt: skip
    r = await api.post("/api/tournaments/from-template", body)
    assert r.status_code == 201, r.text
    view = (await api.views("adj1"))["views"]["tournament"]
    assert view["cut"] == {"qualify": 8, "standby": 2}
    assert view["settings"]["scale"] == "papa-quick-decay"
    assert view["settings"]["jokers_per_player"] == 1  # the template's, unchanged
    bad = {**body, "id": "adj2", "settings": {"qualify": "many"}}
    r = await api.post("/api/tournaments/from-template", bad)
    assert r.status_code == 422 and "qualify" in r.json()["message"]
    assert (await api.http.get("/api/t/adj2")).status_code == 404


async def test_only_the_td_creates_and_unknown_templates_are_404(api: Api) -> None:
    body = {"id": "own1", "name": "x", "template": "epc-qualifying"}
    r = await api.http.post("/api/tournaments/from-template", json=body)
    assert r.status_code == 401
    r = await api.post("/api/tournaments/from-template", {**body, "template": "darts"})
    assert r.status_code == 404 and "darts" in r.json()["message"]


async def test_desk_pages_and_the_qr_code_of_the_players_page(api: Api, server: str) -> None:
    await api.tournament("dk1", "epc-qualifying", players=2, machines=2)
    r = await api.http.get("/desk")
    assert r.status_code == 200 and 'data-tournament="dk1"' in r.text
    r = await api.http.get("/t/dk1/desk")
    assert r.status_code == 200
    url = page_config(r.text)["players_url"]
    assert url == f"{server}/t/dk1/standings"  # the address this screen used
    r = await api.http.get("/t/dk1/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text == qr.svg(url)
    assert r.text.startswith("<svg") and 'viewBox="0 0 ' in r.text
    async with httpx.AsyncClient(base_url=server.replace("127.0.0.1", "localhost")) as other:
        page = await other.get("/t/dk1/desk")
        assert page_config(page.text)["players_url"] == url.replace("127.0.0.1", "localhost")
    assert (await api.http.get("/t/nope/desk")).status_code == 404
    assert (await api.http.get("/t/nope/qr.svg")).status_code == 404
