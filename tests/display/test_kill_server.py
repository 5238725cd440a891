"""Kill -9 the server (and in some trials its embedded Redis, or only Redis) while pushers send keyed scores, then
restart it on the same data: every acknowledged score is in the log with its version and record,
the views equal a replay of the log (and the standings the pure engine's rebuild), and every push
sent again with its key gets its first answer and appends nothing. The trials are bench/soak.py's
(``scripts/soak`` runs 100); here five, each kind of kill once.

Always on the embedded Redis (the production default, and the one a test may kill), also when the
suite runs against REDIS_URL. What the trials catch and what they cannot is in bench/README.md.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.soak import run_trial

KILLS = [
    # right after the n-th acknowledgement, server only: an answer sent before its append left
    # the server process dies with it
    ("ack", "server"),
    # right after an acknowledgement, server and Redis: a Redis that acknowledged a write it had
    # not written to its append-only file (no AOF) comes back without it
    ("ack", "both"),
    # after a random delay, server and Redis: the kill falls anywhere in a push, also mid-request
    ("time", "both"),
    # Redis stopped (SIGSTOP) under load, the server killed while pushes wait in Redis's socket,
    # Redis continued: it runs the dead server's appends, which nobody was answered for
    ("time", "hung"),
    # right after an acknowledgement, Redis only: the server rides through it (503s meanwhile,
    # each "not recorded" checked absent from the log), its supervisor starts Redis again
    ("ack", "redis"),
]


@pytest.mark.parametrize(("mode", "what"), KILLS)
async def test_kill_and_restart_loses_nothing_acknowledged(
    tmp_path: Path, mode: str, what: str
) -> None:
    seed = KILLS.index((mode, what))
    trial = await run_trial(tmp_path, seed, random.Random(seed), kill_mode=mode, what=what)
    assert trial.mode == what
    assert trial.acknowledged + trial.in_flight > 0, "the kill came before any push was sent"
    if mode == "ack":
        assert trial.acknowledged >= 1
    assert trial.problems == []
    assert (trial.lost, trial.replay_mismatches, trial.appended_twice) == (0, 0, 0)
