"""FWPL league nights through the HTTP API on a real server and Redis: the ladder and groups
(FWPL 3.1, 4.1-4.3), game points (3.2), machine picks (5), match bonus (3.3), forfeits and the
absence credit (2.4), the season table and next week's ladder. Expected values are worked by
hand from the rule text in the comments; helpers here are shared by the other FWPL test files."""

from __future__ import annotations

from typing import Any

import httpx

from tests.utils import Api, connect, receive, ws_url

LEAGUE = "fwpl-league"

# Ten members (number, name, IFPA rank). Week 1's ladder (FWPL 4.3): ranked players by rank,
# then the unranked alphabetically: 9 (2), 4 (5), 2 (20), 8 (75), 7 (150), 1 (300), 10 (600),
# 6 (1000), 5 Amy, 3 Zed.
TEN = [
    ("1", "Cleo", 300), ("2", "Ben", 20), ("3", "Zed", None), ("4", "Dev", 5), ("5", "Amy", None),
    ("6", "Edie", 1000), ("7", "Fox", 150), ("8", "Gus", 75), ("9", "Hal", 2), ("10", "Iris", 600),
]  # fmt: skip


async def league(
    api: Api,
    tid: str,
    members: list[tuple[str, str, int | None]] | int,
    machines: int = 6,
    settings: dict[str, Any] | None = None,
) -> None:
    """A league ``tid`` with ``members`` (or n members ranked 1..n) and machines m1..m<n>."""
    if isinstance(members, int):
        members = [(str(n), f"Player {n}", n) for n in range(1, members + 1)]
    body = {"id": tid, "name": f"League {tid}", "format": LEAGUE, "settings": settings or {}}
    (await api.post("/api/tournaments", body)).raise_for_status()
    players = [
        {"number": n, "name": name, **({"ifpa_rank": rank} if rank else {})}
        for n, name, rank in members
    ]
    (await api.post(f"/api/t/{tid}/league/players", {"players": players})).raise_for_status()
    kit = [{"id": f"m{n}", "name": f"Machine {n}"} for n in range(1, machines + 1)]
    (await api.post(f"/api/t/{tid}/machines", {"machines": kit})).raise_for_status()


async def start(api: Api, tid: str, week: int, **body: Any) -> dict[str, Any]:
    """Start week ``week`` (seed 1 unless given); returns its night view."""
    answer = await api.post(f"/api/t/{tid}/league/nights", {"week": week, "seed": 1, **body})
    assert answer.status_code == 201, answer.text
    return await night(api, tid, week)


async def night(api: Api, tid: str, week: int) -> dict[str, Any]:
    return (await api.views(tid))["views"][f"night/{week}"]  # type: ignore[no-any-return]


async def view(api: Api, tid: str, name: str) -> dict[str, Any]:
    return (await api.views(tid))["views"][name]  # type: ignore[no-any-return]


def members(group: dict[str, Any]) -> list[str]:
    """A group's players in seeding order."""
    return sorted(group["players"], key=lambda p: group["players"][p]["seed"])


async def game(
    api: Api, tid: str, week: int, group: int, scores: dict[str, int | None], **extra: Any
) -> httpx.Response:
    """Record the group's next game on its assigned or first allowed machine, picking if need be."""
    doc = (await night(api, tid, week))["groups"][str(group)]
    machine = extra.pop("machine", None) or doc.get("machine") or doc["allowed"][0]
    body = {"week": week, "group": group, "game_no": doc["game_no"], "machine": machine}
    return await api.post(f"/api/t/{tid}/league/games", {**body, "scores": scores, **extra})


async def play(api: Api, tid: str, week: int, group: int, scores: dict[str, int | None]) -> None:
    answer = await game(api, tid, week, group, scores)
    assert answer.status_code == 201, answer.text


def points(group: dict[str, Any], game_no: int) -> dict[str, int]:
    return {p: row["points"] for p, row in group["games"][str(game_no)]["rows"].items()}


