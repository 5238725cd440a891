"""A UKPL meeting live over the API: regions and guests, adjustments with who and why, machine
faults, substitutions and multiplayer games. Expected values are worked by hand from
UKPL rules (sections cited per test); machine points per UKPL 3B (N = the
number of region players with a score on the machine, down to 1; a bonus point for more than
double the second)."""

from __future__ import annotations

from typing import Any

from tests.utils import Api

UKPL = "ukpl-meeting"
TZ = {1: 4_000_000, 2: 3_000_000, 3: 2_000_000, 4: 1_000_000, 5: 500_000}
"""Twilight Zone (machine 1): N = 5, so 5, 4, 3, 2, 1 machine points; 4m is not more than double
3m, so no bonus."""


async def meeting(api: Api, tid: str, settings: dict[str, Any] | None = None) -> None:
    """Players 1-5 of the region, machines 1 (Twilight Zone) and 2, the TZ scores above."""
    await api.tournament(tid, UKPL, players=5, machines=2, settings=settings)
    for player, score in TZ.items():
        assert (await api.score(tid, player, 1, score)).status_code == 201


async def adjust(api: Api, tid: str, **body: Any) -> Any:
    return await api.post(f"/api/t/{tid}/adjustments", body)


async def machine_rows(api: Api, tid: str, machine: str = "1") -> dict[str, Any]:
    return (await api.views(tid))["views"][f"machine/{machine}"]["rows"]  # type: ignore[no-any-return]


def points(rows: dict[str, Any]) -> dict[str, Any]:
    return {p: (row["score"], row.get("points")) for p, row in rows.items()}


async def test_a_slam_tilt_zeroes_the_game_with_who_and_why_and_can_be_withdrawn(api: Api) -> None:
    """UKPL 7D: a slam tilt ends the game with a score of zero. Player 1's 4,000,000 becomes 0:
    ranked last of 5 (1 point); players 2-5 move up (5, 4, 3, 2). The game stays in the log."""
    await meeting(api, "sl")
    r = await adjust(
        api, "sl", type="slam_tilt", player="1", machine="1", reason="slam tilt, ball 2"
    )
    assert r.status_code == 201, r.text
    seq = r.json()["adjustment"]
    rows = await machine_rows(api, "sl")
    assert points(rows) == {
        "1": (0, 1), "2": (3_000_000, 5), "3": (2_000_000, 4), "4": (1_000_000, 3),
        "5": (500_000, 2),
    }  # fmt: skip
    row = (await api.views("sl"))["views"]["adjustments"]["rows"][str(seq)]
    assert row["type"] == "slam_tilt" and row["by"] == "td:TD"
    assert row["reason"] == "slam tilt, ball 2" and row["status"] == "applied"
    assert row["effects"] == {"1": {"player": "1", "before": 4_000_000, "after": 0}}
    log = (await api.http.get("/api/t/sl/log")).json()["records"]
    assert any(r["type"] == "score_recorded" and r["score"] == 4_000_000 for r in log)

    assert row["version"] == seq
    headers = {**api.headers(), "If-Match": f'"{seq}"'}
    r = await api.http.post(
        f"/api/t/sl/adjustments/{seq}/withdraw", json={"reason": "it was a tilt"}, headers=headers
    )
    assert r.status_code == 201, r.text
    assert points(await machine_rows(api, "sl"))["1"] == (4_000_000, 5)
    row = (await api.views("sl"))["views"]["adjustments"]["rows"][str(seq)]
    assert row["status"] == "withdrawn" and row["withdrawn"]["reason"] == "it was a tilt"
    assert row["version"] == r.json()["version"]
    headers["If-Match"] = f'"{row["version"]}"'
    again = await api.http.post(
        f"/api/t/sl/adjustments/{seq}/withdraw", json={"reason": "twice"}, headers=headers
    )
    assert again.status_code == 409


