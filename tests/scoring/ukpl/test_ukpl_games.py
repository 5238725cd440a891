"""What a live UKPL meeting refuses beside the scores themselves (``scoring.ukpl.games``,
``scoring.ukpl.region``): one score of a multiplayer game changed on its own (2F), a correction of
a game that does not count or that an adjustment names (3A, 6A, 6C), a substitution withdrawn
(6A), a meeting's own results imported (3E). Each keeps EntryNotAllowed's code, so the API
answers as before."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scoring.errors import EntryNotAllowed, MachineAlreadyPlayed
from scoring.model import Entry
from scoring.ukpl.adjust import Replay, SlamTilt, Substitute
from scoring.ukpl.errors import (
    AdjustedGame,
    GameNotCounting,
    MultiplayerGameSplit,
    OwnMeeting,
    SubstitutionFinal,
)
from scoring.ukpl.games import Decision, check_one_game, correct_game, without_decision
from scoring.ukpl.region import check_other_meeting

WHO = {"by": "td:Ann", "reason": "see the card"}
PLAYERS = ("a", "b")
MACHINES = {"TZ": "Twilight Zone", "AFM": "Attack from Mars"}
GAMES = (Entry(1, "a", "TZ", 100), Entry(2, "b", "TZ", 200), Entry(3, "a", "AFM", 50))


def refused(error: type[EntryNotAllowed], message: str, check: Callable[[], object]) -> None:
    with pytest.raises(error) as raised:
        check()
    assert raised.value.message == message
    assert raised.value.code == "entry_not_allowed"


def test_a_multiplayer_games_scores_change_together() -> None:
    """UKPL 2F: the group's scores are entered together, and not changed one by one."""
    changed = "Record 4 is a multiplayer game; its scores cannot be changed one by one."
    refused(MultiplayerGameSplit, changed, lambda: check_one_game(4, {4, 9}))
    corrected = "Record 9 is a multiplayer game; its scores cannot be corrected one by one."
    refused(MultiplayerGameSplit, corrected, lambda: check_one_game(9, {4, 9}, "corrected"))
    check_one_game(5, {4, 9})
    check_one_game("4", {4, 9})  # as a hand-made record may name it: no game of that seq


def test_a_corrected_game_keeps_its_place_and_is_checked_again() -> None:
    """UKPL 3A, 3B: a score typed wrong is corrected in place; moved to a machine the player has
    played, it is a second game there and refused."""
    fixed = Entry(1, "a", "TZ", 150)
    games = correct_game(GAMES, (), 1, GAMES[0], fixed, PLAYERS, MACHINES)
    assert games == (fixed, *GAMES[1:])
    assert correct_game(GAMES, (), 2, GAMES[1], None, PLAYERS, MACHINES) == (GAMES[0], GAMES[2])
    with pytest.raises(MachineAlreadyPlayed):
        correct_game(GAMES, (), 1, GAMES[0], Entry(1, "a", "AFM", 150), PLAYERS, MACHINES)


def test_only_a_counting_game_is_corrected() -> None:
    """UKPL 6A, 6C: a game a replay took the place of, or one on a machine taken out, counts
    nowhere: nothing to change."""
    nothing = "The game of record {} does not count now; nothing to change."
    fixed = Entry(1, "a", "TZ", 150)
    refused(
        GameNotCounting,
        nothing.format(1),
        lambda: correct_game(GAMES, (), 1, None, fixed, PLAYERS, MACHINES),
    )
    elsewhere = Entry(1, "a", "AFM", 100)
    refused(
        GameNotCounting,
        nothing.format(1),
        lambda: correct_game(GAMES, (), 1, elsewhere, fixed, PLAYERS, MACHINES),
    )
    refused(
        GameNotCounting,
        nothing.format(7),
        lambda: correct_game(GAMES, (), 7, GAMES[0], fixed, PLAYERS, MACHINES),
    )


def test_an_adjustment_keeps_the_game_it_names() -> None:
    """A slam tilt (UKPL 7D) names player a's game on TZ: moving or voiding that game would leave
    the adjustment nothing to adjust, so it is withdrawn first; a new score in place is fine."""
    tilt = (Decision(5, SlamTilt(player="a", machine="TZ", **WHO)),)
    first = "The game of record 1 has adjustment 5; withdraw it first."
    refused(
        AdjustedGame, first, lambda: correct_game(GAMES, tilt, 1, GAMES[0], None, PLAYERS, MACHINES)
    )
    moved = Entry(1, "b", "AFM", 100)
    refused(
        AdjustedGame,
        first,
        lambda: correct_game(GAMES, tilt, 1, GAMES[0], moved, PLAYERS, MACHINES),
    )
    again = Entry(1, "a", "TZ", 120)
    assert correct_game(GAMES, tilt, 1, GAMES[0], again, PLAYERS, MACHINES)[0] == again


def test_a_fault_game_left_lets_the_other_game_go() -> None:
    """UKPL 6C: with a replay recorded the player has two games on TZ; voiding one leaves the
    adjustment the other."""
    games = (*GAMES, Entry(4, "a", "TZ", 300))
    replay = (Decision(5, Replay(player="a", machine="TZ", **WHO)),)
    left = correct_game(games, replay, 4, games[3], None, PLAYERS, MACHINES)
    assert left == GAMES


def test_a_substitution_is_not_withdrawn() -> None:
    """UKPL 6A: the faulty machine's games are replayed on the new game; it stays out."""
    sub = Decision(6, Substitute(machine="TZ", substitute="AFM", **WHO))
    tilt = Decision(7, SlamTilt(player="a", machine="TZ", **WHO))
    stays = "A replaced machine stays out of the meeting (UKPL 6A)."
    refused(SubstitutionFinal, stays, lambda: without_decision((sub, tilt), 6))
    assert without_decision((sub, tilt), 7) == (sub,)
    assert without_decision((sub, tilt), 8) == (sub, tilt)


def test_a_meetings_own_results_are_its_scores() -> None:
    """UKPL 3E: the season counts each meeting's results; this meeting's are its own games."""
    own = "Meeting 609 is this meeting: its results are its scores."
    refused(OwnMeeting, own, lambda: check_other_meeting("609", "609"))
    refused(
        OwnMeeting,
        "Meeting  is this meeting: its results are its scores.",
        lambda: check_other_meeting("", None),
    )
    check_other_meeting("608", "609")
    check_other_meeting("608", None)
