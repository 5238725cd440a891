"""Which entries the EPC 2009 country competition accepts (``scoring.epc.country.entries``), each
rule on its own, with frozen data and no live state (rule text: epc-2009-rules.txt, "EPC COUNTRY
COMPETITION 2009 RULES", cited as "EPC 2009, EPC Country Competition"). The kind's tests
(tests/display/competitions/epc_country/) drive the same rules through records.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from scoring.epc.country import (
    CountryConfig,
    FinalTable,
    Fixture,
    Late,
    MatchGame,
    Playoff,
    PlayoffNeeded,
    SlamTilt,
    final_group,
    finalists,
    groups,
    qualifying_table,
)
from scoring.epc.country.entries import (
    ScoreEntry,
    add_machine,
    add_team,
    check_final_over,
    check_void,
    disqualify,
    drawn_team,
    four_ball_game,
    four_ball_slam_tilt,
    machine_of,
    match_game,
    playoff,
    reopen_stage,
    replace_team,
    require_stage,
    stage_of,
    start_final,
    team_of,
    teams_in_draw,
)
from scoring.epc.country.errors import StageClosed, UnknownTeam
from scoring.epc.country.model import CountryMachine, GameScore, Stage, Team
from scoring.errors import (
    DuplicateRegistration,
    EntryNotAllowed,
    InvalidScore,
    UnknownMachine,
    UnknownPlayer,
)

CONFIG = CountryConfig()
IDS = tuple(f"T{i:02}" for i in range(1, 21))
TEAMS = {
    t: Team(t, f"Team {t[1:]}", seed, tuple(f"{t} P{n}" for n in range(1, 5)))
    for seed, t in enumerate(IDS, start=1)
}
RESERVE = Team("R1", "Reserve 1", None, ("R P1", "R P2", "R P3", "R P4"))
ALL = {**TEAMS, "R1": RESERVE}
DRAW = groups(CONFIG, IDS, ["R1"])
MACHINES = {
    "m1": CountryMachine("m1", "Match machine 1"),
    "m2": CountryMachine("m2", "Match machine 2"),
    "4b1": CountryMachine("4b1", "4-ball 1", four_ball=True),
}
A11 = Fixture("A", 1, 1, "T01", "T16")
FINAL_MATCH = Fixture(final_group(()).name, 1, 1, "T01", "T02")


def lines(home_players: tuple[str, str], away_players: tuple[str, str]) -> list[ScoreEntry]:
    """Four score lines of A-1-1: home's two players 1st and 2nd, away's 3rd and 4th."""
    return [
        ScoreEntry("T01", home_players[0], 400),
        ScoreEntry("T01", home_players[1], 300),
        ScoreEntry("T16", away_players[0], 200),
        ScoreEntry("T16", away_players[1], 100),
    ]


def first_game() -> MatchGame:
    scores = lines(("T01 P1", "T01 P2"), ("T16 P1", "T16 P2"))
    return MatchGame("m1", tuple(GameScore(str(s.team), s.score, s.player) for s in scores))


# --- Stages -------------------------------------------------------------------------------------


def test_the_final_fixtures_belong_to_the_final() -> None:
    """EPC 2009, EPC Country Competition: the groups' matches qualify, the final's group is the
    final."""
    assert (stage_of(A11), stage_of(FINAL_MATCH)) == ("qualifying", "final")


@pytest.mark.parametrize(
    ("now", "words"),
    [
        ("final", "the final is on"),
        ("complete", "the competition is complete"),
    ],
)
def test_a_record_of_a_stage_that_is_not_on_is_refused(now: Stage, words: str) -> None:
    """A qualifying record once the final has started (or is over) is StageClosed, a 409."""
    with pytest.raises(StageClosed, match=f"^Teams are replaced, and {words}.$"):
        require_stage(now, "qualifying", "Teams are replaced")
    assert issubclass(StageClosed, EntryNotAllowed) and StageClosed.code == "entry_not_allowed"
    require_stage("final", "final", "anything")


# --- Look-ups -----------------------------------------------------------------------------------


def test_teams_and_machines_are_looked_up_by_id() -> None:
    """EPC 2009, EPC Country Competition: the registered teams; the match machines are on 3
    balls, "except the two 4 ball machines"."""
    assert team_of(ALL, "R1") is RESERVE
    with pytest.raises(UnknownTeam, match=r"There is no team 'X' in this competition."):
        team_of(ALL, "X")
    assert machine_of(MACHINES, "4b1", four_ball=True).name == "4-ball 1"
    with pytest.raises(UnknownMachine, match=r"There is no machine 'x' in this competition."):
        machine_of(MACHINES, "x", four_ball=False)
    with pytest.raises(EntryNotAllowed, match=r"^4-ball 1 is not a 3-ball match machine.$"):
        machine_of(MACHINES, "4b1", four_ball=False)
    with pytest.raises(EntryNotAllowed, match=r"^Match machine 1 is not one of the 4-ball"):
        machine_of(MACHINES, "m1", four_ball=True)


def test_only_teams_of_the_draw_play() -> None:
    """EPC 2009, EPC Country Competition, Registration: a reserve plays once it replaces a team."""
    assert teams_in_draw(None) == () and len(teams_in_draw(DRAW)) == 20
    assert drawn_team(ALL, DRAW, "T07").id == "T07"
    with pytest.raises(EntryNotAllowed, match=r"^Reserve 1 cannot play: it is not in the draw.$"):
        drawn_team(ALL, DRAW, "R1")
    with pytest.raises(EntryNotAllowed, match=r"cannot play: the draw is not made yet."):
        drawn_team(ALL, None, "T01")


# --- Registration -------------------------------------------------------------------------------


def test_a_machine_is_entered_once() -> None:
    added = add_machine(MACHINES, CountryMachine("m3", "Match machine 3"))
    assert set(added) == {*MACHINES, "m3"} and "m3" not in MACHINES  # a new mapping
    with pytest.raises(DuplicateRegistration, match=r"^There is already a machine m1.$"):
        add_machine(MACHINES, CountryMachine("m1", "Another"))


def register(**change: Any) -> Mapping[str, Team]:
    """``add_team`` for team X1 (a reserve unless ``change`` says otherwise) beside T01."""
    entry: dict[str, Any] = {
        "team_id": "X1",
        "name": "Team X",
        "seed": None,
        "players": ("A", "B", "C", "D"),
        "reserve": True,
    }
    entry.update(change)
    teams = {"T01": TEAMS["T01"]}
    return add_team(CONFIG, 4, "qualifying", teams, **entry)


def test_a_team_is_registered_with_a_free_seed_or_as_a_reserve() -> None:
    """EPC 2009, EPC Country Competition: 20 seeds in 5 groups of 4, each once; reserve teams
    have none; a team of four differently named players."""
    teams = register(seed=2, reserve=False)
    assert teams["X1"] == Team("X1", "Team X", 2, ("A", "B", "C", "D"))
    assert register()["X1"].seed is None


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"team_id": "T01"}, DuplicateRegistration, r"^There is already a team T01 \(Team 01\).$"),
        ({"seed": 3}, EntryNotAllowed, "^A reserve team has no seed; every other team has one.$"),
        ({"reserve": False}, EntryNotAllowed, "^A reserve team has no seed"),
        ({"seed": 21, "reserve": False}, EntryNotAllowed, "^A seed is a whole number from 1 to 20"),
        ({"seed": True, "reserve": False}, EntryNotAllowed, "from 1 to 20, not True.$"),
        ({"seed": "2", "reserve": False}, EntryNotAllowed, "from 1 to 20, not '2'.$"),
        ({"seed": 1, "reserve": False}, DuplicateRegistration, r"^Seed 1 is already Team 01 \(T01"),
        ({"players": ("A", "B", "C")}, EntryNotAllowed, "^A team registers 4 players with differ"),
        ({"players": ("A", "A", "C", "D")}, EntryNotAllowed, "Team X has A, A, C, D.$"),
        ({"players": ("A", "B", "C", "")}, EntryNotAllowed, "Team X has A, B, C, .$"),
        ({"players": ()}, EntryNotAllowed, "Team X has none.$"),
    ],
)
def test_a_wrong_registration_is_refused(
    change: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        register(**change)


def test_teams_are_registered_before_the_final() -> None:
    with pytest.raises(StageClosed, match=r"^Teams are registered before the final, and the final"):
        add_team(CONFIG, 4, "final", {}, team_id="X", name="X", seed=None, players=(), reserve=True)


def test_a_reserve_replaces_a_drawn_team_without_results() -> None:
    """EPC 2009, EPC Country Competition, Registration: "the team will be disqualified and where
    possible replaced by a reserve team"."""
    swap = replace_team(CONFIG, "qualifying", DRAW, ALL, "T07", "R1", {"T01"}, "td:Tess", "ill")
    assert (swap.withdrawn, swap.reserve, swap.by, swap.reason) == ("T07", "R1", "td:Tess", "ill")
    with pytest.raises(EntryNotAllowed, match=r"^Team 01 has results recorded; .* first\).$"):
        replace_team(CONFIG, "qualifying", DRAW, ALL, "T01", "R1", {"T01"}, "td:Tess", "")
    with pytest.raises(EntryNotAllowed, match=r"^Replace a team once the draw has all 20 seeded"):
        replace_team(CONFIG, "qualifying", None, ALL, "T01", "R1", (), "td:Tess", "")
    with pytest.raises(StageClosed, match=r"^Teams are replaced before the final"):
        replace_team(CONFIG, "final", DRAW, ALL, "T01", "R1", (), "td:Tess", "")
    with pytest.raises(UnknownTeam, match=r"no team 'R9'"):
        replace_team(CONFIG, "qualifying", DRAW, ALL, "T07", "R9", (), "td:Tess", "")


