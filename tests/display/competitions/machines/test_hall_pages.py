"""The queue and audit pages as served: their config, scripts, and a 404 page for an unknown
tournament (what they draw is tested in Chromium: tests/browser/test_queue_board.py and
tests/browser/test_audit_page.py)."""

from __future__ import annotations

import httpx
import pytest

from display.http.venue_time import server_zone
from tests.display.http.test_pages import page_config, scripts
from tests.utils import Api


async def test_the_queue_page_opens_a_machine_and_a_player(api: Api) -> None:
    await api.tournament("hp1", "epc-qualifying", players=2, machines=2)
    r = await api.http.get("/t/hp1/queue?machine=2&player=1")
    assert r.status_code == 200 and "<title>Queues — Test hp1</title>" in r.text
    assert page_config(r.text) == {
        "tournament": "hp1",
        "machine": "2",
        "player": "1",
        "time_zone": server_zone(),
    }
    assert [s.split("?")[0] for s in scripts(r.text)] == [
        "/static/live.js", "/static/competitions/machines/views/queues.js", "/static/queue.js",
    ]  # fmt: skip
    assert 'href="/t/hp1/audit"' in r.text


async def test_the_audit_page_takes_its_filters_from_the_url(api: Api) -> None:
    await api.tournament("hp2", "epc-qualifying", players=2, machines=2)
    r = await api.http.get("/t/hp2/audit?player=2&machine=1")
    assert r.status_code == 200 and "<title>Audit — Test hp2</title>" in r.text
    assert page_config(r.text) == {
        "tournament": "hp2",
        "player": "2",
        "machine": "1",
        "time_zone": server_zone(),
    }
    assert [s.split("?")[0] for s in scripts(r.text)] == ["/static/live.js", "/static/audit.js"]


@pytest.mark.parametrize("page", ["queue", "audit"])
async def test_an_unknown_tournament_is_a_404_page(server: str, page: str) -> None:
    async with httpx.AsyncClient(base_url=server) as http:
        r = await http.get(f"/t/nope/{page}")
    assert r.status_code == 404 and "There is no tournament <strong>nope</strong>" in r.text
