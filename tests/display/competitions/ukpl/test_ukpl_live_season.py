"""The region's season table beside each UKPL meeting: meetings of one region and season on the
server follow each other live, past meetings come in as published CSVs, bans carry to the next
meeting. Expected tables are worked by hand from ukpl-rules.txt 1C, 1E, 1G, 3D-3G and 7A."""

from __future__ import annotations

import asyncio
import csv
from collections.abc import Callable
from typing import Any

from display.settings import Settings
from tests.cases import UKPL as CASES
from tests.utils import Api, serve_in_loop, serve_with_services

UKPL = "ukpl-meeting"
SEASON = {"region": "London and South East", "season": "2025"}


async def wait_view(
    api: Api, tid: str, ready: Callable[[dict[str, Any]], bool], timeout: float = 5
) -> dict[str, Any]:
    """The views of ``tid`` once ``ready(views)`` holds (another meeting's change arrives in the
    background); fails after ``timeout`` with the last views."""
    views: dict[str, Any] = {}
    for _ in range(int(timeout / 0.05)):
        views = (await api.views(tid))["views"]
        if ready(views):
            return views
        await asyncio.sleep(0.05)
    raise AssertionError(f"{tid} never got there: {views.get('season')}")


async def linked(
    api: Api, tid: str, match: Callable[[dict[str, Any]], bool], timeout: float = 5
) -> dict[str, Any]:
    """The views of ``tid`` once this server applied the ``season_meeting_linked`` record of its
    log that ``match``es: another meeting's change reaches ``tid`` only as such a record, written
    in the background, and ``tid``'s views change with its version (not before). Fails after
    ``timeout`` if no such record was written."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        log = (await api.http.get(f"/api/t/{tid}/log")).json()["records"]
        found = [r for r in log if r["type"] == "season_meeting_linked" and match(r)]
        if found:
            assert await api.wait_version(tid, found[0]["seq"], timeout)
            views: dict[str, Any] = (await api.views(tid))["views"]
            return views
        if loop.time() > deadline:
            raise AssertionError(f"no such link in {tid}: {[r for r in log if 'tournament' in r]}")
        await asyncio.sleep(0.05)


def link_of(tid: str, version: int = 0, left: bool = False) -> Callable[[dict[str, Any]], bool]:
    """A link record of meeting ``tid`` at its ``version`` or later (``left``: saying it left)."""
    return lambda r: r["tournament"] == tid and r["version"] >= version and left == ("left" in r)


async def meeting(api: Api, tid: str, held: str, order: list[int], **settings: Any) -> int:
    """A meeting of players 1-5 on one machine; ``order``: the players best first, so league
    points 20, 19, 18, ... in that order (UKPL 3D). Returns the version of its last score."""
    await api.tournament(tid, UKPL, players=5, machines=1, settings={**SEASON, "held": held,
                                                                      **settings})  # fmt: skip
    version = 0
    for rank, player in enumerate(order):
        r = await api.score(tid, player, 1, (10 - rank) * 1000)
        assert r.status_code == 201
        version = r.json()["version"]
    return version


def both_meetings_in(views: dict[str, Any]) -> bool:
    """Every player of the table has a result at each of two meetings (the other meeting's
    scores arrive one link at a time)."""
    rows = views["season"]["rows"]
    return len(rows) == 5 and all(len(row["results"]) == 2 for row in rows.values())


def results(views: dict[str, Any]) -> dict[str, Any]:
    rows = views["season"]["rows"]
    return {p: (row["place"], row["points"], row["results"]) for p, row in rows.items()}


async def test_two_meetings_of_a_season_show_one_table_live(api: Api) -> None:
    """Meeting A (January): 1, 2, 3, 4, 5 -> 20, 19, 18, 17, 16 league points. Meeting B
    (February) with four players, 2, 1, 3, 5, has four region competitors: void (UKPL 1E) and left
    out of the table. Player 4 then plays B (last): B is 2, 1, 3, 5, 4 -> 20, 19, 18, 17, 16.
    Season (best 4, UKPL 3E): 1: 20 + 19 = 39, 2: 19 + 20 = 39, 3: 36, 4: 17 + 16 = 33,
    5: 16 + 17 = 33; places 1, 1, 3, 4, 4 (3F: tied players share a place when no finals place
    is at stake). Both meetings show the same table, each change as it happens."""
    await meeting(api, "lse-1", "2025-01-11", [1, 2, 3, 4, 5])
    await meeting(api, "lse-2", "2025-02-08", [2, 1, 3, 5])
    views = await wait_view(api, "lse-2", lambda v: "lse-1" in v["season"]["meets"])
    assert views["season"]["meets"]["lse-2"] == {
        "order": 2, "held": "2025-02-08", "source": "this", "competitors": 4, "void": True,
    }  # fmt: skip
    assert views["season"]["meets"]["lse-1"]["source"] == "linked"
    assert results(views)["1"] == (1, 20, {"lse-1": 20})

    await api.score("lse-2", 4, 1, 1)
    expected = {
        "1": (1, 39, {"lse-1": 20, "lse-2": 19}),
        "2": (1, 39, {"lse-1": 19, "lse-2": 20}),
        "3": (3, 36, {"lse-1": 18, "lse-2": 18}),
        "4": (4, 33, {"lse-1": 17, "lse-2": 16}),
        "5": (4, 33, {"lse-1": 16, "lse-2": 17}),
    }
    for tid in ("lse-2", "lse-1"):  # lse-1 learns of lse-2's new score in the background
        views = await wait_view(api, tid, lambda v: results(v) == expected)
        assert "void" not in views["season"]["meets"]["lse-2"]
        assert views["season"]["rows"]["1"]["counted"] == [20, 19]
        assert views["season"]["rows"]["1"]["name"] == "Player 1"


async def test_season_settings_follow_the_latest_meeting(api: Api) -> None:
    """UKPL 1G/3E/3F, settings per region and season: the latest meeting's. With counted = 1
    and qualifiers = 1 set at meeting B (February): best result 20 for players 1 and 2, tied
    for the one finals place; the countback (3F) compares the next best, 19 and 19, then a
    third (missing: 0 and 0): still tied, so both are marked for a play-off. Meeting A, which
    has no such settings, shows the same table."""
    await meeting(api, "s-1", "2025-01-11", [1, 2, 3, 4, 5])
    await meeting(api, "s-2", "2025-02-08", [2, 1, 3, 5, 4], counted=1, qualifiers=1)
    for tid in ("s-1", "s-2"):
        views = await wait_view(api, tid, both_meetings_in)
        rows = views["season"]["rows"]
        assert views["season"]["settings"]["counted"] == 1
        assert (rows["1"]["place"], rows["1"]["points"], rows["1"].get("playoff")) == (1, 20, True)
        assert (rows["2"]["place"], rows["2"]["points"], rows["2"].get("playoff")) == (1, 20, True)
        assert "qualified" not in rows["1"]
        assert (rows["3"]["place"], rows["3"]["points"]) == (3, 18)
        assert "playoff" not in rows["3"]


async def test_a_ban_for_the_next_meet_stops_scores_there(api: Api) -> None:
    """UKPL 7A "a ban for the next meet": given at meeting A, player 3's scores do not count at
    meeting B (the next held). B: players 1, 2, 4, 5 and 3 (scored before the ban was known);
    with the ban, B is 1, 2, 4, 5 (four region competitors, N = 4) and a new score by 3 is
    refused. A ban for the next meet does not reach the meeting after (C)."""
    await meeting(api, "b-1", "2025-01-11", [1, 2, 3, 4, 5])
    await meeting(api, "b-2", "2025-02-08", [3, 1, 2, 4, 5])
    await meeting(api, "b-3", "2025-03-08", [1, 2, 4, 5])
    body = {"type": "penalty", "player": "3", "level": "ban_next", "reason": "machine abuse"}
    given = await api.post("/api/t/b-1/adjustments", body)
    assert given.status_code == 201
    views = await linked(api, "b-2", link_of("b-1", given.json()["version"]))
    assert views["adjustments"]["banned"]["3"] == {
        "meet": "b-1", "level": "ban_next", "by": "td:TD", "reason": "machine abuse",
    }  # fmt: skip
    assert "3" not in views["machine/1"]["rows"]
    assert views["machine/1"]["rows"]["1"] == {"score": 9000, "place": 1, "points": 4}
    views = await linked(api, "b-3", link_of("b-1", given.json()["version"]))  # b-3 knows it
    assert "3" not in views["adjustments"]["banned"]
    later = await api.score("b-3", 3, 1, 100)  # not banned from the meeting after next
    assert later.status_code == 201
    refused = await api.post("/api/t/b-2/scores", {"player": "3", "machine": "1", "score": 5})
    assert refused.status_code == 409 and "banned" in refused.json()["message"]


async def test_a_past_meeting_comes_in_as_its_published_csv(api: Api) -> None:
    """UKPL 3E: a region's past meetings count. Meeting 609 (London and South East 2025, meet 1)
    as published: its league points are the season's first column, e.g. P0102 20, P0121 16.5
    (shared 4th, UKPL 3F). A bad file is refused with its line number and nothing is written."""
    await api.tournament("lse-3", UKPL, players=0, machines=1, settings={**SEASON, "meet": "610"})
    text = (CASES / "meet-609-published.csv").read_text()
    r = await api.post(
        "/api/t/lse-3/season/results", {"meet": "609", "held": "2025-01-18", "csv": text}
    )
    assert r.status_code == 201, r.text
    published = list(csv.DictReader(text.splitlines()))
    assert r.json()["rows"] == len(published)
    season = (await api.views("lse-3"))["views"]["season"]
    assert season["meets"]["609"] == {"order": 1, "held": "2025-01-18", "source": "imported",
                                      "competitors": len(published)}  # fmt: skip
    for line in published:
        row = season["rows"][line["player"]]
        assert row["results"] == {"609": float(line["league_points"])}
    assert season["rows"]["P0102"]["place"] == 1 and season["rows"]["P0121"]["points"] == 16.5

    version = (await api.views("lse-3"))["version"]
    bad = await api.post("/api/t/lse-3/season/results",
                         {"meet": "611", "csv": "player,league_points\nP1,20\nP2,lots\n"})  # fmt: skip
    assert bad.status_code == 422 and bad.json()["message"].startswith("Line 3:")
    too_many = await api.post("/api/t/lse-3/season/results",
                              {"meet": "611", "rows": [{"player": "P1", "league_points": 21}]})  # fmt: skip
    assert too_many.status_code == 422
    own = await api.post("/api/t/lse-3/season/results",
                         {"meet": "610", "rows": [{"player": "P1", "league_points": 20}]})  # fmt: skip
    assert own.status_code == 409
    assert (await api.views("lse-3"))["version"] == version

    removed = await api.post("/api/t/lse-3/season/results/609/remove", {"reason": "wrong region"})
    assert removed.status_code == 201
    assert "609" not in (await api.views("lse-3"))["views"]["season"]["meets"]


async def test_a_meeting_that_leaves_the_season_leaves_the_others_table(api: Api) -> None:
    """m-2 moves to season 2026. Each meeting learns it by a record in its own log: m-1 a link
    of m-2 that says it left, m-2 a link of m-1 that says so (written after m-1's: it names m-1's
    version, which m-1's record moved on). Each table is read at the version of its record."""
    await meeting(api, "m-1", "2025-01-11", [1, 2, 3, 4, 5])
    await meeting(api, "m-2", "2025-02-08", [5, 4, 3, 2, 1])
    await wait_view(api, "m-1", lambda v: "m-2" in v["season"]["meets"])
    moved = await api.post("/api/t/m-2/settings", {"settings": {"season": "2026"}})
    assert moved.status_code == 201
    views = await linked(api, "m-1", link_of("m-2", moved.json()["version"], left=True))
    assert list(views["season"]["meets"]) == ["m-1"]
    assert results(views)["5"] == (5, 16, {"m-1": 16})
    views = await linked(api, "m-2", link_of("m-1", left=True))
    assert list(views["season"]["meets"]) == ["m-2"]
    assert results(views)["5"] == (1, 20, {"m-2": 20})


async def test_a_link_that_waited_carries_the_results_of_the_version_it_names(
    settings: Settings,
) -> None:
    """A link of h-2 into h-1 waits for h-1's write lock (held here, as a push to h-1 in flight
    holds it) while h-2 takes another game. The record then written names h-2's version at that
    time, so it carries h-2's results at that version: an older summary under the newer version
    would pass for the newer one, and h-1 would never get h-2's last game."""
    async with serve_with_services(settings) as (base, services, _):
        api = Api(base)
        await api.sign_in_td()
        await meeting(api, "h-1", "2025-01-11", [1, 2, 3, 4, 5])
        three = await meeting(api, "h-2", "2025-02-08", [5, 4, 3])  # void: 3 competitors (1E)
        await linked(api, "h-1", link_of("h-2", three))
        async with services.replica.write_lock("h-1"):
            assert (await api.score("h-2", 2, 1, 2000)).status_code == 201  # its link waits
            last = await api.score("h-2", 1, 1, 1000)
        views = await linked(api, "h-1", link_of("h-2", last.json()["version"]))
        assert views["season"]["meets"]["h-2"]["competitors"] == 5
        assert {p: row[2] for p, row in results(views).items()} == {
            "1": {"h-1": 20, "h-2": 16},
            "2": {"h-1": 19, "h-2": 17},
            "3": {"h-1": 18, "h-2": 18},
            "4": {"h-1": 17, "h-2": 19},
            "5": {"h-1": 16, "h-2": 20},
        }
        await api.close()


async def test_two_server_processes_link_each_change_once(settings: Settings) -> None:
    """Every process is a replica and runs the season linking; compare-and-append with one
    idempotency key per (meeting, version, summary) writes each link once, and both servers end
    with the same table."""
    async with serve_in_loop(settings) as one, serve_in_loop(settings) as two:
        a, b = Api(one), Api(two)
        await a.sign_in_td()
        await b.sign_in_td()
        await meeting(a, "p-1", "2025-01-11", [1, 2, 3, 4, 5])
        await meeting(b, "p-2", "2025-02-08", [5, 4, 3, 2, 1])
        for tid in ("p-1", "p-2"):
            for api in (a, b):
                await wait_view(api, tid, both_meetings_in)
            for _ in range(100):  # both replicas at one version: nothing left to link
                first, second = await a.views(tid), await b.views(tid)
                if first == second:
                    break
                await asyncio.sleep(0.05)
            assert first == second
            log = (await a.http.get(f"/api/t/{tid}/log")).json()["records"]
            links = [
                (r["tournament"], r["version"]) for r in log if r["type"] == "season_meeting_linked"
            ]
            assert len(links) == len(set(links)), links
        await a.close()
        await b.close()
