"""``backglass standings``, the offline CSV command (display/cli/offline.py), through click's runner."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from display.cli.offline import standings
from tests.cases import UKPL as CASES


def run(tmp_path: Path, csv_text: str, *args: str) -> Result:
    scores = tmp_path / "scores.csv"
    scores.write_text(csv_text, encoding="utf-8")
    return CliRunner().invoke(standings, [*args, "--scores", str(scores)])


def rows(result: Result) -> list[str]:
    return result.stdout_bytes.decode().split("\r\n")[:-1]


def test_it_is_a_click_command_named_standings() -> None:
    """display/cli/__init__.py adds it to the ``backglass`` group with ``cli.add_command(standings)``."""
    assert isinstance(standings, click.Command)
    assert standings.name == "standings"


@pytest.mark.parametrize(("meet", "ties"), [("609", "high"), ("649", "high"), ("498", "low")])
def test_published_meetings(meet: str, ties: str) -> None:
    """UKPL 3B-3F: the output equals the league's published CSV, byte for byte per row (CRLF rows,
    league points as 20, 16.5, 0.33). Inside a tie the league lists rows in its database's order,
    which means nothing, so data rows are compared sorted."""
    scores = str(CASES / f"meet-{meet}-scores.csv")
    args = ["--format", "ukpl-meeting", "--scores", scores, "--set", f"ties={ties}"]
    result = CliRunner().invoke(standings, args)
    assert result.exit_code == 0, result.output
    published = (CASES / f"meet-{meet}-published.csv").read_bytes().decode().split("\r\n")[:-1]
    ours = rows(result)
    assert ours[0] == published[0] == "player,position,meet_total,league_points"
    assert sorted(ours[1:]) == sorted(published[1:])
    positions = [int(line.split(",")[1]) for line in ours[1:]]
    assert positions == sorted(positions)


def test_ukpl_guests_and_blank_cells(tmp_path: Path) -> None:
    """UKPL 1C/3C: the guest g is not listed and does not count on the machine (2 players: 2, 1);
    a blank cell is no entry, so b gets nothing on TAF and TAF has one competitor (1 point).
    Then positions 1, 2 and league points 20, 19 (UKPL 3D)."""
    result = run(
        tmp_path,
        "machine,player,score,guest\nTZ,g,900,1\nTZ,a,300,0\nTZ,b,200,0\nTAF,a,50,0\nTAF,b,,0\n",
        "--format",
        "ukpl-meeting",
    )
    assert result.exit_code == 0, result.output
    assert rows(result) == ["player,position,meet_total,league_points", "a,1,3,20", "b,2,1,19"]


def test_ukpl_tie_setting_and_shared_league_points(tmp_path: Path) -> None:
    """UKPL 3B and 3F: on TZ (3 competitors) a and b tie behind c. ties=low gives both the lower
    value, 1; ties=high the higher, 2. Either way c (3) is 1st and a and b tie for 2nd overall,
    sharing league points (19 + 18) / 2 = 18.5."""
    csv_text = "machine,player,score\nTZ,c,100\nTZ,a,60\nTZ,b,60\n"
    low = run(tmp_path, csv_text, "--format", "ukpl-meeting", "--set", "ties=low")
    assert low.exit_code == 0, low.output
    assert rows(low)[1:] == ["c,1,3,20", "a,2,1,18.5", "b,2,1,18.5"]
    high = run(tmp_path, csv_text, "--format", "ukpl-meeting", "--set", "ties=high")
    assert rows(high)[1:] == ["c,1,3,20", "a,2,2,18.5", "b,2,2,18.5"]


def test_epc_qualifying(tmp_path: Path) -> None:
    """EPC 2009, EPC Qualifying, PAPA scale 100, 90, 85: on MM, 1 (500), 2 (400), 3 (100); on AFM,
    3 (900) then 1 (800). 2's second MM game is the joker: 450 beats 400 but not 500, so 2 stays 2nd.
    Totals: 1: 100 + 90 = 190; 3: 85 + 100 = 185; 2: 90. With qualify=1 and standby=1: 1 qualified,
    3 standby, 2 out."""
    result = run(
        tmp_path,
        "machine,player,score\nMM,1,500\nMM,2,400\nMM,3,100\nAFM,3,900\nAFM,1,800\nMM,2,450\n",
        *("--format", "epc-qualifying", "--set", "qualify=1", "--set", "standby=1"),
    )
    assert result.exit_code == 0, result.output
    assert rows(result) == [
        "player,position,total_points,band",
        "1,1,190,qualified",
        "3,2,185,standby",
        "2,3,90,out",
    ]


@pytest.mark.parametrize(
    ("csv_text", "args", "message"),
    [
        (
            "machine,player,score\nTZ,a,1\nTZ,b,abc\n",
            ("--format", "ukpl-meeting"),
            "line 3: score 'abc' is not a whole number",
        ),
        (
            "machine,player,score\nTZ,a,-5\n",
            ("--format", "ukpl-meeting"),
            "line 2: score '-5' is not a whole number",
        ),
        (
            "machine,player,score\nTZ,a,99999999999999999999\n",
            ("--format", "ukpl-meeting"),
            "line 2: Score 99999999999999999999 is too large",
        ),
        (
            "machine,player,score\nTZ,a,1\nTAF,a,2\nTZ,a,3\n",
            ("--format", "ukpl-meeting"),
            "line 4: Player a already has a score on TZ",
        ),
        (
            "machine,player,score\nA,7,1\nB,7,1\nB,7,2\nA,7,3\n",
            ("--format", "epc-qualifying"),
            "line 5: Player 7 has already played A and used their joker game on B.",
        ),
        (
            "machine,player,score,guest\nTZ,a,1,0\nTAF,a,1,1\n",
            ("--format", "ukpl-meeting"),
            "line 3: player a has guest=1 here but guest=0 on line 2.",
        ),
        (
            "machine,player,score,guest\nTZ,a,1,maybe\n",
            ("--format", "ukpl-meeting"),
            "line 2: guest 'maybe' is not 0 or 1.",
        ),
        ("machine,player,score\n,a,1\n", ("--format", "ukpl-meeting"), "line 2: machine is empty"),
        ("machine,score\nTZ,1\n", ("--format", "ukpl-meeting"), "line 1: expected columns"),
        (
            "machine,player,score\nTZ,a,1\n",
            ("--format", "ukpl-meeting", "--set", "ties"),
            "--set 'ties': expected KEY=VALUE",
        ),
        (
            "machine,player,score\nTZ,a,1\n",
            ("--format", "ukpl-meeting", "--set", "ties=average"),
            "Setting ties must be one of high, low, shared, not 'average'.",
        ),
        (
            "machine,player,score\nTZ,a,1\n",
            ("--format", "epc-qualifying", "--set", "scale=wppr"),
            "Unknown points scale 'wppr'",
        ),
    ],
)
def test_bad_input_names_the_line_and_exits_2(
    tmp_path: Path, csv_text: str, args: tuple[str, ...], message: str
) -> None:
    """A steward's typo gets a readable line-numbered error and exit code 2, never a traceback."""
    result = run(tmp_path, csv_text, *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_unknown_format_is_a_usage_error(tmp_path: Path) -> None:
    """Only registered formats are accepted."""
    result = run(tmp_path, "machine,player,score\n", "--format", "pingolf")
    assert result.exit_code == 2
    assert "pingolf" in result.stderr
