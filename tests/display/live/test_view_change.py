"""Patches built from the changed keyed rows (``Kind.view_change``: the machines kind's standings)
equal the views built whole: a client that applies every patch holds the views a fresh build of
the state gives, after every record, corrections and voids included."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display import competitions
from display.live.tournament import LiveTournament
from display.log.store import Record
from scoring.errors import ScoringError
from tests.display.live.test_batched_replay import follow
from tests.display.live.test_deferred_replay import hall_log
from tests.display.live.test_snapshots import random_log
from tests.utils import opening_records

AT = "2026-01-01T10:00:00+00:00"


def stamped(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "by": "td", "at": AT}


def setup(players: int, machines: int) -> list[dict[str, Any]]:
    settings = {"qualify": 2, "standby": 1}  # ties at the cut are common
    return [stamped(r) for r in opening_records("epc-qualifying", players, machines, settings)]


steps = st.lists(
    st.tuples(
        st.sampled_from(["score"] * 5 + ["correct", "void", "player"]),
        st.integers(1, 9),
        st.integers(1, 3),
        st.integers(0, 6),
    ),
    max_size=40,
)


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 8), steps)
def test_patches_from_changed_rows_equal_whole_views(players: int, plan: list[Any]) -> None:
    live = LiveTournament("t", 16)
    live.apply([Record(i, r) for i, r in enumerate(setup(players, 3), start=1)])
    client = {name: dict(doc) for name, doc in live.views.items()}
    scores: list[int] = []
    for what, who, machine, value in plan:
        if what == "score":
            record = {"type": "score_recorded", "player": str(who), "machine": str(machine)}
            record["score"] = value
        elif what == "player":
            record = {"type": "player_added", "player": {"number": f"L{live.version}", "name": "L"}}
        elif scores and what == "correct":
            target = scores[who % len(scores)]
            record = {"type": "score_corrected", "corrects": target, "score": value, "reason": "x"}
        elif scores and what == "void":
            record = {"type": "score_voided", "voids": scores[who % len(scores)], "reason": "x"}
        else:
            continue
        try:
            applied = live.try_apply([stamped(record)])
        except ScoringError:  # refused by the rules: nothing written, as the API does
            continue
        seq = live.version + 1
        change = live.apply([Record(seq, stamped(record))], applied)
        assert change is not None
        if what == "score":
            scores.append(seq)
        follow(client, change)
        assert client == live.all_views()
        assert live.views == live.all_views()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), length=st.integers(1, 60))
def test_patches_equal_whole_views_through_a_hall_day(seed: int, length: int) -> None:
    """Every view the kind patches from changed rows (standings, ``machine/<id>``, ``queues``)
    through random hall logs: scores, joker games, corrections that move a score, voids, queue
    records, machine faults (a replaced machine's scores wiped), withdrawals, merges and
    settings changes, some refused by the rules; record by record, as pushes come."""
    live = LiveTournament("t", 64)
    client: dict[str, Any] = {}
    for record in hall_log(seed, length):
        try:
            applied = live.try_apply([record.data]) if live.kind is not None else None
        except Exception:  # refused (by the rules, or as bad input): nothing written
            continue
        # the API writes only what the rules take, at the next version
        follow(client, live.apply([Record(live.version + 1, record.data)], applied))
        assert client == live.all_views()
        assert live.views == live.all_views()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fmt=st.sampled_from(competitions.formats()),
    seed=st.integers(0, 2**32),
    length=st.integers(0, 60),
)
def test_every_format_patches_equal_whole_views_record_by_record(
    fmt: str, seed: int, length: int
) -> None:
    """Every format's views, incremental where its kind patches from changed rows (the machines
    and UKPL kinds), equal the views built whole after each record of a random log."""
    live = LiveTournament("t", 64)
    client: dict[str, Any] = {}
    for record in random_log(fmt, seed, length):
        follow(client, live.apply([record]))
        assert client == live.views == live.all_views()
