"""FWPL playoffs through the HTTP API: the cut and seeds (FWPL 6.1, 6.2), withdrawals (6.6), the
eight-player bracket with PAPA points (6.3), machine choice by the loser (6.4), ties settled by a
tie-breaker (6.5) and a player missing at the start (6.6). Values worked by hand in comments."""

from __future__ import annotations

from typing import Any

from tests.display.competitions.fwpl.test_fwpl_live import league, play, start, view
from tests.utils import Api

STEEP = (10_000, 1_000, 100, 10)


async def one_week(api: Api, tid: str, players: int) -> None:
    """Week 1 with every game won in seeding order by steep scores, then closed."""
    doc = await start(api, tid, 1)
    for number, group in doc["groups"].items():
        order = sorted(group["players"], key=lambda p: group["players"][p]["seed"])
        for _ in range(4):
            await play(api, tid, 1, int(number), dict(zip(order, STEEP, strict=False)))
    assert (await api.post(f"/api/t/{tid}/league/close", {"week": 1})).status_code == 201


async def match(api: Api, tid: str, division: str, key: str) -> dict[str, Any]:
    return (await view(api, tid, "bracket"))["divisions"][division]["matches"][key]  # type: ignore[no-any-return]


async def playoff_game(
    api: Api, tid: str, players: list[str], order: list[str], division: str = "A"
) -> None:
    """The match's next game, finishing in ``order`` (400, 300, 200, 100); the loser of the
    previous game picks an unplayed machine (FWPL 6.4)."""
    current = next(
        m
        for m in (await view(api, tid, "bracket"))["divisions"][division]["matches"].values()
        if set(m["players"]) == set(players)
    )
    ref = {"division": division, "players": players, "game_no": current["game_no"]}
    machine = current.get("machine")
    if machine is None:
        machine = current["allowed"][0]
        picked = await api.post(f"/api/t/{tid}/league/playoff-picks", {**ref, "machine": machine})
        assert picked.status_code == 201, picked.text
    scores = {p: 400 - 100 * i for i, p in enumerate(order)}
    answer = await api.post(
        f"/api/t/{tid}/league/playoff-games", {**ref, "machine": machine, "scores": scores}
    )
    assert answer.status_code == 201, answer.text


async def test_an_eight_player_division_is_played_out(api: Api) -> None:
    await league(api, "fp1", 8)
    # Week 1: groups 1-4 and 5-8; steep scores give 8, 6, 3, 1 a game: 32, 24, 12, 4. Fifth game
    # of four (FWPL 3.3): 32 < 24 + 12 (3rd's point), 24 >= 12 + 4 (2nd's): 32, 25, 13, 4.
    await one_week(api, "fp1", 8)
    started = await api.post("/api/t/fp1/league/playoffs", {})
    assert started.status_code == 201, started.text
    bracket = await view(api, "fp1", "bracket")
    # FWPL 6.1: 16 or fewer players, the top 8; seeds by points, equal points in ladder order
    seeds = bracket["divisions"]["A"]["seeds"]
    assert sorted(seeds, key=seeds.__getitem__) == ["1", "5", "2", "6", "3", "7", "4", "8"]
    season = (await view(api, "fp1", "season"))["rows"]
    assert (season["5"]["division"], season["5"]["seed"]) == ("A", 2)
    # FWPL 6.3: semi-finals by seed 1-4-5-8 and 2-3-6-7
    semis = bracket["divisions"]["A"]["matches"]
    assert set(semis["semifinal-1"]["players"]) == {"1", "6", "3", "8"}
    assert set(semis["semifinal-2"]["players"]) == {"5", "2", "7", "4"}
    one, two = ["1", "6", "3", "8"], ["5", "2", "7", "4"]
    answer = await api.post(
        "/api/t/fp1/league/playoff-matches", {"division": "A", "players": one, "seed": 5}
    )
    assert answer.status_code == 201 and answer.json()["seed"] == 5
    first = await match(api, "fp1", "A", "semifinal-1")
    assert first["started"] is True and first["machine"] in {f"m{n}" for n in range(1, 7)}
    await playoff_game(api, "fp1", one, ["1", "6", "3", "8"])  # 4 2 1 0
    after = await match(api, "fp1", "A", "semifinal-1")
    # FWPL 6.4: the loser of the game picks, not a machine this match has played
    assert after["picker"] == "8" and first["machine"] not in after["allowed"]
    await playoff_game(api, "fp1", one, ["1", "6", "3", "8"])  # 4 2 1 0
    await playoff_game(api, "fp1", one, ["3", "1", "6", "8"])  # 4 2 1 0
    # FWPL 6.6: player 4 is not there at the start: three play for 4, 2, 1
    missing = {"division": "A", "players": two, "missing": ["4"]}
    assert (await api.post("/api/t/fp1/league/playoff-matches", missing)).status_code == 201
    for _ in range(3):
        await playoff_game(api, "fp1", two, ["5", "2", "7"])
    semi1 = (await match(api, "fp1", "A", "semifinal-1"))["players"]
    assert {p: (r["points"], r.get("advances", False)) for p, r in semi1.items()} == {
        "1": (10, True),
        "3": (6, True),
        "6": (5, False),
        "8": (0, False),
    }
    semi2 = (await match(api, "fp1", "A", "semifinal-2"))["players"]
    assert {p: r["points"] for p, r in semi2.items()} == {"5": 12, "2": 6, "7": 3, "4": 0}
    assert semi2["4"]["missing"] is True and semi2["4"]["place"] == 4
    # FWPL 6.3: the top two of each semi-final meet in the final, in seed order
    final = await match(api, "fp1", "A", "final-1")
    assert sorted(final["players"], key=lambda p: final["players"][p]["seed"]) == [
        "1",
        "5",
        "2",
        "3",
    ]
    players = ["1", "5", "2", "3"]
    assert (
        await api.post("/api/t/fp1/league/playoff-matches", {"division": "A", "players": players})
    ).status_code == 201
    for _ in range(3):
        await playoff_game(api, "fp1", players, ["2", "1", "5", "3"])
    division = (await view(api, "fp1", "bracket"))["divisions"]["A"]
    # 1st-4th by final points (12, 6, 3, 0; points from earlier rounds do not carry over);
    # semi-final losers share 5th (setting playoff_lower_places "shared")
    assert division["round"] == "done"
    assert division["places"] == {"2": 1, "1": 2, "5": 3, "3": 4, "6": 5, "8": 5, "7": 5, "4": 5}
    over = await api.post(
        "/api/t/fp1/league/playoff-games",
        {"division": "A", "players": players, "game_no": 4, "scores": {}},
    )
    assert over.status_code == 422  # there is no fourth game


