"""Venue time (``display/http/venue_time.py``): a tournament's IANA zone given at creation (else
the server's), in every page's config, and on the printed results with its zone's name."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from display.http.venue_time import is_zone, server_zone, venue_time
from tests.utils import Api


def test_times_say_their_zone() -> None:
    winter, summer = (
        datetime(2026, 12, 1, 1, 10, tzinfo=UTC),
        datetime(2026, 7, 1, 0, 30, tzinfo=UTC),
    )
    assert venue_time(winter, "Europe/London") == "01:10 GMT"
    assert venue_time(summer, "Europe/London") == "01:30 BST"
    assert venue_time(winter, "Europe/Berlin", with_date=True) == "1 Dec 2026 02:10 CET"
    assert is_zone("Europe/London") and is_zone("UTC")
    assert not is_zone("Mars/Olympus") and not is_zone("../etc/passwd") and not is_zone("")
    assert is_zone(server_zone())


def page_config(html: str) -> dict[str, object]:
    found = re.search(
        r'<script id="page-config" type="application/json">(.*?)</script>', html, re.S
    )
    assert found, "no page config"
    config: dict[str, object] = json.loads(found.group(1))
    return config


async def test_a_tournament_keeps_its_zone_and_its_pages_say_it(api: Api) -> None:
    body = {"id": "vt1", "name": "Berlin Open", "format": "epc-qualifying", "settings": {},
            "time_zone": "Europe/Berlin"}  # fmt: skip
    assert (await api.post("/api/tournaments", body)).status_code == 201
    for page in ("steward", "standings", "audit", "queue"):
        r = await api.http.get(f"/t/vt1/{page}")
        assert page_config(r.text)["time_zone"] == "Europe/Berlin", page
    results = (await api.http.get("/t/vt1/results")).text
    assert re.search(r"printed \d{1,2} \w{3} \d{4} \d\d:\d\d CES?T", results), results[:2000]

    plain = {**body, "id": "vt2", "time_zone": None}
    del plain["time_zone"]
    assert (await api.post("/api/tournaments", plain)).status_code == 201
    r = await api.http.get("/t/vt2/standings")
    assert page_config(r.text)["time_zone"] == server_zone()  # the server's by default

    bad = {**body, "id": "vt3", "time_zone": "Mars/Olympus"}
    r = await api.post("/api/tournaments", bad)
    assert r.status_code == 422 and "is not a time zone" in r.json()["message"]
