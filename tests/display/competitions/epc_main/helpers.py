"""Building EPC main tournaments through the HTTP API for the tests (no rules decided here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.utils import Api

EPC_MAIN = "epc-main"


async def td(api: Api, tid: str, path: str, body: Any, **kw: Any) -> Any:
    """POST a TD stage action; returns the httpx response."""
    return await api.post(f"/api/t/{tid}/epc/{path}", body, **kw)


async def ok(api: Api, tid: str, path: str, body: Any) -> dict[str, Any]:
    r = await td(api, tid, path, body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


async def qualified(
    api: Api, tid: str, players: int, settings: dict[str, Any], machines: int = 3
) -> None:
    """An "epc-main" with players 1..n whose qualifying places are their numbers: player n scores
    (1000 - n) x 1000 on machine 1 only, so every total differs (PAPA points 100, 90, 85, 84…)."""
    await api.tournament(tid, EPC_MAIN, players=players, machines=machines, settings=settings)
    for n in range(1, players + 1):
        r = await api.score(tid, n, 1, (1000 - n) * 1000)
        assert r.status_code == 201, r.text


async def views(api: Api, tid: str) -> dict[str, Any]:
    return (await api.views(tid))["views"]  # type: ignore[no-any-return]


async def register_all(api: Api, tid: str, rnd: int, players: list[int]) -> None:
    for p in players:
        await ok(api, tid, "registrations", {"player": str(p), "round": rnd})


async def play_quarterfinal(
    api: Api, tid: str, group: str, games: Callable[[str, str], tuple[int, int]]
) -> None:
    """Both games of every player of ``group`` on each of their pair's machines, taking turns:
    ``games(player, machine)`` -> (first game, second game)."""
    doc = (await views(api, tid))["quarterfinal"]
    for pair in doc["pairs"].values():
        if pair["group"] != group:
            continue
        players = [doc["seeds"][str(s)].get("player") for s in pair["seeds"]]
        for machine in pair["machines"]:
            for game in (0, 1):
                for player in players if game == 0 else players[::-1]:
                    if player is None:
                        continue
                    r = await api.score(tid, player, machine, games(player, machine)[game])
                    assert r.status_code == 201, r.text


async def play_game(api: Api, tid: str, view: str, key: str, scores: dict[str, int]) -> None:
    """One score for each player of four-player game ``key`` of ``view``, on its machine."""
    game = (await views(api, tid))[view]["games"][key]
    machine = game.get("machine", "1")
    assert set(game["players"]) == set(scores)
    for player, score in scores.items():
        r = await api.score(tid, player, machine, score)
        assert r.status_code == 201, r.text


def choice_order(game: dict[str, Any]) -> list[str]:
    return [p for p, _ in sorted(game["players"].items(), key=lambda kv: kv[1]["choice"])]


def places(rows: dict[str, Any]) -> dict[str, int | None]:
    return {p: row.get("place") for p, row in rows.items()}
