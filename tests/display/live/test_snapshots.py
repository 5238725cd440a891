"""Snapshots for restarts (display/live/snapshots.py): a state saved at a version and loaded again,
plus the records after it, is the state a full replay gives, for random logs of every format; a
snapshot from other code is never unpickled; and a restarted server starts from its snapshot."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display import competitions
from display.live import shared
from display.live.snapshots import Snapshots
from display.live.tournament import LiveTournament
from display.log.store import Record
from display.settings import Settings
from scoring import FORMATS
from tests.utils import Api, opening_records, serve_in_loop

AT = "2025-03-08T19:30:00.000+00:00"


def random_log(fmt: str, seed: int, length: int) -> list[Record]:
    """``tournament_created`` of ``fmt``, players, machines, then ``length`` records drawn from the
    hall's records (scores, some refused by the rules, corrections, voids, withdrawals) and the
    shared ones (display profiles), each stamped and chained like a log's."""
    rng = random.Random(seed)
    players, machines = rng.randint(2, 12), rng.randint(1, 5)
    records = opening_records(fmt, players, machines, {}, name="Snap")
    for _ in range(length):
        player, machine = str(rng.randint(1, players)), str(rng.randint(1, machines))
        roll = rng.random()
        if roll < 0.7:
            score = rng.choice([rng.randint(1, 10**8), 0, -5])
            record = {
                "type": "score_recorded",
                "player": player,
                "machine": machine,
                "score": score,
            }
        elif roll < 0.8:
            record = {"type": "score_voided", "voids": rng.randint(1, len(records)), "reason": "x"}
        elif roll < 0.9:
            record = {
                "type": "score_corrected",
                "corrects": rng.randint(1, len(records)),
                "score": rng.randint(1, 10**7),
                "reason": "typo",
            }
        else:
            record = {"type": "profile_set", "name": rng.choice("ab"), "views": ["standings"],
                      "seconds": rng.randint(5, 30)}  # fmt: skip
        records.append(record)
    stamped = [{"by": "td:TD", "at": AT, **record} for record in records]
    kind, state = competitions.create(stamped[0])
    known = [stamped[0]]
    for record in stamped[1:]:  # a format without a record type (a league's corrections) skips it
        if shared.handles(record["type"]):
            known.append(record)
            continue
        try:
            kind.apply(state, len(known) + 1, record)
        except ValueError as exc:
            if "unknown record type" in str(exc):
                continue
        except Exception:
            pass
        known.append(record)
    return [Record(seq, record, f"h{seq}") for seq, record in enumerate(known, start=1)]


def replayed(records: list[Record]) -> LiveTournament:
    live = LiveTournament("snap", 64)
    live.apply(records)
    return live


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fmt=st.sampled_from(competitions.formats()),
    seed=st.integers(0, 2**32),
    length=st.integers(0, 60),
    cut=st.floats(0, 1),
)
def test_snapshot_and_tail_equal_a_full_replay(
    fmt: str, seed: int, length: int, cut: float, tmp_path_factory: pytest.TempPathFactory
) -> None:
    records = random_log(fmt, seed, length)
    at = max(1, int(cut * len(records)))
    full = replayed(records)
    snapshots = Snapshots(tmp_path_factory.mktemp("snap"), "bg")
    first = replayed(records[:at])
    snapshots.write("snap", snapshots.dump(first.saved()), first.version)
    loaded = snapshots.load("snap")
    assert loaded is not None
    restarted = LiveTournament("snap", 64)
    restarted.restore(loaded)
    change = restarted.apply(records[at:])
    assert restarted.version == full.version and restarted.head_hash == full.head_hash
    assert restarted.views == full.views
    assert restarted.all_views() == full.all_views()
    if change is not None:  # a client holding the snapshot's views gets the same by the patch
        assert change.base == at and change.version == full.version


