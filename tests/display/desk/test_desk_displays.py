"""The displays connected now, on the TD's desk API: a display's websocket names it and the desk
lists it while connected; what the desk sets for it is a ``display_assigned`` record, a live
``displays`` view and survives a replay; bad choices are refused in words and write nothing."""

from __future__ import annotations

import asyncio

from display.live import shared
from display.live.displays import Displays
from tests.utils import Api, connect, receive, ws_url

EPC = "epc-qualifying"


async def listed(api: Api, tid: str) -> list[dict[str, object]]:
    r = await api.http.get(f"/api/t/{tid}/displays", headers=api.headers())
    assert r.status_code == 200, r.text
    return r.json()["displays"]  # type: ignore[no-any-return]


async def until_listed(api: Api, tid: str, count: int) -> list[dict[str, object]]:
    for _ in range(100):
        shown = await listed(api, tid)
        if len(shown) == count:
            return shown
        await asyncio.sleep(0.05)
    raise AssertionError(f"{count} displays never listed: {shown}")


async def test_a_named_display_is_listed_while_connected(api: Api, server: str) -> None:
    await api.tournament("dd1", EPC, players=2, machines=1)
    assert await listed(api, "dd1") == []
    url = ws_url(server, "dd1") + "?display=bar-left&views=standings,machines&profile=bar"
    async with connect(url) as ws, connect(ws_url(server, "dd1")) as phone:
        await receive(ws)
        await receive(phone)
        (bar,) = await until_listed(api, "dd1", 1)  # a socket without a name is not a display
        assert bar["name"] == "bar-left" and bar["profile"] == "bar"
        assert bar["views"] == ["standings", "machines"]
        assert bar["address"] == "127.0.0.1" and isinstance(bar["since"], float)
    assert await until_listed(api, "dd1", 0) == []  # gone with its connection
    r = await api.http.get("/api/t/dd1/displays")
    assert r.status_code == 401  # addresses are for the TD


async def test_the_desk_sets_what_a_display_shows_through_the_log(api: Api, server: str) -> None:
    await api.tournament("dd2", EPC, players=2, machines=1)
    put = api.http.put
    r = await put("/api/t/dd2/profiles/bar", json={"views": ["machines"]}, headers=api.headers())
    assert r.status_code == 201, r.text
    async with connect(ws_url(server, "dd2") + "?display=door") as ws:
        assert "displays" not in (await receive(ws))["views"]  # absent while none is set
        body = {"views": ["standings"], "seconds": 30}
        r = await put("/api/t/dd2/displays/door", json=body, headers=api.headers())
        assert r.status_code == 201, r.text
        assert (await receive(ws))["patches"]["displays"] == {"door": body}
        r = await put("/api/t/dd2/displays/door", json={"profile": "bar"}, headers=api.headers())
        patch = (await receive(ws))["patches"]["displays"]  # RFC 7386: null removes a key
        assert patch == {"door": {"profile": "bar", "views": None, "seconds": None}}
        r = await api.http.delete("/api/t/dd2/displays/door", headers=api.headers())
        assert r.status_code == 200
        assert (await receive(ws))["patches"]["displays"] is None  # the view is gone
    log = (await api.http.get("/api/t/dd2/log")).json()["records"]
    assert [x["type"] for x in log[-3:]] == ["display_assigned"] * 2 + ["display_released"]
    assert (log[-2]["name"], log[-2]["profile"], log[-2]["by"]) == ("door", "bar", "td:TD")


async def test_bad_choices_are_refused_in_words_and_write_nothing(api: Api) -> None:
    await api.tournament("dd3", EPC)
    before = (await api.views("dd3"))["version"]
    cases = [
        ("door", {"views": ["standings", "bogus"]}, 422, "no view 'bogus'"),
        ("door", {"profile": "nope"}, 404, "There is no display profile nope."),
        ("door", {}, 422, "choose a profile or views"),
        ("door", {"views": ["standings"], "seconds": 1}, 422, "Display door: seconds per page"),
        ("bad name!", {"views": ["standings"]}, 422, "A display name has 1-32 letters"),
    ]
    for name, body, status, words in cases:
        r = await api.http.put(f"/api/t/dd3/displays/{name}", json=body, headers=api.headers())
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["message"], r.json()
    r = await api.http.delete("/api/t/dd3/displays/door", headers=api.headers())
    assert r.status_code == 404
    assert (await api.views("dd3"))["version"] == before


async def test_the_hall_urls_are_the_lan_addresses_or_the_public_url(api: Api) -> None:
    await api.tournament("dd4", EPC)
    data = (await api.http.get("/api/t/dd4/displays", headers=api.headers())).json()
    assert set(data["urls"]) == {"display", "standings", "steward"}
    assert all(u.endswith("/t/dd4/display") for u in data["urls"]["display"])
    assert data["lan"] is False  # the test reached it on loopback: the TD is told so


def test_assignments_apply_purely_and_replay() -> None:
    state, touched = shared.apply(
        shared.EMPTY, {"type": "display_assigned", "name": "door", "views": ["standings"]}
    )
    assert touched == {"displays"}
    assert shared.view(state, "displays") == {"door": {"views": ["standings"], "seconds": 12}}
    state, _ = shared.apply(state, {"type": "display_released", "name": "door"})
    assert shared.view(state, "displays") is None


def test_the_registry_lists_by_name_and_forgets() -> None:
    displays = Displays()
    b = displays.add("t", "b", "", "", "10.0.0.2")
    a = displays.add("t", "a", "standings,,machines", "bar", "10.0.0.3")
    assert displays.add("t", "no good!", "", "", "10.0.0.4") is None
    assert [c.name for c in displays.listing("t")] == ["a", "b"]
    assert displays.listing("t")[0].views == ("standings", "machines")
    assert a is not None and b is not None
    displays.remove("t", a)
    displays.remove("t", b)
    displays.remove("t", b)  # idempotent
    assert displays.listing("t") == [] and displays.connected == {}