async def test_groups_follow_the_ladder_and_the_group_table(api: Api) -> None:
    await league(api, "fl1", TEN)
    doc = await start(api, "fl1", 1)
    # FWPL 4.1: 10 players are 4 3 3; 4.2: the ladder cut top down, seeding order within a group
    assert [members(doc["groups"][g]) for g in ("1", "2", "3")] == [
        ["9", "4", "2", "8"],
        ["7", "1", "10"],
        ["6", "5", "3"],
    ]
    firsts = [doc["groups"][g]["machine"] for g in ("1", "2", "3")]
    assert len(set(firsts)) == 3  # FWPL 5: a first machine each, drawn from the league's
    assert set(firsts) <= {f"m{n}" for n in range(1, 7)}
    # FWPL 5.2: the first game is played in seeding order
    assert [doc["groups"]["1"]["players"][p]["order"] for p in ("9", "4", "2", "8")] == [1, 2, 3, 4]


async def test_an_announced_absence_regroups_the_night(api: Api) -> None:
    await league(api, "fl2", TEN)
    doc = await start(api, "fl2", 1, absent=["2"])
    # FWPL 3.1: groups are adjusted for announced absences; 9 players are 3 3 3 (FWPL 4.1)
    assert [members(doc["groups"][g]) for g in ("1", "2", "3")] == [
        ["9", "4", "8"],
        ["7", "1", "10"],
        ["6", "5", "3"],
    ]
    assert doc["absent"] == ["2"]


async def test_the_same_seed_draws_the_same_first_machines(api: Api) -> None:
    await league(api, "fl3", TEN)
    await league(api, "fl4", TEN)
    one = await start(api, "fl3", 1, seed=424242)
    two = await start(api, "fl4", 1, seed=424242)
    assert [g["machine"] for g in one["groups"].values()] == [
        g["machine"] for g in two["groups"].values()
    ]
    log = (await api.http.get("/api/t/fl3/log")).json()["records"]
    started = [r for r in log if r["type"] == "night_started"]
    assert started[0]["seed"] == 424242  # the draw is in the log: every replica agrees


async def test_game_points_and_bonus_points_as_in_the_rules(api: Api) -> None:
    await league(api, "fl5", TEN)
    await start(api, "fl5", 1)
    # FWPL 3.2, four players: 7/5/3/1; 1000 > 600 + 300 gives the winner the bonus point,
    # 600 > 300 + 200 gives 2nd the second one: 8, 6, 3, 1
    await play(api, "fl5", 1, 1, {"9": 1000, "4": 600, "2": 300, "8": 200})
    # Neither: 800 <= 500 + 400, 500 <= 400 + 200: 3rd and 4th get them: 7, 5, 4, 2
    await play(api, "fl5", 1, 1, {"9": 800, "4": 500, "2": 400, "8": 200})
    # Three players 7/4/1: 100 > 50 + 40, the winner's bonus: 8, 4, 1
    await play(api, "fl5", 1, 2, {"7": 100, "1": 40, "10": 50})
    # A forfeit (FWPL 2.4): scored as a two-player game, 7/1; 300 is not more than 3 x 100, so
    # the loser gets the bonus: 7, 2; the forfeit scores 0
    await play(api, "fl5", 1, 3, {"6": 300, "5": 100, "3": None})
    doc = await night(api, "fl5", 1)
    assert points(doc["groups"]["1"], 1) == {"9": 8, "4": 6, "2": 3, "8": 1}
    assert points(doc["groups"]["1"], 2) == {"9": 7, "4": 5, "2": 4, "8": 2}
    assert points(doc["groups"]["2"], 1) == {"7": 8, "10": 4, "1": 1}
    three = doc["groups"]["3"]["games"]["1"]["rows"]
    assert {p: r["points"] for p, r in three.items()} == {"6": 7, "5": 2, "3": 0}
    assert three["3"]["forfeit"] is True and "place" not in three["3"]
    assert doc["groups"]["1"]["players"]["9"]["total"] == 15
    season = (await view(api, "fl5", "season"))["rows"]
    assert season["9"]["points"] == 15 and season["3"]["forfeits"] == 1


