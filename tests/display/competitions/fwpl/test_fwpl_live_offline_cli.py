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
    table, groups = output.split("\n\n")
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


def test_absences_next_week_and_errors_a_steward_can_read(tmp_path: Path) -> None:
    code, output = run(tmp_path, SEASON, "--groups", "--absent", "2,3,6")
    assert code == 0 and output.strip().splitlines()[-1] == "group 1,1,5,4"
    bad = json.loads(json.dumps(SEASON))
    bad["weeks"][0]["games"][0]["scores"]["9"] = 5
    code, output = run(tmp_path, bad)
    assert code == 1 and "Player 9" in output
    code, output = run(tmp_path, {"players": "nope"})
    assert code == 1 and "is not a season file" in output
    code, output = run(tmp_path, {**SEASON, "settings": {"match_bonus": "huge"}})
    assert code == 1 and "match_bonus" in output
