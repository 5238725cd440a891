"""A running EPC stage changes only by the TD's own record (issue 13, "A late correction silently
re-seeds a running stage"): the quarter-final seeding is frozen by the record that starts the
quarter-finals, a later correction of a qualifying score is refused until the TD reopens
qualifying (or, with ``late_corrections="keep-draw"``, accepted without touching the draw until
the TD re-seeds), and a replay of the log equals the live state (EPC 2009, EPC Qualifying)."""

from __future__ import annotations

from typing import Any

from display.live.tournament import LiveTournament
from display.log.store import Record
from tests.display.competitions.epc_main.helpers import (
    ok,
    play_quarterfinal,
    qualified,
    register_all,
    td,
    views,
)
from tests.display.competitions.epc_main.test_epc_main import seed_games
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


def score_records(records: list[dict[str, Any]], player: str, machine: str) -> list[int]:
    """The seqs of ``player``'s score_recorded records on ``machine``, in order."""
    return [
        int(r["seq"])
        for r in records
        if r["type"] == "score_recorded" and (r["player"], r["machine"]) == (player, machine)
    ]


async def test_stage_games_are_corrected_and_voided_while_their_stage_runs(api: Api) -> None:
    """EPC 2009, EPC Qualifying ("The contestant should verify the score"), for stage games: the
    TD corrects or voids a quarter-final or semi-final score with a reason and If-Match; the
    table and who goes through follow while the stage runs, and once the next stage has started
    the correction waits for the TD to reopen it. Seed 8's 9,500 on machine 1 (its 2nd game)
    is 1st there (``test_epc_main.seed_games``)."""
    tid = "late5"
    await to_semifinals_open(api, tid)
    records = await log(api, tid)
    first, second = score_records(records, "8", "1")[-2:]
    assert (await views(api, tid))["quarterfinal/1"]["rows"]["8"]["score"] == 9_500
    unversioned = await api.post(
        f"/api/t/{tid}/scores/{second}/correct", {"score": 400, "reason": "misread"}
    )
    assert unversioned.status_code == 428
    fixed = await correct(api, tid, second, score=400, reason="misread: 400")
    assert fixed.status_code == 201, fixed.text
    assert fixed.json()["entry"] == {"seq": second, "version": fixed.json()["version"]}
    row = (await views(api, tid))["quarterfinal/1"]["rows"]["8"]
    assert (row["score"], row["games"]) == (500, 2)  # the better of 500 and 400
    stale = await correct(api, tid, second, score=401, reason="again")
    assert stale.status_code == 412
    gone = await void(api, tid, first, reason="played out of turn")
    assert gone.status_code == 201, gone.text
    row = (await views(api, tid))["quarterfinal/1"]["rows"]["8"]
    assert (row["score"], row["games"]) == (400, 1)
    twice = await void(api, tid, first, reason="again")
    assert twice.status_code == 409 and "was voided by record" in twice.json()["message"]
    replayed = await api.score(tid, 8, "1", 9_500)  # the voided game played again
    assert replayed.status_code == 201, replayed.text
    await assert_replay_equals_live(api, tid)

    await ok(api, tid, "stage", {"stage": "semifinal"})
    late = await correct(api, tid, second, score=9_000, version=fixed.json()["version"], reason="x")
    assert late.status_code == 409, late.text
    assert (
        late.json()["message"] == "The semi-finals have started: reopen the quarter-finals first."
    )
    semis = (await views(api, tid))["semifinal"]["games"]
    players = list(semis["A"]["players"])
    scores = dict(zip(players, (10_000, 40_000, 30_000, 20_000), strict=True))
    for player, score in scores.items():
        assert (await api.score(tid, player, "1", score)).status_code == 201
    game = (await views(api, tid))["semifinal"]["games"]["A"]["players"]
    assert game[players[0]]["place"] == 4
    seq = score_records(await log(api, tid), players[0], "1")[-1]
    up = await correct(api, tid, seq, score=50_000, reason="the display showed 50,000")
    assert up.status_code == 201, up.text
    game = (await views(api, tid))["semifinal"]["games"]["A"]["players"]
    assert (game[players[0]]["place"], game[players[2]]["place"]) == (1, 3)
    await assert_replay_equals_live(api, tid)

    # reopening the quarter-finals needs the semi-final scores voided first
    refused = await td(api, tid, "reopen", {"stage": "quarterfinal", "reason": "QF score wrong"})
    assert refused.status_code == 409 and "4 game(s) are recorded" in refused.json()["message"]


async def to_semifinals_open(api: Api, tid: str) -> None:
    """Every quarter-final game played (``test_epc_main.seed_games``), semi-finals not started."""
    await qualified(api, tid, 8, {**SMALL, "standby": 0})
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    await register_all(api, tid, 1, [5, 6, 7, 8])
    await ok(api, tid, "rounds", {"round": 1})
    await play_quarterfinal(api, tid, "B", seed_games)
    await register_all(api, tid, 2, [1, 2, 3, 4])
    await ok(api, tid, "rounds", {"round": 2})
    await play_quarterfinal(api, tid, "A", seed_games)