async def test_a_replay_after_a_fault_discards_the_first_game(api: Api) -> None:
    """UKPL 6A/6C option 2: "discarding the current game and replaying the game from scratch". A
    second game is refused until the fault is recorded; until the replay is in, the first game
    still counts (pending). Player 1 replays 1,500,000: TZ becomes 3m (5), 2m (4), 1.5m (3),
    1m (2), 0.5m (1)."""
    await meeting(api, "rp")
    refused = await api.score("rp", 1, 1, 1_500_000)
    assert refused.status_code == 409
    assert refused.json()["message"].startswith("Player 1 already has a score on Machine 1")
    r = await adjust(api, "rp", type="fault_replay", player="1", machine="1", reason="ball stuck")
    seq = str(r.json()["adjustment"])
    views = (await api.views("rp"))["views"]
    assert views["adjustments"]["rows"][seq]["status"] == "pending"
    assert views["machine/1"]["rows"]["1"] == {"score": 4_000_000, "place": 1, "points": 5}

    assert (await api.score("rp", 1, 1, 1_500_000)).status_code == 201
    views = (await api.views("rp"))["views"]
    assert points(views["machine/1"]["rows"]) == {
        "1": (1_500_000, 3), "2": (3_000_000, 5), "3": (2_000_000, 4), "4": (1_000_000, 2),
        "5": (500_000, 1),
    }  # fmt: skip
    row = views["adjustments"]["rows"][seq]
    assert row["status"] == "applied"
    assert row["effects"]["1"] == {"player": "1", "before": 4_000_000, "after": 1_500_000}
    assert (await api.score("rp", 1, 1, 9_000_000)).status_code == 409  # one replay per fault
    no_game = await adjust(api, "rp", type="fault_replay", player="1", machine="2", reason="x")
    assert no_game.status_code == 409 and "no game on Machine 2" in no_game.json()["message"]


async def test_one_ball_of_a_new_game_is_added_to_the_completed_game(api: Api) -> None:
    """UKPL 6C option 1: "the scores of the two games will then be added together". Player 4
    (1,000,000) plays one ball for 2,100,000: 3,100,000, now 2nd of 5 (4 points)."""
    await meeting(api, "ob")
    await adjust(api, "ob", type="fault_one_ball", player="4", machine="1", reason="ball lost")
    assert (await api.score("ob", 4, 1, 2_100_000)).status_code == 201
    rows = await machine_rows(api, "ob")
    assert rows["4"] == {"score": 3_100_000, "place": 2, "points": 4}
    assert rows["2"]["place"] == 3


async def test_jackpot_and_extra_ball_adjust_the_score(api: Api) -> None:
    """UKPL 2E: 12,000,000 with an 8m random jackpot at a pre-agreed 5m: 12m - 8m + 5m = 9m.
    UKPL 7C: an extra ball on the last ball leaves 80% (1,000,000 -> 800,000); not stopping
    within 10 seconds scores zero for the game (500,000 -> 0)."""
    await api.tournament("jx", UKPL, players=5, machines=1)
    for player, score in {
        1: 12_000_000,
        2: 3_000_000,
        3: 2_000_000,
        4: 1_000_000,
        5: 500_000,
    }.items():
        await api.score("jx", player, 1, score)
    r = await adjust(api, "jx", type="jackpot_adjusted", player="1", machine="1",
                     awarded=[8_000_000], agreed=5_000_000, reason="jackpot fixed at 5m")  # fmt: skip
    assert r.status_code == 201, r.text
    r = await adjust(api, "jx", type="extra_ball_penalty", player="4", machine="1",
                     last_ball=True, reason="played the extra ball")  # fmt: skip
    assert r.status_code == 201, r.text
    r = await adjust(api, "jx", type="extra_ball_penalty", player="5", machine="1",
                     last_ball=False, kept_playing=True, reason="did not stop")  # fmt: skip
    assert r.status_code == 201, r.text
    rows = await machine_rows(api, "jx")
    # 9m is more than double 3m: 5 points and the bonus point (UKPL 3B)
    assert rows["1"] == {"score": 9_000_000, "place": 1, "points": 6, "bonus": 1}
    assert rows["4"]["score"] == 800_000 and rows["5"]["score"] == 0
    bad = await adjust(api, "jx", type="jackpot_adjusted", player="2", machine="1",
                       awarded=[8_000_000], agreed=5_000_000, reason="typo")  # fmt: skip
    assert bad.status_code == 422  # an 8m jackpot in a 3m game
    assert len((await api.views("jx"))["views"]["adjustments"]["rows"]) == 3


