"""The ``ukpl`` kind as a pure function of its records (display/competitions/ukpl/kind.py): the incremental
path equals a full recompute, the hall's records (corrections, voids, a machine replaced, queues)
keep the meeting's games in step, and every view is free of nulls. Values by hand from
ukpl-rules.txt 2E, 3B, 6A, 7D."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from display.competitions.base import EVERY_VIEW
from display.competitions.ukpl.kind import KIND
from display.competitions.ukpl.state import UkplState, settle
from scoring.errors import ScoringError

AT = "2025-03-08T19:30:00.000+00:00"
META = {"id": "k", "name": "Kind test"}


class Meeting:
    """Records applied one by one, as the replica does."""

    def __init__(self, players: int = 5, machines: int = 3, **settings: Any) -> None:
        self.seq = 1
        self.state: UkplState = KIND.create(
            {"type": "tournament_created", "format": "ukpl-meeting", "settings": settings, "at": AT}
        )
        for n in range(1, players + 1):
            self.add({"type": "player_added", "player": {"number": str(n), "name": f"P{n}"}})
        for m in range(1, machines + 1):
            self.add({"type": "machine_added", "machine": {"id": str(m), "name": f"M{m}"}})

    def add(self, record: dict[str, Any]) -> set[str]:
        self.seq += 1
        self.state, touched = KIND.apply(self.state, self.seq, {"by": "td:TD", "at": AT, **record})
        return touched

    def score(self, player: int, machine: int, score: int) -> set[str]:
        return self.add({"type": "score_recorded", "player": str(player), "machine": str(machine),
                         "score": score})  # fmt: skip

    def rows(self, machine: int) -> dict[str, Any]:
        return KIND.view(self.state, META, f"machine/{machine}")["rows"]  # type: ignore[index]


def same_meeting(a: UkplState, b: UkplState) -> None:
    assert a.meeting.tables == b.meeting.tables
    assert a.meeting.standings == b.meeting.standings


def nulls(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(nulls(v) for v in value.values())
    if isinstance(value, list):
        return any(nulls(v) for v in value)
    return False


ADJUSTMENTS = ("slam_tilt", "fault_replay", "fault_one_ball", "extra_ball_penalty", "penalty")


def random_record(rnd: random.Random) -> dict[str, Any]:
    player, machine = str(rnd.randint(1, 5)), str(rnd.randint(1, 3))
    kind = rnd.choice(("score", "score", "score", "group", *ADJUSTMENTS))
    if kind == "score":
        return {"type": "score_recorded", "player": player, "machine": machine,
                "score": rnd.randint(0, 50) * 1000}  # fmt: skip
    if kind == "group":
        group = rnd.sample(["1", "2", "3", "4", "5"], rnd.randint(2, 4))
        return {"type": "multiplayer_game_recorded", "machine": machine,
                "scores": [{"player": p, "score": rnd.randint(0, 50) * 1000} for p in group]}  # fmt: skip
    record = {"type": kind, "player": player, "machine": machine, "reason": "r"}
    if kind == "extra_ball_penalty":
        record["last_ball"] = rnd.random() < 0.5
    if kind == "penalty":
        record["level"] = rnd.choice(("zero", "disqualify"))
    return record


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_the_incremental_path_equals_a_full_recompute(seed: int) -> None:
    """architecture principle 7: whatever the mix of games, groups and adjustments, the meeting after
    each accepted record is the one recomputed from every game and decision."""
    rnd, meeting = random.Random(seed), Meeting(escalation="off")
    for _ in range(40):
        before = meeting.state
        try:
            meeting.add(random_record(rnd))
        except ScoringError:
            assert meeting.state is before  # a refused record changes nothing
            meeting.seq -= 1
            continue
        same_meeting(meeting.state, settle(meeting.state))
    for name in KIND.view_names(meeting.state):
        assert not nulls(KIND.view(meeting.state, META, name)), name


def test_a_plain_score_touches_its_machine_an_adjusted_player_every_view() -> None:
    meeting = Meeting()
    assert meeting.score(1, 1, 100) == {"machine/1", "standings", "queues", "season"}
    meeting.add({"type": "slam_tilt", "player": "2", "machine": "2", "reason": "slam"})
    assert meeting.score(2, 1, 50) == {EVERY_VIEW}


def test_a_corrected_score_keeps_its_jackpot_adjustment() -> None:
    """The hall's score_corrected names the game; UKPL 2E still applies to the corrected score:
    typed 12,000,000 with an 8m jackpot at 5m -> 9m; corrected to 13,000,000 -> 10m."""
    meeting = Meeting()
    meeting.score(1, 1, 12_000_000)
    game = meeting.seq
    meeting.add({"type": "jackpot_adjusted", "player": "1", "machine": "1",
                 "awarded": [8_000_000], "agreed": 5_000_000, "reason": "jackpot"})  # fmt: skip
    assert meeting.rows(1)["1"]["score"] == 9_000_000
    meeting.add(
        {"type": "score_corrected", "corrects": game, "score": 13_000_000, "reason": "typo"}
    )
    assert meeting.rows(1)["1"]["score"] == 10_000_000
    assert [g.score for g in meeting.state.games] == [13_000_000]
    jackpot = meeting.seq - 1
    with pytest.raises(ScoringError, match=f"adjustment {jackpot}; withdraw it first"):
        meeting.add({"type": "score_voided", "voids": game, "reason": "wrong player"})
    meeting.add({"type": "adjustment_withdrawn", "adjustment": jackpot, "reason": "wrong player"})
    meeting.add({"type": "score_voided", "voids": game, "reason": "wrong player"})
    assert meeting.rows(1) == {} and meeting.state.games == ()


def test_a_multiplayer_game_is_not_corrected_score_by_score() -> None:
    meeting = Meeting()
    meeting.add({"type": "multiplayer_game_recorded", "machine": "1",
                 "scores": [{"player": "1", "score": 10}, {"player": "2", "score": 20}]})  # fmt: skip
    with pytest.raises(ScoringError, match="multiplayer game"):
        meeting.add({"type": "score_voided", "voids": meeting.seq, "reason": "x"})


def test_a_machine_replaced_in_the_hall_is_a_substitution() -> None:
    """UKPL 6A: machine 1 replaced by machine 3 through the hall's machine status: its games
    stop counting, the substitution is listed with who and why, and it cannot be withdrawn."""
    meeting = Meeting()
    meeting.score(1, 1, 300)
    meeting.score(2, 1, 100)
    meeting.add({"type": "machine_status_changed", "machine": "1", "status": "replaced",
                 "replacement": "3", "note": "display dead"})  # fmt: skip
    seq = meeting.seq
    assert meeting.rows(1) == {}
    row = KIND.view(meeting.state, META, "adjustments")["rows"][str(seq)]  # type: ignore[index]
    assert (row["type"], row["substitute"], row["reason"]) == (
        "machine_substituted",
        "3",
        "display dead",
    )
    with pytest.raises(ScoringError, match="stays out"):
        meeting.add({"type": "adjustment_withdrawn", "adjustment": seq, "reason": "x"})
    meeting.score(1, 3, 300)
    assert meeting.rows(3)["1"]["place"] == 1


def test_the_hall_queues_still_run_for_a_ukpl_meeting() -> None:
    meeting = Meeting()
    meeting.add({"type": "queue_joined", "machine": "2", "player": "4"})
    queues = KIND.view(meeting.state, META, "queues")
    assert queues is not None and "4" in str(queues["2"])


def test_settings_a_ukpl_meeting_does_not_have_are_refused_by_name() -> None:
    with pytest.raises(ScoringError, match=r"qualifers.*counted.*qualifiers.*region"):
        Meeting(qualifers=8)


def test_two_meetings_with_one_meet_id_are_a_problem_to_fix() -> None:
    """Another meeting of the season linked with this meeting's id: the table counts this one
    and says what to fix."""
    meeting = Meeting(region="Irish", season="2025", meet="649")
    meeting.add({"type": "season_meeting_linked", "tournament": "other", "version": 9,
                 "meet": "649", "region": "Irish", "season": "2025", "held": "2025-01-01",
                 "settings": {}, "results": [{"player": "1", "points": "20", "total": "9"}],
                 "penalties": []})  # fmt: skip
    season = KIND.view(meeting.state, META, "season")
    assert season is not None and season["problem"].startswith(
        "Meeting 649 is also tournament other"
    )
    assert list(season["meets"]) == ["649"] and season["meets"]["649"]["source"] == "this"


@pytest.mark.parametrize(
    "kind, field", [("score_corrected", "corrects"), ("score_voided", "voids")]
)
def test_a_correction_naming_no_record_number_is_refused_not_a_crash(kind: str, field: str) -> None:
    """A hand-made record (a log import) whose ``corrects``/``voids`` is a list, not a record
    number: refused as a rule refusal (the import answers 4xx naming the line), not a TypeError
    from the multiplayer-game check (UKPL 2F) that the server would answer with a 500."""
    meeting = Meeting()
    meeting.score(1, 1, 1000)
    with pytest.raises(ScoringError, match=r"is not a recorded score"):
        meeting.add({"type": kind, field: [2], "score": 2000, "reason": "typo"})
