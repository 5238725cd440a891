"""The Country Competition over HTTP and the websocket: real server, real Redis. Who may write what,
how refusals reach a steward, idempotent retries, and a pushed match reaching a display as a patch.
Expected points are worked by hand (see tests/display/competitions/epc_country/test_epc_country_live_builders.py).
"""

from __future__ import annotations

from typing import Any

from tests.display.competitions.epc_country.test_epc_country_live_builders import (
    country_over_http,
    games_body,
    team_body,
)
from tests.utils import Api, connect, receive, ws_url

FORMAT = "epc-country"


country = country_over_http
"""A Country Competition with 3 match machines, two 4-ball machines and 20 seeded teams."""


async def log_types(api: Api, tid: str) -> list[str]:
    r = await api.http.get(f"/api/t/{tid}/log")
    return [rec["type"] for rec in r.json()["records"]]


async def test_the_format_is_listed_and_a_match_reaches_a_display_as_a_patch(
    api: Api, server: str
) -> None:
    """A steward's match (T01 14+9 = 23 against T16 2+7 = 9) is one write of two records, and a
    display connected to /ws gets the new fixture and group lines as merge patches."""
    formats = (await api.http.get("/api/formats")).json()["formats"]
    assert FORMAT in formats
    await country(api, "cc1")
    views = (await api.views("cc1"))["views"]
    assert views["tournament"]["draw"] == {"registered": 20, "needed": 20}
    assert views["country/fixtures"]["A-1-1"]["home"] == "T01"
    token = await api.sign_in_steward("cc1")
    async with connect(ws_url(server, "cc1")) as ws:
        snapshot = await receive(ws)
        assert snapshot["type"] == "snapshot"
        r = await api.post("/api/t/cc1/country/games", games_body("A-1-1", "T01", "T16", 23), token)
        assert r.status_code == 201, r.text
        assert r.json()["fixture"] == "A-1-1"
        patch = await receive(ws)
        while patch["version"] < r.json()["version"]:
            patch = await receive(ws)
    fixture = patch["patches"]["country/fixtures"]["A-1-1"]
    assert (fixture["status"], fixture["home_points"], fixture["away_points"]) == ("played", 23, 9)
    rows = patch["patches"]["country/groups"]["rows"]
    assert (rows["T01"]["match_points"], rows["T16"]["match_points"]) == (23, 9)
    log = await log_types(api, "cc1")
    assert log[-2:] == ["match_game_recorded", "match_game_recorded"]
    record = (await api.http.get("/api/t/cc1/log")).json()["records"][-1]
    assert record["by"] == "steward:Sam" and record["fixture"] == "A-1-1"


async def test_stewards_enter_scores_and_only_the_td_decides(api: Api) -> None:
    """Stewards (and the TD) enter games, 4-ball games and play-offs; registering teams, penalties,
    voids and advancing the stage are the TD's ("the tournament director's decision on the matter
    will be final")."""
    await country(api, "cc2")
    token = await api.sign_in_steward("cc2")
    base = "/api/t/cc2/country"
    r = await api.post(f"{base}/four-ball", {"team": "T01", "machine": "4b1", "score": 2000}, token)
    assert r.status_code == 201, r.text
    for path, body in [
        ("teams", team_body("R1", None)),
        (
            "penalties",
            {"type": "late", "fixture": "A-1-1", "team": "T16", "minutes": 9, "reason": "x"},
        ),
        ("void", {"seq": 3, "reason": "x"}),
        ("stage", {"stage": "final"}),
        ("replacements", {"withdrawn": "T07", "reserve": "R1"}),
    ]:
        r = await api.post(f"{base}/{path}", body, token)
        assert (r.status_code, r.json()["error"]) == (403, "td_only"), path
    r = await api.http.post(f"{base}/four-ball", json={"team": "T02", "machine": "4b1", "score": 1})
    assert r.status_code == 401
    board = (await api.views("cc2"))["views"]["country/four_ball"]
    assert board["played"] == 1 and board["rows"]["T01"]["points"] == 17


