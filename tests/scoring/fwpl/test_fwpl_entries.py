"""The league's entries as pure functions (scoring.fwpl.league, league_night, entry, bracket):
which entries the rules refuse and with which words, worked by hand from the FWPL sections cited.
The same refusals reach the API through display/competitions/fwpl (tests/display/...)."""

from __future__ import annotations

import re

import pytest

from scoring import DuplicateRegistration, EntryNotAllowed, SettingsError, UnknownPlayer
from scoring.fwpl import (
    FwplConfig,
    GameEntry,
    League,
    LeaguePlayer,
    LineEntry,
    MachineNotAllowed,
    NotInGroup,
    PlayoffConfig,
    bracket,
    league_night,
)
from scoring.fwpl import league as season

SIX = [LeaguePlayer(str(n), f"Player {n}", n) for n in range(1, 7)]
"""Six members ranked 1..6: week 1 cuts them into groups 1, 2, 3 and 4, 5, 6 (FWPL 4.1, 4.3)."""


def says(message: str) -> str:
    """A ``match`` for exactly ``message``: the rules' words are kept word for word."""
    return f"^{re.escape(message)}$"


def empty(games: int = 2, weeks: int = 3) -> League:
    league = League(FwplConfig(games_per_match=games), PlayoffConfig(), weeks)
    for member in SIX:
        league = season.join(league, member)
    for machine in ("m1", "m2", "m3", "m4"):
        league = season.add_machine(league, machine, machine.upper())
    return league


def started(games: int = 2) -> League:
    league = empty(games)
    week = league_night.next_night(league, 1)
    groups = league_night.night_groups(league, week)
    return league_night.start_night(league, 10, week, 7, (), groups)


def whole(scores: dict[str, int | None]) -> GameEntry:
    return GameEntry(scores=scores)


def play_game(league: League, group: int, scores: dict[str, int | None], seq: int) -> League:
    at = league_night.next_game_at(
        league, 1, group, len(league.nights[0].groups[group - 1].games) + 1
    )
    machine = at.group.open.machine
    if machine is None:
        allowed = [m for m in league.machines if m not in {s.machine for s in at.group.games}]
        league = league_night.pick_machine(league, seq, at, allowed[-1])
        at = league_night.next_game_at(league, 1, group, at.number)
    return league_night.record_game(league, seq, at, None, whole(scores))


def test_members_only_each_once_from_a_week_not_started() -> None:
    """FWPL 2.4 (a late joiner joins from a later week) and Backglass's reading of a league of
    members: no guests, no number twice."""
    league = started()
    with pytest.raises(DuplicateRegistration, match=says("Player number 1 is already a member.")):
        season.joining_week(league, "1")
    with pytest.raises(EntryNotAllowed, match=says("An FWPL league has members only, no guests.")):
        season.joining_week(league, "7", guest=True)
    with pytest.raises(
        EntryNotAllowed,
        match=says("Week 1 has already started; a new member joins in week 2 or later."),
    ):
        season.joining_week(league, "7", 1)
    assert season.joining_week(league, "7") == 2
    with pytest.raises(DuplicateRegistration, match=says("Machine m1 is already in this league.")):
        season.add_machine(league, "m1", "Again")


def test_settings_fixed_once_they_decide_results() -> None:
    """FWPL 2 (the LO sets the season's length) as Backglass reads it: night settings are fixed
    from week 1, and weeks cannot go below the nights played."""
    league = started()
    with pytest.raises(
        SettingsError,
        match=says(
            "Setting lone_score is fixed once week 1 has started (it decides results already played)."
        ),
    ):
        season.change_settings(
            league, FwplConfig(games_per_match=2, lone_score="none"), PlayoffConfig(), 3
        )
    with pytest.raises(SettingsError, match=says("1 weeks have been played; weeks cannot be 0.")):
        season.change_settings(league, league.config, PlayoffConfig(), 0)
    longer = season.change_settings(league, league.config, PlayoffConfig(cut="formula"), 5)
    assert (longer.weeks, longer.playoff_config.cut) == (5, "formula")


