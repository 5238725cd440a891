"""A running EPC stage changes only by the TD's own record (issue 13, "A late correction silently
re-seeds a running stage"): the quarter-final seeding is frozen by the record that starts the
quarter-finals, a later correction of a qualifying score is refused until the TD reopens
qualifying (or, with ``late_corrections="keep-draw"``, accepted without touching the draw until
the TD re-seeds), and a replay of the log equals the live state (EPC 2009, EPC Qualifying)."""

from __future__ import annotations

from display.live.tournament import LiveTournament
from display.log.store import Record
from tests.display.competitions.epc_main.helpers import ok, qualified, register_all, td, views
from tests.display.competitions.machines.test_corrections_api import correct, log, void
from tests.utils import Api

SMALL = {"qualify": 8, "standby": 2}


async def score_seq(api: Api, tid: str, player: str) -> int:
    """The seq of ``player``'s qualifying score_recorded record."""
    for record in await log(api, tid):
        if record["type"] == "score_recorded" and record["player"] == player:
            return int(record["seq"])
    raise AssertionError(f"no score of player {player}")


async def seeds(api: Api, tid: str) -> dict[str, str]:
    """Seed -> its qualifier in the live quarter-final view."""
    doc = (await views(api, tid))["quarterfinal"]
    return {s: row["qualifier"] for s, row in doc["seeds"].items()}


async def assert_replay_equals_live(api: Api, tid: str) -> None:
    records = await log(api, tid)
    replay = LiveTournament(tid, 16)
    replay.apply([Record(r.pop("seq"), r) for r in records])
    assert replay.views == await views(api, tid)


async def test_a_qualifying_correction_after_the_close_is_refused_until_qualifying_reopens(
    api: Api,
) -> None:
    tid = "late1"
    await qualified(api, tid, 12, SMALL)
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 6, 7, 8])
    before = await seeds(api, tid)
    assert before["7"] == "7"
    seq = await score_seq(api, tid, "7")
    n = len(await log(api, tid))

    # player 7's score corrected down below the stand-bys: refused, nothing written
    answer = await correct(api, tid, seq, score=1_000, reason="misread")
    assert answer.status_code == 409, answer.text
    assert answer.json()["error"] == "stage_not_ready"
    assert answer.json()["message"] == ("The quarter-finals have started: reopen qualifying first.")
    gone = await void(api, tid, seq, reason="wrong player")
    assert gone.status_code == 409
    assert gone.json()["message"] == "The quarter-finals have started: reopen qualifying first."
    assert len(await log(api, tid)) == n
    # an unrelated stage record leaves the draw as it was
    await register_all(api, tid, 1, [5])
    assert await seeds(api, tid) == before

    # the TD's record is the way: reopen qualifying (a reason for the audit page), correct, restart
    missing = await td(api, tid, "reopen", {"stage": "qualifying"})
    assert missing.status_code == 422
    await ok(api, tid, "reopen", {"stage": "qualifying", "reason": "score of player 7 misread"})
    assert (await views(api, tid))["stage"]["stage"] == "qualifying"
    fixed = await correct(api, tid, seq, score=1_000, reason="misread")
    assert fixed.status_code == 201, fixed.text
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    after = await seeds(api, tid)
    assert after["7"] == "8" and "7" not in after.values()
    await assert_replay_equals_live(api, tid)


async def test_reopening_is_refused_once_the_stage_has_games(api: Api) -> None:
    tid = "late2"
    await qualified(api, tid, 12, SMALL)
    await ok(api, tid, "stage", {"stage": "quarterfinal", "machines": ["1", "2", "3"]})
    await register_all(api, tid, 1, [5, 6, 7, 8])
    await ok(api, tid, "rounds", {"round": 1})
    pushed = await api.score(tid, 5, "1", 123_450)
    assert pushed.status_code == 201, pushed.text
    wrong = await td(api, tid, "reopen", {"stage": "semifinal", "reason": "x"})
    assert wrong.status_code == 409
    assert (
        "Only the stage before the current one can be reopened (qualifying)"
        in (wrong.json()["message"])
    )
    answer = await td(api, tid, "reopen", {"stage": "qualifying", "reason": "late correction"})
    assert answer.status_code == 409, answer.text
    assert answer.json()["message"].startswith(
        "The quarter-finals have started and 1 game(s) are recorded"
    )
    await assert_replay_equals_live(api, tid)


async def test_keep_draw_accepts_a_late_correction_and_only_a_reseed_redraws(api: Api) -> None:
    tid = "late3"
    await qualified(api, tid, 12, {**SMALL, "late_corrections": "keep-draw"})
    settings = (await views(api, tid))["tournament"]["settings"]
    assert settings["late_corrections"] == "keep-draw"
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    before = await seeds(api, tid)
    seq = await score_seq(api, tid, "7")
    answer = await correct(api, tid, seq, score=1_000, reason="misread")
    assert answer.status_code == 201, answer.text
    # the qualifying standings show the correction; the draw is the one the close froze
    standings = (await views(api, tid))["standings"]["rows"]
    assert standings["7"]["place"] > 8
    assert await seeds(api, tid) == before
    await register_all(api, tid, 1, [5, 6, 7, 8])  # an unrelated stage record: still no redraw
    assert await seeds(api, tid) == before
    await assert_replay_equals_live(api, tid)

    await ok(api, tid, "reseed", {"reason": "player 7's score was misread"})
    after = await seeds(api, tid)
    assert after["7"] == "8" and "7" not in after.values()
    await assert_replay_equals_live(api, tid)


async def test_classic_places_are_frozen_by_the_semifinals_until_qualifying_reopens(
    api: Api,
) -> None:
    """EPC 2009, EPC Classic Tournament: "The top players on machines 5, 6, 7 & 8 will play their
    semi-final"; player 9 holds machine 8 with a lone 1,000, so voiding it would take them out of
    semi-final 2 while it runs."""
    tid = "late4"
    await api.tournament(tid, "epc-classic", players=20, machines=8)
    lone = [(k + 1, k, 1_000) for k in range(3, 9)]
    entries = [(1, 1, 50_000), (2, 1, 10_000), (1, 2, 900_000), (3, 2, 800_000), *lone]
    for player, machine, score in [*entries, (12, 8, 500)]:
        assert (await api.score(tid, player, machine, score)).status_code == 201
    assert (await td(api, tid, "close", {})).status_code == 201
    await ok(api, tid, "stage", {"stage": "semifinal"})
    games = (await views(api, tid))["classic/games"]["games"]
    assert list(games["2"]["players"]) == ["6", "7", "8", "9"]
    seq = await score_seq(api, tid, "9")
    n = len(await log(api, tid))
    answer = await void(api, tid, seq, reason="played on the wrong machine")
    assert answer.status_code == 409, answer.text
    assert answer.json()["message"] == (
        "The Classic semi-finals have started: reopen qualifying first."
    )
    assert len(await log(api, tid)) == n

    await ok(api, tid, "reopen", {"stage": "qualifying", "reason": "player 9's entry void"})
    assert (await void(api, tid, seq, reason="played on the wrong machine")).status_code == 201
    await ok(api, tid, "stage", {"stage": "semifinal"})
    games = (await views(api, tid))["classic/games"]["games"]
    assert list(games["2"]["players"]) == ["6", "7", "8", "12"]
    await assert_replay_equals_live(api, tid)