# --- Match games --------------------------------------------------------------------------------


def enter(
    scores: list[ScoreEntry],
    machine: str = "m1",
    recorded: tuple[MatchGame, ...] = (),
    penalties: tuple[Late | SlamTilt, ...] = (),
    now: Stage = "qualifying",
    fixture: Fixture = A11,
) -> MatchGame:
    return match_game(
        CONFIG,
        now,
        fixture,
        ALL,
        MACHINES,
        recorded,
        penalties,
        machine,
        scores,
    )


def test_a_match_game_is_four_scores_by_four_players_of_the_match() -> None:
    """EPC 2009, EPC Country Competition: "two players from each team playing a four player,
    three ball game"; the player's name may be left out."""
    game = enter(lines(("T01 P1", ""), ("T16 P1", "T16 P2")))
    assert game.machine == "m1"
    assert [(s.team, s.player, s.score) for s in game.scores][:2] == [
        ("T01", "T01 P1", 400),
        ("T01", "", 300),
    ]


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"now": "final"}, StageClosed, "^T01 v T16 is a qualifying match, and the final is on.$"),
        ({"penalties": (Late("T16", "T01", 9, "td", ""),)}, EntryNotAllowed, "decided by a pen"),
        ({"recorded": (first_game(), first_game())}, EntryNotAllowed, "already has both machine"),
        ({"machine": "m9"}, UnknownMachine, "no machine 'm9'"),
        ({"machine": "4b1"}, EntryNotAllowed, "4-ball 1 is not a 3-ball match machine"),
        ({"recorded": (first_game(),)}, EntryNotAllowed, "already has a game on Match machine 1"),
    ],
)
def test_a_match_game_is_refused_before_its_scores_are_read(
    change: dict[str, Any], error: type[Exception], message: str
) -> None:
    """EPC 2009, EPC Country Competition: a match is two machines, each once, "simultaneously";
    a penalty decides the match without its scores."""
    with pytest.raises(error, match=message):
        enter(lines(("T01 P3", "T01 P4"), ("T16 P3", "T16 P4")), **change)


