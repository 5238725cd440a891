"""A player's place and points over time (``GET /api/t/{t}/progress``), from the log: a point for
each record that moved their standings row, caught up incrementally as records come."""

from __future__ import annotations

from tests.utils import Api

EPC = "epc-qualifying"


async def progress(api: Api, tid: str, player: str) -> list[dict[str, object]]:
    r = await api.http.get(f"/api/t/{tid}/progress", params={"player": player})
    assert r.status_code == 200, r.text
    points: list[dict[str, object]] = r.json()["points"]
    return points


async def test_points_follow_the_players_place_and_total(api: Api) -> None:
    """PAPA scale 100, 90, 85 …: Player 2 leads with 100, Player 1 then beats them on machine 1
    (1: 100, 2: 90) and Player 2 wins machine 2 (2: 190)."""
    await api.tournament("pg1", EPC, players=3, machines=2)
    await api.score("pg1", 2, 1, 1000)
    first = await progress(api, "pg1", "2")
    assert [(p.get("place"), p["total"]) for p in first][-1] == (1, 100)
    await api.score("pg1", 1, 1, 2000)
    await api.score("pg1", 2, 2, 500)
    two = await progress(api, "pg1", "2")
    assert [(p.get("place"), p["total"]) for p in two][-3:] == [(1, 100), (2, 90), (1, 190)]
    assert all(isinstance(p["seq"], int) and isinstance(p["at"], str) for p in two)
    assert [p["seq"] for p in two] == sorted(p["seq"] for p in two)
    one = await progress(api, "pg1", "1")
    assert [(p.get("place"), p["total"]) for p in one][-2:] == [(1, 100), (2, 100)]

    # a void moves them back, and that is a point too
    r = await api.http.get("/api/t/pg1/log")
    seq = next(x["seq"] for x in r.json()["records"] if x.get("score") == 500)
    headers = {**api.headers(), "If-Match": f'"{seq}"'}
    r = await api.http.post(
        f"/api/t/pg1/scores/{seq}/void", json={"reason": "typo"}, headers=headers
    )
    assert r.status_code == 201, r.text
    assert [(p.get("place"), p["total"]) for p in await progress(api, "pg1", "2")][-1] == (2, 90)


async def test_an_unknown_player_is_a_404(api: Api) -> None:
    await api.tournament("pg2", EPC, players=1, machines=1)
    r = await api.http.get("/api/t/pg2/progress", params={"player": "9"})
    assert r.status_code == 404 and r.json()["error"] == "unknown_player"
