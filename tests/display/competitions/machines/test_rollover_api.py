"""Score roll-over through the API as a TD and a steward would (``scoring.rollover``): a machine
declares the digits its display shows, a score is entered as displayed with its roll-overs, the
true score counts and the record keeps both; a machine without digits refuses the flag; a log
replay equals the live state."""

from __future__ import annotations

from pathlib import Path

from tests.display.cli.test_replay import same_as_the_server
from tests.display.competitions.machines.test_corrections_api import log
from tests.utils import Api


async def test_a_rolled_score_counts_as_the_true_score_and_keeps_both(
    api: Api, tmp_path: Path
) -> None:
    await api.tournament("ro1", "epc-qualifying", players=2)
    machines = [{"id": "afm", "name": "Attack from Mars", "digits": 8},
                {"id": "tz", "name": "Twilight Zone"}]  # fmt: skip
    assert (await api.post("/api/t/ro1/machines", {"machines": machines})).status_code == 201
    views = (await api.views("ro1"))["views"]
    assert views["machines"]["afm"]["digits"] == 8 and "digits" not in views["machines"]["tz"]
    steward = await api.sign_in_steward("ro1")
    body = {"player": "1", "machine": "afm", "score": 12_345_678, "rollovers": 1}
    answer = await api.post("/api/t/ro1/scores", body, token=steward)
    assert answer.status_code == 201, answer.text
    record = answer.json()["record"]
    assert (record["score"], record["displayed"], record["rollovers"]) == (
        112_345_678,
        12_345_678,
        1,
    )
    plain = {"player": "2", "machine": "afm", "score": 99_999_999}
    assert (await api.post("/api/t/ro1/scores", plain, token=steward)).status_code == 201
    rows = (await api.views("ro1"))["views"]["machine/afm"]["rows"]
    # EPC 2009 ranking points: 112,345,678 beats 99,999,999
    assert rows["1"]["score"] == 112_345_678 and rows["1"]["place"] == 1
    assert rows["2"]["place"] == 2
    stored = [r for r in await log(api, "ro1") if r["type"] == "score_recorded"]
    assert stored[0]["displayed"] == 12_345_678 and "rollovers" not in stored[1]
    await same_as_the_server(api, "ro1", tmp_path)


async def test_refusals_say_why_and_write_nothing(api: Api) -> None:
    await api.tournament("ro2", "epc-qualifying", players=2)
    machines = [{"id": "afm", "name": "Attack from Mars", "digits": 8},
                {"id": "tz", "name": "Twilight Zone"}]  # fmt: skip
    await api.post("/api/t/ro2/machines", {"machines": machines})
    before = (await api.views("ro2"))["version"]
    flag = {"player": "1", "machine": "tz", "score": 5_000, "rollovers": 1}
    answer = await api.post("/api/t/ro2/scores", flag)
    assert answer.status_code == 409
    assert answer.json()["error"] == "rollover_not_declared"
    assert answer.json()["message"] == (
        "Twilight Zone does not declare how many digits its display shows, so a roll-over "
        "cannot be entered; enter the score as it is, or ask the TD."
    )
    wide = {"player": "1", "machine": "afm", "score": 123_456_789, "rollovers": 1}
    answer = await api.post("/api/t/ro2/scores", wide)
    assert answer.status_code == 422
    assert "display shows 8 digits; 123,456,789 has more" in answer.json()["message"]
    for bad in (-1, 100, 1.5, "one"):
        odd = {"player": "1", "machine": "afm", "score": 5, "rollovers": bad}
        assert (await api.post("/api/t/ro2/scores", odd)).status_code == 422, bad
    unknown = {"player": "1", "machine": "nope", "score": 5, "rollovers": 1}
    assert (await api.post("/api/t/ro2/scores", unknown)).status_code == 404
    bad_digits = {"id": "x", "name": "X", "digits": 0}
    assert (await api.post("/api/t/ro2/machines", bad_digits)).status_code == 422
    assert (await api.views("ro2"))["version"] == before
    # the FWPL's machines declare no digits: the flag is refused there too
    body = {"id": "fl", "name": "League", "format": "fwpl-league", "settings": {}}
    await api.post("/api/tournaments", body)
    await api.post("/api/t/fl/machines", {"id": "m1", "name": "Machine 1"})
    league = {"player": "1", "machine": "m1", "score": 5, "rollovers": 1}
    assert (await api.post("/api/t/fl/scores", league)).status_code == 409
