"""The EPC main tournament's steps (``scoring.epc.main_tournament``): what each stage allows when,
on a small field (8 quarter-finalists, 2 stand-bys, 3 quarter-final machines) played through to
the end. The same refusals through the HTTP API: tests/display/competitions/epc_main/."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from scoring import EPC_QUALIFYING, Entry, SettingsError, UnknownPlayer
from scoring.epc.errors import StageNotReady
from scoring.epc.main_tournament import (
    MainTournament,
    check_pairs_may_change,
    check_player_may_enter,
    check_qualifying_settings_may_change,
    check_registration_open,
    check_stage_may_start,
    complete,
    default_quarterfinal_machines,
    new_main_tournament,
    next_stage,
    record_game,
    record_playoff,
    register,
    split_settings,
    stages_config,
    start_finals,
    start_quarterfinals,
    start_round,
    start_semifinals,
)
from scoring.errors import EntryNotAllowed, MachineAlreadyPlayed
from tests.scoring.scoring_builders import build

MACHINES = ("M1", "M2", "M3", "M4")
SETTINGS = {"qualify": 8, "standby": 2}


def qualified(players: int = 10) -> MainTournament:
    """Players 1..n, qualifying places by number (one game each on M1)."""
    rows = [("M1", str(n), 10_000 - n) for n in range(1, players + 1)]
    return new_main_tournament(build(EPC_QUALIFYING, rows, SETTINGS, machines=MACHINES), {})


def quarterfinals() -> MainTournament:
    return start_quarterfinals(qualified(), default_quarterfinal_machines(qualified()), None)


def round_played(state: MainTournament, rnd: int, seqs: Iterator[int]) -> MainTournament:
    """Every qualifier of round ``rnd`` re-registers, the round starts and its group plays."""
    assert state.seeding is not None
    size = state.config.group_size
    group = state.seeding.qualifiers[size:] if rnd == 1 else state.seeding.qualifiers[:size]
    for player in group:
        state = register(state, player, rnd, True)
    return play_group(start_round(state, rnd), "B" if rnd == 1 else "A", seqs)


def play_group(state: MainTournament, group: str, seqs: Iterator[int]) -> MainTournament:
    """Both games of every player of ``group`` on each of their pair's machines."""
    assert state.draw is not None
    for pair in state.draw.pairs:
        if pair.group != group:
            continue
        for machine in pair.machines:
            for player in (*pair.players, *pair.players[::-1]):
                assert player is not None
                seq = next(seqs)
                state = record_game(state, Entry(seq, player, machine, 1_000_000 - seq))
    return state


def play_games(state: MainTournament, keys: tuple[str, ...], seqs: Iterator[int]) -> MainTournament:
    """One score for each player of each game ``keys``, all different."""
    for key in keys:
        game = state.game(key)
        assert game is not None
        for player in game.players:
            seq = next(seqs)
            state = record_game(state, Entry(seq, player, "M1", 1_000_000 - seq))
    return state


def test_the_settings_split_and_qualify_is_named_as_the_td_knows_it() -> None:
    """EPC 2009, EPC Quarter-Finals: the stage settings beside the qualifying's."""
    assert split_settings({"qualify": 8, "game_ties": "seed"}) == (
        {"qualify": 8},
        {"game_ties": "seed"},
    )
    with pytest.raises(SettingsError, match="Setting qualify must be a multiple of 4"):
        stages_config({}, {"qualify": 10, "standby": 2, "scale": "papa"})


def test_qualifying_closes_when_the_quarter_finals_start() -> None:
    """EPC 2009, EPC Qualifying: no player enters, and no qualifying setting or play-off order
    changes, once the seeding is fixed."""
    before, after = qualified(), quarterfinals()
    check_player_may_enter(before)
    check_qualifying_settings_may_change(before, ["scale"])
    with pytest.raises(StageNotReady, match="Qualifying has closed: no more players can enter"):
        check_player_may_enter(after)
    with pytest.raises(SettingsError, match="Qualifying has closed; qualify, scale can no longer"):
        check_qualifying_settings_may_change(after, ["scale", "qualify"])
    assert record_playoff(before, "qualifying", ["2", "1"]).playoffs["qualifying"] == ("2", "1")
    with pytest.raises(StageNotReady, match="qualifying order is fixed once the quarter-finals"):
        record_playoff(after, "qualifying", ["2", "1"])


def test_the_stages_run_in_order() -> None:
    """EPC 2009, EPC Qualifying to EPC Finals: one stage after the other."""
    state = qualified()
    assert next_stage(state) == "quarterfinal"
    with pytest.raises(
        StageNotReady,
        match="at the qualifying stage; the next stage is quarterfinal, not semifinal",
    ):
        check_stage_may_start(state, "semifinal")
    with pytest.raises(StageNotReady, match="the next stage is quarterfinal, not final"):
        start_finals(state, {})


def test_the_quarter_finals_need_every_place_filled() -> None:
    """EPC 2009, EPC Qualifying: "The 32 highest ranked players then progress" (here 8)."""
    few = qualified(players=6)
    with pytest.raises(StageNotReady, match="Only 6 players have a qualifying place; the quarter"):
        start_quarterfinals(few, default_quarterfinal_machines(few), None)


