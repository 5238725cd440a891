"""A guest made a region player, or back, by the TD's record (``player_reclassified``, POST
/api/t/{t}/ukpl/players/{p}/guest; UKPL rules 1C, 3B, 3C): the meeting's machine points are worked
out again with the new N, the meeting's header counts the field ("4 players + 1 guest"), a bad
request is refused in plain words with nothing written, and a replay of the log equals the live
state. Machine points by hand from UKPL 3B (N = region players with a score, down to 1)."""

from __future__ import annotations

from typing import Any

from tests.display.competitions.epc_main.test_epc_stage_corrections import (
    assert_replay_equals_live,
)
from tests.display.competitions.machines.test_corrections_api import log
from tests.utils import Api

UKPL = "ukpl-meeting"


async def field_meeting(api: Api, tid: str) -> None:
    """Players 1-4 of the region and player 5 marked guest; machine 1 scores 500 down to 100
    (player 5 the best, 600): N = 4 while 5 is a guest, so 4, 3, 2, 1."""
    await api.tournament(tid, UKPL, players=5, machines=1, guests={5})
    for player, score in ((1, 500), (2, 400), (3, 300), (4, 200), (5, 600)):
        assert (await api.score(tid, player, 1, score)).status_code == 201


async def current(api: Api, tid: str) -> dict[str, Any]:
    return (await api.views(tid))["views"]  # type: ignore[no-any-return]


def machine_points(views: dict[str, Any]) -> dict[str, Any]:
    return {p: row.get("points") for p, row in views["machine/1"]["rows"].items()}


async def reclassify(api: Api, tid: str, player: str, **body: Any) -> Any:
    return await api.post(f"/api/t/{tid}/ukpl/players/{player}/guest", body)


async def test_a_guest_made_a_region_player_counts_in_n_and_back(api: Api) -> None:
    tid = "rc1"
    await field_meeting(api, tid)
    views = await current(api, tid)
    assert views["tournament"]["field"] == {"players": 4, "guests": 1}
    assert machine_points(views) == {"1": 4, "2": 3, "3": 2, "4": 1, "5": None}

    made = await reclassify(api, tid, "5", guest=False, reason="joined the league today")
    assert made.status_code == 201, made.text
    assert made.json()["guest"] is False
    views = await current(api, tid)
    assert views["tournament"]["field"] == {"players": 5, "guests": 0}
    assert views["players"]["5"]["guest"] is False
    # N = 5 now: 600 first (5), 500 (4), ... 200 (1); 600 is not more than double 500
    assert machine_points(views) == {"5": 5, "1": 4, "2": 3, "3": 2, "4": 1}
    assert views["standings"]["rows"]["5"]["league_points"] == 20

    back = await reclassify(api, tid, "5", guest=True, reason="registered in Scotland")
    assert back.status_code == 201, back.text
    views = await current(api, tid)
    assert views["tournament"]["field"] == {"players": 4, "guests": 1}
    assert machine_points(views) == {"1": 4, "2": 3, "3": 2, "4": 1, "5": None}
    assert "league_points" not in views["standings"]["rows"]["5"]

    # a region player made a guest the other way: N = 3 on machine 1
    assert (
        await reclassify(api, tid, "1", guest=True, reason="plays for Wales")
    ).status_code == 201
    views = await current(api, tid)
    assert views["tournament"]["field"] == {"players": 3, "guests": 2}
    assert machine_points(views) == {"2": 3, "3": 2, "4": 1, "1": None, "5": None}
    types = [r["type"] for r in await log(api, tid)]
    assert types.count("player_reclassified") == 3
    await assert_replay_equals_live(api, tid)


async def test_a_reclassification_wins_over_the_region_setting(api: Api) -> None:
    """UKPL 1C: another region's player is a guest by their region; the TD's record says they
    are this region's (registered in the wrong region), and a later region setting leaves it."""
    tid = "rc2"
    await api.tournament(tid, UKPL, machines=1, settings={"region": "London and South East"})
    players = [{"number": "1", "name": "Ann", "region": "London and South East"},
               {"number": "2", "name": "Bob", "region": "Irish"}]  # fmt: skip
    assert (await api.post(f"/api/t/{tid}/ukpl/players", {"players": players})).status_code == 201
    assert (await current(api, tid))["players"]["2"]["guest"] is True
    ok = await reclassify(api, tid, "2", guest=False, reason="moved to London in January")
    assert ok.status_code == 201, ok.text
    await api.post(f"/api/t/{tid}/settings", {"settings": {"region": "london and south east"}})
    assert (await current(api, tid))["players"]["2"]["guest"] is False
    await assert_replay_equals_live(api, tid)


async def test_bad_reclassifications_are_refused_in_plain_words(api: Api) -> None:
    tid = "rc3"
    await field_meeting(api, tid)
    before = len(await log(api, tid))
    already = await reclassify(api, tid, "5", guest=True, reason="x")
    assert already.status_code == 409
    assert already.json()["message"] == "Player 5 (5) is already a guest at this meeting."
    region = await reclassify(api, tid, "2", guest=False, reason="x")
    assert region.json()["message"] == "Player 2 (2) is already a region player at this meeting."
    unknown = await reclassify(api, tid, "77", guest=False, reason="x")
    assert unknown.status_code == 404
    assert unknown.json()["message"] == "There is no player 77 at this meeting."
    assert (await reclassify(api, tid, "5", guest=False)).status_code == 422  # no reason
    assert (await reclassify(api, tid, "5", reason="x")).status_code == 422  # guest or not?
    steward = (await api.post(f"/api/t/{tid}/stewards", {"name": "Sam"})).json()["pin"]
    signin = {"role": "steward", "tournament": tid, "name": "Sam", "pin": steward}
    token = (await api.http.post("/api/session", json=signin)).json()["token"]
    body = {"guest": False, "reason": "x"}
    assert (
        await api.post(f"/api/t/{tid}/ukpl/players/5/guest", body, token=token)
    ).status_code == 403
    await api.tournament("rc3e", "epc-qualifying", players=1, machines=1)
    other = await reclassify(api, "rc3e", "1", guest=True, reason="x")
    assert other.status_code == 409 and other.json()["error"] == "not_ukpl"
    assert len(await log(api, tid)) == before
