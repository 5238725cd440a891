"""Properties every format in ``scoring.FORMATS`` must keep (architecture principle 7):
recording entries one by one equals a rebuild from scratch; replaying is deterministic; the order
players and machines are registered in does not matter; ties follow the declared policy."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    FORMATS,
    Entry,
    EntryNotAllowed,
    Machine,
    Player,
    Tournament,
    add_machine,
    add_player,
    new_tournament,
    rebuild,
    record_entry,
)

SETTINGS: Mapping[str, st.SearchStrategy[dict[str, Any]]] = {
    "epc-qualifying": st.fixed_dictionaries(
        {
            "scale": st.sampled_from(["papa", "linear", "top-25", (10, 5, 5, 1)]),
            "machines_per_player": st.integers(1, 4),
            "jokers_per_player": st.integers(0, 1),
            "qualify": st.integers(0, 6),
            "standby": st.integers(0, 3),
            "cut_ties": st.sampled_from(["include", "exclude"]),
        }
    ),
    "ukpl-meeting": st.fixed_dictionaries(
        {
            "ties": st.sampled_from(["high", "low", "shared"]),
            "bonus": st.sampled_from(["gt", "gte"]),
            "no_score": st.sampled_from(["unranked", "ranked"]),
        }
    ),
    "epc-classic": st.fixed_dictionaries({"lead": st.sampled_from(["difference", "ratio"])}),
    "epc-kids": st.fixed_dictionaries({"ties": st.sampled_from(["share", "earlier"])}),
}


@dataclass(frozen=True)
class Case:
    format: str
    settings: dict[str, Any]
    players: list[Player]
    machines: list[Machine]
    entries: list[Entry]


@st.composite
def cases(draw: st.DrawFn) -> Case:
    name = draw(st.sampled_from(sorted(FORMATS)))
    numbers = draw(
        st.lists(
            st.sampled_from([str(i) for i in range(1, 13)]), min_size=1, max_size=10, unique=True
        )
    )
    players = [Player(n, f"P{n}", guest=draw(st.booleans())) for n in numbers]
    machines = [Machine(f"m{i}", f"Machine {i}") for i in range(draw(st.integers(1, 4)))]
    # Scores from a small range, so equal scores (ties) are common.
    rows = draw(
        st.lists(
            st.tuples(st.sampled_from(numbers), st.sampled_from(machines), st.integers(0, 6)),
            max_size=40,
        )
    )
    entries = [Entry(seq, p, m.id, s) for seq, (p, m, s) in enumerate(rows, start=1)]
    return Case(name, draw(SETTINGS[name]), players, machines, entries)


def incremental(case: Case) -> tuple[Tournament, list[Entry]]:
    """Record entries one by one as the server does, skipping those the rules refuse."""
    t = new_tournament(FORMATS[case.format], case.settings)
    for player in case.players:
        t = add_player(t, player)
    for machine in case.machines:
        t = add_machine(t, machine)
    accepted = []
    for entry in case.entries:
        try:
            t = record_entry(t, entry)
        except EntryNotAllowed:
            continue
        accepted.append(entry)
    return t, accepted


def test_every_format_has_a_settings_strategy() -> None:
    """A new format must join these properties."""
    assert set(SETTINGS) == set(FORMATS)


@settings(max_examples=150, deadline=None)
@given(cases())
def test_incremental_equals_rebuild(case: Case) -> None:
    """architecture principle 7: the incremental path (re-rank one machine per entry) equals a full rebuild,
    and a rebuild replays to the same result every time."""
    t, accepted = incremental(case)
    fmt = FORMATS[case.format]
    full = rebuild(fmt, case.settings, case.players, case.machines, accepted)
    assert full.tables == t.tables
    assert full.standings == t.standings
    assert full.entries == t.entries
    assert rebuild(fmt, case.settings, case.players, case.machines, accepted) == full


@settings(max_examples=150, deadline=None)
@given(cases(), st.randoms(use_true_random=False))
def test_registration_order_does_not_matter(case: Case, rnd: Any) -> None:
    """Standings depend on scores, not on the order players or machines were registered."""
    _, accepted = incremental(case)
    fmt = FORMATS[case.format]
    first = rebuild(fmt, case.settings, case.players, case.machines, accepted)
    players, machines = list(case.players), list(case.machines)
    rnd.shuffle(players)
    rnd.shuffle(machines)
    second = rebuild(fmt, case.settings, players, machines, accepted)
    assert second.standings == first.standings
    assert second.tables == first.tables


def expected_points(case: Case, t: Tournament, place: int, size: int, ranked: int) -> Fraction:
    """Points of each of ``size`` equal scores at ``place``, from the declared policy."""
    if case.format == "epc-qualifying":
        # EPC 2009, EPC Qualifying: tied scores both get the points of the place they share.
        return Fraction(t.config.points_scale.points(place))
    covered = [ranked - p + 1 for p in range(place, place + size)]  # UKPL 3B: N down to 1
    policy = case.settings["ties"]
    if policy == "high":
        return Fraction(covered[0])
    if policy == "low":
        return Fraction(covered[-1])
    return Fraction(sum(covered), size)


@settings(max_examples=150, deadline=None)
@given(cases())
def test_ties_follow_the_declared_policy(case: Case) -> None:
    """EPC 2009, EPC Qualifying and UKPL 3B/3F: a place is 1 + the number of strictly better
    ranked scores; equal scores share it; their points follow the format's tie policy."""
    t, _ = incremental(case)
    for table in t.tables.values():
        ranked = [r for r in table.rows if r.place is not None]
        if case.settings.get("ties") == "earlier":  # Kids: the earlier of equal scores ranks first
            assert [r.place for r in ranked] == list(range(1, len(ranked) + 1))
            assert [r.score for r in ranked] == sorted((r.score for r in ranked), reverse=True)
            continue
        for row in ranked:
            better = sum(1 for r in ranked if r.score > row.score)
            size = sum(1 for r in ranked if r.score == row.score)
            assert row.place == better + 1
            if row.points is None:  # high-score formats (Classic, Kids) rank without points
                assert case.format in {"epc-classic", "epc-kids"}
                continue
            want = expected_points(case, t, row.place, size, len(ranked))
            assert row.points == want + row.bonus
    standing = [r for r in t.standings.rows if r.place is not None]
    for row in standing:
        better = sum(1 for r in standing if r.total > row.total)
        if case.settings.get("ties") == "earlier":  # Kids: equal best scores in recorded order
            tied = sum(1 for r in standing if r.total == row.total)
            assert better < row.place <= better + tied
        else:
            assert row.place == 1 + better
    assert sorted(r.player for r in t.standings.rows) == sorted(p.number for p in case.players)