@pytest.mark.parametrize(
    ("line", "error", "message"),
    [
        (ScoreEntry("NOPE", "", 400), UnknownTeam, "no team 'NOPE'"),
        (ScoreEntry("T02", "", 400), EntryNotAllowed, "^Team 02 does not play in T01 v T16.$"),
        (ScoreEntry("T01", "T16 P1", 400), UnknownPlayer, r"^T16 P1 is not a player of Team 01 \("),
        (ScoreEntry("T01", "T01 P2", 400), EntryNotAllowed, "^T01 P2 cannot play twice in T01 v"),
        (ScoreEntry("T01", "T01 P1", -1), InvalidScore, "whole number from 0"),
        (ScoreEntry("T16", "T16 P4", 400), EntryNotAllowed, "needs four scores, two from each"),
    ],
)
def test_a_wrong_score_line_is_refused(
    line: ScoreEntry, error: type[Exception], message: str
) -> None:
    scores = lines(("T01 P1", "T01 P2"), ("T16 P1", "T16 P2"))
    with pytest.raises(error, match=message):
        enter([line, *scores[1:]])


def test_nobody_plays_both_machines_of_a_match() -> None:
    """EPC 2009, EPC Country Competition: "Two members from each team will again play in matches
    on two machines simultaneously"."""
    with pytest.raises(EntryNotAllowed, match=r"^T01 P1, T01 P2, T16 P1, T16 P2 cannot play twice"):
        enter(lines(("T01 P1", "T01 P2"), ("T16 P1", "T16 P2")), "m2", (first_game(),))
    second = enter(lines(("T01 P3", "T01 P4"), ("T16 P3", "T16 P4")), "m2", (first_game(),))
    assert second.machine == "m2"