async def test_classic_game_scores_are_corrected_while_their_stage_runs(api: Api) -> None:
    """EPC 2009, EPC Classic Tournament: "The top two players from each semi-final will go
    forward to the four-player final". Semi-final 1 holders 2, 1, 4, 5
    (``test_epc_boards.TWO_TOPS``); 5's 10 corrected to 50 puts 5 first and 4 out."""
    tid = "late6"
    await api.tournament(tid, "epc-classic", players=20, machines=8)
    lone = [(k + 1, k, 1_000) for k in range(3, 9)]
    for player, machine, score in [(1, 1, 50_000), (2, 1, 10_000), (1, 2, 900_000), *lone]:
        assert (await api.score(tid, player, machine, score)).status_code == 201
    assert (await api.score(tid, 3, 2, 800_000)).status_code == 201
    assert (await td(api, tid, "close", {})).status_code == 201
    await ok(api, tid, "stage", {"stage": "semifinal", "machines": {"1": "6", "2": "3"}})
    for player, score in (("2", 40), ("1", 30), ("4", 20), ("5", 10)):
        assert (await api.score(tid, player, "6", score)).status_code == 201
    for player, score in (("6", 10), ("7", 20), ("8", 30), ("9", 40)):
        assert (await api.score(tid, player, "3", score)).status_code == 201
    seq = score_records(await log(api, tid), "5", "6")[-1]
    wrong_machine = await correct(api, tid, seq, score=50, machine="5", reason="x")
    assert wrong_machine.status_code == 409
    assert "played on machine 6" in wrong_machine.json()["message"]
    fixed = await correct(api, tid, seq, score=50, reason="the display showed 50")
    assert fixed.status_code == 201, fixed.text
    game = (await views(api, tid))["classic/games"]["games"]["1"]["players"]
    assert {p: row["place"] for p, row in game.items()} == {"5": 1, "2": 2, "1": 3, "4": 4}
    await ok(api, tid, "stage", {"stage": "final"})
    final = (await views(api, tid))["classic/games"]["games"]["final"]
    assert set(final["players"]) == {"5", "2", "9", "8"}
    late = await correct(api, tid, seq, score=5, version=fixed.json()["version"], reason="x")
    assert late.status_code == 409
    assert late.json()["message"] == "The Classic final has started: reopen the semi-finals first."
    await assert_replay_equals_live(api, tid)


async def test_two_playoff_records_for_two_ties_both_count(api: Api) -> None:
    """EPC 2009, EPC Qualifying: equal totals inside the seeded places go to a play-off. Players
    3 and 4 tie (3=), and 6 and 7 (6=); the TD records each play-off as it is played, and the
    second record adds to the first instead of replacing it."""
    tid = "tie1"
    await api.tournament(tid, "epc-main", players=12, machines=3, settings=SMALL)
    for n in range(1, 13):
        same = {4: 3, 7: 6}.get(n, n)
        assert (await api.score(tid, n, 1, (1000 - same) * 1000)).status_code == 201
    await ok(api, tid, "playoffs", {"tie": "qualifying", "order": ["4", "3"]})
    waiting = await td(api, tid, "stage", {"stage": "quarterfinal"})
    assert waiting.status_code == 422 and "Players 6 and 7 are tied" in waiting.json()["message"]
    await ok(api, tid, "playoffs", {"tie": "qualifying", "order": ["7", "6"]})
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    got = await seeds(api, tid)
    assert [got[str(s)] for s in range(1, 9)] == ["1", "2", "4", "3", "5", "7", "6", "8"]
    await assert_replay_equals_live(api, tid)


async def test_a_classic_fault_with_ten_players_adds_no_replacement_machine(api: Api) -> None:
    """EPC 2009, EPC Classic Tournament: with "10 or more players' scores ... it will be closed to
    further qualification but all scores will stand"; only with fewer "the machine may ... be
    replaced". The TD names a replacement for machine 7 with ten players' scores: the rule
    closes it and no machine 9 exists, so nobody qualifies on it and the board keeps 8 places."""
    tid = "fault1"
    await api.tournament(tid, "epc-classic", players=20, machines=8)
    for player, machine, score in [(k + 1, k, 1_000) for k in range(1, 9)] + [
        (p, 7, 100 + p) for p in range(10, 19)
    ]:
        assert (await api.score(tid, player, machine, score)).status_code == 201
    body = {"machine": "7", "replacement": "9", "replacement_name": "Fathom"}
    assert (await td(api, tid, "faults", body)).status_code == 201
    v = await views(api, tid)
    assert v["classic"]["faults"]["7"] == {"action": "close"}
    assert "9" not in v["machines"] and "machine/9" not in v
    assert len(v["classic"]["places"]) == 8
    refused = await api.score(tid, 12, "9", 50_000)
    assert refused.status_code == 404, refused.text
    await assert_replay_equals_live(api, tid)


