"""The plain EPC qualifying format flags a tie at the cut as the EPC main event does (issue 13,
"Before the TD acts, a tie at a cut is flagged on the board"): its standings band the players the
qualify line runs through "tie" and say ``cut_tie``, so none of them is shown in the cut beyond
the places (EPC 2009, EPC Qualifying; ``scoring.cut_tie``)."""

from __future__ import annotations

from typing import Any

from tests.utils import Api

SMALL = {"qualify": 8, "standby": 2}
TIED = ("6", "7", "8", "9")  # 6th= for the 3 places left inside the 8


async def tied_at_the_cut(api: Api, tid: str) -> None:
    """Players 1..12 on machine 1 of an epc-qualifying tournament, 6-9 with one score: they share
    6th place, and the line after 8th runs through them."""
    await api.tournament(tid, "epc-qualifying", players=12, machines=3, settings=SMALL)
    for n in range(1, 13):
        score = 994_000 if str(n) in TIED else (1000 - n) * 1000
        assert (await api.score(tid, n, 1, score)).status_code == 201


async def standings(api: Api, tid: str) -> dict[str, Any]:
    return (await api.views(tid))["views"]["standings"]  # type: ignore[no-any-return]


async def test_a_tie_at_the_cut_is_flagged_and_none_of_it_is_in_the_cut(api: Api) -> None:
    await tied_at_the_cut(api, "qct1")
    doc = await standings(api, "qct1")
    rows = doc["rows"]
    assert {p: rows[p]["band"] for p in TIED} == dict.fromkeys(TIED, "tie")
    assert [p for p, r in rows.items() if r["band"] == "qualified"] == ["1", "2", "3", "4", "5"]
    assert doc["cut_tie"] == {
        "line": 8,
        "places": 3,
        "players": list(TIED),
        "note": "tie at the cut: play-off for 3 places",
    }
    # a better score for 9 on another machine breaks the tie: 9 moves clear, the flag goes
    # from 3 places among four to 2 among three
    assert (await api.score("qct1", 9, 2, 5_000)).status_code == 201
    after = (await standings(api, "qct1"))["cut_tie"]
    assert (after["places"], after["players"]) == (2, ["6", "7", "8"])


async def test_without_a_tie_at_the_line_there_is_no_flag(api: Api) -> None:
    await api.tournament("qct2", "epc-qualifying", players=12, machines=3, settings=SMALL)
    for n in range(1, 13):
        assert (await api.score("qct2", n, 1, (1000 - n) * 1000)).status_code == 201
    doc = await standings(api, "qct2")
    assert "cut_tie" not in doc
    assert sum(1 for r in doc["rows"].values() if r["band"] == "qualified") == 8
