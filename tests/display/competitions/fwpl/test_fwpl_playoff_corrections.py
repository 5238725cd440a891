"""FWPL playoff games are corrected and voided like a league night's game (issue 13, "Stage
games cannot be corrected at all"): through ``POST …/league/corrections`` and
``…/league/playoff-voids`` with a reason and the game's version in ``If-Match``. Who goes through
(FWPL 6.3) is worked out again while the next round has not started; after that a change of who
plays in it is refused until the TD reopens the round, and a replay of the log equals the live
state. Points worked by hand in comments (4-2-1-0 a game, FWPL 6.3)."""

from __future__ import annotations

from typing import Any

from display.live.tournament import LiveTournament
from display.log.store import Record
from tests.display.competitions.fwpl.test_fwpl_live import league
from tests.display.competitions.fwpl.test_fwpl_live_playoffs import match, one_week, playoff_game
from tests.utils import Api

SEMI_1 = ["1", "6", "3", "8"]
SEMI_2 = ["5", "2", "7", "4"]


def scores(order: list[str]) -> dict[str, int]:
    """A game finishing in ``order``: 400, 300, 200, 100."""
    return {p: 400 - 100 * i for i, p in enumerate(order)}


async def version(api: Api, tid: str, key: str, game_no: int) -> int:
    found = (await match(api, tid, "A", key))["games"][str(game_no)]["version"]
    assert isinstance(found, int)
    return found


async def correct(
    api: Api, tid: str, key: str, players: list[str], game_no: int, order: list[str], **extra: Any
) -> Any:
    """Correct game ``game_no`` of bracket match ``key`` to finish in ``order``, naming the
    game's current version unless ``extra`` gives headers."""
    headers = extra.pop(
        "headers",
        {**api.headers(), "If-Match": f'"{await version(api, tid, key, game_no)}"'},
    )
    body = {
        "division": "A",
        "players": players,
        "game_no": game_no,
        "scores": scores(order),
        "reason": "scores entered against the wrong names",
        **extra,
    }
    return await api.http.post(f"/api/t/{tid}/league/corrections", json=body, headers=headers)


async def through(api: Api, tid: str, key: str) -> set[str]:
    players = (await match(api, tid, "A", key))["players"]
    return {p for p, row in players.items() if row.get("advances")}


async def log(api: Api, tid: str) -> list[dict[str, Any]]:
    return (await api.http.get(f"/api/t/{tid}/log")).json()["records"]  # type: ignore[no-any-return]


async def replay_equals_live(api: Api, tid: str) -> None:
    replay = LiveTournament(tid, 16)
    replay.apply([Record(r.pop("seq"), r) for r in await log(api, tid)])
    assert replay.views == (await api.views(tid))["views"]


async def semis(api: Api, tid: str) -> None:
    """Eight players, one week, the playoffs started and both semi-finals played in seed order:
    1 (12), 6 (6) and 5 (12), 2 (6) go through."""
    await league(api, tid, 8)
    await one_week(api, tid, 8)
    assert (await api.post(f"/api/t/{tid}/league/playoffs", {})).status_code == 201
    for players in (SEMI_1, SEMI_2):
        body = {"division": "A", "players": players, "seed": 3}
        assert (await api.post(f"/api/t/{tid}/league/playoff-matches", body)).status_code == 201
        for _ in range(3):
            await playoff_game(api, tid, players, players)


async def test_a_playoff_game_correction_reworks_who_goes_through(api: Api) -> None:
    tid = "fpfix1"
    await semis(api, tid)
    assert await through(api, tid, "semifinal-1") == {"1", "6"}

    unversioned = await correct(api, tid, "semifinal-1", SEMI_1, 3, ["3", "1", "6", "8"],
                                headers=api.headers())  # fmt: skip
    assert unversioned.status_code == 428, unversioned.text
    stale = {**api.headers(), "If-Match": '"1"'}
    old = await correct(api, tid, "semifinal-1", SEMI_1, 3, ["3", "1", "6", "8"], headers=stale)
    assert old.status_code == 412, old.text
    before = await version(api, tid, "semifinal-1", 3)

    # game 3 was 3, 1, 6, 8: 1 has 4 + 4 + 2 = 10, 3 has 1 + 1 + 4 = 6, 6 has 2 + 2 + 1 = 5
    fixed = await correct(api, tid, "semifinal-1", SEMI_1, 3, ["3", "1", "6", "8"])
    assert fixed.status_code == 201, fixed.text
    assert fixed.json()["game"]["version"] == fixed.json()["version"] > before
    assert fixed.headers["ETag"] == f'"{fixed.json()["version"]}"'
    semi = await match(api, tid, "A", "semifinal-1")
    assert {p: row["points"] for p, row in semi["players"].items()} == {
        "1": 10,
        "3": 6,
        "6": 5,
        "8": 0,
    }
    assert await through(api, tid, "semifinal-1") == {"1", "3"}
    assert set((await match(api, tid, "A", "final-1"))["players"]) == {"1", "3", "5", "2"}

    wrong_game = await api.http.post(
        f"/api/t/{tid}/league/corrections",
        json={
            "division": "A",
            "players": SEMI_1,
            "game_no": 3,
            "scores": scores(SEMI_1),
            "reason": "x",
            "week": 1,
        },
        headers={**api.headers(), "If-Match": '"1"'},
    )
    assert wrong_game.status_code == 422  # a night's game or a playoff game, not both
    await replay_equals_live(api, tid)