async def test_the_last_placed_player_picks_an_unplayed_free_machine(api: Api) -> None:
    await league(api, "fl6", TEN)
    doc = await start(api, "fl6", 1)
    first = {g: doc["groups"][g]["machine"] for g in ("1", "2", "3")}
    await play(api, "fl6", 1, 1, {"9": 1000, "4": 600, "2": 300, "8": 200})
    group = (await night(api, "fl6", 1))["groups"]["1"]
    # FWPL 5: the fourth-placed player picks; not a machine the group has played, nor one
    # another group is playing
    assert group["picker"] == "8"
    assert "machine" not in group
    assert set(group["allowed"]) == {f"m{n}" for n in range(1, 7)} - set(first.values())
    pick = {"week": 1, "group": 1, "game_no": 2}
    played = await api.post("/api/t/fl6/league/picks", {**pick, "machine": first["1"]})
    assert played.status_code == 409 and "already played it tonight" in played.json()["message"]
    busy = await api.post("/api/t/fl6/league/picks", {**pick, "machine": first["2"]})
    assert busy.status_code == 409 and busy.json()["error"] == "machine_not_allowed"
    # ... unless that group is at ball 3
    ball3 = {"week": 1, "group": 2, "game_no": 1}
    assert (await api.post("/api/t/fl6/league/last-ball", ball3)).status_code == 201
    ok = await api.post("/api/t/fl6/league/picks", {**pick, "machine": first["2"]})
    assert ok.status_code == 201, ok.text
    group = (await night(api, "fl6", 1))["groups"]["1"]
    assert group["machine"] == first["2"] and group["picked_by"] == "8"
    assert group["waiting"] is True  # group 2 is still on it
    # FWPL 5.2: the next game's play order is the previous game's result
    assert [group["players"][p]["order"] for p in ("9", "4", "2", "8")] == [1, 2, 3, 4]


async def test_match_bonus_equals_or_exceeds_in_a_group_of_four(api: Api) -> None:
    await league(api, "fl7", TEN)
    await start(api, "fl7", 1)
    # Each game: 10000 > 300 + 200 (winner's bonus); 300 <= 200 + 150 (4th's bonus):
    # 8, 5, 3, 2. Four games: 32, 20, 12, 8.
    for _ in range(4):
        await play(api, "fl7", 1, 1, {"9": 10_000, "4": 300, "2": 200, "8": 150})
    players = (await night(api, "fl7", 1))["groups"]["1"]["players"]
    # FWPL 3.3, four players: 32 >= 20 + 12 and 20 >= 12 + 8 ("equals or exceeds"), so 1st
    # and 2nd get the match bonus points (with 3.2's "exceeds" 3rd and 4th would)
    assert {
        p: (r["points"], r.get("bonus", 0), r["total"], r["place"]) for p, r in players.items()
    } == {
        "9": (32, 1, 33, 1),
        "4": (20, 1, 21, 2),
        "2": (12, 0, 12, 3),
        "8": (8, 0, 8, 4),
    }


