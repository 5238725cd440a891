"""A batch of records replayed with the tables and standings deferred to its end (EPC qualifying,
``LiveTournament.advance`` of ``DEFER_FROM`` records or more) gives the state, the refusals and
the views a replay record by record gives, for random hall logs: scores (some refused), joker
games, corrections that move a score to another player or machine, voids, queues, machine
faults, withdrawals, merges and settings changes (issue 14, "Replay at the rules' speed")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display.competitions.machines.kind import MACHINES
from display.live.tournament import DEFER_FROM, LiveTournament
from display.log.store import Record
from scoring.errors import UnknownEntry
from tests.utils import opening_records

AT = "2025-03-08T19:30:00.000+00:00"


def hall_log(seed: int, length: int) -> list[Record]:
    """``tournament_created`` (EPC qualifying, two machines a player, one joker), players,
    machines, then ``length`` hall records of every kind, some of them refused by the rules."""
    rng = random.Random(seed)
    players, machines = rng.randint(2, 8), rng.randint(1, 4)
    settings_ = {"machines_per_player": 2, "qualify": 2, "standby": 1}
    records = opening_records("epc-qualifying", players, machines, settings_)
    scores: list[int] = []  # seqs of score records: most corrections and voids name one
    for _ in range(length):
        player, machine = str(rng.randint(1, players)), str(rng.randint(1, machines))
        seq = rng.choice(scores) if scores and rng.random() < 0.8 else rng.randint(1, len(records))
        roll = rng.random()
        record: dict[str, Any]
        if roll < 0.45:  # small scores: ties are common
            record = {"type": "score_recorded", "player": player, "machine": machine,
                      "score": rng.randint(0, 6)}  # fmt: skip
            scores.append(len(records) + 1)
        elif roll < 0.55:
            record = {"type": "score_corrected", "corrects": seq, "score": rng.randint(0, 6),
                      "player": player, "machine": machine, "reason": "typo"}  # fmt: skip
        elif roll < 0.62:
            record = {"type": "score_voided", "voids": seq, "reason": "x"}
        elif roll < 0.75:
            kind = rng.choice(["queue_joined", "queue_called", "queue_left", "game_started"])
            record = {"type": kind, "player": player, "machine": machine}
        elif roll < 0.82:
            status = rng.choice(["out_of_order", "in_service", "in_service", "closed"])
            record = {"type": "machine_status_changed", "machine": machine, "status": status}
        elif roll < 0.9:
            kind = rng.choice(["player_withdrawn", "player_reinstated"])
            record = {"type": kind, "player": player, "reason": "x"}
        elif roll < 0.95:
            into = str(rng.randint(1, players))
            record = {"type": "players_merged", "player": player, "into": into, "reason": "x"}
        else:
            record = {"type": "settings_changed",
                      "settings": {"machines_per_player": rng.randint(1, 3)}}  # fmt: skip
        records.append(record)
    return [
        Record(seq, {"by": "td:TD", "at": AT, **record}, f"h{seq}")
        for seq, record in enumerate(records, start=1)
    ]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), length=st.integers(DEFER_FROM, 80))
def test_a_deferred_batch_equals_a_replay_record_by_record(seed: int, length: int) -> None:
    records = hall_log(seed, length)
    one_by_one = LiveTournament("t", 64)
    for record in records:
        one_by_one.apply([record])
    batched = LiveTournament("t", 64)
    batched.advance(records)
    assert not batched.state.deferred  # settled when the batch is done
    assert batched.state == one_by_one.state  # the tables, standings and hall alike
    batched.publish()
    assert batched.views == one_by_one.views


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), length=st.integers(DEFER_FROM, 60))
def test_a_deferred_state_refuses_what_a_settled_one_refuses(seed: int, length: int) -> None:
    records = hall_log(seed, length)
    settled_state = deferred_state = None
    for record in records:
        if record.data["type"] == "tournament_created":
            settled_state = deferred_state = MACHINES.create(record.data)
            continue
        outcomes = []
        for state in (settled_state, MACHINES.defer(deferred_state)):
            try:
                outcomes.append(MACHINES.apply(state, record.seq, record.data)[0])
            except Exception as exc:  # the same refusal, or the same crash, either way
                outcomes.append(type(exc))
        settled_after, deferred_after = outcomes
        assert isinstance(deferred_after, type) == isinstance(settled_after, type)
        if isinstance(settled_after, type):
            assert deferred_after is settled_after
            continue
        settled_state, deferred_state = settled_after, deferred_after
        assert MACHINES.settle(deferred_state) == settled_state


def test_without_settling_the_standings_stay_behind() -> None:
    # The test above would pass if defer did nothing; this one shows that it does defer.
    records = hall_log(1, 0)
    state = MACHINES.create(records[0].data)
    for record in records[1:]:
        state, _ = MACHINES.apply(state, record.seq, record.data)
    deferred = MACHINES.defer(state)
    score = {"type": "score_recorded", "player": "1", "machine": "1", "score": 5, "at": AT}
    after, _ = MACHINES.apply(deferred, len(records) + 1, score)
    assert after.tables["1"].rows == ()  # recorded, not ranked yet
    assert [e.score for e in after.entries["1"]] == [5]
    ranked = MACHINES.settle(after)
    assert [(r.player, r.points) for r in ranked.tables["1"].rows] == [("1", 100)]
    assert ranked.standings.rows[0].total == 100


def test_a_record_that_is_no_score_is_not_corrected() -> None:
    records = hall_log(2, 0)
    state = MACHINES.create(records[0].data)
    for record in records[1:]:
        state, _ = MACHINES.apply(state, record.seq, record.data)
    fix = {"type": "score_corrected", "corrects": 2, "score": 1, "reason": "x", "at": AT}
    with pytest.raises(UnknownEntry, match="Record 2 is not a recorded score"):
        MACHINES.apply(state, len(records) + 1, fix)