def test_a_snapshot_from_other_code_is_not_unpickled(tmp_path: Path) -> None:
    records = random_log("epc-qualifying", 1, 20)
    live = replayed(records)
    ours = Snapshots(tmp_path, "bg")
    ours.write("snap", ours.dump(live.saved()), live.version)
    assert ours.load("snap") is not None
    other = Snapshots(tmp_path, "bg", code="0" * 64)  # other rules: another fingerprint
    assert other.load("snap") is None
    ours.path("snap").write_bytes(ours.code.encode() + b"\nnot a pickle")
    assert ours.load("snap") is None  # a damaged file: the log is replayed


async def test_a_restart_starts_from_the_snapshot_and_reads_only_the_tail(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first process saves its state at shutdown; the second loads it and reads only the
    records after it (counted by the rules' runs), and serves the same views; with the snapshot
    taken by other code it replays everything and serves the same views again."""
    async with serve_in_loop(settings) as base:
        api = Api(base)
        await api.sign_in_td()
        await api.tournament("snap", "epc-qualifying", players=20, machines=4)
        for n in range(20):
            assert (await api.score("snap", 1 + n, 1 + n % 4, 1000 + n)).status_code == 201
        before = await api.views("snap")
        await api.close()
    applied: list[int] = []
    original = LiveTournament.advance

    def counting(self: LiveTournament, batch: Any, defer: bool = False) -> Any:
        applied.extend(r.seq for r in batch if r.seq > self.version)
        return original(self, batch, defer)

    monkeypatch.setattr(LiveTournament, "advance", counting)
    async with serve_in_loop(settings) as base:
        api = Api(base)
        assert (await api.views("snap")) == before
        assert applied == []  # nothing replayed: the snapshot was at the last version
        await api.sign_in_td()
        r = await api.score("snap", 1, 2, 77)
        assert r.status_code == 201, r.text
        after = await api.views("snap")
        await api.close()
    monkeypatch.setattr("display.live.snapshots.code_fingerprint", lambda: "other code")
    async with serve_in_loop(settings) as base:
        api = Api(base)
        assert (await api.views("snap")) == after
        assert applied == list(range(1, after["version"] + 1))  # the whole log, from scratch
        await api.close()


def test_a_snapshot_keeps_the_tie_at_the_cut(tmp_path: Path) -> None:
    """The standings view of an EPC qualifying restored from a snapshot still bands a tie at the
    cut "tie" (its views find the format by identity, so the state must unpickle to the one
    format object, not a copy of it)."""
    head: list[dict[str, Any]] = [
        {"type": "tournament_created", "format": "epc-qualifying", "name": "Snap",
         "settings": {"qualify": 1, "standby": 0}},
        *({"type": "player_added", "player": {"number": n, "name": f"P{n}"}} for n in "12"),
        {"type": "machine_added", "machine": {"id": "1", "name": "M1"}},
        {"type": "machine_added", "machine": {"id": "2", "name": "M2"}},
        {"type": "score_recorded", "player": "1", "machine": "1", "score": 10},
        {"type": "score_recorded", "player": "2", "machine": "2", "score": 10},
        {"type": "profile_set", "name": "a", "views": ["standings"], "seconds": 5},
    ]  # fmt: skip
    records = [Record(s, {"by": "td:TD", "at": AT, **r}, f"h{s}") for s, r in enumerate(head, 1)]
    full = replayed(records)
    assert full.views["standings"]["cut_tie"]["players"] == ["1", "2"]
    snapshots = Snapshots(tmp_path, "bg")
    first = replayed(records[:-1])
    snapshots.write("snap", snapshots.dump(first.saved()), first.version)
    loaded = snapshots.load("snap")
    assert loaded is not None
    restarted = LiveTournament("snap", 64)
    restarted.restore(loaded)
    restarted.apply(records[-1:])
    assert restarted.all_views() == full.views
    for fmt in FORMATS.values():
        assert pickle.loads(pickle.dumps(fmt)) is fmt