def test_the_default_machines_are_the_first_added_one_per_pair_and_at_least_three() -> None:
    """EPC 2009, EPC Quarter-Finals: "on three allocated machines"."""
    assert default_quarterfinal_machines(qualified()) == ("M1", "M2", "M3")


def test_partners_change_until_round_1_starts() -> None:
    """EPC 2009, EPC Quarter-Finals: "a pre-selected partner"."""
    state = quarterfinals()
    check_pairs_may_change(state)
    with pytest.raises(StageNotReady, match="Partners are set after qualifying closes"):
        check_pairs_may_change(qualified())
    with pytest.raises(StageNotReady, match="before round 1 starts"):
        check_pairs_may_change(start_round(state, 1))


def test_re_registration_is_for_a_round_not_yet_started() -> None:
    """EPC 2009, EPC Quarter-Finals: "re-register to confirm their attendance" before the round.
    Round 1 is group B (seeds 5-8 here) and the stand-bys, round 2 group A (1-4)."""
    state = quarterfinals()
    with pytest.raises(StageNotReady, match="Re-registration opens when qualifying closes"):
        check_registration_open(qualified())
    state = register(state, "9", 1, True)
    assert state.registered[1] == frozenset({"9"})
    assert register(state, "9", 1, False).registered[1] == frozenset()
    with pytest.raises(EntryNotAllowed, match="Player 2 is neither a quarter-finalist of that"):
        register(state, "2", 1, True)
    with pytest.raises(UnknownPlayer, match="No player number 99 is registered"):
        register(state, "99", 1, True)
    with pytest.raises(StageNotReady, match="Re-registration for round 1 has closed"):
        register(start_round(state, 1), "5", 1, True)


def test_the_rounds_start_one_after_the_other() -> None:
    """EPC 2009, EPC Quarter-Finals: group B "starting at 11am", group A "at 1pm"."""
    state = quarterfinals()
    with pytest.raises(StageNotReady, match="The next quarter-final round to start is 1, not 2"):
        start_round(state, 2)
    with pytest.raises(StageNotReady, match="No quarter-final round can start now"):
        start_round(qualified(), 1)
    assert start_round(start_round(state, 1), 2).round == 2


def test_from_the_quarter_finals_to_the_last_placing() -> None:
    """EPC 2009, EPC Quarter-Finals, EPC Semi-Finals, EPC Finals: each stage starts once the one
    before it is decided, and scores follow the stage."""
    seqs = itertools.count(100)
    state = quarterfinals()
    with pytest.raises(StageNotReady, match="plays in quarter-final round 1, which has not"):
        record_game(state, Entry(next(seqs), "5", "M1", 10))
    with pytest.raises(
        StageNotReady,
        match=r"not finished: 48 game\(s\) still to record and round 2 has not started",
    ):
        check_stage_may_start(state, "semifinal")
    state = round_played(state, 1, seqs)
    with pytest.raises(StageNotReady, match="plays in quarter-final round 2, which has not"):
        record_game(state, Entry(next(seqs), "1", "M1", 10))
    state = round_played(state, 2, seqs)
    assert state.quarterfinal is not None and state.quarterfinal.complete

    state = start_semifinals(state, {"A": "M1"})
    with pytest.raises(EntryNotAllowed, match="The semi-final A is played on M1, not M2"):
        record_game(state, Entry(next(seqs), "1", "M2", 10))
    with pytest.raises(UnknownPlayer, match="Player 9 is not playing in the semi-finals"):
        record_game(state, Entry(next(seqs), "9", "M1", 10))
    with pytest.raises(StageNotReady, match="The semi-final A is not decided: not every score"):
        start_finals(state, {})
    state = play_games(state, ("A", "B"), seqs)
    with pytest.raises(MachineAlreadyPlayed, match="Player 1 already has a score in the semi"):
        record_game(state, Entry(next(seqs), "1", "M1", 10))

    state = play_games(start_finals(state, {}), ("playoff", "final"), seqs)
    state = complete(state)
    with pytest.raises(StageNotReady, match="The EPC is over: no more scores are recorded"):
        record_game(state, Entry(next(seqs), "1", "M1", 10))
    assert state.placings is not None
    assert [p.place for p in state.placings][:8] == list(range(1, 9))


def test_a_tie_in_a_game_waits_for_its_play_off() -> None:
    """EPC 2009, EPC Semi-Finals: "the top two highest scoring contestants from each group go on
    to the final": equal scores across 2nd/3rd wait for the TD's play-off order."""
    seqs = itertools.count(100)
    state = quarterfinals()
    state = start_semifinals(round_played(round_played(state, 1, seqs), 2, seqs), {})
    game = state.game("A")
    assert game is not None
    for player in game.players:
        state = record_game(state, Entry(next(seqs), player, "M1", 500))
    tied = ", ".join(game.players)
    with pytest.raises(StageNotReady, match=f"players {tied} are tied; record their play-off"):
        start_finals(state, {})
    state = record_playoff(state, "A", list(game.players))
    assert state.result("A") is not None