async def test_the_quarterfinals_wait_for_a_qualifying_game_in_progress(api: Api) -> None:
    """A game started before the close counts: the TD cannot start the quarter-finals while a
    qualifying game is being played (its score would be lost), unless they override, and the
    refusal names the open game (EPC 2009, EPC Qualifying; docs/rules.md)."""
    tid = "open1"
    await qualified(api, tid, 12, SMALL)
    for action, body in (("join", {"player": "9"}), ("call", {}), ("start", {})):
        answer = await api.post(f"/api/t/{tid}/queues/2/{action}", body)
        assert answer.status_code == 201, answer.text
    refused = await td(api, tid, "stage", {"stage": "quarterfinal"})
    assert refused.status_code == 409, refused.text
    assert refused.json()["message"].startswith(
        "1 qualifying game(s) in progress: player 9 on Machine 2. Record their scores first"
    )
    # the game finishes and counts; then the quarter-finals start
    assert (await api.score(tid, 9, 2, 995_000)).status_code == 201
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    assert (await views(api, tid))["standings"]["rows"]["9"]["place"] < 9
    await assert_replay_equals_live(api, tid)


async def test_the_td_may_override_an_open_qualifying_game(api: Api) -> None:
    tid = "open2"
    await qualified(api, tid, 12, SMALL)
    for action, body in (("join", {"player": "9"}), ("call", {}), ("start", {})):
        assert (await api.post(f"/api/t/{tid}/queues/2/{action}", body)).status_code == 201
    await ok(api, tid, "stage", {"stage": "quarterfinal", "override": True})
    assert (await views(api, tid))["stage"]["stage"] == "quarterfinal"
    await assert_replay_equals_live(api, tid)


async def test_a_classic_game_started_before_the_close_counts(api: Api) -> None:
    """EPC 2009, EPC Classic Tournament: "The qualifying round ends at 3pm promptly". Player 12's
    game on machine 3 started (the hall's queue) before the close: its one score still counts and
    the tournament view says 1 game in progress until it is in; any other score is refused."""
    tid = "close1"
    await api.tournament(tid, "epc-classic", players=20, machines=8)
    for action, body in (("join", {"player": "12"}), ("call", {}), ("start", {})):
        assert (await api.post(f"/api/t/{tid}/queues/3/{action}", body)).status_code == 201
    assert (await td(api, tid, "close", {})).status_code == 201
    doc = (await views(api, tid))["tournament"]
    assert (doc["closed"], doc["in_progress"]) == (True, 1)
    other = await api.score(tid, 13, 3, 5_000)
    assert other.status_code == 409 and other.json()["error"] == "qualifying_closed"
    counted = await api.score(tid, 12, 3, 99_999)
    assert counted.status_code == 201, counted.text
    v = await views(api, tid)
    assert "in_progress" not in v["tournament"]
    assert v["classic"]["places"]["3"]["player"] == "12"
    again = await api.score(tid, 12, 3, 100_000)
    assert again.status_code == 409 and again.json()["error"] == "qualifying_closed"
    await assert_replay_equals_live(api, tid)


async def test_a_kids_game_started_before_the_close_counts(api: Api) -> None:
    """EPC 2009, UK Pinball Kids Tournament: "At the close of the tournament each day"."""
    tid = "close2"
    await api.tournament(tid, "epc-kids", players=5, machines=1)
    assert (await api.score(tid, 1, 1, 10_000)).status_code == 201
    for action, body in (("join", {"player": "2"}), ("call", {}), ("start", {})):
        assert (await api.post(f"/api/t/{tid}/queues/1/{action}", body)).status_code == 201
    assert (await td(api, tid, "close", {})).status_code == 201
    assert (await api.score(tid, 3, 1, 20_000)).status_code == 409
    assert (await api.score(tid, 2, 1, 20_000)).status_code == 201
    assert (await views(api, tid))["standings"]["rows"]["2"]["place"] == 1
    await assert_replay_equals_live(api, tid)


async def test_a_withdrawn_player_is_not_registered_and_the_standby_fills_the_place(
    api: Api,
) -> None:
    """EPC 2009, EPC Quarter-Finals: "the stand-by player ranked 33rd will fill the highest ranked
    vacant position". Seed 7 withdraws after the close: they cannot be registered for round 1,
    and the 9th (the first stand-by, registered) fills seed 7 when the round starts."""
    tid = "wd1"
    await qualified(api, tid, 12, SMALL)
    await ok(api, tid, "stage", {"stage": "quarterfinal"})
    gone = await api.post(f"/api/t/{tid}/players/7/withdraw", {"reason": "went home"})
    assert gone.status_code == 201, gone.text
    refused = await td(api, tid, "registrations", {"player": "7", "round": 1})
    assert refused.status_code == 409, refused.text
    assert refused.json()["message"] == "Player 7 has withdrawn and cannot be registered."
    await register_all(api, tid, 1, [5, 6, 8, 9])
    await ok(api, tid, "rounds", {"round": 1})
    seed = (await views(api, tid))["quarterfinal"]["seeds"]["7"]
    assert (seed["qualifier"], seed["player"], seed["replaced"]) == ("7", "9", True)
    await assert_replay_equals_live(api, tid)