async def test_a_season_of_two_weeks_with_forfeits_and_an_absence(api: Api) -> None:
    await league(api, "fl8", 6, machines=4)
    doc = await start(api, "fl8", 1)
    assert [members(doc["groups"][g]) for g in ("1", "2")] == [["1", "2", "3"], ["4", "5", "6"]]
    for _ in range(4):  # 1000 > 100 + 10: 8, 4, 1 each game: 32, 16, 4
        await play(api, "fl8", 1, 1, {"1": 1000, "2": 100, "3": 10})
    for _ in range(3):  # player 6 is not there: two players, 500 > 3 x 100: 8, 1
        await play(api, "fl8", 1, 2, {"4": 500, "5": 100, "6": None})
    await play(api, "fl8", 1, 2, {"4": 500, "5": 100, "6": 50})  # 8, 4, 1
    players = (await night(api, "fl8", 1))["groups"]["2"]["players"]
    # FWPL 3.3: three forfeits leave player 6 out of the match bonus; 4 and 5 play a two-player
    # fifth game: 32 > 3 x 7, so 4 gets the point
    assert players["6"]["excluded"] is True and "bonus" not in players["6"]
    assert (players["4"]["total"], players["5"]["total"], players["6"]["total"]) == (33, 7, 1)
    close = await api.post("/api/t/fl8/league/close", {"week": 1})
    assert close.status_code == 201
    # Season: 1 and 4 have 33 (1: 32 + bonus, fifth game 32 > 16 + 4); 2 16, 5 7, 3 4, 6 1.
    # FWPL 4.3: ranked by points, the tie by last week's ladder (1 before 4)
    doc = await start(api, "fl8", 2)
    assert [members(doc["groups"][g]) for g in ("1", "2")] == [["1", "4", "2"], ["5", "3", "6"]]
    for _ in range(4):  # player 2 does not come (unannounced): 1000 > 3 x 100: 8, 1
        await play(api, "fl8", 2, 1, {"1": 1000, "4": 100, "2": None})
        await play(api, "fl8", 2, 2, {"5": 1000, "3": 100, "6": 10})
    await api.post("/api/t/fl8/league/close", {"week": 2})
    season = (await view(api, "fl8", "season"))["rows"]
    # FWPL 2.4: a whole night of forfeits earns 50% of the average night so far: 16 / 2 = 8
    assert season["2"]["credit"] == 8 and season["2"]["forfeits"] == 4
    assert {p: r["points"] for p, r in season.items()} == {
        "1": 33 + 33,
        "4": 33 + 4,
        "5": 7 + 33,
        "2": 16 + 8,
        "3": 4 + 16,
        "6": 1 + 4,
    }
    assert season["2"]["weeks"] == {"1": 16, "2": 8}
    # Next week's ladder: 66, 40, 37, 24, 20, 5
    ladder = sorted(season, key=lambda p: season[p]["ladder"])
    assert ladder == ["1", "5", "4", "2", "3", "6"]
    standings = (await view(api, "fl8", "standings"))["rows"]
    assert standings["1"] == {"place": 1, "total": 66, "played": 2}


async def test_equal_scores_need_the_one_ball_playoff_order(api: Api) -> None:
    await league(api, "fl9", TEN)
    await start(api, "fl9", 1)
    tied = {"7": 500, "1": 500, "10": 100}
    refused = await game(api, "fl9", 1, 2, tied)
    assert refused.status_code == 409 and refused.json()["error"] == "playoff_needed"
    assert "1, 7" in refused.json()["message"]
    # FWPL 3.2: the one-ball play-off decides; 1 wins it: 1 first (500 <= 500 + 100: 3rd's bonus)
    assert (await game(api, "fl9", 1, 2, tied, playoff=["1", "7"])).status_code == 201
    rows = (await night(api, "fl9", 1))["groups"]["2"]["games"]["1"]["rows"]
    assert {p: (r["place"], r["points"]) for p, r in rows.items()} == {
        "1": (1, 7),
        "7": (2, 4),
        "10": (3, 2),
    }


async def test_scores_one_by_one_count_when_the_group_is_complete(api: Api) -> None:
    await league(api, "fl10", TEN)
    doc = await start(api, "fl10", 1)
    machine = doc["groups"]["2"]["machine"]
    ref = {"week": 1, "group": 2, "game_no": 1, "machine": machine}
    first = {**ref, "lines": [{"player": "7", "score": 100}, {"player": "10", "score": None}]}
    assert (await api.post("/api/t/fl10/league/scores", first)).status_code == 201
    group = (await night(api, "fl10", 1))["groups"]["2"]
    assert group["entered"] == {"7": {"score": 100}, "10": {"forfeit": True}}
    assert group["games"] == {} and group["game_no"] == 1
    again = await api.post(
        "/api/t/fl10/league/scores", {**ref, "lines": [{"player": "7", "score": 5}]}
    )
    assert again.status_code == 409 and "already has a score" in again.json()["message"]
    # the generic steward page's push lands on the player's group's game tonight
    last = await api.score("fl10", "1", machine, 30)
    assert last.status_code == 201, last.text
    group = (await night(api, "fl10", 1))["groups"]["2"]
    # two players, 100 > 3 x 30: 8 and 1; the forfeit 0
    assert points(group, 1) == {"7": 8, "1": 1, "10": 0}
    assert group["game_no"] == 2 and "entered" not in group
    elsewhere = next(m for m in ("m1", "m2") if m != doc["groups"]["1"]["machine"])
    wrong = await api.score("fl10", "9", elsewhere, 40)  # group 1 plays its own machine
    assert wrong.status_code == 409 and wrong.json()["error"] == "machine_not_allowed"


