"""A tie at the EPC qualifying cut through the API: flagged in the standings and the stage's words
before the TD acts, and no tied player "qualified" beyond the places (EPC 2009, EPC Qualifying;
``scoring.cut_tie``)."""

from __future__ import annotations

from tests.display.competitions.epc_main.helpers import ok, views
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
