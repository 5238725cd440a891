"""EPC qualifying standings moved on incrementally (``scoring.restand``) equal the standings ranked
from scratch, for random sequences of registrations, scores (joker games among them),
corrections and voids (EPC 2009, EPC Qualifying)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import FORMATS, Entry, EntryNotAllowed, Machine, Player, Tournament
from scoring.corrections import correct_entry, void_entry
from scoring.errors import ScoringError
from scoring.restand import UNRANKED, sort_key
from scoring.tournament import (
    add_machine,
    add_player,
    deferring,
    new_tournament,
    rebuild,
    record_entry,
    settled,
)

EPC = FORMATS["epc-qualifying"]
UKPL = FORMATS["ukpl-meeting"]

Step = tuple[str, int, int, int]  # (what, player or target, machine, score)


@dataclass(frozen=True)
class Case:
    settings: dict[str, Any]
    players: int
    machines: int
    steps: list[Step]
    fmt: Any = EPC
    guests: frozenset[int] = frozenset()


STEPS = st.lists(
    st.tuples(
        # mostly scores; a few late registrations, corrections and voids
        st.sampled_from(["score"] * 6 + ["player", "correct", "void"]),
        st.integers(1, 14),
        st.integers(1, 4),
        st.integers(0, 8),  # a small range, so equal scores (ties) are common
    ),
    max_size=60,
)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    config = draw(
        st.fixed_dictionaries(
            {
                "scale": st.sampled_from(["papa", "linear", "top-25", (10, 5, 5, 1)]),
                "machines_per_player": st.integers(1, 4),
                "jokers_per_player": st.integers(0, 2),
                "qualify": st.integers(0, 6),
                "standby": st.integers(0, 3),
                "cut_ties": st.sampled_from(["include", "exclude"]),
            }
        )
    )
    config["jokers_per_player"] = min(config["jokers_per_player"], config["machines_per_player"])
    steps = draw(STEPS)
    return Case(config, draw(st.integers(1, 8)), draw(st.integers(1, 4)), steps)


def run(
    case: Case, settle_after: frozenset[int] | None = None, share: float = 0.5
) -> tuple[Tournament, int]:
    """The steps as the server applies them, skipping those the rules refuse; the tournament and
    how many steps were taken. ``settle_after`` (None: every step is applied settled): the
    steps run deferred (``deferring``), settled (``restand_share=share``) and checked before
    the steps of these indices and at the end, as a group commit does."""
    t = new_tournament(case.fmt, case.settings)
    for number in range(1, case.players + 1):
        t = add_player(t, Player(str(number), f"P{number}", guest=number in case.guests))
    for number in range(1, case.machines + 1):
        t = add_machine(t, Machine(f"m{number}", f"Machine {number}"))
    taken = 0
    if settle_after is not None:
        t = deferring(t)
        assert t.deferred
    for seq, (what, who, machine, score) in enumerate(case.steps, start=100):
        if settle_after is not None and seq - 101 in settle_after:
            t = deferring(settled(t, share))
            check(t, case)
        seqs = [e.seq for on in t.entries.values() for e in on]
        try:
            if what == "player":
                t = add_player(t, Player(str(seq), f"Late {seq}", guest=who in case.guests))
            elif what == "score":
                t = record_entry(t, Entry(seq, str(who), f"m{machine}", score))
            elif what == "correct" and seqs:
                t = correct_entry(t, seqs[who % len(seqs)], score)
            elif what == "void" and seqs:
                t = void_entry(t, seqs[who % len(seqs)])
            else:
                continue
        except (EntryNotAllowed, ScoringError):
            continue
        taken += 1
        if settle_after is None:
            check(t, case)
    if settle_after is not None:
        t = settled(t, share)
        check(t, case)
    return t, taken


def check(t: Tournament, case: Case) -> None:
    """The incremental tournament equals a rebuild of its players, machines and entries."""
    entries = [e for on in t.entries.values() for e in on]
    full = rebuild(case.fmt, case.settings, t.players.values(), t.machines.values(), entries)
    assert t.tables == full.tables
    assert t.standings == full.standings
    index = t.standings.index
    if index:  # kept by ``restand``: it must say where each row is
        assert {row.player: i for i, row in enumerate(t.standings.rows)} == dict(index)
        keys = [UNRANKED if r.place is None else sort_key(r.total) for r in t.standings.rows]
        assert list(t.standings.keys) == keys


@settings(max_examples=300, deadline=None)
@given(cases())
def test_incremental_standings_equal_a_full_ranking(case: Case) -> None:
    """After every step taken, the standings moved on incrementally equal those ranked again
    from every machine table, with places, totals, machines played and bands."""
    run(case)


@st.composite
def ukpl_cases(draw: st.DrawFn) -> Case:
    config = draw(
        st.fixed_dictionaries(
            {
                "ties": st.sampled_from(["high", "low", "shared"]),
                "bonus": st.sampled_from(["gt", "gte"]),
                "no_score": st.sampled_from(["unranked", "ranked"]),
            }
        )
    )
    steps = draw(STEPS)
    players = draw(st.integers(1, 8))
    guests = draw(st.frozensets(st.integers(1, 14), max_size=4))
    return Case(config, players, draw(st.integers(1, 4)), steps, UKPL, guests)


@settings(max_examples=300, deadline=None)
@given(ukpl_cases())
def test_incremental_ukpl_meeting_standings_equal_a_full_ranking(case: Case) -> None:
    """The same for a UKPL meeting (UKPL 3B-3D, 3F): guests and, with ``no_score="unranked"``,
    players without a score come last unplaced with total 0; league points per place, shared by
    ties; machine points move with every score on the machine (N is the players with a score
    there)."""
    run(case)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(cases(), ukpl_cases()),
    st.frozensets(st.integers(0, 60)),
    st.sampled_from([0.0, 0.5, 1.0]),
)
def test_standings_settled_after_deferred_steps_equal_a_full_ranking(
    case: Case, settle_after: frozenset[int], share: float
) -> None:
    """The same steps applied deferred (entries recorded, tables and standings not worked out)
    and settled now and then (``settled``: moved on from the changed tables, or ranked again
    when more than ``share`` of the players moved), for EPC and UKPL: equal to ranking every
    table again."""
    run(case, settle_after, share)


def test_a_score_moves_only_the_players_it_touches() -> None:
    """A score below every other on a machine changes the row of the player who scored and the
    rows below where they land; the rows above stay the same objects (nothing rebuilt)."""
    t = new_tournament(EPC, {})
    for number in range(1, 21):
        t = add_player(t, Player(str(number), f"P{number}"))
    t = add_machine(t, Machine("m1", "Machine 1"))
    for number in range(1, 11):
        t = record_entry(t, Entry(number, str(number), "m1", 1000 * number))
    before = {row.player: row for row in t.standings.rows}
    t = record_entry(t, Entry(50, "15", "m1", 10))
    after = {row.player: row for row in t.standings.rows}
    # Player 15 takes 11th place on m1 and overall; players 1..10 keep their points and places.
    assert after["15"].place == 11 and after["15"].total > 0
    assert all(after[str(n)] is before[str(n)] for n in range(1, 11))
    # the players still without a score share the place after them: 12th, no longer 11th
    assert {after[str(n)].place for n in range(11, 21) if n != 15} == {12}
    entries = [e for on in t.entries.values() for e in on]
    full = rebuild(EPC, {}, t.players.values(), t.machines.values(), entries)
    assert t.standings == full.standings
