"""A score corrected in place (same player, same machine) or voided re-ranks only its machine
(``scoring.corrections``); the tournament it gives equals ``rebuild`` of the same entries, the
reference that checks every entry against the rules again in the order played, and both refuse
the same corrections, for random sequences of every format (EPC 2009, EPC Qualifying, EPC
Classic Tournament, UK Pinball Kids Tournament; UKPL 3A, 3B)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import FORMATS, Entry, Machine, Player, Tournament
from scoring.corrections import correct_entry, void_entry
from scoring.errors import ScoringError
from scoring.tournament import add_machine, add_player, new_tournament, rebuild, record_entry

SETTINGS: dict[str, list[dict[str, Any]]] = {
    "epc-qualifying": [{}, {"machines_per_player": 2, "jokers_per_player": 1}],
    "ukpl-meeting": [{}],
    "epc-classic": [{}, {"closed_after": 112}],
    "epc-kids": [{}, {"closed_after": 112}],
}

steps = st.lists(
    st.tuples(
        st.sampled_from(["score"] * 4 + ["correct", "correct", "void"]),
        st.integers(1, 6),
        st.integers(1, 3),
        st.integers(0, 6),  # small scores: equal ones (ties) are common
    ),
    max_size=50,
)


def reference(t: Tournament, settings_: dict[str, Any], entries: list[Entry]) -> Tournament:
    return rebuild(t.format, settings_, t.players.values(), t.machines.values(), entries)


@pytest.mark.parametrize("fmt", list(FORMATS))
@settings(max_examples=120, deadline=None)
@given(choice=st.integers(0, 1), players=st.integers(1, 6), plan=steps)
def test_a_fast_correction_or_void_equals_a_rebuild(
    fmt: str, choice: int, players: int, plan: list[tuple[str, int, int, int]]
) -> None:
    options = SETTINGS[fmt]
    settings_ = options[choice % len(options)]
    t = new_tournament(FORMATS[fmt], settings_)
    for n in range(1, players + 1):
        t = add_player(t, Player(str(n), f"P{n}"))
    for m in range(1, 4):
        t = add_machine(t, Machine(str(m), f"M{m}"))
    for seq, (what, who, machine, value) in enumerate(plan, start=100):
        now = [e for on in t.entries.values() for e in on]
        if what == "score":
            with contextlib.suppress(ScoringError):
                t = record_entry(t, Entry(seq, str(who), str(machine), value))
            continue
        if not now:
            continue
        target = now[who % len(now)]
        if what == "correct":
            fixed = Entry(target.seq, target.player, target.machine, value * 1000)
            kept = [fixed if e.seq == target.seq else e for e in now]
            fast = correct_entry(t, target.seq, value * 1000)
        else:
            kept = [e for e in now if e.seq != target.seq]
            fast = void_entry(t, target.seq)
        full = reference(t, settings_, kept)  # raises if a kept entry broke the rules
        assert fast.tables == full.tables
        assert fast.standings == full.standings
        assert {m: tuple(e) for m, e in fast.entries.items()} == dict(full.entries)
        t = fast
