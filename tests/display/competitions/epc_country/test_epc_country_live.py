"""The Country Competition kind, record by record, with expected values worked by hand from the rule
text (epc-2009-rules.txt, "EPC COUNTRY COMPETITION 2009 RULES", cited as "EPC 2009, EPC Country
Competition"). The kind is driven directly, as the API drives it; see the builders' docstring for
how a match's points come from its places.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.epc.country.errors import UnknownFixture, UnknownTeam
from scoring.errors import (
    DuplicateRegistration,
    EntryNotAllowed,
    InvalidScore,
    SettingsError,
    UnknownMachine,
    UnknownPlayer,
)
from tests.display.competitions.epc_country.test_epc_country_live_builders import (
    T03_MAXIMUM,
    TEAMS,
    Comp,
    drawn,
    four_ball_scores,
    game,
    rows,
    team_body,
)


def scores(*lines: tuple[str, str, int]) -> list[dict[str, Any]]:
    return [{"team": t, "player": p, "score": s} for t, p, s in lines]


# --- Registration and the draw ----------------------------------------------------------------


def test_the_draw_and_fixtures_appear_when_all_twenty_seeds_are_in() -> None:
    """EPC 2009, EPC Country Competition: "Teams will be divided into 5 groups of 4 teams. ...
    Group A - 1st, 6th, 11th & 16th seeds"; "3 matches against the other teams from your group".
    Group A by the circle method: round 1 T01 v T16 and T06 v T11, round 2 T01 v T11."""
    comp = Comp()
    for m in ("m1", "m2"):
        comp.add("machine_added", machine={"id": m, "name": m})
    for seed, team in enumerate(TEAMS[:19], start=1):
        comp.add("team_added", team=team_body(team, seed), reserve=False)
    assert comp.view("tournament")["draw"] == {"registered": 19, "needed": 20}
    assert comp.view("country/fixtures") == {}
    assert comp.view("country/groups")["groups"] == {}
    comp.add("team_added", team=team_body("T20", 20), reserve=False)
    groups = comp.view("country/groups")["groups"]
    assert groups["A"] == {"order": 1, "seeds": [1, 6, 11, 16]}
    assert groups["E"] == {"order": 5, "seeds": [5, 10, 15, 20]}
    assert comp.view("teams")["T11"]["group"] == "A"
    fixtures = comp.view("country/fixtures")
    assert len(fixtures) == 30  # 5 groups x 6 matches
    assert [(fixtures[f]["home"], fixtures[f]["away"]) for f in ("A-1-1", "A-1-2", "A-2-1")] == [
        ("T01", "T16"),
        ("T06", "T11"),
        ("T01", "T11"),
    ]
    assert all(f["status"] == "to_play" for f in fixtures.values())


@pytest.mark.parametrize(
    ("team", "reserve", "error", "message"),
    [
        (team_body("T01", 21), False, DuplicateRegistration, "already a team T01"),
        (team_body("X1", 1), False, DuplicateRegistration, "Seed 1 is already Team 01"),
        (team_body("X1", 21), False, EntryNotAllowed, "seed is a whole number from 1 to 20"),
        (team_body("X1", None), False, EntryNotAllowed, "reserve team has no seed"),
        ({**team_body("X1", None), "players": ["A", "B", "C"]}, True, EntryNotAllowed, "4 players"),
        ({**team_body("X1", None), "players": ["A", "A", "C", "D"]}, True, EntryNotAllowed, "4"),
    ],
)
def test_registration_is_checked(
    team: dict[str, Any], reserve: bool, error: type[Exception], message: str
) -> None:
    """EPC 2009, EPC Country Competition: 20 seeds, once each; a team of four ("1 ball per
    player" in the 4-ball game)."""
    comp = Comp()
    comp.add("team_added", team=team_body("T01", 1), reserve=False)
    with pytest.raises(error, match=message):
        comp.add("team_added", team=team, reserve=reserve)


def test_a_reserve_team_takes_the_seed_of_a_team_that_cannot_play() -> None:
    """EPC 2009, EPC Country Competition, Registration: "the team will be disqualified and where
    possible replaced by a reserve team" ("Belgium 3, UK C Team" are on the reserve list). The
    reserve takes seed 7, so group B and T07's fixtures."""
    comp = drawn()
    comp.add("team_added", team=team_body("R1", None), reserve=True)
    assert comp.view("teams")["R1"]["reserve"] is True
    comp.add("team_replaced", withdrawn="T07", reserve="R1", reason="flight delayed")
    teams = comp.view("teams")
    assert teams["R1"]["group"] == "B" and teams["R1"]["replaces"] == "T07"
    assert teams["T07"]["withdrawn"] is True and "group" not in teams["T07"]
    assert "T07" not in rows(comp) and rows(comp)["R1"]["seed"] == 7
    assert any(
        {f["home"], f["away"]} == {"R1", "T02"} for f in comp.view("country/fixtures").values()
    )
    comp.match("R1", "T02", 16)
    comp.add("team_added", team=team_body("R2", None), reserve=True)
    with pytest.raises(EntryNotAllowed, match="has results recorded"):
        comp.add("team_replaced", withdrawn="R1", reserve="R2", reason="ill")


# --- Matches ----------------------------------------------------------------------------------


def test_a_match_gives_9_5_2_0_per_place_and_a_team_sums_its_players() -> None:
    """EPC 2009, EPC Country Competition: "1st 9 points, 2nd 5 points, 3rd 2 points and 4th zero
    points". Machine 1: T01's players 1st and 2nd (9+5 = 14), T16's 3rd and 4th (2+0 = 2).
    Machine 2: T01 1st and 4th (9+0 = 9), T16 2nd and 3rd (5+2 = 7). Match: T01 23, T16 9."""
    comp = drawn()
    first = scores(("T01", "T01 P1", 400), ("T01", "T01 P2", 300), ("T16", "T16 P1", 200))
    first += scores(("T16", "T16 P2", 100))
    touched = comp.add("match_game_recorded", fixture="A-1-1", machine="m1", scores=first)
    assert {"country/fixtures", "country/groups"} <= touched
    match = comp.view("country/fixtures")["A-1-1"]
    assert match["status"] == "playing" and "home_points" not in match
    assert (match["games"]["1"]["home_points"], match["games"]["1"]["away_points"]) == (14, 2)
    assert [r["points"] for r in match["games"]["1"]["rows"].values()] == [9, 5, 2, 0]
    assert rows(comp)["T01"]["match_points"] == 0  # counts once both machines are in
    second = scores(("T01", "T01 P3", 900), ("T16", "T16 P3", 800), ("T16", "T16 P4", 700))
    second += scores(("T01", "T01 P4", 600))
    comp.add("match_game_recorded", fixture="A-1-1", machine="m2", scores=second)
    match = comp.view("country/fixtures")["A-1-1"]
    assert (match["status"], match["home_points"], match["away_points"]) == ("played", 23, 9)
    assert (rows(comp)["T01"]["match_points"], rows(comp)["T01"]["played"]) == (23, 1)
    assert rows(comp)["T16"]["match_points"] == 9


def test_equal_scores_in_a_game_share_their_places_points() -> None:
    """``game_ties="shared"`` (CountryConfig): two players tied for 1st share (9+5)/2 = 7 each, so
    the game still gives 16. T01: 7 + 2 (3rd) = 9; T16: 7 + 0 (4th) = 7."""
    comp = drawn()
    tied = scores(("T01", "T01 P1", 500), ("T16", "T16 P1", 500), ("T01", "T01 P2", 300))
    tied += scores(("T16", "T16 P2", 100))
    comp.add("match_game_recorded", fixture="A-1-1", machine="m1", scores=tied)
    game1 = comp.view("country/fixtures")["A-1-1"]["games"]["1"]
    assert (game1["home_points"], game1["away_points"]) == (9, 7)
    assert [r["place"] for r in game1["rows"].values()] == [1, 1, 3, 4]


def test_three_matches_won_one_two_on_both_machines_make_the_maximum_84() -> None:
    """EPC 2009, EPC Country Competition: "Over the 3 matches, this will give a team a maximum of
    84 points": 1st and 2nd on both machines, 2 x 14 = 28 a match, 3 x 28 = 84; each opponent
    takes 2 x 2 = 4."""
    comp = drawn()
    for (team, other), points in T03_MAXIMUM.items():
        comp.match(team, other, points)
    assert rows(comp)["T03"]["match_points"] == 84
    assert [rows(comp)[t]["match_points"] for t in ("T08", "T13", "T18")] == [4, 4, 4]


def test_a_substitute_machine_after_a_breakdown_keeps_the_completed_game() -> None:
    """EPC 2009, EPC Country Competition: "a substitute machine will be brought in. All previous
    (completed) match points will still count on the broken down machine". Game 1 on m1 (T01
    14), game 2 on the substitute m3 (T01 2): 16-16."""
    comp = drawn()
    comp.add("match_game_recorded", fixture="A-1-1", **game("m1", "T01", "T16", 14, False))
    comp.add("match_game_recorded", fixture="A-1-1", **game("m3", "T01", "T16", 2, True))
    match = comp.view("country/fixtures")["A-1-1"]
    assert [g["machine"] for g in match["games"].values()] == ["m1", "m3"]
    assert (match["home_points"], match["away_points"]) == (16, 16)


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"fixture": "Z-9-9"}, UnknownFixture, "no match 'Z-9-9'"),
        ({"machine": "nope"}, UnknownMachine, "no machine 'nope'"),
        ({"machine": "4b1"}, EntryNotAllowed, "4-ball 1 is not a 3-ball match machine"),
        ({"team": "T02"}, EntryNotAllowed, "Team 02 does not play in T01 v T16"),
        ({"player": "T16 P1"}, UnknownPlayer, "T16 P1 is not a player of Team 01"),
        ({"player": "T01 P2"}, EntryNotAllowed, "T01 P2 cannot play twice"),
        ({"score": -5}, InvalidScore, "whole number from 0"),
        ({"score": "12,000"}, InvalidScore, "whole number from 0"),
        ({"drop": True}, EntryNotAllowed, "needs four scores, two from each team"),
    ],
)
def test_a_wrong_match_game_is_refused(
    change: dict[str, Any], error: type[Exception], message: str
) -> None:
    """Four scores, two of each team of the match, by its players, on a 3-ball machine (EPC 2009,
    EPC Country Competition: "two players from each team playing a four player, three ball
    game"; "all machines will be set on 3 ball play (except the two 4 ball machines)")."""
    comp = drawn()
    record = {"fixture": "A-1-1", **game("m1", "T01", "T16", 14, False)}
    first = record["scores"][0]
    for key in ("team", "player", "score"):
        if key in change:
            first[key] = change[key]
    if change.get("drop"):
        record["scores"] = record["scores"][1:]
    record.update({k: v for k, v in change.items() if k in ("fixture", "machine")})
    with pytest.raises(error, match=message):
        comp.add("match_game_recorded", **record)
    assert comp.view("country/fixtures")["A-1-1"]["status"] == "to_play"