# --- The 4-ball game, penalties ------------------------------------------------------------------


def test_a_four_ball_game_is_a_drawn_teams_on_a_four_ball_machine() -> None:
    """EPC 2009, EPC Country Competition, "The 4 ball game"."""
    game = four_ball_game("qualifying", ALL, MACHINES, DRAW, "T03", "4b1", 5_000)
    assert (game.team, game.machine, game.score) == ("T03", "4b1", 5_000)
    with pytest.raises(StageClosed, match=r"^The 4-ball game is part of qualifying, and the final"):
        four_ball_game("final", ALL, MACHINES, DRAW, "T03", "4b1", 5_000)
    with pytest.raises(EntryNotAllowed, match=r"^Reserve 1 cannot play: it is not in the draw"):
        four_ball_game("qualifying", ALL, MACHINES, DRAW, "R1", "4b1", 5_000)
    with pytest.raises(EntryNotAllowed, match=r"^Match machine 1 is not one of the 4-ball"):
        four_ball_game("qualifying", ALL, MACHINES, DRAW, "T03", "m1", 5_000)


def test_a_four_ball_slam_tilt_zeroes_the_game_once() -> None:
    """EPC 2009, EPC Country Competition, Slam Tilts: "If this happens on the 4 ball game, the
    team score will be entered as zero"."""
    team = TEAMS["T03"]
    tilt = four_ball_slam_tilt("qualifying", DRAW, team, (), "td:Tess", "shook it")
    assert tilt == SlamTilt("T03", None, "td:Tess", "shook it")
    with pytest.raises(EntryNotAllowed, match=r"^Team 03's 4-ball game is already entered as zero"):
        four_ball_slam_tilt("qualifying", DRAW, team, (tilt,), "td:Tess", "again")
    with pytest.raises(EntryNotAllowed, match=r"cannot play: it is not in the draw"):
        four_ball_slam_tilt("qualifying", DRAW, RESERVE, (), "td:Tess", "")
    with pytest.raises(StageClosed, match=r"^The 4-ball game is part of qualifying"):
        four_ball_slam_tilt("complete", DRAW, team, (), "td:Tess", "")


def test_a_penalty_disqualifies_a_team_of_the_match_once() -> None:
    """EPC 2009, EPC Country Competition, Timekeeping ("disqualified from that match and the
    opposing team will get the top 2 scores") and Slam Tilts; the minutes are judged by
    ``match_result`` (more than 5)."""
    assert disqualify("qualifying", A11, TEAMS["T16"], ()) == "T01"
    assert disqualify("qualifying", A11, TEAMS["T01"], ()) == "T16"
    late = Late("T16", "T01", 7, "td:Tess", "called")
    with pytest.raises(EntryNotAllowed, match=r"^Team 16 is already disqualified from T01 v T16.$"):
        disqualify("qualifying", A11, TEAMS["T16"], (late,))
    assert disqualify("qualifying", A11, TEAMS["T01"], (late,)) == "T16"  # both may be
    with pytest.raises(EntryNotAllowed, match=r"^Team 02 does not play in T01 v T16.$"):
        disqualify("qualifying", A11, TEAMS["T02"], ())
    with pytest.raises(StageClosed, match=r"^T01 v T02 is a final match, and qualifying is on.$"):
        disqualify("qualifying", FINAL_MATCH, TEAMS["T01"], ())


# --- Play-offs, the final, voids ------------------------------------------------------------------


def test_a_playoff_comes_once_every_match_of_its_stage_has_a_result() -> None:
    """EPC 2009, EPC Country Competition: "a single game per team on one of the 4 ball machines
    shall decide the position"."""
    game = playoff("qualifying", "qualifying", DRAW, ALL, (), [("T06", 5), ("T07", 9)])
    assert game.scores == (("T06", 5), ("T07", 9))
    with pytest.raises(EntryNotAllowed, match=r"^Play-off games come once every qualifying match"):
        playoff("qualifying", "qualifying", DRAW, ALL, ("A-3-2",), [("T06", 5), ("T07", 9)])
    with pytest.raises(EntryNotAllowed, match=r"has a result; 0 still to play.$"):
        playoff("qualifying", "qualifying", None, ALL, (), [("T06", 5), ("T07", 9)])
    with pytest.raises(EntryNotAllowed, match=r"^Reserve 1 cannot play"):
        playoff("qualifying", "qualifying", DRAW, ALL, (), [("T06", 5), ("R1", 9)])
    with pytest.raises(StageClosed, match=r"^This is a qualifying play-off, and the final is on.$"):
        playoff("final", "qualifying", DRAW, ALL, (), [("T06", 5), ("T07", 9)])
    final = playoff("final", "final", DRAW, ALL, (), [("R1", 5), ("T07", 9)])  # no draw check
    assert final.teams == {"R1", "T07"}


