"""``backglass standings --format ukpl-season``: a UKPL season table from published meeting results
(display/cli/offline.py, scoring/ukpl/season.py), through click's runner."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from display.cli.offline import standings
from tests.cases import UKPL as CASES

HEADER = "player,place,season_points,counted,results,final"

# A hand-made season of one region: M3 has only four region players (g is a guest, blank
# league_points), so it does not count (UKPL 1E).
SEASON_CSV = """meet,player,position,meet_total,league_points
M1,a,1,40,20
M1,b,2,35,19
M1,c,3,30,18
M1,d,4,25,17
M1,e,5,20,16
M1,g,,44,
M2,b,1,40,20
M2,a,2,35,19
M2,c,3,30,18
M2,e,4,25,17
M2,d,5,20,16
M3,c,1,30,20
M3,a,2,25,19
M3,d,3,20,18
M3,e,4,15,17
M3,g,,31,
"""


def season(*args: str) -> Result:
    return CliRunner().invoke(standings, ["--format", "ukpl-season", *args])


def rows(result: Result) -> list[str]:
    return result.stdout_bytes.decode().split("\r\n")[:-1]


def test_published_meeting_files_in_a_folder(tmp_path: Path) -> None:
    """The league's published format, read from a folder: meets 498 (2023) and 609 (2025) of London
    and South East, as if one season (a format test; they are different seasons). The score sheet
    in the folder is skipped. Meetings are named from the files and ordered 498, 609. By hand from
    the published CSVs (UKPL 3E: both results count, fewer than four):
    P0102 18 + 20 = 38; P0106 20 + 15 = 35; P0299 9.5 + 14 = 23.5; P0119 13 + 9 = 22;
    P0297 7 + 13 = 20; P0101 (609 only) and P0292 (498 only) 19 each: with 6 finals places they
    tie across the line for 6th-7th, no fifth result to compare (0 = 0): play-off (3F).
    Then P0132 2 + 16.5 = 18.5 (8th), P0417 18 (9th), P0121 0.33 (the published share of a tie
    for 20th) + 16.5 = 16.83 (10th)."""
    for name in ("meet-498-published.csv", "meet-609-published.csv", "meet-609-scores.csv"):
        shutil.copy(CASES / name, tmp_path / name)
    result = season("--results", str(tmp_path), "--set", "qualifiers=6")
    assert result.exit_code == 0, result.output
    lines = rows(result)
    assert lines[0] == f"{HEADER},498,609"
    assert lines[1:8] == [
        "P0102,1,38,20+18,2,qualified,18,20",
        "P0106,2,35,20+15,2,qualified,20,15",
        "P0299,3,23.5,14+9.5,2,qualified,9.5,14",
        "P0119,4,22,13+9,2,qualified,13,9",
        "P0297,5,20,13+7,2,qualified,7,13",
        "P0101,6,19,19,1,playoff,,19",
        "P0292,6,19,19,1,playoff,19,",
    ]
    assert lines[8:11] == [
        "P0132,8,18.5,16.5+2,2,,2,16.5",
        "P0417,9,18,18,1,,,18",
        "P0121,10,16.83,16.5+0.33,2,,0.33,16.5",
    ]
    players_498 = 34
    players_609 = 28
    both = len({line.split(",")[0] for line in lines[1:]})
    assert both < players_498 + players_609  # players at both meetings appear once
    assert result.stderr == ""


def test_one_file_with_a_meet_column(tmp_path: Path) -> None:
    """UKPL 1E: M3 has four region competitors (a, c, d, e; g is a guest): left out, with a note.
    UKPL 3E over M1 and M2: a 20 + 19 = 39, b 19 + 20 = 39, c 18 + 18 = 36, d 17 + 16 = 33,
    e 16 + 17 = 33. One finals place (1G): a and b tie across it, both have no third result to
    compare (3F countback on the 5th/6th best: 0 = 0), so a play-off; d and e tie below the line
    and share 4th. g played for fun at M1 (1C, 3C), listed apart."""
    path = tmp_path / "season.csv"
    path.write_text(SEASON_CSV, encoding="utf-8")
    result = season("--results", str(path), "--set", "qualifiers=1")
    assert result.exit_code == 0, result.output
    assert rows(result) == [
        f"{HEADER},M1,M2",
        "a,1,39,20+19,2,playoff,20,19",
        "b,1,39,20+19,2,playoff,19,20",
        "c,3,36,18+18,2,,18,18",
        "d,4,33,17+16,2,,17,16",
        "e,4,33,17+16,2,,16,17",
        "g,,,,1,for fun,fun,",
    ]
    assert result.stderr == (
        "Meeting M3 has 4 competitors from the region; a meeting counts with at least 5 "
        "(UKPL 1E). It is left out.\n"
    )


def test_settings_reach_the_season(tmp_path: Path) -> None:
    """UKPL 1E with min_competitors=4: M3 counts. a 20 + 19 + 19 = 58, c 18 + 18 + 20 = 56,
    d 17 + 16 + 18 = 51, e 16 + 17 + 17 = 50, b 39; three results each, all counted (3E). With
    counted=2 (3E's number as a setting): a 20 + 19 = 39, b 39, c 20 + 18 = 38."""
    path = tmp_path / "season.csv"
    path.write_text(SEASON_CSV, encoding="utf-8")
    result = season("--results", str(path), "--set", "min_competitors=4")
    assert result.exit_code == 0, result.output
    assert rows(result)[:3] == [
        f"{HEADER},M1,M2,M3",
        "a,1,58,20+19+19,3,,20,19,19",
        "c,2,56,20+18+18,3,,18,18,20",
    ]
    assert rows(result)[-1] == "g,,,,2,for fun,fun,,fun"
    two = season("--results", str(path), "--set", "min_competitors=4", "--set", "counted=2")
    assert rows(two)[1:4] == [
        "a,1,39,20+19,3,,20,19,19",
        "b,1,39,20+19,2,,19,20,",
        "c,3,38,20+18,3,,18,18,20",
    ]


def test_files_and_folders_combine(tmp_path: Path) -> None:
    """Several --results: a published file and a folder; the same meeting twice is refused."""
    folder = tmp_path / "more"
    folder.mkdir()
    shutil.copy(CASES / "meet-649-published.csv", folder / "meet-649-published.csv")
    first = str(CASES / "meet-609-published.csv")
    result = season("--results", first, "--results", str(folder))
    assert result.exit_code == 0, result.output
    assert rows(result)[0] == f"{HEADER},609,649"
    shutil.copy(CASES / "meet-609-published.csv", folder / "meet-609-published.csv")
    again = season("--results", first, "--results", str(folder))
    assert again.exit_code == 2
    assert (
        "Meeting 609 is in both meet-609-published.csv and meet-609-published.csv" in again.stderr
    )


@pytest.mark.parametrize(
    ("csv_text", "args", "message"),
    [
        (
            "player,position,meet_total,league_points\na,1,9,20\nb,2,8,abc\n",
            (),
            "season.csv line 3: league_points 'abc' is not a number like 16.5.",
        ),
        (
            "player,position,meet_total,league_points\na,1,9,25\n",
            (),
            "Player a has 25 league points at meeting season; league points run from 0 to 20.",
        ),
        (
            "player,position,meet_total,league_points\na,first,9,20\n",
            (),
            "season.csv line 2: position 'first' is not a whole number.",
        ),
        (
            "meet,player,league_points\n,a,20\n",
            (),
            "season.csv line 2: meet is empty.",
        ),
        (
            "player,position,meet_total\na,1,9\n",
            (),
            "line 1: expected columns player,league_points,meet,position,meet_total; "
            "missing league_points.",
        ),
        (
            "player,league_points\na,1\n",
            ("--set", "counted=7"),
            "Setting counted must be a whole number from 1 to 6, not '7'.",
        ),
        (
            "player,league_points\na,1\n",
            ("--set", "ties=low"),
            "UKPL season has no setting 'ties'",
        ),
    ],
)
def test_bad_input_names_the_file_and_line(
    tmp_path: Path, csv_text: str, args: tuple[str, ...], message: str
) -> None:
    """A typo in a results file gets a readable error and exit code 2, never a traceback."""
    path = tmp_path / "season.csv"
    path.write_text(csv_text, encoding="utf-8")
    result = season("--results", str(path), *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_each_format_reads_its_own_input(tmp_path: Path) -> None:
    """ukpl-season reads --results; the meeting formats read --scores (a usage error, exit 2)."""
    scores = str(CASES / "meet-609-scores.csv")
    wrong = season("--scores", scores)
    assert wrong.exit_code == 2
    assert "--format ukpl-season reads --results DIR_OR_CSV" in wrong.stderr
    meeting = CliRunner().invoke(standings, ["--format", "ukpl-meeting", "--results", scores])
    assert meeting.exit_code == 2
    assert "--format ukpl-meeting reads --scores FILE.csv" in meeting.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    none = season("--results", str(empty))
    assert none.exit_code == 2
    assert "no CSV files of meeting results found" in none.stderr


def test_help_documents_the_season_input() -> None:
    """The --help text is the documentation of the input and output columns."""
    result = CliRunner().invoke(standings, ["--help"])
    assert result.exit_code == 0
    for text in ("ukpl-season", "player,position,meet_total,", "meet column", HEADER, "playoff"):
        assert text in result.output