def test_a_match_has_two_machines_each_once_and_players_play_one_of_them() -> None:
    """EPC 2009, EPC Country Competition: "Two members from each team will again play in matches
    on two machines simultaneously": the same player cannot be on both machines, the same machine
    is not used twice, and a third game is refused until one is voided."""
    comp = drawn()
    comp.add("match_game_recorded", fixture="A-1-1", **game("m1", "T01", "T16", 14, False))
    with pytest.raises(EntryNotAllowed, match="already has a game on Match machine 1"):
        comp.add("match_game_recorded", fixture="A-1-1", **game("m1", "T01", "T16", 2, True))
    with pytest.raises(EntryNotAllowed, match="T01 P1, T01 P2, T16 P1, T16 P2 cannot play twice"):
        comp.add("match_game_recorded", fixture="A-1-1", **game("m2", "T01", "T16", 2, False))
    comp.add("match_game_recorded", fixture="A-1-1", **game("m2", "T01", "T16", 2, True))
    with pytest.raises(EntryNotAllowed, match="already has both machines' games"):
        comp.add("match_game_recorded", fixture="A-1-1", **game("m3", "T01", "T16", 2, True))


def test_a_voided_game_can_be_entered_again() -> None:
    """A correction is a new record naming the one it corrects (architecture principle 1): void the
    second game (T01 2) and enter it again (T01 14): 16-16 becomes 28-4."""
    comp = drawn()
    comp.add("match_game_recorded", fixture="A-1-1", **game("m1", "T01", "T16", 14, False))
    comp.add("match_game_recorded", fixture="A-1-1", **game("m2", "T01", "T16", 2, True))
    wrong = comp.seq
    assert comp.view("country/fixtures")["A-1-1"]["home_points"] == 16
    comp.add("record_voided", voids=wrong, reason="scores of the wrong machine")
    assert comp.view("country/fixtures")["A-1-1"]["status"] == "playing"
    assert rows(comp)["T01"]["match_points"] == 0
    comp.add("match_game_recorded", fixture="A-1-1", **game("m2", "T01", "T16", 14, True))
    assert comp.view("country/fixtures")["A-1-1"]["home_points"] == 28
    with pytest.raises(EntryNotAllowed, match="voided already"):
        comp.add("record_voided", voids=wrong, reason="twice")


