"""``backglass league SEASON.json``: the FWPL season table offline. The same two weeks as
tests/display/competitions/fwpl/test_fwpl_live.py's season test, worked by hand there: absences, forfeits, match bonus and
the 50% absence credit (FWPL 2.4, 3.2, 3.3), groups cut from the ladder (4.1-4.3)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner

from display.cli.main import cli


def game(group: int, scores: dict[str, int | None]) -> dict[str, object]:
    return {"group": group, "machine": "m1", "scores": scores}


SEASON = {
    "players": [{"number": str(n), "name": f"Player {n}", "ifpa_rank": n} for n in range(1, 7)],
    "weeks": [
        {   # groups 1-2-3 and 4-5-6 from the IFPA ladder
            "games": [game(1, {"1": 1000, "2": 100, "3": 10})] * 4
            + [game(2, {"4": 500, "5": 100, "6": None})] * 3
            + [game(2, {"4": 500, "5": 100, "6": 50})]
        },
        {   # the ladder after week 1: 1, 4, 2 / 5, 3, 6; player 2 does not come
            "games": [game(1, {"1": 1000, "4": 100, "2": None})] * 4
            + [game(2, {"5": 1000, "3": 100, "6": 10})] * 4
        },
    ],
}  # fmt: skip


def run(tmp_path: Path, season: object, *args: str) -> tuple[int, str]:
    path = tmp_path / "season.json"
    path.write_text(json.dumps(season))
    answer = CliRunner().invoke(cli, ["league", str(path), *args])
    return answer.exit_code, answer.output


def test_the_season_table_and_next_weeks_groups(tmp_path: Path) -> None:
    code, output = run(tmp_path, SEASON, "--groups")
    assert code == 0, output
    table, groups, cut = output.split("\n\n")
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(table))}
    assert {p: r["points"] for p, r in rows.items()} == {
        "1": "66", "5": "40", "4": "37", "2": "24", "3": "20", "6": "5",
    }  # fmt: skip
    assert rows["2"]["credit"] == "8" and rows["2"]["forfeits"] == "4"
    assert [rows[p]["place"] for p in ("1", "5", "4", "2", "3", "6")] == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
    ]
    assert list(rows) == ["1", "5", "4", "2", "3", "6"]
    # six players: two groups of three (FWPL 4.1), cut from the ladder
    assert groups.strip().splitlines() == ["group 1,1,5,4", "group 2,2,3,6"]
    # FWPL 6.1: under 8 players the top 4 play a final (small_league final_of_4)
    assert cut.splitlines() == ["division,seed,player,name", "A,1,1,Player 1", "A,2,5,Player 5",
                                "A,3,4,Player 4", "A,4,2,Player 2"]  # fmt: skip


def test_absences_next_week_and_errors_a_steward_can_read(tmp_path: Path) -> None:
    code, output = run(tmp_path, SEASON, "--groups", "--absent", "2,3,6")
    assert code == 0 and output.split("\n\n")[1].strip().splitlines() == ["group 1,1,5,4"]
    bad = json.loads(json.dumps(SEASON))
    bad["weeks"][0]["games"][0]["scores"]["9"] = 5
    code, output = run(tmp_path, bad)
    assert code == 1 and "Player 9" in output
    code, output = run(tmp_path, {"players": "nope"})
    assert code == 1 and "is not a season file" in output
    code, output = run(tmp_path, {**SEASON, "settings": {"match_bonus": "huge"}})
    assert code == 1 and "match_bonus" in output


def test_the_playoff_cut_and_the_playoffs_so_far(tmp_path: Path) -> None:
    """FWPL 6.1 (a final of 4 under 8 players), 6.3 (4-2-1-0 per game, summed): the final's
    first game in, then all three."""
    final = ["1", "5", "4", "2"]
    first = {"machine": "m2", "scores": {"1": 100, "5": 90, "4": 80, "2": 70}}
    season = {**SEASON, "playoffs": {"matches": [{"group": final, "games": [first]}]}}
    code, output = run(tmp_path, season)
    assert code == 0, output
    playoffs = output.split("\n\n")[2].splitlines()
    assert playoffs == ["division,round,place,player,name", "A,final 1,,1,Player 1",
                        "A,final 1,,5,Player 5", "A,final 1,,4,Player 4",
                        "A,final 1,,2,Player 2"]  # fmt: skip
    second = {"machine": "m3", "scores": {"1": 10, "5": 90, "4": 80, "2": 70}}
    third = {"machine": "m4", "scores": {"1": 10, "5": 90, "4": 80, "2": 700}}
    # 1: 4+0+0 = 4, 5: 2+4+2 = 8, 4: 1+2+1 = 4, 2: 0+1+4 = 5; 1 and 4 tie for 3rd: 6.5's
    # tie-breaker game, 4 first
    match = {"group": final, "games": [first, second, third], "tiebreaks": [["4", "1"]]}
    code, output = run(tmp_path, {**SEASON, "playoffs": {"matches": [match]}})
    assert code == 0, output
    assert output.split("\n\n")[2].splitlines()[1:] == [
        "A,placed,1,5,Player 5", "A,placed,2,2,Player 2", "A,placed,3,4,Player 4",
        "A,placed,4,1,Player 1",
    ]  # fmt: skip
    stray = {"group": ["1", "3", "6", "2"], "games": [first]}
    code, output = run(tmp_path, {**SEASON, "playoffs": {"matches": [stray]}})
    assert code == 1 and "in no division" in output


def test_a_tie_at_the_cut_is_named_until_its_play_off_is_recorded(tmp_path: Path) -> None:
    """FWPL 6.1 "Ties will be settled by single ball play": 5 and 6 both have 10 points across
    the line of the final of 4 (group 2: 4 wins every game, 5 and 6 take second twice each)."""
    season = {
        "players": SEASON["players"],
        "weeks": [{"games": [game(1, {"1": 1000, "2": 100, "3": 10})] * 4
                   + [game(2, {"4": 1000, "5": 100, "6": 10})] * 2
                   + [game(2, {"4": 1000, "5": 10, "6": 100})] * 2}],
    }  # fmt: skip
    code, output = run(tmp_path, season)
    assert code == 0, output
    cut = output.split("\n\n")[1].splitlines()
    assert cut[1].startswith('tie at the cut,,,"Players 5, 6 have 10 points each')
    code, output = run(tmp_path, {**season, "playoffs": {"tiebreaks": [["6", "5"]]}})
    assert code == 0, output
    assert [line.split(",")[2] for line in output.split("\n\n")[1].splitlines()[1:]] == [
        "1", "4", "2", "6"
    ]  # fmt: skip
    none = {**season, "settings": {"playoff_small_league": "none"}}
    code, output = run(tmp_path, none)
    assert code == 0 and "\n\n" not in output


def absent_twice(settings: dict[str, object]) -> dict[str, object]:
    """SEASON's week 1, then player 2 misses weeks 2 and 3 (groups as played)."""
    groups = [["1", "4", "2"], ["5", "3", "6"]]
    week = {
        "groups": groups,
        "games": [game(1, {"1": 1000, "4": 100, "2": None})] * 4
        + [game(2, {"5": 1000, "3": 100, "6": 10})] * 4,
    }
    return {**SEASON, "settings": settings, "weeks": [SEASON["weeks"][0], week, week]}


