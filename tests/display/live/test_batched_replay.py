"""Records applied in batches (``LiveTournament.advance`` per record, ``publish`` once per batch,
as a catch-up, an import or a restore does) give the views a replay record by record gives, for
random logs of every format; a client applying the batches' patches holds them too; and a push
applied between two slices of a catch-up goes out as a change that follows on from what clients
hold, the catch-up's own change after it (issue 14)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display import competitions
from display.live import mergepatch
from display.live.tournament import Change, LiveTournament
from display.types import Doc
from tests.display.live.test_snapshots import random_log


def follow(client: dict[str, Doc], change: Change | None) -> None:
    """A display's copy of the views after ``change`` (docs/protocol.md, patch)."""
    if change is None:
        return
    for name, patch in change.patches.items():
        if patch is None:
            client.pop(name, None)
        else:
            client[name] = mergepatch.apply(client.get(name), patch)
    client.update(change.documents)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fmt=st.sampled_from(competitions.formats()),
    seed=st.integers(0, 2**32),
    length=st.integers(0, 60),
)
def test_batched_replay_equals_a_replay_record_by_record(fmt: str, seed: int, length: int) -> None:
    records = random_log(fmt, seed, length)
    one_by_one = LiveTournament("t", 64)
    for record in records:
        one_by_one.apply([record])
    rng = random.Random(seed)
    batched, client, at = LiveTournament("t", 64), dict[str, Any](), 0
    while at < len(records):
        size = rng.choice([1, 2, 5, 17, 1000])
        base = batched.version
        batched.advance(records[at : at + size])
        change = batched.publish()
        assert change is not None and change.base == base
        follow(client, change)
        at += size
    assert batched.version == one_by_one.version
    assert batched.views == one_by_one.views == client
    assert batched.all_views() == one_by_one.views


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), length=st.integers(4, 40), cut=st.floats(0, 1))
def test_a_push_between_two_slices_follows_on(seed: int, length: int, cut: float) -> None:
    records = random_log("epc-qualifying", seed, length)
    head = 1 + int(cut * (len(records) - 2))
    live = LiveTournament("t", 64)
    live.apply(records[:head])
    client = dict(live.views)
    start = live.version
    live.advance(records[head:-1])  # a catch-up's slices, not yet published
    push = live.apply(records[-1:])  # a push applied between two slices
    assert push is not None and push.base == start  # from what clients hold
    follow(client, push)
    assert live.publish() is None  # nothing left: the push carried it all
    whole = LiveTournament("t", 64)
    whole.apply(records)
    assert client == live.views == whole.views
    assert live.published == live.version == len(records)


def test_views_and_snapshot_say_the_version_they_are_at() -> None:
    records = random_log("epc-qualifying", 3, 30)
    live = LiveTournament("t", 64)
    live.apply(records[:10])
    live.advance(records[10:])
    assert live.published == 10 < live.version
    version, _ = live.snapshot_text()
    assert version == 10  # the views of version 10, not labelled with a later one
    assert live.since(10) is not None and live.since(10).patches == {}  # type: ignore[union-attr]
    live.publish()
    assert live.snapshot_text()[0] == live.version == len(records)
