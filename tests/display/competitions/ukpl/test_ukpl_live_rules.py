"""The pure rules a live UKPL meeting adds (scoring/ukpl/games.py, scoring/ukpl/region.py), worked
by hand from ukpl-rules.txt: 1C/3C regions, 2F multiplayer groups, 3A one game per machine, 6A
substitutes, 6C faults opening one more game, 7A bans and escalation; and the season put together
from meetings held in order (1B, 3E, 1E)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.errors import DuplicateRegistration, EntryNotAllowed, MachineAlreadyPlayed
from scoring.model import Entry
from scoring.ukpl.adjust import OneBallAdded, Penalty, Replay, SlamTilt, Substitute
from scoring.ukpl.games import (
    Decision,
    check_decision,
    check_escalation,
    check_game,
    check_group,
    counting,
    pending_faults,
)
from scoring.ukpl.region import (
    SeasonMeet,
    bans_at,
    held_order,
    is_guest,
    region_season,
    same_region,
    season_settings,
)
from scoring.ukpl.season import Meet, MeetResult, SeasonConfig

WHO = {"by": "td:Coordinator", "reason": "see the score card"}
PLAYERS = {"1", "2", "3"}
MACHINES = {"tz": "Twilight Zone", "taf": "The Addams Family", "mm": "Medieval Madness"}


def game(seq: int, player: str, machine: str, score: int) -> Entry:
    return Entry(seq, player, machine, score)


def test_a_second_game_needs_a_fault_and_each_fault_opens_one() -> None:
    """UKPL 3A/3B one game per machine; 6C: a fault recorded on the game opens exactly one more
    (the replay or the one ball), a second fault a third game."""
    games = [game(2, "1", "tz", 500)]
    with pytest.raises(MachineAlreadyPlayed, match="already has a score on Twilight Zone"):
        check_game(game(5, "1", "tz", 700), games, [], PLAYERS, MACHINES)
    fault = [Decision(3, Replay(player="1", machine="tz", **WHO))]
    assert pending_faults(games, fault) == {3}
    check_game(game(5, "1", "tz", 700), games, fault, PLAYERS, MACHINES)
    games.append(game(5, "1", "tz", 700))
    assert pending_faults(games, fault) == frozenset()
    with pytest.raises(MachineAlreadyPlayed):
        check_game(game(6, "1", "tz", 900), games, fault, PLAYERS, MACHINES)
    second = [*fault, Decision(7, OneBallAdded(player="1", machine="tz", **WHO))]
    check_game(game(8, "1", "tz", 40), games, second, PLAYERS, MACHINES)
    # replay: 700 counts; then one ball of a new game added: 700 + 40 (6C option 1)
    result = counting([*games, game(8, "1", "tz", 40)], second)
    assert [(e.player, e.machine, e.score) for e in result.entries] == [("1", "tz", 740)]


def test_a_pending_fault_leaves_the_game_as_played() -> None:
    """Until the replay is in, the first game counts (the choice in scoring/ukpl/games.py)."""
    games = [game(2, "1", "tz", 500), game(3, "2", "tz", 300)]
    fault = [Decision(4, Replay(player="1", machine="tz", **WHO))]
    assert [e.score for e in counting(games, fault).entries] == [500, 300]


def test_faults_need_a_game_and_wait_one_at_a_time() -> None:
    games = [game(2, "1", "tz", 500)]
    no_game = Decision(3, Replay(player="2", machine="tz", **WHO))
    with pytest.raises(EntryNotAllowed, match="no game on Twilight Zone yet"):
        check_decision(no_game, games, [], PLAYERS, MACHINES)
    first = Decision(3, Replay(player="1", machine="tz", **WHO))
    check_decision(first, games, [], PLAYERS, MACHINES)
    again = Decision(4, OneBallAdded(player="1", machine="tz", **WHO))
    with pytest.raises(EntryNotAllowed, match="already waiting"):
        check_decision(again, games, [first], PLAYERS, MACHINES)


def test_no_game_on_a_machine_taken_out_nor_by_a_banned_player() -> None:
    """UKPL 6A: a removed machine's games are replayed on the substitute; 7A: a banned player's
    scores do not count."""
    out = [Decision(3, Substitute(machine="tz", substitute="mm", **WHO))]
    with pytest.raises(EntryNotAllowed, match="replayed on Medieval Madness"):
        check_game(game(4, "1", "tz", 10), [], out, PLAYERS, MACHINES)
    check_game(game(4, "1", "mm", 10), [], out, PLAYERS, MACHINES)
    with pytest.raises(EntryNotAllowed, match="already taken out"):
        check_decision(Decision(5, SlamTilt(player="1", machine="tz", **WHO)), [], out, PLAYERS,
                       MACHINES)  # fmt: skip
    banned = {"2": "banned for the season at meeting 609 (abuse)"}
    with pytest.raises(EntryNotAllowed, match="may not play at this meeting: banned"):
        check_game(game(4, "2", "taf", 10), [], [], PLAYERS, MACHINES, banned)


def test_a_multiplayer_group_is_two_to_six_different_players_on_one_machine() -> None:
    """UKPL 2F: "groups of between two and six players"."""
    check_group([game(5, "1", "tz", 1), game(5, "2", "tz", 2)])
    with pytest.raises(EntryNotAllowed, match="2 to 6 players, not 1"):
        check_group([game(5, "1", "tz", 1)])
    with pytest.raises(EntryNotAllowed, match="entered twice"):
        check_group([game(5, "1", "tz", 1), game(5, "1", "tz", 2)])
    with pytest.raises(EntryNotAllowed, match="7"):
        check_group([game(5, str(n), "tz", n) for n in range(7)])


def test_escalation_after_a_penalty_this_season() -> None:
    """UKPL 7A: after a penalty "the next level of penalty above will be imposed as a minimum":
    after a zero, at least a disqualification; after a season ban, a season ban."""
    given = [Penalty(player="1", level="zero", meet="609", machine="tz", **WHO)]
    with pytest.raises(EntryNotAllowed, match="at least disqualify"):
        check_escalation(Penalty(player="1", level="zero", meet="610", machine="mm", **WHO), given)
    check_escalation(Penalty(player="1", level="disqualify", meet="610", **WHO), given)
    check_escalation(Penalty(player="2", level="zero", meet="610", machine="mm", **WHO), given)
    season = [Penalty(player="1", level="ban_season", meet="609", **WHO)]
    with pytest.raises(EntryNotAllowed, match="at least ban season"):
        check_escalation(Penalty(player="1", level="ban_next", meet="610", **WHO), season)


def test_guests_are_players_of_another_region_or_marked() -> None:
    """UKPL 1C/3C: "only points scored in a players region will count"."""
    assert same_region(" London and South East", "london and south east")
    assert not is_guest(False, "London and South East", "LONDON AND SOUTH EAST")
    assert is_guest(False, "Irish", "London and South East")
    assert is_guest(True, "London and South East", "London and South East")
    assert not is_guest(False, None, "Irish")  # no region given: the meeting's own player
    assert not is_guest(False, "Irish", None)  # a meeting with no region: nobody is a guest


def meet(meet_id: str, held: str, points: dict[str, float], **kw: object) -> SeasonMeet:
    results = tuple(MeetResult(p, Fraction(str(v))) for p, v in points.items())
    return SeasonMeet(Meet(meet_id, results), held, **kw)  # type: ignore[arg-type]


def test_meetings_in_the_order_held_and_bans_for_the_next_one() -> None:
    """UKPL 1B/7A: a ban "for the next meet" given at the January meeting covers February only;
    "for the season" every later meeting. An import with no date comes first."""
    ban_next = Penalty(player="3", level="ban_next", meet="jan", **WHO)
    ban_season = Penalty(player="4", level="ban_season", meet="feb", **WHO)
    meets = [
        meet("mar", "2025-03-08", {}),
        meet("jan", "2025-01-11", {}, penalties=(ban_next,)),
        meet("feb", "2025-02-08", {}, penalties=(ban_season,)),
        meet("old", "", {}),
    ]
    assert [m.id for m in held_order(meets)] == ["old", "jan", "feb", "mar"]
    assert bans_at(meets, "feb") == {"3": ban_next}
    assert bans_at(meets, "mar") == {"4": ban_season}
    assert bans_at(meets, "jan") == {}
    with pytest.raises(DuplicateRegistration, match="jan"):
        held_order([*meets, meet("jan", "2025-05-01", {})])


def test_the_latest_meeting_settles_the_season_settings_and_void_meetings_drop_out() -> None:
    """UKPL 3E with counted = 2 (February's setting): player 1 has 20, 19, 10 -> 39; player 2
    18, 17 -> 35. UKPL 1E: March has four region players, so it does not count (void)."""
    jan = meet("jan", "2025-01-11", {"1": 20, "2": 18, "3": 5, "4": 4, "5": 3},
               config=SeasonConfig(counted=4))  # fmt: skip
    feb = meet("feb", "2025-02-08", {"1": 19, "2": 17, "3": 5, "4": 4, "5": 3},
               config=SeasonConfig(counted=2))  # fmt: skip
    apr = meet("apr", "2025-04-12", {"1": 10, "2": 1, "3": 5, "4": 4, "5": 3})
    mar = meet("mar", "2025-03-08", {"1": 20, "2": 20, "3": 20, "4": 20})
    assert season_settings([jan, feb, apr, mar]).counted == 2
    table, config = region_season([apr, mar, feb, jan])
    assert config.counted == 2 and table.void == ("mar",)
    assert table.meets == ("jan", "feb", "apr")
    rows = {r.player: (r.place, r.points) for r in table.rows}
    assert rows["1"] == (1, 39) and rows["2"] == (2, 35)
