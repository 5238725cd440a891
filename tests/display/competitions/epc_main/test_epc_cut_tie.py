"""The end of EPC main qualifying through the API: a tie at the cut flagged in the standings and the
stage's words before the TD acts, with no tied player "qualified" beyond the places
(``scoring.cut_tie``), and a close that lets the games in play finish (EPC 2009, EPC
Qualifying)."""

from __future__ import annotations

from tests.display.competitions.epc_main.helpers import ok, qualified, td, views
from tests.display.competitions.epc_main.test_epc_stage_corrections import (
    assert_replay_equals_live,
)
from tests.utils import Api

SMALL = {"qualify": 8, "standby": 2}
TIED = ("6", "7", "8", "9")  # 6th= for the 3 places left inside the 8


async def tied_at_the_cut(api: Api, tid: str) -> None:
    """Players 1..12 on machine 1, four of them (6-9) with the same score: they share 6th place,
    and the line after 8th runs through them."""
    await api.tournament(tid, "epc-main", players=12, machines=3, settings=SMALL)
    for n in range(1, 13):
        score = 994_000 if str(n) in TIED else (1000 - n) * 1000
        assert (await api.score(tid, n, 1, score)).status_code == 201


async def test_a_tie_at_the_cut_is_flagged_and_none_of_it_qualifies(api: Api) -> None:
    tid = "ct1"
    await tied_at_the_cut(api, tid)
    doc = await views(api, tid)
    rows = doc["standings"]["rows"]
    assert {p: rows[p]["band"] for p in TIED} == dict.fromkeys(TIED, "tie")
    assert [p for p, r in rows.items() if r["band"] == "qualified"] == ["1", "2", "3", "4", "5"]
    assert doc["standings"]["cut_tie"] == {
        "line": 8,
        "places": 3,
        "players": list(TIED),
        "note": "tie at the cut: play-off for 3 places",
    }
    assert "Tie at the cut: play-off for 3 places (players 6, 7, 8, 9)" in doc["stage"]["waiting"]
    await assert_replay_equals_live(api, tid)


async def test_the_playoff_order_settles_the_tie(api: Api) -> None:
    """After the TD's play-off (9, 6, 8, 7) the first three take the places, 7 goes to stand-by,
    and the flag goes."""
    tid = "ct2"
    await tied_at_the_cut(api, tid)
    await ok(api, tid, "playoffs", {"tie": "qualifying", "order": ["9", "6", "8", "7"]})
    doc = await views(api, tid)
    rows = doc["standings"]["rows"]
    assert {p: rows[p]["band"] for p in TIED} == {
        "6": "qualified",
        "7": "standby",
        "8": "qualified",
        "9": "qualified",
    }
    assert sum(1 for r in rows.values() if r["band"] == "qualified") == 8
    assert "cut_tie" not in doc["standings"]
    assert "Tie at the cut" not in doc["stage"]["waiting"]
    await assert_replay_equals_live(api, tid)


async def test_a_score_that_breaks_the_tie_clears_the_flag(api: Api) -> None:
    """The flag follows the scores: a second machine's score for player 9 lifts them out of the
    tie, leaving 6, 7 and 8 tied for 2 places (each view changed by the score record itself)."""
    tid = "ct3"
    await tied_at_the_cut(api, tid)
    assert (await api.score(tid, 9, 2, 5_000)).status_code == 201
    doc = await views(api, tid)
    assert doc["standings"]["cut_tie"]["players"] == ["6", "7", "8"]
    assert doc["standings"]["cut_tie"]["places"] == 2
    assert doc["standings"]["rows"]["9"]["band"] == "qualified"
    assert "play-off for 2 places" in doc["stage"]["waiting"]
    await assert_replay_equals_live(api, tid)


async def test_a_main_event_game_started_before_the_close_counts(api: Api) -> None:
    """The TD closes EPC main qualifying while player 9 is playing machine 2: the board says
    "1 game in progress" (``tournament.in_progress``) until that score is in, another score or
    a new player is refused, and the quarter-finals start once nothing is open (EPC 2009, EPC
    Qualifying; docs/rules.md)."""
    tid = "cl1"
    await qualified(api, tid, 12, SMALL)
    for action, body in (("join", {"player": "9"}), ("call", {}), ("start", {})):
        assert (await api.post(f"/api/t/{tid}/queues/2/{action}", body)).status_code == 201
    await ok(api, tid, "close", {})
    doc = await views(api, tid)
    assert doc["tournament"]["closed"] is True and doc["tournament"]["in_progress"] == 1
    assert "1 game(s) started before the close in progress" in doc["stage"]["waiting"]
    late = await api.score(tid, 10, 3, 999_000)
    assert late.status_code == 409 and "Qualifying has closed" in late.json()["message"]
    joiner = await api.post(f"/api/t/{tid}/players", {"number": "99", "name": "Late Comer"})
    assert joiner.status_code == 409
    again = await td(api, tid, "close", {})
    assert again.status_code == 409
    assert (await api.score(tid, 9, 2, 995_000)).status_code == 201
    doc = await views(api, tid)
    assert "in_progress" not in doc["tournament"] and doc["tournament"]["closed"] is True
    assert doc["standings"]["rows"]["9"]["place"] < 9  # the game counted
    second = await api.score(tid, 9, 2, 999_999)
    assert second.status_code == 409  # its one score only
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await assert_replay_equals_live(api, tid)
