"""What I need through the HTTP API, worked by hand (EPC 2009, EPC Qualifying, PAPA scale: 100,
90, 85, 84 …; equal scores share the better place's points)."""

from __future__ import annotations

from typing import Any

from tests.utils import Api

EPC = "epc-qualifying"


async def need(api: Api, tid: str, player: str, target: int | None = None) -> dict[str, Any]:
    query = f"?player={player}" + (f"&target={target}" if target else "")
    r = await api.http.get(f"/api/t/{tid}/what-if{query}")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


async def test_the_score_each_machine_needs_for_the_cut_and_live_after_a_push(api: Api) -> None:
    """Cut 2 (qualify 2, standby 1). m1: A(1) 5,000 (100), B(2) 3,000 (90); m2: A 1,000 (100).
    A 200, B 90, C(3) 0. C on m1: 3,000 ties B (90 each): B and C share 2nd, inside the cut; so
    3,000. C on m2: even 0 is 2nd there (90): any score. Then D(4) scores 500 on m2 (90; A keeps
    100): C on m2 now needs to tie D, 500 (90 each), for a share of 2nd; 499 is 3rd there (85).
    On m1 3,000 still ties B: B, C, D share 2nd on 90."""
    await api.tournament("wi1", EPC, players=4, machines=2, settings={"qualify": 2, "standby": 1})
    for player, machine, score in ((1, 1, 5_000), (2, 1, 3_000), (1, 2, 1_000)):
        await api.score("wi1", player, machine, score)
    found = await need(api, "wi1", "3")
    assert found["target"] == {"label": "the cut (2nd)", "place": 2}
    assert found["now"] == {"place": 3, "reached": False}
    assert found["needs"] == [
        {"machine": "1", "name": "Machine 1", "again": False, "joker": False, "score": 3_000,
         "place": 2},
        {"machine": "2", "name": "Machine 2", "again": False, "joker": False, "score": 0,
         "place": 2},
    ]  # fmt: skip
    version = found["version"]
    await api.score("wi1", 4, 2, 500)
    again = await need(api, "wi1", "3")
    assert again["version"] == version + 1
    assert [n["score"] for n in again["needs"]] == [3_000, 500]


async def test_the_epc_main_tournament_while_qualifying_runs(api: Api) -> None:
    """The same field in the EPC main tournament (whose cut is at least 8), asking for 2nd: the
    qualifying is the same, so are the answers: 3,000 on m1, any score on m2."""
    await api.tournament("wi8", "epc-main", players=4, machines=2)
    for player, machine, score in ((1, 1, 5_000), (2, 1, 3_000), (1, 2, 1_000)):
        await api.score("wi8", player, machine, score)
    found = await need(api, "wi8", "3", target=2)
    assert [(n["score"], n["place"]) for n in found["needs"]] == [(3_000, 2), (0, 2)]


async def test_the_joker_game_and_a_chosen_target(api: Api) -> None:
    """Same field. B, target 1st: the joker on m1 at best makes B 100 against A's 90 + 100:
    out of reach (no score). On m2 B 1,001 beats A's 1,000: 100 + 90 = 190 each, shared 1st."""
    await api.tournament("wi2", EPC, players=3, machines=2)
    for player, machine, score in ((1, 1, 5_000), (2, 1, 3_000), (1, 2, 1_000)):
        await api.score("wi2", player, machine, score)
    found = await need(api, "wi2", "2", target=1)
    assert found["target"] == {"label": "1st", "place": 1}
    assert found["needs"] == [
        {"machine": "1", "name": "Machine 1", "again": True, "joker": True},
        {"machine": "2", "name": "Machine 2", "again": False, "joker": False, "score": 1_001,
         "place": 1},
    ]  # fmt: skip


async def test_machines_the_hall_refuses_are_left_out(api: Api) -> None:
    await api.tournament("wi3", EPC, players=2, machines=2)
    await api.score("wi3", 1, 1, 5_000)
    await api.post("/api/t/wi3/players/2/withdraw", {"reason": "gone home"})
    assert (await need(api, "wi3", "2"))["needs"] == []  # a withdrawn player plays no more


async def test_ukpl_defaults_to_winning_the_meeting(api: Api) -> None:
    """UKPL 3B: m1 A(1) 900, B(2) 100, N = 2: A 2 + bonus (more than double) = 3, B 1. C(3) on
    m1 (N = 3): 900 ties A for 1st (3 each, no bonus: not a sole top score); B 1. So 900."""
    await api.tournament("wi4", "ukpl-meeting", players=3, machines=1)
    await api.score("wi4", 1, 1, 900)
    await api.score("wi4", 2, 1, 100)
    found = await need(api, "wi4", "3")
    assert found["target"]["label"] == "1st"
    assert found["now"] == {"reached": False}  # no score, no place yet
    assert [(n["machine"], n["score"], n["place"]) for n in found["needs"]] == [("1", 900, 1)]


async def test_kids_default_to_a_trophy_and_the_classic_to_a_qualifying_place(api: Api) -> None:
    """EPC 2009, UK Pinball Kids Tournament: trophies for the three highest scores; best scores
    5,000, 4,000, 3,000: player 4 needs 3,000 (a shared 3rd). EPC 2009, EPC Classic Tournament:
    the top score on each machine qualifies; nobody has played machine 2, so any score there."""
    await api.tournament("wi6", "epc-kids", players=4, machines=1)
    for player, score in ((1, 5_000), (2, 4_000), (3, 3_000)):
        await api.score("wi6", player, 1, score)
    found = await need(api, "wi6", "4")
    assert found["target"] == {"label": "a trophy (3rd or better)", "place": 3}
    assert [(n["score"], n["place"]) for n in found["needs"]] == [(3_000, 3)]
    await api.tournament("wi7", "epc-classic", players=2, machines=2)
    await api.score("wi7", 1, 1, 5_000)
    found = await need(api, "wi7", "2")
    assert found["target"] == {"label": "a qualifying place"}
    assert [(n["machine"], n["score"]) for n in found["needs"]] == [("1", 5_001), ("2", 0)]


async def test_bad_questions_get_answers_a_player_understands(api: Api) -> None:
    await api.tournament("wi5", EPC, players=1, machines=1)
    r = await api.http.get("/api/t/wi5/what-if?player=9")
    assert r.status_code == 404 and "9" in r.json()["message"]
    r = await api.http.get("/api/t/wi5/what-if?player=1&target=first")
    assert r.status_code == 422 and "place" in r.json()["message"]
    r = await api.http.get("/api/t/none/what-if?player=1")
    assert r.status_code == 404
