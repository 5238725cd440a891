"""Hall display profiles through the HTTP API: records in the log, a live ``profiles`` view that
displays follow, validation a TD understands, and replay by a fresh replica."""

from __future__ import annotations

from display.settings import Settings
from tests.utils import Api, connect, receive, serve_in_loop, ws_url

EPC = "epc-qualifying"
BAR = {"views": ["standings", "machines"], "seconds": 20, "theme": "light", "qr": False}


async def test_a_profile_is_a_record_and_a_live_view(api: Api, server: str) -> None:
    await api.tournament("pf1", EPC, players=2, machines=1)
    async with connect(ws_url(server, "pf1")) as ws:
        snapshot = await receive(ws)
        assert "profiles" not in snapshot["views"]  # absent while there are none
        r = await api.http.put("/api/t/pf1/profiles/bar", json=BAR, headers=api.headers())
        assert r.status_code == 201, r.text
        patch = await receive(ws)
        assert patch["type"] == "patch"
        assert patch["patches"]["profiles"] == {"bar": BAR}
        changed = {**BAR, "views": ["queue"], "seconds": 8}
        await api.http.put("/api/t/pf1/profiles/bar", json=changed, headers=api.headers())
        patch = await receive(ws)
        assert patch["patches"]["profiles"] == {"bar": {"views": ["queue"], "seconds": 8}}
    log = (await api.http.get("/api/t/pf1/log")).json()["records"]
    assert [r["type"] for r in log[-2:]] == ["profile_set", "profile_set"]
    assert log[-1]["by"] == "td:TD" and log[-1]["name"] == "bar"
    r = await api.http.get("/api/t/pf1/profiles")
    assert r.json()["profiles"] == {"bar": changed}
    assert {"machines", "standings", "queue"} <= set(r.json()["views"])
    assert r.json()["themes"] == ["dark", "light", "contrast"]


async def test_removing_a_profile_and_the_defaults(api: Api) -> None:
    await api.tournament("pf2", EPC)
    r = await api.http.put("/api/t/pf2/profiles/door", json={"views": ["standings"]},
                           headers=api.headers())  # fmt: skip
    assert r.json()["profile"] == {"views": ["standings"], "seconds": 12, "theme": "dark",
                                   "qr": True}  # fmt: skip
    r = await api.http.delete("/api/t/pf2/profiles/door", headers=api.headers())
    assert r.status_code == 200
    assert "profiles" not in (await api.views("pf2"))["views"]
    r = await api.http.delete("/api/t/pf2/profiles/door", headers=api.headers())
    assert r.status_code == 404


async def test_bad_profiles_are_refused_in_words_and_write_nothing(api: Api) -> None:
    await api.tournament("pf3", EPC)
    before = (await api.views("pf3"))["version"]
    cases = [
        ({"views": ["standings", "bogus"]}, "no view 'bogus'"),
        ({"views": []}, "views"),
        ({"views": ["standings"], "seconds": 1}, "seconds per page is a number from 2 to 3600"),
        ({"views": ["standings"], "theme": "neon"}, "the theme is one of dark, light, contrast"),
        ({"views": ["standings"], "colour": "red"}, "colour"),
        ({"views": ["standings"], "distance": 0.2}, "reading distance is a number of metres from"),
        ({"views": ["standings"], "diagonal": 500}, "screen diagonal is a number of inches from"),
    ]
    for body, message in cases:
        r = await api.http.put("/api/t/pf3/profiles/x", json=body, headers=api.headers())
        assert r.status_code == 422, body
        assert message in r.json()["message"], r.json()["message"]
    r = await api.http.put("/api/t/pf3/profiles/has space", json=BAR, headers=api.headers())
    assert r.status_code == 422 and "profile name" in r.json()["message"]
    assert (await api.http.put("/api/t/pf3/profiles/x", json=BAR)).status_code == 401
    assert (await api.http.put("/api/t/none/profiles/x", json=BAR,
                               headers=api.headers())).status_code == 404  # fmt: skip
    assert (await api.views("pf3"))["version"] == before


async def test_a_fresh_replica_rebuilds_the_profiles_from_the_log(
    api: Api, settings: Settings
) -> None:
    await api.tournament("pf4", EPC)
    await api.http.put("/api/t/pf4/profiles/bar", json=BAR, headers=api.headers())
    await api.http.put("/api/t/pf4/profiles/door", json={"views": ["queue"]}, headers=api.headers())
    await api.http.delete("/api/t/pf4/profiles/bar", headers=api.headers())
    first = await api.views("pf4")
    async with serve_in_loop(settings) as other:
        second = Api(other)
        assert await second.views("pf4") == first
        await second.close()
    assert first["views"]["profiles"] == {
        "door": {"views": ["queue"], "seconds": 12, "theme": "dark", "qr": True}
    }


async def test_a_profile_carries_its_reading_distance_and_screen(api: Api) -> None:
    """docs/display.md, "Reading distance": a profile may say where its screens hang."""
    await api.tournament("pf5", EPC)
    body = {"views": ["standings"], "distance": 6.5, "diagonal": 65.0}
    r = await api.http.put("/api/t/pf5/profiles/far", json=body, headers=api.headers())
    assert r.status_code == 201, r.text
    profile = (await api.views("pf5"))["views"]["profiles"]["far"]
    assert (profile["distance"], profile["diagonal"]) == (6.5, 65)
    log = (await api.http.get("/api/t/pf5/log")).json()["records"]
    assert (log[-1]["distance"], log[-1]["diagonal"]) == (6.5, 65.0)


async def test_the_editor_offers_and_takes_only_the_views_of_the_tournaments_format(
    api: Api,
) -> None:
    """The desk's display editor lists the views of this tournament's format, not all 22: an FWPL
    league gets its own four, an EPC Classic its board and the machine views but no quarter-final;
    a profile naming a view of another format is refused and writes nothing."""
    await api.tournament("pf5", "fwpl-league")
    await api.tournament("pf6", "epc-classic")
    fwpl = (await api.http.get("/api/t/pf5/profiles")).json()["views"]
    classic = (await api.http.get("/api/t/pf6/profiles")).json()["views"]
    assert sorted(fwpl) == ["fwpl_bracket", "fwpl_groups", "fwpl_night", "fwpl_season"]
    assert "classic" in classic and "machines" in classic
    assert not {"quarterfinal", "kids", "fwpl_night", "country_groups"} & set(classic)
    before = (await api.views("pf5"))["version"]
    r = await api.http.put("/api/t/pf5/profiles/bar", json={"views": ["quarterfinal"]},
                           headers=api.headers())  # fmt: skip
    assert r.status_code == 422 and "quarterfinal" in r.text, r.text
    assert (await api.views("pf5"))["version"] == before