async def test_penalties_and_a_compensatory_game(api: Api) -> None:
    await league(api, "fl11", TEN)
    await start(api, "fl11", 1)
    # FWPL 8.1: 1000 x 3/4 = 750, now behind 800; 8.7: a deathsave scores 0 but is still
    # placed; 7.3: 1000 + 600 - 200 = 1400, the best score
    body = {
        "penalties": {"9": "extra_ball", "8": "deathsave"},
        "compensatory": {"2": {"score": 600, "subtract": 200}},
    }
    scores = {"9": 1000, "4": 800, "2": 1000, "8": 5000}
    assert (await game(api, "fl11", 1, 1, scores, **body)).status_code == 201
    rows = (await night(api, "fl11", 1))["groups"]["1"]["games"]["1"]["rows"]
    assert rows["9"]["final"] == 750 and rows["2"]["final"] == 1400 and rows["8"]["final"] == 0
    # 1400 <= 800 + 750: the 3rd gets the first bonus (3 + 1); 800 > 750 + 0: the 2nd gets the
    # second (5 + 1)
    assert {p: r["place"] for p, r in rows.items()} == {"2": 1, "4": 2, "9": 3, "8": 4}
    assert {p: r["points"] for p, r in rows.items()} == {"2": 7, "4": 6, "9": 4, "8": 1}
    # FWPL 8.5 with no game in progress: the game with the player's most league points, the
    # last of equals. Game 2: 10000 > 800 + 700 gives 9 eight points (4 in game 1), so the
    # penalty falls on game 2.
    await play(api, "fl11", 1, 1, {"9": 10_000, "4": 800, "2": 700, "8": 10})
    penalty = {"week": 1, "group": 1, "player": "9", "penalty": "serious", "reason": "slam tilt"}
    assert (await api.post("/api/t/fl11/league/penalties", penalty)).status_code == 201
    group = (await night(api, "fl11", 1))["groups"]["1"]
    assert group["games"]["2"]["rows"]["9"] == {
        "score": 10_000,
        "points": 0,
        "forfeit": True,
        "penalty": "serious",
    }
    # the game rescored with three: 800 > 700 + 10: 8, 4, 1
    assert points(group, 2) == {"4": 8, "2": 4, "8": 1, "9": 0}


async def test_a_late_player_plays_last_and_does_not_pick(api: Api) -> None:
    await league(api, "fl12", TEN)
    await start(api, "fl12", 1)
    # FWPL 2.3/5.2: 8 joins game 1 late and comes last; the next-lowest on-time player picks
    late = {"9": 900, "4": 800, "2": 700, "8": 10}
    assert (await game(api, "fl12", 1, 1, late, late=["8"])).status_code == 201
    group = (await night(api, "fl12", 1))["groups"]["1"]
    assert group["picker"] == "2"
    # a player who missed game 1 plays last in the next game (FWPL 5.2)
    await play(api, "fl12", 1, 2, {"7": 100, "1": None, "10": 50})
    group = (await night(api, "fl12", 1))["groups"]["2"]
    assert sorted(group["players"], key=lambda p: group["players"][p]["order"]) == ["7", "10", "1"]