async def test_once_the_final_started_only_a_reopen_lets_a_semi_final_change_who_plays(
    api: Api,
) -> None:
    tid = "fpfix2"
    await semis(api, tid)
    final = ["1", "6", "5", "2"]
    body = {"division": "A", "players": final, "seed": 4}
    assert (await api.post(f"/api/t/{tid}/league/playoff-matches", body)).status_code == 201
    length = len(await log(api, tid))

    # game 3 as 3, 1, 6, 8 would put 3 through instead of 6 (10, 6, 5, 0)
    late = await correct(api, tid, "semifinal-1", SEMI_1, 3, ["3", "1", "6", "8"])
    assert late.status_code == 409, late.text
    assert (
        late.json()["message"] == "Division A: the final has started: reopen the semi-finals first."
    )
    assert len(await log(api, tid)) == length
    assert (await match(api, tid, "A", "final-1"))["started"] is True

    # game 3 as 1, 6, 8, 3 keeps 1 (12) and 6 (6) through: taken, the final stands
    kept = await correct(api, tid, "semifinal-1", SEMI_1, 3, ["1", "6", "8", "3"])
    assert kept.status_code == 201, kept.text
    semi = (await match(api, tid, "A", "semifinal-1"))["players"]
    assert (semi["3"]["points"], semi["8"]["points"]) == (2, 1)
    assert (await match(api, tid, "A", "final-1"))["started"] is True

    bad_round = await api.post(
        f"/api/t/{tid}/league/playoffs/reopen", {"reason": "x", "division": "A", "round": "final"}
    )
    assert bad_round.status_code == 422  # only a round with another after it
    reopened = await api.post(
        f"/api/t/{tid}/league/playoffs/reopen",
        {"reason": "semi-final game 3 entered wrongly", "division": "A", "round": "semifinal"},
    )
    assert reopened.status_code == 201, reopened.text
    assert "started" not in await match(api, tid, "A", "final-1")
    again = await correct(api, tid, "semifinal-1", SEMI_1, 3, ["3", "1", "6", "8"])
    assert again.status_code == 201, again.text
    assert set((await match(api, tid, "A", "final-1"))["players"]) == {"1", "3", "5", "2"}
    twice = await api.post(
        f"/api/t/{tid}/league/playoffs/reopen",
        {"reason": "x", "division": "A", "round": "semifinal"},
    )
    assert twice.status_code == 409
    assert twice.json()["message"] == (
        "Division A: the final has not started; the semi-finals are open."
    )
    await replay_equals_live(api, tid)


async def test_a_voided_playoff_game_is_played_again_and_a_reopen_waits_for_voids(
    api: Api,
) -> None:
    tid = "fpfix3"
    await semis(api, tid)
    final = ["1", "6", "5", "2"]
    body = {"division": "A", "players": final, "seed": 4}
    assert (await api.post(f"/api/t/{tid}/league/playoff-matches", body)).status_code == 201
    await playoff_game(api, tid, final, ["2", "1", "5", "6"])
    await playoff_game(api, tid, final, ["2", "1", "5", "6"])
    played = await match(api, tid, "A", "final-1")
    machine_2 = played["games"]["2"]["machine"]

    reopen = {"reason": "semi-final wrong", "division": "A", "round": "semifinal"}
    waits = await api.post(f"/api/t/{tid}/league/playoffs/reopen", reopen)
    assert waits.status_code == 409
    assert waits.json()["message"] == (
        "Division A: the final has 2 game(s) recorded: void them first."
    )

    async def void(game_no: int) -> Any:
        tag = await version(api, tid, "final-1", game_no)
        return await api.http.post(
            f"/api/t/{tid}/league/playoff-voids",
            json={"division": "A", "players": final, "game_no": game_no, "reason": "wrong match"},
            headers={**api.headers(), "If-Match": f'"{tag}"'},
        )

    first = await void(1)
    assert first.status_code == 409
    assert first.json()["message"] == (
        "Game 2 of this match was played after game 1: void it first (FWPL 6.4: the loser of "
        "each game picks the next machine)."
    )
    unreasoned = await api.http.post(
        f"/api/t/{tid}/league/playoff-voids",
        json={"division": "A", "players": final, "game_no": 2},
        headers={**api.headers(), "If-Match": '"1"'},
    )
    assert unreasoned.status_code == 422
    voided = await void(2)
    assert voided.status_code == 201, voided.text
    after = await match(api, tid, "A", "final-1")
    assert set(after["games"]) == {"1"}
    assert (after["game_no"], after["machine"]) == (2, machine_2)  # played again there
    # 2 has 4 after game 1 alone, 1 has 2
    assert (after["players"]["2"]["points"], after["players"]["1"]["points"]) == (4, 2)
    await replay_equals_live(api, tid)

    assert (await void(1)).status_code == 201
    assert (await api.post(f"/api/t/{tid}/league/playoffs/reopen", reopen)).status_code == 201
    assert "started" not in await match(api, tid, "A", "final-1")
    await replay_equals_live(api, tid)