def test_one_night_at_a_time_in_order_within_the_season() -> None:
    """FWPL 3.1: weeks in order, one night at a time; 2: up to the season's length."""
    league = empty(weeks=1)
    with pytest.raises(EntryNotAllowed, match=says("The next league night is week 1, not 2.")):
        league_night.next_night(league, 2)
    with pytest.raises(UnknownPlayer, match=says("Player 9 is not a member of this league.")):
        league_night.night_groups(league, 1, ("9",))
    assert league_night.night_groups(league, 1) == (("1", "2", "3"), ("4", "5", "6"))
    league = league_night.start_night(league, 10, 1, 7, (), (("1", "2", "3"), ("4", "5", "6")))
    with pytest.raises(
        EntryNotAllowed, match=says("Week 1 is still being played; close it first.")
    ):
        league_night.next_night(league, 2)


def test_an_entry_names_tonights_week_the_group_and_its_next_game() -> None:
    """FWPL 3.1, 4.2 and 4: tonight's week, a group of the night, the group's next game; a
    value that is no such number is refused with the same words, naming it."""
    league = started()
    with pytest.raises(EntryNotAllowed, match=says("Week 2 is not being played now; week 1 is.")):
        league_night.next_game_at(league, 2, 1, 1)
    with pytest.raises(NotInGroup, match=says("Week 1 has groups 1 to 2, not 3.")):
        league_night.next_game_at(league, 1, 3, 1)
    with pytest.raises(NotInGroup, match=says("Week 1 has groups 1 to 2, not x.")):
        league_night.next_game_at(league, 1, "x", 1)
    with pytest.raises(
        EntryNotAllowed,
        match=says(
            "Group 1 is on game 1 of week 1, not game 2; a game already played is changed with a correction."
        ),
    ):
        league_night.next_game_at(league, 1, 1, 2)
    assert league_night.next_game_at(league, None, 1, 1).where(1) == "group 1, game 1 of week 1"
    assert league_night.next_game_at(league, 1, 1, 1.0).number == 1  # equal to the right number


def test_a_whole_game_names_every_player_of_the_group_and_nobody_else() -> None:
    """FWPL 2.4 and 4.2: a forfeit is given explicitly; no score, penalty or compensatory game
    for someone outside the group."""
    league = started()
    at = league_night.next_game_at(league, 1, 1, 1)
    with pytest.raises(
        NotInGroup,
        match=says("Give a score, or a forfeit, for every player of group 1; missing: 3."),
    ):
        league_night.record_game(league, 11, at, None, whole({"1": 30, "2": 20}))
    with pytest.raises(NotInGroup, match=says("Player 4 is not in group 1.")):
        league_night.record_game(league, 11, at, None, whole({"1": 3, "2": 2, "3": 1, "4": 0}))
    stray = GameEntry({"1": 3, "2": 2, "3": None}, penalties={"5": "serious"})
    with pytest.raises(NotInGroup, match=says("A penalty for player 5, who is not in group 1.")):
        league_night.record_game(league, 11, at, None, stray)
    played = league_night.record_game(league, 11, at, None, whole({"1": 3, "2": 2, "3": None}))
    assert len(played.nights[0].groups[0].games) == 1


