"""The EPC Country Competition's part of ``backglass demo epc-weekend``, through its HTTP API
(``/api/t/{t}/country/…``, see ``display/competitions/epc_country/kind.py``): 20 seeded teams of four and two
reserves, every group match on two machines, every team's 4-ball game, the play-offs the tables
ask for, the six-team final and its play-offs (EPC 2009, EPC Country Competition)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict

from display.competitions.machines.demo import FIRST_NAMES, MACHINES, game_score
from display.types import Doc

if TYPE_CHECKING:  # the weekend (epc_main) runs this part and imports it
    from display.competitions.epc_main.demo import Weekend

COUNTRIES = (
    "UK A", "Netherlands 1", "Sweden 1", "Germany 1", "Belgium 1", "Finland 1", "Italy 1",
    "France 1", "UK B", "Netherlands 2", "Sweden 2", "Germany 2", "Belgium 2", "Norway 1",
    "Denmark 1", "Spain 1", "Switzerland 1", "Austria 1", "Ireland 1", "Czechia 1",
)  # fmt: skip
RESERVES = ("Belgium 3", "UK C")
FOUR_BALL = ({"id": "4b1", "name": "Twilight Zone (4-ball)", "four_ball": True},
             {"id": "4b2", "name": "Twilight Zone II (4-ball)", "four_ball": True})  # fmt: skip


class TeamBody(TypedDict):
    """A team as ``POST /api/t/{t}/country/teams`` takes it; a reserve team has no ``seed``."""

    id: str
    name: str
    players: list[str]
    seed: NotRequired[int]


async def run_country(weekend: Weekend, prefix: str) -> str:
    """The whole Country Competition; returns its tournament id."""
    client, rng = weekend.client, weekend.rng
    tid = await weekend.create(f"{prefix}-country", "EPC Country Competition", "epc-country", {})
    path = f"/api/t/{tid}/country"
    kit = [{"id": f"t-{m.id}", "name": m.name} for m in MACHINES[:14]]
    await client.must("POST", f"{path}/machines", {"machines": [*kit, *FOUR_BALL]})
    teams: list[TeamBody] = []
    for seed, name in enumerate((*COUNTRIES, *RESERVES), start=1):
        players = [f"{FIRST_NAMES[(seed * 4 + i) % len(FIRST_NAMES)]} {name.split()[0][:3]}{i}"
                   for i in range(4)]  # fmt: skip
        team: TeamBody = {"id": f"T{seed}", "name": name, "players": players}
        if seed <= len(COUNTRIES):  # the reserves come last, without a seed
            team["seed"] = seed
        teams.append(team)
    await client.must("POST", f"{path}/teams", {"teams": teams})
    weekend.echo(f"Country Competition {tid!r}: 20 teams in five groups.")
    await play_fixtures(weekend, tid, "qualifying", [m["id"] for m in kit])
    for team in teams[: len(COUNTRIES)]:
        machine = FOUR_BALL[rng.randrange(2)]["id"]
        score = rng.randrange(200_000, 3_000_000, 10)
        body = {"team": team["id"], "machine": machine, "score": score}
        await client.must("POST", f"{path}/four-ball", body)
    await settle_playoffs(weekend, tid)
    await client.must("POST", f"{path}/stage", {"stage": "final"})
    await play_fixtures(weekend, tid, "final", [m["id"] for m in kit])
    await settle_playoffs(weekend, tid)
    await client.must("POST", f"{path}/stage", {"stage": "complete"})
    views = await client.views(tid)
    rows = views["country/final"]["rows"]
    winner = min(rows, key=lambda t: rows[t].get("place") or 99)
    weekend.result.winners["country"] = winner
    weekend.echo(f"Country Competition winner: {views['teams'][winner]['name']}")
    return tid


async def play_fixtures(weekend: Weekend, tid: str, stage: str, machines: list[str]) -> None:
    """Both machines of every match of ``stage``: two players of each team on each."""
    client, rng = weekend.client, weekend.rng
    views = await client.views(tid)
    teams = views["teams"]
    demo = {f"t-{m.id}": m for m in MACHINES}
    fixtures = sorted(views["country/fixtures"].items(), key=lambda kv: kv[1]["order"])
    for fid, fixture in fixtures:
        if fixture["stage"] != stage or fixture["status"] != "to_play":
            continue
        pair = rng.sample(machines, 2)
        games = []
        for n, machine in enumerate(pair):
            scores = []
            for side in (fixture["home"], fixture["away"]):
                for player in teams[side]["players"][2 * n : 2 * n + 2]:
                    score = game_score(demo[machine], rng.gauss(0, 1), rng)
                    scores.append({"team": side, "player": player, "score": score})
            games.append({"machine": machine, "scores": scores})
        await client.must("POST", f"/api/t/{tid}/country/games", {"fixture": fid, "games": games})


async def settle_playoffs(weekend: Weekend, tid: str) -> None:
    """Play every play-off the tables ask for (a 4-ball game per tied team)."""
    client, rng = weekend.client, weekend.rng
    for _ in range(10):
        pending: Doc = (await client.views(tid))["country/playoffs"].get("pending", {})
        if not pending:
            return
        for tie in pending.values():
            values = rng.sample(range(100_000, 3_000_000, 10), len(tie["teams"]))
            scores = [{"team": t, "score": s} for t, s in zip(tie["teams"], values, strict=True)]
            body = {"scores": scores, "machine": FOUR_BALL[0]["id"], "stage": tie["stage"]}
            await client.must("POST", f"/api/t/{tid}/country/playoffs", body)