async def test_penalties_zero_disqualify_and_escalate(api: Api) -> None:
    """UKPL 7A: "award zero score on the machine", "disqualify the player from the meet, ie zero
    all scores on all machines", and after a penalty "the next level of penalty above will be
    imposed as a minimum". Player 3 scores on both machines; disqualified, both become 0."""
    await meeting(api, "pn")
    await api.score("pn", 3, 2, 700_000)
    await api.score("pn", 1, 2, 100_000)
    r = await adjust(api, "pn", type="penalty", player="2", level="zero", machine="1",
                     reason="banged the glass")  # fmt: skip
    assert r.status_code == 201, r.text
    assert (await machine_rows(api, "pn"))["2"]["score"] == 0
    lower = await adjust(api, "pn", type="penalty", player="2", level="zero", machine="1",
                         reason="again")  # fmt: skip
    assert lower.status_code == 409 and "at least disqualify" in lower.json()["message"]
    r = await adjust(api, "pn", type="penalty", player="3", level="disqualify", reason="abuse")
    assert r.status_code == 201, r.text
    assert (await machine_rows(api, "pn"))["3"]["score"] == 0
    assert (await machine_rows(api, "pn", "2"))["3"] == {"score": 0, "place": 2, "points": 1}
    effects = (await api.views("pn"))["views"]["adjustments"]["rows"][str(r.json()["adjustment"])]
    assert effects["effects"] == {
        "1": {"player": "3", "before": 2_000_000, "after": 0},
        "2": {"player": "3", "before": 700_000, "after": 0},
    }

    changed = await api.post("/api/t/pn/settings", {"settings": {"disqualified": "remove"}})
    assert changed.status_code == 201, changed.text
    views = (await api.views("pn"))["views"]
    assert "3" not in views["machine/1"]["rows"] and "3" not in views["machine/2"]["rows"]
    assert "place" not in views["standings"]["rows"]["3"]  # no score left: not competing


async def test_a_multiplayer_game_is_entered_together(api: Api) -> None:
    """UKPL 2F: groups of two to six players on one machine. Machine 2, three players: 300,
    100, 200 -> N = 3: 3, 1, 2 points (300 is not more than double 200). A group with a player
    twice, or a player who already played the machine, is refused whole."""
    await meeting(api, "mp")
    body = {"machine": "2", "scores": [{"player": "1", "score": 300}, {"player": "2", "score": 100},
                                       {"player": "3", "score": 200}]}  # fmt: skip
    r = await api.post("/api/t/mp/multiplayer", body)
    assert r.status_code == 201, r.text
    views = (await api.views("mp"))["views"]
    assert points(views["machine/2"]["rows"]) == {"1": (300, 3), "2": (100, 1), "3": (200, 2)}
    game = views["adjustments"]["games"][str(r.json()["game"])]
    assert game == {"machine": "2", "scores": {"1": 300, "2": 100, "3": 200}, "by": "td:TD",
                    "at": game["at"]}  # fmt: skip
    version = (await api.views("mp"))["version"]
    twice = {"machine": "2", "scores": [{"player": "4", "score": 1}, {"player": "4", "score": 2}]}
    assert (await api.post("/api/t/mp/multiplayer", twice)).status_code == 409
    again = {"machine": "2", "scores": [{"player": "4", "score": 1}, {"player": "1", "score": 2}]}
    assert (await api.post("/api/t/mp/multiplayer", again)).status_code == 409
    seven = {"machine": "2", "scores": [{"player": str(n), "score": n} for n in range(1, 8)]}
    assert (await api.post("/api/t/mp/multiplayer", seven)).status_code == 422
    after = await api.views("mp")
    assert after["version"] == version and "4" not in after["views"]["machine/2"]["rows"]


async def test_a_machine_taken_out_is_replayed_on_its_substitute(api: Api) -> None:
    """UKPL 6A: "any games already played on the faulty machines will need to be replayed on the
    new game". The games on machine 1 stop counting; the machine refuses scores; the replays on
    the substitute (a new machine 9) count, N = 2: 2 + bonus (900 > 2 x 400) and 1."""
    await meeting(api, "sb")
    body = {"type": "machine_substituted", "machine": "1",
            "substitute": {"id": "9", "name": "Medieval Madness"}, "reason": "coil burnt"}  # fmt: skip
    r = await api.post("/api/t/sb/adjustments", body)
    assert r.status_code == 201, r.text
    views = (await api.views("sb"))["views"]
    assert views["machine/1"]["rows"] == {} and views["machines"]["9"]["name"] == "Medieval Madness"
    assert all("place" not in row for row in views["standings"]["rows"].values())
    refused = await api.score("sb", 1, 1, 100)
    assert refused.status_code == 409 and "taken out" in refused.json()["message"]
    await api.score("sb", 1, 9, 900)
    await api.score("sb", 2, 9, 400)
    rows = await machine_rows(api, "sb", "9")
    assert points(rows) == {"1": (900, 3), "2": (400, 1)}
    row = (await api.views("sb"))["views"]["adjustments"]["rows"][str(r.json()["adjustment"])]
    assert row["type"] == "machine_substituted" and row["substitute"] == "9"
    assert row["reason"] == "coil burnt"
    seq = r.json()["adjustment"]
    headers = {**api.headers(), "If-Match": f'"{seq}"'}
    assert (await api.http.post(f"/api/t/sb/adjustments/{seq}/withdraw",
                                json={"reason": "fixed"}, headers=headers)).status_code == 409  # fmt: skip


