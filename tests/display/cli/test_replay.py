"""``backglass replay LOG.jsonl`` (display/cli/replay.py): a tournament run through the API on a
real server, its log exported as the desk exports it, and the command's views compared with the
server's own (``GET /api/t/{id}/views``, ``…/export/results.csv``) for several formats."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import orjson
from click.testing import CliRunner, Result

from display.cli.main import cli
from tests.display.competitions.epc_country.test_epc_country_live_builders import (
    country_over_http,
    match_over_http,
)
from tests.display.competitions.fwpl.test_fwpl_live import league, play, start
from tests.display.competitions.machines.test_corrections_api import correct, log
from tests.display.http.test_exports import epc_field
from tests.utils import Api


async def exported(api: Api, tid: str, tmp_path: Path) -> Path:
    """The desk's log export of ``tid``, saved as the browser saves it (``{tid}.log.jsonl``)."""
    r = await api.http.get(f"/api/t/{tid}/export/log.jsonl")
    assert r.status_code == 200, r.text
    path = tmp_path / f"{tid}.log.jsonl"
    path.write_bytes(r.content)
    return path


def replay(path: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["replay", str(path), *args])


async def same_as_the_server(api: Api, tid: str, tmp_path: Path) -> dict[str, Any]:
    """Replay the export of ``tid`` and check it equals the server's views; return them."""
    path = await exported(api, tid, tmp_path)
    result = replay(path)
    assert result.exit_code == 0, result.output
    served = await api.views(tid)
    assert orjson.loads(result.stdout_bytes) == served
    return served


async def test_epc_qualifying_views_and_results_csv_equal_the_servers(
    api: Api, tmp_path: Path
) -> None:
    await epc_field(api, "rp1")
    # a correction, so the replay must follow which record corrects which
    records = await log(api, "rp1")
    ann = next(r["seq"] for r in records if r["type"] == "score_recorded")
    assert (await correct(api, "rp1", ann, score=6_000, reason="misread")).status_code == 201
    served = await same_as_the_server(api, "rp1", tmp_path)
    assert served["views"]["standings"]["rows"]["2"]["place"] == 1
    path = tmp_path / "rp1.log.jsonl"
    result = replay(path, "--format", "csv")
    assert result.exit_code == 0, result.output
    served_csv = (await api.http.get("/api/t/rp1/export/results.csv")).content
    assert result.stdout_bytes == served_csv
    one = replay(path, "--view", "standings")
    assert orjson.loads(one.stdout_bytes) == served["views"]["standings"]
    table = list(csv.DictReader(io.StringIO(replay(path, "--view", "standings", "--format",
                                                   "csv").stdout)))  # fmt: skip
    # Ann's 9,000 corrected to 6,000: Bo and Cy share machine 1's top score (100 each, EPC
    # 2009 equal scores), Ann third (85); Bo 200 first, Cy 100, Ann 85
    assert [(r["standings"], r["place"], r["total"]) for r in table][:3] == [
        ("2", "1", "200"),
        ("3", "2", "100"),
        ("4", "3", "90"),
    ]


async def test_an_fwpl_night_equals_the_servers(api: Api, tmp_path: Path) -> None:
    await league(api, "rp2", 6, machines=4)
    await start(api, "rp2", 1)
    for _ in range(4):
        await play(api, "rp2", 1, 1, {"1": 1000, "2": 100, "3": 10})
        await play(api, "rp2", 1, 2, {"4": 500, "5": 100, "6": None})
    assert (await api.post("/api/t/rp2/league/close", {"week": 1})).status_code == 201
    served = await same_as_the_server(api, "rp2", tmp_path)
    assert served["views"]["season"]["rows"]["1"]["points"] == 33
    season = replay(tmp_path / "rp2.log.jsonl", "--view", "season", "--format", "csv")
    rows = {r["season"]: r for r in csv.DictReader(io.StringIO(season.stdout))}
    assert rows["1"]["points"] == "33" and rows["6"]["forfeits"] == "4"


async def test_a_country_competition_and_a_ukpl_meeting_equal_the_servers(
    api: Api, tmp_path: Path
) -> None:
    await country_over_http(api, "rp3")
    views = (await api.views("rp3"))["views"]
    first = next(iter(views["country/fixtures"].values()))
    await match_over_http(api, "rp3", first["home"], first["away"], 21, "qualifying")
    await same_as_the_server(api, "rp3", tmp_path)
    await api.tournament("rp4", "ukpl-meeting", players=4, machines=2, guests={4})
    for player, machine, score in ((1, 1, 900), (2, 1, 500), (3, 1, 700), (4, 1, 800),
                                   (1, 2, 10), (2, 2, 30), (3, 2, 20), (4, 2, 40)):  # fmt: skip
        assert (await api.score("rp4", player, machine, score)).status_code == 201
    served = await same_as_the_server(api, "rp4", tmp_path)
    assert served["views"]["tournament"]["id"] == "rp4"


async def test_a_refused_line_stops_with_its_number_and_a_broken_chain_warns(
    api: Api, tmp_path: Path
) -> None:
    await epc_field(api, "rp5")
    path = await exported(api, "rp5", tmp_path)
    lines = path.read_bytes().splitlines()
    # a score for a player nobody registered: the rules refuse the line
    extra = orjson.loads(lines[-1]) | {"seq": len(lines) + 1, "player": "99"}
    extra.pop("h", None)
    bad = tmp_path / "bad.log.jsonl"
    bad.write_bytes(b"\n".join([*lines, orjson.dumps(extra)]) + b"\n")
    result = replay(bad)
    assert result.exit_code == 2
    assert f"Line {len(lines) + 1} was refused" in result.output
    assert result.stdout == ""
    # a record altered after the export: the views are computed, and stderr says where the
    # chain fails
    altered = orjson.loads(lines[-1])
    altered["score"] = 3_500
    changed = tmp_path / "changed.log.jsonl"
    changed.write_bytes(b"\n".join([*lines[:-1], orjson.dumps(altered)]) + b"\n")
    result = replay(changed, "--view", "machine/2")
    assert result.exit_code == 0, result.output
    assert orjson.loads(result.stdout_bytes)["rows"]["4"]["score"] == 3_500
    assert f"fails its hash chain at seq {len(lines)}" in result.stderr
    unknown = replay(path, "--view", "nope")
    assert unknown.exit_code == 2 and "has no view 'nope'" in unknown.output
    assert "standings" in unknown.output