def test_lines_one_at_a_time_and_the_machine_they_are_on() -> None:
    """FWPL 3.2: the game counts once every player has a line; one line each. FWPL 5, 5.1: the
    scores go on the machine assigned or picked."""
    league = started()
    at = league_night.next_game_at(league, 1, 1, 1)
    assigned = at.group.open.machine
    assert assigned is not None
    other = next(m for m in league.machines if m != assigned)
    wrong = (
        f"group 1, game 1 of week 1 is to be played on {assigned.upper()}, not {other.upper()}."
        " To change machine (FWPL 5.1), pick again before entering scores."
    )
    with pytest.raises(MachineNotAllowed, match=says(wrong)):
        league_night.record_line(league, 11, at, other, "1", LineEntry(10))
    league = league_night.record_line(league, 11, at, None, "1", LineEntry(10))
    at = league_night.next_game_at(league, 1, 1, 1)
    with pytest.raises(
        NotInGroup,
        match=says(
            "Player 1 already has a score in group 1, game 1 of week 1; enter the whole game to replace it."
        ),
    ):
        league_night.record_line(league, 12, at, None, "1", LineEntry(20))
    with pytest.raises(NotInGroup, match=says("Player 4 is not in group 1.")):
        league_night.record_line(league, 12, at, None, "4", LineEntry(20))


def test_corrections_and_penalties_fall_on_played_games() -> None:
    """FWPL 3 (a played game is corrected), 8.1-8.7 (a penalty on a played game's line; 8.5 a
    serious one without a game falls on the player's best game), 3.3 (a night closes once
    every group has played its games)."""
    league = started(games=1)
    with pytest.raises(
        EntryNotAllowed,
        match=says(
            "Group 1 has played 0 of 1 games; enter the rest (a game nobody could play is entered as forfeits)."
        ),
    ):
        league_night.close_night(league, 1)
    league = play_game(league, 1, {"1": 30, "2": 20, "3": 10}, 11)
    at = league_night.group_at(league, 1, 1)
    with pytest.raises(EntryNotAllowed, match=says("Group 1 has not played game 2 in week 1.")):
        league_night.correct_game(league, 12, at, 2, None, whole({"1": 1, "2": 2, "3": 3}))
    with pytest.raises(
        EntryNotAllowed, match=says("Only a serious penalty (FWPL 8.5) may leave out the game.")
    ):
        league_night.record_penalty(league, 12, at, "1", "extra_ball")
    penalised = league_night.record_penalty(league, 12, at, "1", "serious")
    line = penalised.nights[0].groups[0].games[0].line("1")
    assert line is not None and line.penalty == "serious"
    with pytest.raises(EntryNotAllowed, match=says("There is no week 2 in this season yet.")):
        league_night.group_at(league, 2, 1)


def test_a_plain_score_lands_on_the_players_next_game_tonight() -> None:
    """FWPL 4.2: the player's group tonight; in the playoffs games are entered whole (6.3)."""
    league = started()
    at = league_night.next_game(league, "5")
    assert (at.night.week, at.index + 1, at.number) == (1, 2, 1)
    with pytest.raises(UnknownPlayer, match=says("Player 9 is not a member of this league.")):
        league_night.next_game(league, "9")


def test_the_playoffs_start_after_the_last_night_from_members() -> None:
    """FWPL 6.1: after the final week; 6.6 the withdrawn are members; a tie-breaker is between
    two or more members (6.1, 6.5); a division exists once the playoffs start."""
    league = empty()
    with pytest.raises(EntryNotAllowed, match=says("No league night has been played yet.")):
        bracket.check_playoffs_may_start(league)
    with pytest.raises(EntryNotAllowed, match=says("The playoffs have not started.")):
        bracket.division(league, "A")
    with pytest.raises(UnknownPlayer, match=says("Player 9 is not a member of this league.")):
        bracket.check_members(league, ("9",))
    with pytest.raises(
        EntryNotAllowed, match=says("A tie-breaker is between two or more players.")
    ):
        bracket.draw_tiebreak(league, ("1",), seed=1)
    drawn = bracket.draw_tiebreak(league, ("1", "2"), seed=1, reason="cut")
    assert drawn.draws[0].machine in league.machines
    league = started()
    with pytest.raises(
        EntryNotAllowed, match=says("Week 1 is still being played; close it first.")
    ):
        bracket.start_playoffs(league)