def test_a_void_written_before_voids_was_named_so_still_voids() -> None:
    """Logs written before the rename name the voided record ``seq``: replayed, it voids the same."""
    comp = drawn()
    comp.add("match_game_recorded", fixture="A-1-1", **game("m1", "T01", "T16", 14, False))
    voided = comp.seq
    comp.add("record_voided", seq=voided, reason="older log")
    assert comp.view("country/fixtures")["A-1-1"]["status"] == "to_play"  # its one game voided
    with pytest.raises(EntryNotAllowed, match="voided already"):
        comp.add("record_voided", voids=voided, reason="twice")


# --- Penalties --------------------------------------------------------------------------------


def test_a_team_more_than_five_minutes_late_forfeits_the_match() -> None:
    """EPC 2009, EPC Country Competition, Timekeeping: "appears for their match more than 5 minutes
    after the announcement, they will be disqualified from that match and the opposing team will
    get the top 2 scores. The disqualified team will get zero points". ``forfeit_award=
    "both_machines"``: 1st and 2nd on both machines, 2 x (9+5) = 28. Five minutes is in time."""
    comp = drawn()
    with pytest.raises(EntryNotAllowed, match="only when more than 5 minutes late"):
        comp.add("late_recorded", fixture="A-1-1", team="T16", minutes=5, reason="called 18:00")
    comp.add("late_recorded", fixture="A-1-1", team="T16", minutes=6, reason="called 18:00")
    match = comp.view("country/fixtures")["A-1-1"]
    assert (match["status"], match["home_points"], match["away_points"]) == ("forfeit", 28, 0)
    late = next(iter(match["penalties"].values()))
    assert late == {
        "type": "late",
        "team": "T16",
        "minutes": 6,
        "reason": "called 18:00",
        "by": "td:Tess",
    }
    assert (rows(comp)["T01"]["match_points"], rows(comp)["T16"]["match_points"]) == (28, 0)
    with pytest.raises(EntryNotAllowed, match="decided by a penalty"):
        comp.add("match_game_recorded", fixture="A-1-1", **game("m1", "T01", "T16", 14, False))
    with pytest.raises(EntryNotAllowed, match="already disqualified"):
        comp.add("late_recorded", fixture="A-1-1", team="T16", minutes=9, reason="again")