async def test_a_correction_rescores_the_game_and_the_season(api: Api) -> None:
    await league(api, "fl13", TEN)
    await start(api, "fl13", 1)
    await play(api, "fl13", 1, 2, {"7": 100, "1": 40, "10": 50})
    fix = {"week": 1, "group": 2, "game_no": 1, "scores": {"7": 100, "1": 60, "10": 50},
           "reason": "1 had 60; all three agree"}  # fmt: skip
    version = (await night(api, "fl13", 1))["groups"]["2"]["games"]["1"]["version"]
    headers = {**api.headers(), "If-Match": f'"{version}"'}
    r = await api.http.post("/api/t/fl13/league/corrections", json=fix, headers=headers)
    assert r.status_code == 201, r.text
    group = (await night(api, "fl13", 1))["groups"]["2"]
    assert group["games"]["1"]["version"] == r.json()["version"] > version
    # 100 <= 60 + 50: the 3rd's bonus: 7, 4, 2
    assert points(group, 1) == {"7": 7, "1": 4, "10": 2}
    assert (await view(api, "fl13", "season"))["rows"]["10"]["points"] == 2
    log = (await api.http.get("/api/t/fl13/log")).json()["records"]
    assert [r["type"] for r in log][-2:] == ["game_recorded", "game_corrected"]


async def test_refusals_say_why_and_write_nothing(api: Api, server: str) -> None:
    await league(api, "fl14", TEN)
    await start(api, "fl14", 1)
    version = (await api.views("fl14"))["version"]
    ref = {"week": 1, "group": 2, "game_no": 1}
    checks = [
        ({**ref, "scores": {"7": "lots", "1": 1, "10": 2}}, 422, "invalid_score"),
        ({**ref, "scores": {"7": 1.5, "1": 1, "10": 2}}, 422, "invalid_score"),
        ({**ref, "scores": {"7": 1, "1": 2}}, 409, "not_in_group"),  # 10 missing
        ({**ref, "scores": {"7": 1, "1": 2, "10": 3, "9": 4}}, 409, "not_in_group"),
        ({**ref, "game_no": 2, "scores": {"7": 1, "1": 2, "10": 3}}, 409, "entry_not_allowed"),
        ({**ref, "week": 2, "scores": {"7": 1, "1": 2, "10": 3}}, 409, "entry_not_allowed"),
        ({**ref, "group": 7, "scores": {"7": 1, "1": 2, "10": 3}}, 409, "not_in_group"),
        ({**ref, "machine": "no pe", "scores": {}}, 422, "invalid_request"),
    ]
    for body, status, code in checks:
        answer = await api.post("/api/t/fl14/league/games", body)
        assert (answer.status_code, answer.json()["error"]) == (status, code), (body, answer.text)
        assert answer.json()["message"]
    close = await api.post("/api/t/fl14/league/close", {"week": 1})
    assert close.status_code == 409 and "Group 1 has played 0 of 4" in close.json()["message"]
    pick = {**ref, "game_no": 1, "machine": "m99"}
    assert (await api.post("/api/t/fl14/league/picks", pick)).status_code == 404
    assert (await api.views("fl14"))["version"] == version
    async with httpx.AsyncClient(base_url=server) as anonymous:
        answer = await anonymous.post("/api/t/fl14/league/games", json=ref)
        assert answer.status_code == 401
    pin = (await api.post("/api/t/fl14/stewards", {"name": "Sue"})).json()["pin"]
    session = {"role": "steward", "tournament": "fl14", "name": "Sue", "pin": pin}
    steward = (await api.post("/api/session", session)).json()["token"]
    td_only = await api.post("/api/t/fl14/league/close", {"week": 1}, token=steward)
    assert td_only.status_code == 403
    match = {"division": "A", "players": ["1", "2", "3", "4"], "seed": 3}
    seeded = await api.post("/api/t/fl14/league/playoff-matches", match, token=steward)
    assert seeded.status_code == 403 and "seed" in seeded.json()["message"]
    await api.tournament("notleague", "epc-qualifying", players=2, machines=1)
    other = await api.post("/api/t/notleague/league/close", {"week": 1})
    assert other.status_code == 409 and other.json()["error"] == "not_a_league"
    assert (await api.post("/api/t/nosuch/league/close", {"week": 1})).status_code == 404