async def test_refusals_say_why_and_write_nothing(api: Api) -> None:
    """Every refusal is a 4xx with a message a steward understands; nothing is appended."""
    await country(api, "cc3")
    base = "/api/t/cc3/country"
    before = await log_types(api, "cc3")
    stranger = games_body("A-1-1", "T01", "T16", 16)
    stranger["games"][1]["scores"][0]["player"] = "Somebody Else"
    cases: list[tuple[str, Any, int, str]] = [
        ("games", games_body("Z-1-1", "T01", "T16", 16), 404, "unknown_fixture"),
        ("games", games_body("A-1-1", "T01", "T02", 16), 409, "entry_not_allowed"),
        ("games", stranger, 404, "unknown_player"),
        ("games", {"fixture": "A-1-1"}, 422, "invalid_request"),
        ("four-ball", {"team": "T01", "machine": "m1", "score": 5}, 409, "entry_not_allowed"),
        ("four-ball", {"team": "T01", "machine": "4b1", "score": 1.5}, 422, "invalid_score"),
        ("four-ball", {"team": "NOPE", "machine": "4b1", "score": 5}, 404, "unknown_team"),
        (
            "penalties",
            {"type": "late", "fixture": "A-1-1", "team": "T16", "reason": "x"},
            422,
            "invalid_request",
        ),
        (
            "penalties",
            {"type": "late", "fixture": "A-1-1", "team": "T16", "minutes": 4, "reason": "x"},
            409,
            "entry_not_allowed",
        ),
        ("stage", {"stage": "final"}, 409, "entry_not_allowed"),
        ("teams", {"teams": [team_body("R1", None), team_body("T01", None)]}, 409, "duplicate"),
    ]
    for path, body, status, code in cases:
        r = await api.post(f"{base}/{path}", body)
        assert (r.status_code, r.json()["error"]) == (status, code), (path, r.text)
        assert r.json()["message"]
    assert await log_types(api, "cc3") == before
    r = await api.post(f"{base}/stage", {"stage": "final"})
    assert "every group match has a result; 30 still to play (A-1-1, B-1-1" in r.json()["message"]
    assert "R1" not in (await api.views("cc3"))["views"]["teams"]  # all or nothing


async def test_a_retried_entry_with_the_same_key_is_recorded_once(api: Api) -> None:
    """A phone retrying after a lost answer sends the same Idempotency-Key: one match, one answer."""
    await country(api, "cc4")
    body = games_body("A-1-2", "T06", "T11", 28)
    first = await api.post("/api/t/cc4/country/games", body, key="k-1")
    again = await api.post("/api/t/cc4/country/games", body, key="k-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["version"] == first.json()["version"]
    assert (await log_types(api, "cc4")).count("match_game_recorded") == 2
    views = (await api.views("cc4"))["views"]
    assert views["country/groups"]["rows"]["T06"]["match_points"] == 28


async def test_penalties_voids_and_the_generic_machine_endpoint(api: Api) -> None:
    """A late team forfeits 0-28 (EPC 2009, EPC Country Competition, Timekeeping); voiding the
    record (a wrong call) puts the match back to be played. Machines added through the generic
    endpoint are match machines."""
    await country(api, "cc5")
    r = await api.post("/api/t/cc5/machines", {"id": "m9", "name": "Fireball"})
    assert r.status_code == 201, r.text
    assert "four_ball" not in (await api.views("cc5"))["views"]["machines"]["m9"]
    body = {"type": "late", "fixture": "A-1-1", "team": "T16", "minutes": 8, "reason": "bar"}
    r = await api.post("/api/t/cc5/country/penalties", body)
    assert r.status_code == 201, r.text
    late = r.json()["version"]
    fixture = (await api.views("cc5"))["views"]["country/fixtures"]["A-1-1"]
    assert (fixture["status"], fixture["home_points"], fixture["away_points"]) == ("forfeit", 28, 0)
    body = {"seq": late, "reason": "called the wrong team"}
    headers = {**api.headers(), "If-Match": f'"{late}"'}
    r = await api.http.post("/api/t/cc5/country/void", json=body, headers=headers)
    assert r.status_code == 201, r.text
    assert r.json()["entry"] == {"seq": late, "version": r.json()["version"]}
    fixture = (await api.views("cc5"))["views"]["country/fixtures"]["A-1-1"]
    assert fixture["status"] == "to_play" and "penalties" not in fixture


async def test_country_endpoints_and_pages_are_only_for_country_tournaments(api: Api) -> None:
    await api.tournament("q1", "epc-qualifying", players=2, machines=1)
    r = await api.post("/api/t/q1/country/four-ball", {"team": "T01", "machine": "1", "score": 1})
    assert (r.status_code, r.json()["error"]) == (404, "not_country")
    assert (await api.http.get("/t/q1/team-entry")).status_code == 404
    assert (await api.http.get("/t/q1/country")).status_code == 404
    await country(api, "cc6")
    for page in ("team-entry", "country"):
        r = await api.http.get(f"/t/cc6/{page}")
        assert r.status_code == 200 and "Country 2009" in r.text


async def test_the_generic_score_and_player_endpoints_point_to_the_team_entry(api: Api) -> None:
    """A steward using the per-machine steward page on a Country Competition gets a 409 that
    says where team scores go, not a server error."""
    await country(api, "cc7")
    r = await api.score("cc7", "T01", "m1", 1000)
    assert (r.status_code, r.json()["error"]) == (409, "entry_not_allowed")
    assert "team-entry" in r.json()["message"]
    r = await api.post("/api/t/cc7/players", {"number": "1", "name": "Ann"})
    assert r.status_code == 409 and "country/teams" in r.json()["message"]
