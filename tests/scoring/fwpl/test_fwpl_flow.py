"""The flow of an FWPL night, worked by hand from fwpl-rules.txt sections 2.3, 5, 5.2, 6.4, 6.5."""

from __future__ import annotations

import pytest
from fwpl_builders import ordered

from scoring import UnknownMachine
from scoring.fwpl import (
    Game,
    GameScore,
    MachineNotAllowed,
    NotInGroup,
    allowed_machines,
    check_pick,
    first_machines,
    game_points,
    may_join_late,
    next_picker,
    play_order,
    random_machine,
)

MACHINES = ("M1", "M2", "M3", "M4", "M5", "M6")


def test_first_machines_are_drawn_from_a_recorded_seed() -> None:
    """FWPL 5: "the first game to be played for each group will be randomly assigned". Drawn from
    a seed the caller records, so a replay gives the same draw; four groups on six machines get
    four different machines."""
    draw = first_machines(4, MACHINES, seed=2024)
    assert draw == first_machines(4, MACHINES, seed=2024)
    assert len(set(draw)) == 4
    assert set(draw) <= set(MACHINES)


def test_more_groups_than_machines_use_every_machine_first() -> None:
    """FWPL 5 (leagues play on "four or more machines", 1): with 5 groups on 4 machines every
    machine is assigned once before one is assigned twice."""
    draw = first_machines(5, MACHINES[:4], seed=7)
    assert set(draw[:4]) == set(MACHINES[:4])
    assert draw[4] in MACHINES[:4]
    with pytest.raises(UnknownMachine):
        first_machines(1, (), seed=7)


def test_tie_breaker_machine_is_random_from_a_seed() -> None:
    """FWPL 6.5: "Machine selection for tiebreaker games will be random"; 6.1 likewise."""
    assert random_machine(MACHINES, 99) == random_machine(MACHINES, 99)
    assert random_machine(MACHINES, 99) in MACHINES


def test_allowed_machines() -> None:
    """FWPL 5: not "already been played that night by the group" (M1), not "currently in use by
    another group" (M2) unless that group is "at ball 3" (M3 allowed), and not one "another group
    is already waiting on" (M4): M3, M5, M6."""
    state = {"M2": "in_use", "M3": "last_ball"}
    assert allowed_machines(MACHINES, {"M1"}, state, awaited={"M4"}) == ("M3", "M5", "M6")


def test_any_unplayed_machine_when_none_is_free() -> None:
    """FWPL 5: "If no open games or games with matches at ball 3 are available, any game may be
    chosen" (still one the group has not played, and not one another group waits on)."""
    state = dict.fromkeys(("M2", "M3", "M4"), "in_use")
    assert allowed_machines(MACHINES[:4], {"M1"}, state, awaited={"M4"}) == ("M2", "M3")


def test_check_pick_says_why() -> None:
    """FWPL 5: a refused pick names the rule it breaks and what is allowed."""
    state = {"M2": "in_use"}
    with pytest.raises(MachineNotAllowed, match="already played it tonight"):
        check_pick("M1", MACHINES, {"M1"}, state)
    with pytest.raises(MachineNotAllowed, match="not on ball 3"):
        check_pick("M2", MACHINES, {"M1"}, state)
    with pytest.raises(UnknownMachine):
        check_pick("M9", MACHINES, set(), state)
    check_pick("M3", MACHINES, {"M1"}, state)


def test_the_last_placed_player_picks_the_next_machine() -> None:
    """FWPL 5: "the fourth place player of the previous game will decide the next game"; in a
    group of three the third; 6.4: "Machine choice ... goes to the looser"."""
    assert next_picker(game_points(ordered("M1", "abcd"))) == "d"
    assert next_picker(game_points(ordered("M1", "cab"))) == "b"


def test_a_late_joiner_and_a_forfeit_do_not_pick() -> None:
    """FWPL 5.2: a late joiner "will not be given machine selection": d joined late and finished
    last, so c (3rd) picks. A forfeiting player has no place: with d absent, c is last and picks."""
    lines = tuple(
        GameScore(p, s, late=p == "d") for p, s in zip("abcd", (40, 30, 20, 10), strict=True)
    )
    assert next_picker(game_points(Game("M1", lines))) == "c"
    absent = game_points(ordered("M1", "abc"), group=tuple("abcd"))
    assert next_picker(absent) == "c"


def test_play_order() -> None:
    """FWPL 5.2: "Play order for the first game will be the order of seeding ... subsequent games
    ... the order of results for the previous round" (1st plays first). A late joiner gets "the
    last player position for the first game they play"."""
    assert play_order("abcd") == tuple("abcd")
    assert play_order("abcd", late={"b"}) == tuple("acdb")
    previous = game_points(ordered("M1", "cadb"))
    assert play_order("abcd", previous) == tuple("cadb")


def test_play_order_after_a_forfeit() -> None:
    """FWPL 5.2 with 2.3: d missed game 1 and joins game 2 late: the finishers of game 1 first,
    in their order, then d."""
    previous = game_points(ordered("M1", "cab"), group=tuple("abcd"))
    assert play_order("abcd", previous, late={"d"}) == tuple("cabd")
    assert play_order("abcd", previous, present="abc") == tuple("cab")
    with pytest.raises(NotInGroup):
        play_order("abc", previous, late={"z"})


@pytest.mark.parametrize(
    ("machine_allows", "started", "expected"),
    [(True, False, True), (True, True, False), (False, False, False)],
)
def test_late_arrival_may_join_the_game_in_progress(
    machine_allows: bool, started: bool, expected: bool
) -> None:
    """FWPL 2.3: "Joining the game is permitted if the machine permits it, and the last player
    of the group has not started ball 1"."""
    assert may_join_late(machine_allows, started) is expected
