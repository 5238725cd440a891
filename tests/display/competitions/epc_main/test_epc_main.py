"""The EPC main tournament live, through the HTTP API on a real server: quarter-finals,
semi-finals, finals and the final placings (EPC 2009, EPC Quarter-Finals, EPC Semi-Finals, EPC
Finals). Expected values are worked by hand from the rule text in each test's docstring.

Scale: the rules' 32 quarter-finalists and 6 stand-bys scale down to ``qualify: 8, standby: 2``
(two groups of four, two pairs each, three machines), the same rules at a size one can work by
hand. Qualifying places equal player numbers (``qualified``): seeds 1-8, stand-bys 9 and 10.
PAPA points: 100, 90, 85, 84, 83, 82, 81, 80 for places 1-8.
"""

from __future__ import annotations

from tests.display.competitions.epc_main.helpers import (
    choice_order,
    ok,
    places,
    play_game,
    play_quarterfinal,
    qualified,
    register_all,
    td,
    views,
)
from tests.utils import Api

SMALL = {"qualify": 8, "standby": 2}


def seed_games(player: str, machine: str) -> tuple[int, int]:
    """Seed s scores (9 - s) x 1000 on every machine (its second game, the first 100 less), except
    seed 8 on machine 1: 500 then 9,500."""
    if (player, machine) == ("8", "1"):
        return 500, 9_500
    best = (9 - int(player)) * 1000
    return best - 100, best


async def test_quarterfinals_to_grand_final_with_hand_worked_places(api: Api) -> None:
    """EPC Quarter-Finals: "Scores are recorded ... and updated if either player's second game
    scored higher" - seed 8 on machine 1 counts 9,500, 1st there (100 points); seed 1 2nd (90).
    On machines 2 and 3 seeds 1-8 are 1st-8th. Totals: seed 1 90+100+100 = 290; 2 85+90+90 = 265;
    8 100+80+80 = 260; 3 84+85+85 = 254; 4 251; 5 248; 6 245; 7 242.
    QF places: 1, 2, 8, 3, 4, 5, 6, 7 = 1st-8th.
    EPC Semi-Finals: group A = places 1, 3, 5, 7 = players 1, 8, 4, 6 (in that order of choosing
    a player position); group B = 2, 4, 6, 8 = players 2, 3, 5, 7.
    A: 8 (40k), 4 (30k) to the final; 6, 1 to the play-off. B: 7 (35k), 5 (25k) to the final.
    EPC Finals: play-off players by QF rank: 1, 2, 3, 6; final: 8, 4, 5, 7. Play-off 6 > 3 > 2 > 1
    -> 5th-8th; final 5 > 7 > 8 > 4 -> champion 5, then 7, 8, 4. Stand-bys 9, 10 fill nothing and
    keep their qualifying places (EPC Qualifying)."""
    tid = "m1"
    await qualified(api, tid, 10, SMALL)
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 6, 7, 8])
    await ok(api, tid, "rounds", {"round": 1})
    await play_quarterfinal(api, tid, "B", seed_games)
    await register_all(api, tid, 2, [1, 2, 3, 4])
    await ok(api, tid, "rounds", {"round": 2})
    await play_quarterfinal(api, tid, "A", seed_games)
    v = await views(api, tid)
    m1 = v["quarterfinal/1"]["rows"]
    assert m1["8"] == {"score": 9_500, "place": 1, "points": 100, "games": 2}
    assert (m1["1"]["place"], m1["1"]["points"]) == (2, 90)
    rows = v["quarterfinal"]["rows"]
    totals = {p: row["total"] for p, row in rows.items()}
    assert totals == {
        "1": 290, "2": 265, "8": 260, "3": 254, "4": 251, "5": 248, "6": 245, "7": 242
    }  # fmt: skip
    assert places(rows) == {"1": 1, "2": 2, "8": 3, "3": 4, "4": 5, "5": 6, "6": 7, "7": 8}
    assert {row["band"] for row in rows.values()} == {"semifinal"}
    assert v["quarterfinal"]["complete"] is True

    await ok(api, tid, "stage", {"stage": "semifinal"})
    semis = (await views(api, tid))["semifinal"]["games"]
    assert choice_order(semis["A"]) == ["1", "8", "4", "6"]
    assert choice_order(semis["B"]) == ["2", "3", "5", "7"]
    await play_game(
        api, tid, "semifinal", "A", {"1": 10_000, "8": 40_000, "4": 30_000, "6": 20_000}
    )
    await play_game(api, tid, "semifinal", "B", {"2": 5_000, "3": 15_000, "5": 25_000, "7": 35_000})
    semis = (await views(api, tid))["semifinal"]["games"]
    assert places(semis["A"]["players"]) == {"8": 1, "4": 2, "6": 3, "1": 4}
    assert semis["A"]["decided"] and semis["B"]["decided"]

    await ok(api, tid, "stage", {"stage": "final"})
    finals = (await views(api, tid))["finals"]["games"]
    assert choice_order(finals["playoff"]) == ["1", "2", "3", "6"]
    assert choice_order(finals["final"]) == ["8", "4", "5", "7"]
    await play_game(
        api, tid, "finals", "playoff", {"1": 20_000, "2": 30_000, "3": 40_000, "6": 50_000}
    )
    await play_game(
        api, tid, "finals", "final", {"8": 70_000, "4": 60_000, "5": 90_000, "7": 80_000}
    )
    await ok(api, tid, "stage", {"stage": "complete"})
    v = await views(api, tid)
    assert places(v["finals"]["games"]["playoff"]["players"]) == {"6": 5, "3": 6, "2": 7, "1": 8}
    placings = v["placings"]
    assert placings["complete"] is True
    assert places(placings["rows"]) == {
        "5": 1, "7": 2, "8": 3, "4": 4, "6": 5, "3": 6, "2": 7, "1": 8, "9": 9, "10": 10
    }  # fmt: skip
    assert placings["rows"]["9"]["stage"] == "standby"
    assert v["stage"]["stage"] == "complete"
    # the EPC is over: a score now is refused
    late = await api.score(tid, 5, 1, 1_000)
    assert late.status_code == 409 and "over" in late.json()["message"]