def test_a_late_arrival_names_a_known_team_and_its_match() -> None:
    """A late arrival is for a match (EPC 2009, EPC Country Competition, Timekeeping: "appears for
    their match"); the team is looked up first, so an unknown one is a 404 whatever else is
    wrong, and a slam tilt without a match is the 4-ball game's."""
    comp = drawn()
    with pytest.raises(UnknownTeam, match="no team 'NOPE'"):
        comp.add("late_recorded", team="NOPE", minutes=9, reason="no fixture either")
    with pytest.raises(EntryNotAllowed, match="recorded for a match: give its fixture"):
        comp.add("late_recorded", team="T01", minutes=9, reason="called 18:00")
    with pytest.raises(InvalidScore, match="Minutes late must be a whole number, not -1"):
        comp.add("late_recorded", fixture="A-1-1", team="T16", minutes=-1, reason="typo")
    with pytest.raises(EntryNotAllowed, match="Team 02 does not play in T01 v T16"):
        comp.add(
            "late_recorded", fixture="A-1-1", team="T02", minutes="x", reason="the rules first"
        )
    comp.add("slam_tilt_recorded", team="T01", reason="4-ball machine")
    assert rows(comp, "country/four_ball")["T01"]["slam_tilt"] == comp.seq


def test_one_machines_top_two_scores_is_a_setting() -> None:
    """``forfeit_award="one_machine"``: "the top 2 scores" of one machine, 9+5 = 14. Changing the
    setting replays every record: the forfeit becomes 14-0."""
    comp = drawn()
    comp.add("late_recorded", fixture="A-1-1", team="T16", minutes=12, reason="no show")
    comp.add("settings_changed", settings={"forfeit_award": "one_machine"})
    match = comp.view("country/fixtures")["A-1-1"]
    assert (match["home_points"], match["away_points"]) == (14, 0)
    assert comp.view("tournament")["settings"]["forfeit_award"] == "one_machine"
    with pytest.raises(EntryNotAllowed, match="12 minutes after the call"):
        comp.add("settings_changed", settings={"late_minutes": 15})
    with pytest.raises(SettingsError, match="no setting 'colour'"):
        comp.add("settings_changed", settings={"colour": "red"})
    assert comp.view("tournament")["settings"]["late_minutes"] == 5


