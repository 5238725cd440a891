"""A machine dies mid-game in an FWPL league night (FWPL 7.3: "if play cannot be continued on a
machine for any reason, the machine is automatically declared unplayable for the rest of the
meet ... the entire game is replayed immediately on a machine designated by the LO"): one TD
record, through the API as a TD would, the replay entered as any game, and a log replay equal to
the live state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.display.cli.test_replay import same_as_the_server
from tests.display.competitions.fwpl.test_fwpl_live import league, night, start
from tests.utils import Api


async def die(api: Api, tid: str, machine: str, replay_on: str, **extra: Any) -> Any:
    body = {"week": 1, "group": 1, "game_no": 1, "machine": machine, "replay_on": replay_on,
            "reason": "the machine reset mid-game", **extra}  # fmt: skip
    return await api.post(f"/api/t/{tid}/league/dead-machines", body)


async def lines(api: Api, tid: str, machine: str, scores: dict[str, int], **kw: Any) -> Any:
    ref = {"week": 1, "group": 1, "game_no": 1, "machine": machine}
    entries = [{"player": p, "score": s} for p, s in scores.items()]
    return await api.post(f"/api/t/{tid}/league/scores", {**ref, "lines": entries}, **kw)


async def test_the_game_is_replayed_on_the_machine_the_lo_names(api: Api, tmp_path: Path) -> None:
    await league(api, "dm1", 6, machines=4)
    dead = (await start(api, "dm1", 1))["groups"]["1"]["machine"]
    other = next(m for m in ("m1", "m2", "m3", "m4") if m != dead)
    # players 1 and 2 finished on the machine before it reset
    assert (await lines(api, "dm1", dead, {"1": 5000, "2": 9000})).status_code == 201
    answer = await die(api, "dm1", dead, other)
    assert answer.status_code == 201, answer.text
    group = (await night(api, "dm1", 1))["groups"]["1"]
    assert group["machine"] == other and group["replay_pending"] is True
    assert group["dead"] == [dead]
    # the scores entered on the dead machine are kept, voided, and count nowhere
    assert group["voided"] == {"1": {"score": 5000}, "2": {"score": 9000}}
    assert "entered" not in group
    assert (await night(api, "dm1", 1))["unplayable"] == [dead]
    # the replay on the LO's machine is entered as any game: whole, or one line at a time
    ref = {"week": 1, "group": 1, "game_no": 1}
    game = {**ref, "scores": {"1": 1000, "2": 100, "3": 10}}
    assert (await api.post("/api/t/dm1/league/games", game)).status_code == 201
    group = (await night(api, "dm1", 1))["groups"]["1"]
    played = group["games"]["1"]
    assert played["machine"] == other and played["dead"] == [dead]
    assert played["voided"] == {"1": {"score": 5000}, "2": {"score": 9000}}
    # FWPL 3.2 on the replay alone: 1000 > 100 + 10, so 7 + 1, 4, 1
    assert {p: r["points"] for p, r in played["rows"].items()} == {"1": 8, "2": 4, "3": 1}
    assert "replay_pending" not in group and group["game_no"] == 2
    # the dead machine is unplayable for the rest of the night (FWPL 7.3): not offered, refused
    assert dead not in group["allowed"]
    pick = {**ref, "game_no": 2, "machine": dead}
    refused = await api.post("/api/t/dm1/league/picks", pick)
    assert refused.status_code == 409
    assert "declared unplayable tonight (FWPL 7.3)" in refused.json()["message"]
    await same_as_the_server(api, "dm1", tmp_path)


async def test_refusals_say_why_and_write_nothing(api: Api) -> None:
    await league(api, "dm2", 6, machines=4)
    dead = (await start(api, "dm2", 1))["groups"]["1"]["machine"]
    other = next(m for m in ("m1", "m2", "m3", "m4") if m != dead)
    before = (await api.views("dm2"))["version"]
    wrong = await die(api, "dm2", other, dead)
    assert wrong.status_code == 409
    assert wrong.json()["message"] == (
        f"group 1, game 1 of week 1 is being played on Machine {dead[1:]}, not Machine {other[1:]}."
    )
    same = await die(api, "dm2", dead, dead)
    assert same.status_code == 409 and "declared unplayable tonight" in same.json()["message"]
    unknown = await die(api, "dm2", dead, "m9")
    assert unknown.status_code == 404
    assert unknown.json()["message"] == "Machine m9 is not one of this league's machines."
    body = {"week": 1, "group": 1, "game_no": 1, "machine": dead, "replay_on": other}
    no_reason = await api.post("/api/t/dm2/league/dead-machines", body)
    assert no_reason.status_code == 422
    steward = await api.sign_in_steward("dm2")
    by_steward = await api.post(
        "/api/t/dm2/league/dead-machines", {**body, "reason": "reset"}, token=steward
    )
    assert by_steward.status_code == 403
    assert (await api.views("dm2"))["version"] == before  # nothing written


async def test_players_whose_game_was_over_keep_their_scores_as_a_setting(
    api: Api, tmp_path: Path
) -> None:
    """``dead_machine: keep_finished`` (the IFPA/PAPA reading): 1 and 2 had finished and keep
    their scores; only 3 replays, on the LO's machine."""
    await league(api, "dm3", 6, machines=4, settings={"dead_machine": "keep_finished"})
    dead = (await start(api, "dm3", 1))["groups"]["1"]["machine"]
    other = next(m for m in ("m1", "m2", "m3", "m4") if m != dead)
    assert (await lines(api, "dm3", dead, {"1": 5000, "2": 9000})).status_code == 201
    assert (await die(api, "dm3", dead, other)).status_code == 201
    group = (await night(api, "dm3", 1))["groups"]["1"]
    assert group["entered"] == {"1": {"score": 5000}, "2": {"score": 9000}}
    assert group["replay_pending"] is True and "voided" not in group
    assert (await lines(api, "dm3", other, {"3": 100})).status_code == 201
    played = (await night(api, "dm3", 1))["groups"]["1"]["games"]["1"]
    # 9000 > 5000 + 100: 2 gets 7 + 1, 1 4, 3 1
    assert {p: r["points"] for p, r in played["rows"].items()} == {"2": 8, "1": 4, "3": 1}
    assert played["machine"] == other and played["dead"] == [dead]
    await same_as_the_server(api, "dm3", tmp_path)