def test_whether_a_credited_night_counts_in_a_later_average_is_a_setting(
    tmp_path: Path,
) -> None:
    """FWPL 2.4, "50% of their average scores up to that date", with two credits a season:
    player 2 scored 16 in week 1; week 2 earns 16 / 2 = 8. Week 3: by default the average is
    still of the nights played (16, credit 8); with ``with_credits`` week 2's credit counts as a
    night of 8 points, (16 + 8) / 2 = 12, credit 6."""
    rows = {}
    for average in ("played_nights", "with_credits"):
        season = absent_twice({"absence_credits": 2, "absence_average": average})
        code, output = run(tmp_path, season)
        assert code == 0, output
        table = output.split("\n\n")[0]
        rows[average] = {r["player"]: r for r in csv.DictReader(io.StringIO(table))}["2"]
    assert (rows["played_nights"]["credit"], rows["played_nights"]["points"]) == ("16", "32")
    assert (rows["with_credits"]["credit"], rows["with_credits"]["points"]) == ("14", "30")
    code, output = run(tmp_path, absent_twice({"absence_average": "sometimes"}))
    assert code == 1 and "absence_average" in output


def test_the_lo_waives_a_late_joiners_missed_night_forfeits(tmp_path: Path) -> None:
    """FWPL 2.4: "It is left to the LO's discretion to determine if these forfeits are
    'countable forfeits'": player 7 joins in week 2; week 1's 4 games are forfeits, countable
    unless the file says ``missed_countable: false``."""
    week2 = {
        "groups": [["1", "4", "2"], ["5", "3", "6", "7"]],
        "games": [game(1, {"1": 1000, "4": 100, "2": 10})] * 4
        + [game(2, {"5": 1000, "3": 100, "6": 10, "7": 50})] * 4,
    }
    forfeits = {}
    for countable in (True, False):
        joiner = {"number": "7", "name": "Player 7", "joined_week": 2,
                  "missed_countable": countable}  # fmt: skip
        season = {"players": [*SEASON["players"], joiner],
                  "weeks": [SEASON["weeks"][0], week2]}  # fmt: skip
        code, output = run(tmp_path, season)
        assert code == 0, output
        table = output.split("\n\n")[0]
        forfeits[countable] = {r["player"]: r for r in csv.DictReader(io.StringIO(table))}["7"]
    assert forfeits[True]["forfeits"] == "4" and forfeits[False]["forfeits"] == "0"
    bad = {"players": [{"number": "1", "name": "A", "missed_countable": "no"}], "weeks": []}
    code, output = run(tmp_path, bad)
    assert code == 1 and "missed_countable must be true or false" in output