def test_a_slam_tilt_from_shaking_disqualifies_the_team_from_that_match() -> None:
    """EPC 2009, EPC Country Competition, Slam Tilts: "Should a slam tilt result from shaking or
    nudging the machine, the team will be disqualified from that match." T01 slam-tilts after the
    first game (T01 14 on it): the match is 0-28, the game set aside."""
    comp = drawn()
    comp.add("match_game_recorded", fixture="A-1-1", **game("m1", "T01", "T16", 14, False))
    comp.add("slam_tilt_recorded", fixture="A-1-1", team="T01", reason="shook m2")
    match = comp.view("country/fixtures")["A-1-1"]
    assert (match["status"], match["home_points"], match["away_points"]) == ("forfeit", 0, 28)
    assert next(iter(match["penalties"].values()))["type"] == "slam_tilt"
    assert rows(comp)["T16"]["match_points"] == 28


def test_a_slam_tilt_on_the_four_ball_game_enters_its_score_as_zero() -> None:
    """EPC 2009, EPC Country Competition, Slam Tilts: "If this happens on the 4 ball game, the team
    score will be entered as zero". T01 had the best score (17 points); it now has 0 and no
    place, and T02 (1900) is 1st with 17."""
    comp = drawn()
    comp.four_ball(four_ball_scores())
    assert rows(comp, "country/four_ball")["T01"]["points"] == 17
    comp.add("slam_tilt_recorded", team="T01", reason="shook the 4-ball machine")
    board = rows(comp, "country/four_ball")
    tilt = comp.seq
    assert board["T01"] == {
        "score": 0,
        "points": 0,
        "seq": 27,  # the 4-ball record, after 5 machines, 20 teams and T01 the first game
        "slam_tilt": tilt,
        "slot": 2,
        "scheduled": "4b1",
    }
    assert (board["T02"]["place"], board["T02"]["points"]) == (1, 17)
    assert rows(comp)["T01"]["four_ball_points"] == 0


# --- The 4-ball game ----------------------------------------------------------------------------


def test_four_ball_points_from_17_for_first_to_1_for_thirteenth() -> None:
    """EPC 2009, EPC Country Competition, "The 4 ball game": "1st=17 points, 2nd=14 points, 3rd=12
    points, 4th=10 points, 5th=9 points, 6th=8 points ... 13th=1 point, 14th-20th=zero points".
    Scores 2000, 1900, ... 100 for T01..T20, played on either of the two machines."""
    comp = drawn()
    comp.four_ball(four_ball_scores())
    board = comp.view("country/four_ball")
    assert board["played"] == 20 and board["machines"] == ["4b1", "4b2"]
    points = [board["rows"][t]["points"] for t in TEAMS]
    assert points == [17, 14, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0]
    assert {board["rows"][t]["machine"] for t in TEAMS} == {"4b1", "4b2"}
    assert rows(comp)["T01"]["total"] == 17
    with pytest.raises(EntryNotAllowed, match="already played its 4-ball game"):
        comp.add("four_ball_recorded", team="T01", machine="4b2", score=1)
    with pytest.raises(EntryNotAllowed, match="Match machine 1 is not one of the 4-ball machines"):
        comp.add("four_ball_recorded", team="T02", machine="m1", score=1)


def test_equal_four_ball_scores_share_the_place_and_its_points() -> None:
    """``four_ball_ties="high"``: T06 and T07 both score 1500: both 6th with 8 points; T08 is 8th
    with 6. A team that has not played has no place and no points ("no points will be
    awarded to your team"); T20 still sees its allocated slot: slot 1 has every group's first
    match (T05 v T20 among them), slot 2 the second ones, and T20 is the tenth team free in slot
    2 (T01-T05 and T16-T20), the machines alternating from 4-ball 1: 4-ball 2."""
    comp = drawn()
    everyone = four_ball_scores(T07=1500)
    del everyone["T20"]
    comp.four_ball(everyone)
    board = rows(comp, "country/four_ball")
    assert [(board[t]["place"], board[t]["points"]) for t in ("T06", "T07", "T08")] == [
        (6, 8),
        (6, 8),
        (8, 6),
    ]
    assert board["T20"] == {"points": 0, "slot": 2, "scheduled": "4b2"}