def by_number(player: str, machine: str) -> tuple[int, int]:
    """Every game of player p scores p x 1000: the higher the number, the better."""
    return int(player) * 1000 - 1, int(player) * 1000


async def play_out(api: Api, tid: str) -> dict[str, int | None]:
    """Semi-finals and finals with every player scoring (number x 1000); returns placings."""
    await ok(api, tid, "stage", {"stage": "semifinal"})
    for key in ("A", "B"):
        game = (await views(api, tid))["semifinal"]["games"][key]
        await play_game(api, tid, "semifinal", key, {p: int(p) * 1000 for p in game["players"]})
    await ok(api, tid, "stage", {"stage": "final"})
    for key in ("playoff", "final"):
        game = (await views(api, tid))["finals"]["games"][key]
        await play_game(api, tid, "finals", key, {p: int(p) * 1000 for p in game["players"]})
    return places((await views(api, tid))["placings"]["rows"])


async def standby_case(api: Api, tid: str, replaced_rank: str) -> dict[str, int | None]:
    """12 players: seeds 1-8, stand-bys 9 and 10, then 11 and 12. Seeds 6 and 8 do not
    re-register for round 1; 9 and 10 do."""
    await qualified(api, tid, 12, {**SMALL, "replaced_rank": replaced_rank})
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 7, 9, 10])
    await ok(api, tid, "rounds", {"round": 1})
    seeds = (await views(api, tid))["quarterfinal"]["seeds"]
    assert seeds["6"] == {"group": "B", "qualifier": "6", "player": "9", "replaced": True}
    assert seeds["8"] == {"group": "B", "qualifier": "8", "player": "10", "replaced": True}
    await play_quarterfinal(api, tid, "B", by_number)
    await register_all(api, tid, 2, [1, 2, 3, 4])
    await ok(api, tid, "rounds", {"round": 2})
    await play_quarterfinal(api, tid, "A", by_number)
    return await play_out(api, tid)


async def test_standby_fills_the_highest_vacancy_and_the_replaced_take_its_rank(api: Api) -> None:
    """EPC Quarter-Finals: "the stand-by player ranked 33rd will fill the highest ranked vacant
    position, the 34th ranked player the next": 9 plays seed 6, 10 plays seed 8. "Once a player
    has been replaced ... will take the final rank of the player who replaced them": with
    ``replaced_rank="swap"`` (default) the qualifying rank the stand-by held: 6 -> 9th, 8 -> 10th.
    Everyone scores number x 1000, so QF order 10, 9, 7, 5, 4, 3, 2, 1; semi A 10, 7, 4, 2 and B
    9, 5, 3, 1; final 10, 9, 7, 5 -> 1st-4th; play-off 4, 3, 2, 1 -> 5th-8th. 11th, 12th by
    qualifying ("placed 39th-150th depending on their ranking points")."""
    got = await standby_case(api, "m2", "swap")
    assert got == {
        "10": 1, "9": 2, "7": 3, "5": 4, "4": 5, "3": 6, "2": 7, "1": 8,
        "6": 9, "8": 10, "11": 11, "12": 12,
    }  # fmt: skip


async def test_replaced_rank_same_shares_the_replacements_final_place(api: Api) -> None:
    """The literal reading (``replaced_rank="same"``): 8 (replaced by 10, the champion) shares
    1st; 6 (replaced by 9, 2nd) shares 2nd."""
    got = await standby_case(api, "m3", "same")
    assert (got["8"], got["10"], got["6"], got["9"]) == (1, 1, 2, 2)