async def test_retries_with_one_key_record_once(api: Api) -> None:
    await league(api, "fl15", TEN)
    first = await api.post("/api/t/fl15/league/nights", {"week": 1}, key="night-1")
    again = await api.post("/api/t/fl15/league/nights", {"week": 1}, key="night-1")
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert first.json()["seed"] == again.json()["seed"]  # the seed drawn the first time
    assert first.json()["version"] == again.json()["version"]
    body = {"week": 1, "group": 2, "game_no": 1, "scores": {"7": 100, "1": 40, "10": 50}}
    one = await api.post("/api/t/fl15/league/games", body, key="g-1")
    two = await api.post("/api/t/fl15/league/games", body, key="g-1")
    assert one.json()["version"] == two.json()["version"]
    log = (await api.http.get("/api/t/fl15/log")).json()["records"]
    assert sum(r["type"] == "game_recorded" for r in log) == 1


async def test_settings_are_checked_and_fixed_once_the_season_runs(api: Api) -> None:
    bad = {"id": "fl16", "name": "x", "format": LEAGUE, "settings": {"match_bonus": "lots"}}
    answer = await api.post("/api/tournaments", bad)
    assert answer.status_code == 422 and "match_bonus" in answer.json()["message"]
    unknown = {**bad, "settings": {"bogus": 1}}
    assert (await api.post("/api/tournaments", unknown)).status_code == 422
    await league(api, "fl16", TEN, settings={"match_bonus_gte": "all", "playoff_ties": "countback"})
    settings = (await view(api, "fl16", "tournament"))["settings"]
    assert settings["match_bonus_gte"] == "all" and settings["playoff_ties"] == "countback"
    assert settings["weeks"] == 8 and settings["lone_score"] == "winner"  # the defaults shown
    await start(api, "fl16", 1)
    fixed = await api.post("/api/t/fl16/settings", {"settings": {"match_bonus": "fifth_game"}})
    assert fixed.status_code == 422 and "fixed once week 1" in fixed.json()["message"]
    longer = await api.post("/api/t/fl16/settings", {"settings": {"weeks": 10}})
    assert longer.status_code == 201
    assert (await view(api, "fl16", "tournament"))["weeks"] == 10


async def test_a_game_reaches_a_display_as_one_small_patch(api: Api, server: str) -> None:
    await league(api, "fl17", TEN)
    await start(api, "fl17", 1)
    async with connect(ws_url(server, "fl17")) as ws:
        snapshot = await receive(ws)
        assert snapshot["type"] == "snapshot" and "night/1" in snapshot["views"]
        await play(api, "fl17", 1, 2, {"7": 100, "1": 40, "10": 50})
        patch = await receive(ws)
    assert patch["type"] == "patch" and patch["base"] == snapshot["version"]
    # the game touches its night, the season table and the standings, nothing else
    assert set(patch["patches"]) == {"night/1", "season", "standings"}
    group = patch["patches"]["night/1"]["groups"]
    assert set(group) == {"2"}  # only group 2 changed
    assert group["2"]["games"]["1"]["rows"]["7"]["points"] == 8


async def test_a_penalty_that_would_break_a_later_week_is_refused(api: Api) -> None:
    await league(api, "fl18", 6, machines=4)
    await start(api, "fl18", 1)
    for _ in range(4):
        await play(api, "fl18", 1, 1, {"1": 1000, "2": 100, "3": 10})
        await play(api, "fl18", 1, 2, {"4": 1000, "5": 100, "6": 10})
    await api.post("/api/t/fl18/league/close", {"week": 1})
    await start(api, "fl18", 2)
    serious = {"week": 1, "group": 1, "player": "1", "penalty": "serious", "reason": "interference"}
    for game_no in (1, 2):
        answer = await api.post("/api/t/fl18/league/penalties", {**serious, "game_no": game_no})
        assert answer.status_code == 201, answer.text
    # FWPL 8.5: a third serious offence in week 1 would wipe player 1 from the season after
    # week 1, but they are playing week 2: the server refuses it and keeps a consistent state
    third = await api.post("/api/t/fl18/league/penalties", {**serious, "game_no": 3})
    assert third.status_code == 409 and third.json()["error"] == "season_forfeited"
    rows = (await view(api, "fl18", "night/1"))["groups"]["1"]["games"]
    assert [rows[n]["rows"]["1"].get("penalty") for n in ("1", "2", "3")] == [
        "serious",
        "serious",
        None,
    ]