async def test_a_three_way_tie_for_a_final_place_needs_a_tie_breaker(api: Api) -> None:
    await league(api, "fp2", 8)
    await one_week(api, "fp2", 8)
    await api.post("/api/t/fp2/league/playoffs", {})
    one = ["1", "6", "3", "8"]
    await api.post("/api/t/fp2/league/playoff-matches", {"division": "A", "players": one})
    # 6: 2 + 0 + 1, 3: 1 + 2 + 0, 8: 0 + 1 + 2: three tied on 3 for the second final place
    for order in (["1", "6", "3", "8"], ["1", "3", "8", "6"], ["1", "8", "6", "3"]):
        await playoff_game(api, "fp2", one, order)
    semi = await match(api, "fp2", "A", "semifinal-1")
    assert semi["complete"] is True and "tie" in semi and set(semi["tied"]) == {"6", "3", "8"}
    assert semi["players"]["1"]["advances"] is True
    assert all("advances" not in semi["players"][p] for p in ("6", "3", "8"))
    two = ["5", "2", "7", "4"]
    await api.post("/api/t/fp2/league/playoff-matches", {"division": "A", "players": two})
    for _ in range(3):
        await playoff_game(api, "fp2", two, ["5", "2", "7", "4"])
    # the final cannot start before the tie is broken
    early = await api.post(
        "/api/t/fp2/league/playoff-matches", {"division": "A", "players": ["1", "5", "2", "8"]}
    )
    assert early.status_code == 409
    short = await api.post(
        "/api/t/fp2/league/playoff-tiebreaks",
        {"division": "A", "players": one, "order": ["8", "3"]},
    )
    assert short.status_code == 409 and short.json()["error"] == "playoff_needed"
    # FWPL 6.5: the tie-breaker game between the tied players decides: 8 wins it
    done = await api.post(
        "/api/t/fp2/league/playoff-tiebreaks",
        {"division": "A", "players": one, "order": ["8", "3", "6"]},
    )
    assert done.status_code == 201, done.text
    semi = await match(api, "fp2", "A", "semifinal-1")
    assert "tie" not in semi and semi["players"]["8"]["advances"] is True
    final = await match(api, "fp2", "A", "final-1")
    assert set(final["players"]) == {"1", "8", "5", "2"}


async def test_a_tie_across_the_playoff_line_and_a_withdrawal(api: Api) -> None:
    await league(api, "fp3", 9)
    await league(api, "fp4", 9)
    # Nine players: groups of 3 (FWPL 4.1); steep scores: 8, 4, 1 a game, 32 > 16 + 4 gives the
    # winner the match bonus: 33, 16, 4 in every group
    await one_week(api, "fp3", 9)
    await one_week(api, "fp4", 9)
    season = await view(api, "fp3", "season")
    # the top 8 qualify (FWPL 6.1); players 3, 6 and 9 have 4 points each across the line
    assert season["cut"]["ties"] == [["3", "6", "9"]]
    refused = await api.post("/api/t/fp3/league/playoffs", {})
    assert refused.status_code == 409 and refused.json()["error"] == "playoff_needed"
    draw = await api.post(
        "/api/t/fp3/league/tiebreak-draws",
        {"players": ["3", "6", "9"], "reason": "cut", "seed": 11},
    )
    assert draw.status_code == 201
    drawn = (await view(api, "fp3", "tiebreaks"))["1"]
    assert drawn["players"] == ["3", "6", "9"] and drawn["machine"] in {
        f"m{n}" for n in range(1, 7)
    }
    # "settled by single ball play": 9 wins it, 3 second, 6 out
    answer = await api.post("/api/t/fp3/league/playoffs", {"tiebreaks": [["9", "3", "6"]]})
    assert answer.status_code == 201, answer.text
    seeds = (await view(api, "fp3", "bracket"))["divisions"]["A"]["seeds"]
    assert sorted(seeds, key=seeds.__getitem__) == ["1", "4", "7", "2", "5", "8", "9", "3"]
    # FWPL 6.6: player 1 cannot come; everyone below moves up a seed, so the line no longer cuts
    # the 4-point players and all three are in
    out = await api.post("/api/t/fp4/league/playoffs", {"withdrawn": ["1"]})
    assert out.status_code == 201, out.text
    bracket = await view(api, "fp4", "bracket")
    seeds = bracket["divisions"]["A"]["seeds"]
    assert sorted(seeds, key=seeds.__getitem__) == ["4", "7", "2", "5", "8", "3", "6", "9"]
    assert bracket["withdrawn"] == ["1"]
    assert (await view(api, "fp4", "season"))["rows"]["1"]["withdrawn"] is True
    late = await api.post("/api/t/fp4/league/nights", {"week": 2})
    assert late.status_code == 409  # the regular season is over