async def test_an_unused_standby_keeps_their_qualifying_rank(api: Api) -> None:
    """EPC Qualifying: "Any stand-by players who do not fill a vacant position ... receive their
    qualifying round ranking". Only seed 8 is absent; 9 fills it, 10 is not needed: 10th."""
    tid = "m4"
    await qualified(api, tid, 10, SMALL)
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 6, 7, 9, 10])
    await ok(api, tid, "rounds", {"round": 1})
    await play_quarterfinal(api, tid, "B", by_number)
    await register_all(api, tid, 2, [1, 2, 3, 4])
    await ok(api, tid, "rounds", {"round": 2})
    await play_quarterfinal(api, tid, "A", by_number)
    rows = (await views(api, tid))["placings"]["rows"]
    assert rows["10"] == {"place": 10, "stage": "standby"}
    assert rows["8"] == {"place": 9, "stage": "replaced"}


async def vacancies_case(api: Api, tid: str, mode: str) -> dict[str, dict[str, str]]:
    """Seed 8 (group B) and seed 2 (group A) are absent; stand-bys 9 and 10 are at the desk for
    both rounds, all registrations made before round 1."""
    await qualified(api, tid, 10, {**SMALL, "vacancies": mode})
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 6, 7, 9, 10])
    await register_all(api, tid, 2, [1, 3, 4, 9, 10])
    await ok(api, tid, "rounds", {"round": 1})
    await play_quarterfinal(api, tid, "B", by_number)
    await ok(api, tid, "rounds", {"round": 2})
    return (await views(api, tid))["quarterfinal"]["seeds"]  # type: ignore[no-any-return]


async def test_vacancies_by_round_fill_group_b_first(api: Api) -> None:
    """``vacancies="by-round"`` (default): group B's round comes first, so 33rd (9) fills seed 8
    at 11am, and 10 fills seed 2 at 1pm."""
    seeds = await vacancies_case(api, "m5", "by-round")
    assert (seeds["8"]["player"], seeds["2"]["player"]) == ("9", "10")


async def test_vacancies_together_fill_the_highest_seed_first(api: Api) -> None:
    """``vacancies="together"``: one list before either round, highest seed first: 9 fills seed
    2, 10 fills seed 8 (and round 2 registrations close at round 1)."""
    seeds = await vacancies_case(api, "m6", "together")
    assert (seeds["2"]["player"], seeds["8"]["player"]) == ("9", "10")
    late = await td(api, "m6", "registrations", {"player": "1", "round": 2, "present": False})
    assert late.status_code == 409


async def to_semifinals(api: Api, tid: str, settings: dict[str, str]) -> None:
    await qualified(api, tid, 8, {**SMALL, "standby": 0, **settings})
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 6, 7, 8])
    await ok(api, tid, "rounds", {"round": 1})
    await play_quarterfinal(api, tid, "B", seed_games)
    await register_all(api, tid, 2, [1, 2, 3, 4])
    await ok(api, tid, "rounds", {"round": 2})
    await play_quarterfinal(api, tid, "A", seed_games)
    await ok(api, tid, "stage", {"stage": "semifinal"})


async def test_equal_semifinal_scores_at_the_cut_wait_for_a_playoff(api: Api) -> None:
    """EPC Semi-Finals: "the top two highest scoring contestants ... go on to the final". Group A
    (1, 8, 4, 6): 1 leads, 8 and 4 tie on 30,000 for 2nd. ``game_ties="playoff"`` (default): the
    game waits for the TD's play-off order; 4 wins it and goes to the final with 1."""
    tid = "m7"
    await to_semifinals(api, tid, {})
    await play_game(api, tid, "semifinal", "A", {"1": 50_000, "8": 30_000, "4": 30_000, "6": 1})
    await play_game(api, tid, "semifinal", "B", {"2": 4, "3": 3, "5": 2, "7": 1})
    game = (await views(api, tid))["semifinal"]["games"]["A"]
    assert game["decided"] is False and game["tie"] == ["8", "4"]
    refused = await td(api, tid, "stage", {"stage": "final"})
    assert refused.status_code == 409 and "8, 4" in refused.json()["message"]
    await ok(api, tid, "playoffs", {"tie": "A", "order": ["4", "8"]})
    await ok(api, tid, "stage", {"stage": "final"})
    final = (await views(api, tid))["finals"]["games"]["final"]
    assert choice_order(final) == ["1", "2", "3", "4"]


async def test_equal_semifinal_scores_by_seed(api: Api) -> None:
    """``game_ties="seed"``: the better quarter-final rank goes through: 8 (3rd) before 4 (5th)."""
    tid = "m8"
    await to_semifinals(api, tid, {"game_ties": "seed"})
    await play_game(api, tid, "semifinal", "A", {"1": 50_000, "8": 30_000, "4": 30_000, "6": 1})
    game = (await views(api, tid))["semifinal"]["games"]["A"]
    assert game["decided"] is True
    assert places(game["players"]) == {"1": 1, "8": 2, "4": 3, "6": 4}