async def test_players_of_another_region_play_for_fun(api: Api) -> None:
    """UKPL 1C/3C: only players registered in the region earn league points; others play for
    fun, shown without a place. An Irish player at a London and South East meeting: the five
    LSE players get N = 5 on the machine; when the meeting's region is Irish, only they rank."""
    settings = {"region": "London and South East", "season": "2025"}
    await api.tournament("rg", UKPL, machines=1, settings=settings)
    players = [{"number": str(n), "name": f"Player {n}", "region": "London and South East"}
               for n in range(1, 6)]  # fmt: skip
    players.append({"number": "9", "name": "Irish Player", "region": "Irish"})
    r = await api.post("/api/t/rg/ukpl/players", {"players": players})
    assert r.status_code == 201, r.text
    for player, score in ((1, 500), (2, 400), (3, 300), (4, 200), (5, 100), (9, 5000)):
        await api.score("rg", player, 1, score)
    views = (await api.views("rg"))["views"]
    assert views["players"]["9"] == {"name": "Irish Player", "guest": True, "region": "Irish"}
    assert views["machine/1"]["rows"]["1"]["points"] == 5  # 500 is not more than double 400
    assert views["machine/1"]["rows"]["9"] == {"score": 5000}
    assert "league_points" not in views["standings"]["rows"]["9"]
    assert views["season"]["for_fun"]["9"]["meets"] == ["rg"]

    await api.post("/api/t/rg/settings", {"settings": {"region": "irish"}})  # case is ignored
    views = (await api.views("rg"))["views"]
    assert views["players"]["9"]["guest"] is False and views["players"]["1"]["guest"] is True
    assert views["standings"]["rows"]["9"]["league_points"] == 20


async def test_adjustments_are_for_ukpl_meetings_and_the_td(api: Api) -> None:
    await api.tournament("ep", "epc-qualifying", players=2, machines=1)
    r = await adjust(api, "ep", type="slam_tilt", player="1", machine="1", reason="x")
    assert r.status_code == 409 and r.json()["error"] == "not_ukpl"
    assert (await adjust(api, "nope", type="slam_tilt", player="1", machine="1",
                         reason="x")).status_code == 404  # fmt: skip
    await meeting(api, "td")
    steward = (await api.post("/api/t/td/stewards", {"name": "Sam"})).json()["pin"]
    signin = {"role": "steward", "tournament": "td", "name": "Sam", "pin": steward}
    token = (await api.http.post("/api/session", json=signin)).json()["token"]
    body = {"type": "slam_tilt", "player": "1", "machine": "1", "reason": "x"}
    assert (await api.post("/api/t/td/adjustments", body, token=token)).status_code == 403
    missing = {"type": "slam_tilt", "player": "1", "machine": "1"}
    assert (await api.post("/api/t/td/adjustments", missing)).status_code == 422  # no reason
    group = {"machine": "2", "scores": [{"player": "4", "score": 10}, {"player": "5", "score": 20}]}
    assert (await api.post("/api/t/td/multiplayer", group, token=token)).status_code == 201


async def test_an_adjustment_sent_twice_is_recorded_once(api: Api) -> None:
    await meeting(api, "id")
    body = {"type": "slam_tilt", "player": "2", "machine": "1", "reason": "slam"}
    first = await api.post("/api/t/id/adjustments", body, key="k-1")
    second = await api.post("/api/t/id/adjustments", body, key="k-1")
    assert first.status_code == second.status_code == 201
    assert second.headers["Idempotent-Replayed"] == "true"
    assert first.json()["version"] == second.json()["version"]
    assert len((await api.views("id"))["views"]["adjustments"]["rows"]) == 1


async def test_the_adjustments_and_season_pages_are_for_ukpl_meetings(api: Api) -> None:
    await api.tournament("pg", UKPL, players=1, machines=1, settings={"region": "Irish",
                                                                      "season": "2025"})  # fmt: skip
    await api.tournament("pe", "epc-qualifying", players=1, machines=1)
    for page in ("adjust", "season"):
        ok = await api.http.get(f"/t/pg/{page}")
        assert ok.status_code == 200 and "Test pg" in ok.text
        assert (await api.http.get(f"/t/pe/{page}")).status_code == 404
        assert (await api.http.get(f"/t/nope/{page}")).status_code == 404
