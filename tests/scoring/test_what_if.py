"""What a player needs (``scoring.what_if``), worked by hand from the rule texts.

EPC cases use the PAPA scale (EPC 2009, EPC Qualifying; ``scoring.scales``): 100, 90, 85, ... with
tied scores sharing the better place's points. UKPL cases use machine points N down to 1 and the
bonus point for a score more than double the second (UKPL 3B)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import EPC_CLASSIC, EPC_KIDS, EPC_QUALIFYING, UKPL_MEETING, Entry, record_entry
from scoring.tournament import Tournament
from scoring.what_if import Need, Target, least_score, reaches, what_i_need
from tests.scoring.scoring_builders import build

# m1: A 5,000, B 3,000; m2: A 1,000. Points: A 100 + 100 = 200, B 90, C nothing yet.
EPC_FIELD = [("m1", "A", 5_000), ("m1", "B", 3_000), ("m2", "A", 1_000)]


def epc(rows: list[tuple[str, str, int]], **settings: object) -> Tournament:
    return build(EPC_QUALIFYING, rows, dict(settings), players="ABC", machines=["m1", "m2"])


def next_seq(t: Tournament) -> int:
    return 1 + max((e.seq for entries in t.entries.values() for e in entries), default=0)


def need(t: Tournament, player: str, machine: str, target: Target) -> Need | None:
    return least_score(t, player, machine, target, next_seq(t))


def test_equal_scores_share_a_place_so_equalling_is_enough() -> None:
    """EPC 2009, EPC Qualifying. C on m1, target 2nd. C 3,000 ties B for 2nd on m1: both get 90,
    so B and C share 2nd overall on 90 (A has 200): reached. C 2,999 is 3rd on m1 (85 points):
    3rd overall. So the least score is 3,000, for place 2."""
    assert need(epc(EPC_FIELD), "C", "m1", Target(2)) == Need("m1", False, 3_000, 2)


def test_when_a_tie_does_not_count_the_player_must_get_ahead() -> None:
    """EPC 2009, EPC Qualifying with cut_ties "exclude": a tie covering places 2-3 is not within
    2. C needs 3,001 on m1: alone 2nd on m1 (90 against B's 85), alone 2nd overall."""
    target = Target(2, shared_counts=False)
    assert need(epc(EPC_FIELD), "C", "m1", target) == Need("m1", False, 3_001, 2)


def test_any_score_when_the_target_is_reached_whatever_the_score() -> None:
    """EPC 2009, EPC Qualifying. C on m2 (A 1,000 there), target 2nd: even 0 is 2nd on m2, 90
    points, equal to B's 90: C shares 2nd overall. The answer is 0: any score."""
    assert need(epc(EPC_FIELD), "C", "m2", Target(2)) == Need("m2", False, 0, 2)


def test_the_joker_game_and_an_unreachable_target() -> None:
    """EPC 2009, EPC Qualifying ("one Joker Game ... only the better score will count"). B, target
    1st. On m1 B's joker can at best take 1st there: B 100, A 90 + 100 = 190 > 100: out of reach.
    On m2, B 1,001 beats A's 1,000: B 100 + 90 = 190 = A's 90 + 100: they share 1st. B 1,000 ties
    A on m2 (both 100): A 200 > B 190. So 1,001 on m2."""
    assert what_i_need(epc(EPC_FIELD), "B", Target(1), 4) == (
        Need("m1", True, None, None),
        Need("m2", False, 1_001, 1),
    )


def test_machines_the_rules_refuse_are_left_out() -> None:
    """EPC 2009, EPC Qualifying: one machine per player here (machines_per_player 1) and one
    joker game. B has played m1, so only m1 again (the joker) is left; m2 would be a second
    machine. With jokers off nothing is left."""
    field = EPC_FIELD[:2]
    t = epc(field, machines_per_player=1, jokers_per_player=1)
    assert [n.machine for n in what_i_need(t, "B", Target(1), 3)] == ["m1"]
    t = epc(field, machines_per_player=1, jokers_per_player=0)
    assert what_i_need(t, "B", Target(1), 3) == ()


# UKPL: m2 C 1,000, A 500, B 400, D 300 (N 4: C 4, A 3, B 2, D 1; 1,000 is not more than double
# 500, no bonus). m1: A 900, B 100, D 50; C has not played it.
UKPL_FIELD = [
    ("m2", "C", 1_000), ("m2", "A", 500), ("m2", "B", 400), ("m2", "D", 300),
    ("m1", "A", 900), ("m1", "B", 100), ("m1", "D", 50),
]  # fmt: skip


def test_ukpl_taking_the_bonus_away_is_what_it_takes() -> None:
    """UKPL 3B. C on m1 (N becomes 4), target 1st with ties shared. C 450: 2nd on m1 (3 points),
    and A's 900 is not more than double 450, so A has no bonus: A 3 + 4 = 7, C 4 + 3 = 7, shared
    1st. C 449: A's 900 > 898 earns the bonus: A 8, C 7, 2nd. The answer is 450 = 900 / 2."""
    t = build(UKPL_MEETING, UKPL_FIELD)
    assert need(t, "C", "m1", Target(1)) == Need("m1", False, 450, 1)


def test_ukpl_at_least_double_changes_both_machines() -> None:
    """UKPL 3B with bonus "gte" (the league's website: at least double). On m2 C's 1,000 is
    exactly double A's 500, so C has the bonus there: C 5, A 3. On m1, C 100 ties B for 2nd (3
    each, ties "high") and A's 900 is at least double 100: A 4 + 1. A 8, C 8: shared 1st; C 99 is
    3rd (2 points): 7. To be 1st alone C needs A's bonus gone: 451 (900 < 902): A 7, C 8; at 450
    A keeps it (900 = 2 x 450) and they share 1st on 8."""
    t = build(UKPL_MEETING, UKPL_FIELD, {"bonus": "gte"})
    assert need(t, "C", "m1", Target(1)) == Need("m1", False, 100, 1)
    assert need(t, "C", "m1", Target(1, shared_counts=False)) == Need("m1", False, 451, 1)


def test_ukpl_alone_in_first_needs_the_top_score() -> None:
    """UKPL 3B, 3F. Target 1st where a shared 1st does not count: C 900 ties A on m1, both 4
    (ties "high") and no bonus (not a sole top score): C 8, A 7, C alone 1st. C 899: A 4, C 3,
    7 each, shared. So 900. A player may not play m2 twice: C's list has m1 only."""
    t = build(UKPL_MEETING, UKPL_FIELD)
    assert what_i_need(t, "C", Target(1, shared_counts=False), 8) == (Need("m1", False, 900, 1),)


def test_kids_trophy_place_and_another_game() -> None:
    """EPC 2009, UK Pinball Kids Tournament: best scores A 5,000, B 4,000, C 3,000, D 1,000;
    trophies for 3rd and better, ties share. E needs 3,000 (a shared 3rd); D may play again
    ("as many entries as they wish") and needs 3,000 too."""
    rows = [("k", "A", 5_000), ("k", "B", 4_000), ("k", "C", 3_000), ("k", "D", 1_000)]
    t = build(EPC_KIDS, rows, players=["E"])
    assert need(t, "E", "k", Target(3)) == Need("k", False, 3_000, 3)
    assert need(t, "D", "k", Target(3)) == Need("k", True, 3_000, 3)
    closed = build(EPC_KIDS, rows, {"closed_after": 4}, players=["E"])
    assert what_i_need(closed, "E", Target(3), 5) == ()


def test_classic_qualifying_place_as_a_band() -> None:
    """EPC 2009, EPC Classic Tournament: the top score on each machine qualifies; equal scores go
    to the one recorded first. A leads c1 with 5,000; nobody has played c2. For B to hold a place:
    any score on c2 (alone on it), or 5,001 on c1 (5,000 would rank after A's earlier one)."""
    t = build(EPC_CLASSIC, [("c1", "A", 5_000), ("c1", "B", 3_000)], machines=["c1", "c2"])
    target = Target(bands=frozenset({"leading", "qualified"}))
    assert what_i_need(t, "B", target, 3) == (
        Need("c1", True, 5_001, None),
        Need("c2", False, 0, None),
    )


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("xyz"), st.sampled_from("ABCD"), st.integers(0, 60)),
        max_size=8,
    ),
    st.sampled_from("ABCDE"),
    st.sampled_from("xyz"),
    st.integers(1, 5),
    st.booleans(),
    st.sampled_from([EPC_QUALIFYING, UKPL_MEETING]),
)
def test_the_answer_is_the_least_score_that_reaches(
    rows: list[tuple[str, str, int]],
    player: str,
    machine: str,
    place: int,
    shared: bool,
    fmt: object,
) -> None:
    """Against the format itself (EPC 2009, EPC Qualifying; UKPL 3B): the answer reaches the
    target and one less does not; an unreachable answer means even the largest score fails."""
    unique: list[tuple[str, str, int]] = []
    for row in rows:  # one game per player per machine, so every format takes the field
        if all(row[:2] != kept[:2] for kept in unique):
            unique.append(row)
    t = build(fmt, unique, players=list("ABCDE"), machines=list("xyz"))  # type: ignore[arg-type]
    target = Target(place, shared_counts=shared)
    seq = len(unique) + 1
    found = least_score(t, player, machine, target, seq)
    if found is None:
        return  # the rules refuse the game (e.g. UKPL: already played)

    def ok(score: int) -> bool:
        after = record_entry(t, Entry(seq, player, machine, score)).standings
        return reaches(after, player, target)

    if found.score is None:
        assert not ok(2**53 - 1)
    else:
        assert ok(found.score)
        assert found.score == 0 or not ok(found.score - 1)