def test_the_final_starts_with_every_group_match_decided_and_the_cut_settled() -> None:
    """EPC 2009, EPC Country Competition: "The six teams with the highest ranking points will go
    on to the finals"; the field written in the record must still be the field on replay."""
    table = qualifying_table(CONFIG, DRAW, [], [])  # every team 0: the cut needs a play-off
    with pytest.raises(EntryNotAllowed, match=r"^The final's teams are not settled"):
        start_final("qualifying", table, ())
    with pytest.raises(EntryNotAllowed, match=r"^The final starts when every group match has a r"):
        start_final("qualifying", table, ("A-1-1",))
    left = tuple(f"A-{n}" for n in range(7))
    with pytest.raises(EntryNotAllowed, match=r"7 still to play \(A-0, A-1, A-2, A-3, A-4, …\).$"):
        start_final("qualifying", table, left)
    with pytest.raises(EntryNotAllowed, match=r"; all still to play \(\)\.$"):
        start_final("qualifying", None, ())
    with pytest.raises(StageClosed, match=r"^The final has already started, and the final is on"):
        start_final("final", table, ())


def test_the_finalists_are_written_and_checked_on_replay() -> None:
    """Every team on 0 ties for 1st-20th; a play-off game with twenty different scores settles it
    (best score first), so the field is the six best play-off scores."""
    table = qualifying_table(CONFIG, DRAW, [], [])
    needed = table.playoffs_needed[0]
    settle = tuple((t, 100 * (len(needed.teams) - i)) for i, t in enumerate(needed.teams))
    settled = qualifying_table(CONFIG, DRAW, [], [], playoffs=[Playoff(settle)])
    field = start_final("qualifying", settled, ())
    assert field == finalists(settled) and len(field) == 6
    assert start_final("qualifying", settled, (), [f.team for f in field]) == field
    with pytest.raises(EntryNotAllowed, match=r"^The final's teams would now be .*, not T20 as"):
        start_final("qualifying", settled, (), ["T20"])


def test_the_competition_completes_when_the_final_is_over() -> None:
    """EPC 2009, EPC Country Competition, Final: "When all games have been played ... the final
    rankings will be declared"."""
    over = FinalTable((), (), ())
    check_final_over("final", over, ())
    with pytest.raises(EntryNotAllowed, match=r"^The final is not over: 3 matches still to play.$"):
        check_final_over("final", over, ("f1", "f2", "f3"))
    tie = FinalTable((), (), (PlayoffNeeded(("T01", "T02"), 1, 2),))
    with pytest.raises(EntryNotAllowed, match=r"^The final is not over: a play-off game still to"):
        check_final_over("final", tie, ())
    with pytest.raises(
        StageClosed, match=r"^Only a final can be completed, and qualifying is on.$"
    ):
        check_final_over("qualifying", None, ())


def test_a_record_is_voided_only_while_its_stage_is_on() -> None:
    check_void("final", "final")
    with pytest.raises(StageClosed, match=r"^The final has started: reopen qualifying first\.$"):
        check_void("final", "qualifying")
    with pytest.raises(StageClosed, match=r"^The competition is complete: reopen the final"):
        check_void("complete", "final")


def test_only_the_stage_before_the_current_one_is_reopened() -> None:
    assert reopen_stage("final", "qualifying", 0) == "qualifying"
    assert reopen_stage("complete", "final", 12) == "final"
    with pytest.raises(EntryNotAllowed, match=r"^The final has 3 result\(s\) recorded: void"):
        reopen_stage("final", "qualifying", 3)
    with pytest.raises(EntryNotAllowed, match=r"\(none\), not 'qualifying'\.$"):
        reopen_stage("qualifying", "qualifying", 0)
    with pytest.raises(EntryNotAllowed, match=r"\(final\), not 'qualifying'\.$"):
        reopen_stage("complete", "qualifying", 0)
