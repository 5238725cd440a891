"""Builders for the Country Competition live tests (no tests here).

Matches are built from the points a team should take, worked by hand from the places (EPC 2009,
EPC Country Competition: "1st 9 points, 2nd 5 points, 3rd 2 points and 4th zero points"). A team's
two players finishing 1st and 2nd on a machine score 9+5 = 14; the other team then has 3rd and 4th,
2+0 = 2. So a machine gives the two teams 16 between them and a match 32:

    places of a team's two players -> its points on that machine
    (1, 2) 14   (1, 3) 11   (1, 4) 9   (2, 3) 7   (2, 4) 5   (3, 4) 2

A match total is two of those: 28 = 14+14 (the most, "a maximum of 84 points" over three matches),
23 = 14+9, 21 = 14+7, 19 = 14+5, 18 = 9+9, 16 = 14+2, 14 = 9+5, 13 = 11+2, 11 = 9+2, 9 = 7+2,
4 = 2+2; the opponents take 32 minus it.
"""

from __future__ import annotations

from typing import Any

from display.competitions.epc_country.kind import KIND

SCORE = {1: 40_000, 2: 30_000, 3: 20_000, 4: 10_000}
MACHINE_POINTS = {(1, 2): 14, (1, 3): 11, (1, 4): 9, (2, 3): 7, (2, 4): 5, (3, 4): 2}
PLACES = {points: places for places, points in MACHINE_POINTS.items()}
SPLIT = {
    28: (14, 14),
    23: (14, 9),
    21: (14, 7),
    19: (14, 5),
    18: (9, 9),
    16: (14, 2),
    14: (9, 5),
    13: (11, 2),
    11: (9, 2),
    9: (7, 2),
    4: (2, 2),
}
TEAMS = tuple(f"T{i:02}" for i in range(1, 21))
MATCH_MACHINES = ("m1", "m2", "m3")
FOUR_BALL_MACHINES = ("4b1", "4b2")


def players(team: str) -> list[str]:
    return [f"{team} P{n}" for n in range(1, 5)]


def team_body(team: str, seed: int | None) -> dict[str, Any]:
    body: dict[str, Any] = {"id": team, "name": f"Team {team[1:]}", "players": players(team)}
    if seed is not None:
        body["seed"] = seed
    return body


def machines_body() -> dict[str, Any]:
    match = [{"id": m, "name": f"Match machine {m[1:]}"} for m in MATCH_MACHINES]
    four = [{"id": m, "name": f"4-ball {m[2:]}", "four_ball": True} for m in FOUR_BALL_MACHINES]
    return {"machines": [*match, *four]}


def game(machine: str, team: str, other: str, points: int, second: bool) -> dict[str, Any]:
    """One machine where ``team``'s players take the places worth ``points`` (players 1-2 on the
    first machine of a match, 3-4 on the second)."""
    mine = PLACES[points]
    rest = [p for p in SCORE if p not in mine]
    pick = slice(2, 4) if second else slice(0, 2)
    scores = [
        {"team": team, "player": name, "score": SCORE[place]}
        for name, place in zip(players(team)[pick], mine, strict=True)
    ]
    scores += [
        {"team": other, "player": name, "score": SCORE[place]}
        for name, place in zip(players(other)[pick], rest, strict=True)
    ]
    return {"machine": machine, "scores": scores}


def games_body(fixture: str, team: str, other: str, points: int) -> dict[str, Any]:
    """Both machines of a match in which ``team`` takes ``points`` (a key of SPLIT)."""
    first, second = SPLIT[points]
    return {
        "fixture": fixture,
        "games": [
            game(MATCH_MACHINES[0], team, other, first, second=False),
            game(MATCH_MACHINES[1], team, other, second, second=True),
        ],
    }


def pair_fixture(fixtures: dict[str, Any], a: str, b: str, stage: str) -> str:
    """The id of the ``stage`` match between ``a`` and ``b`` in a ``country/fixtures`` view."""
    return next(
        fid
        for fid, f in fixtures.items()
        if f["stage"] == stage and {f["home"], f["away"]} == {a, b}
    )


GROUP_A = {"A-1-1": ("T01", "T16"), "A-1-2": ("T06", "T11"), "A-2-1": ("T01", "T11")}
"""Group A's first fixtures (the circle method, top seeds last: scoring test of the fixtures)."""


def four_ball_scores(**override: int) -> dict[str, int]:
    """4-ball scores 2000, 1900, ... 100 for T01..T20: T01 1st (17 points) ... T13 13th (1 point),
    T14-T20 14th-20th (0 points); keyword arguments override a team's score."""
    return {t: override.get(t, 2100 - 100 * i) for i, t in enumerate(TEAMS, start=1)}


class Comp:
    """The kind driven directly (no server): ``add`` applies a record as the API would."""

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        record = {"type": "tournament_created", "format": "epc-country", "settings": settings or {}}
        self.state = KIND.create(record)
        self.seq = 1

    def add(self, kind: str, **fields: Any) -> set[str]:
        record = {"type": kind, "by": "td:Tess", "at": "2009-07-24T18:00:00Z", **fields}
        self.state, touched = KIND.apply(self.state, self.seq + 1, record)
        self.seq += 1
        return touched

    def view(self, name: str) -> Any:
        return KIND.view(self.state, {"id": "cc", "name": "Country"}, name)

    def draw(self) -> None:
        """Machines and the 20 seeded teams, T01 seed 1 ... T20 seed 20."""
        for m in machines_body()["machines"]:
            self.add("machine_added", machine=m)
        for seed, team in enumerate(TEAMS, start=1):
            self.add("team_added", team=team_body(team, seed), reserve=False)

    def match(self, team: str, other: str, points: int, stage: str = "qualifying") -> int:
        """Both machines of the ``team`` v ``other`` match; returns the seq of the second game."""
        fid = pair_fixture(self.view("country/fixtures"), team, other, stage)
        for g in games_body(fid, team, other, points)["games"]:
            self.add("match_game_recorded", fixture=fid, **g)
        return self.seq

    def four_ball(self, scores: dict[str, int]) -> None:
        for n, (team, score) in enumerate(scores.items()):
            machine = FOUR_BALL_MACHINES[n % 2]
            self.add("four_ball_recorded", team=team, machine=machine, score=score)

    def group_stage(self, results: dict[tuple[str, str], int]) -> None:
        """Every group match: ``results[(a, b)]`` points to ``a``, 16-16 when not given."""
        for f in self.view("country/fixtures").values():
            if f["stage"] != "qualifying" or f["status"] != "to_play":
                continue
            home, away = f["home"], f["away"]
            if (away, home) in results:
                self.match(away, home, results[(away, home)])
            else:
                self.match(home, away, results.get((home, away), 16))


T03_MAXIMUM = {("T03", "T08"): 28, ("T03", "T13"): 28, ("T03", "T18"): 28}
"""T03 wins its three group matches 28-4: the maximum 84 (EPC 2009, EPC Country Competition)."""


def rows(comp: Comp, view: str = "country/groups") -> dict[str, Any]:
    return comp.view(view)["rows"]  # type: ignore[no-any-return]


def drawn() -> Comp:
    """Machines and the 20 seeded teams registered: the draw is made."""
    comp = Comp()
    comp.draw()
    return comp


# --- Over HTTP (API and browser tests) ------------------------------------------------------------


async def country_over_http(api: Any, tid: str, settings: dict[str, Any] | None = None) -> None:
    """A Country Competition ``tid`` with the machines and the 20 seeded teams, through the API."""
    body = {"id": tid, "name": "Country 2009", "format": "epc-country", "settings": settings or {}}
    (await api.post("/api/tournaments", body)).raise_for_status()
    (await api.post(f"/api/t/{tid}/country/machines", machines_body())).raise_for_status()
    teams = [team_body(t, seed) for seed, t in enumerate(TEAMS, start=1)]
    (await api.post(f"/api/t/{tid}/country/teams", {"teams": teams})).raise_for_status()


async def match_over_http(
    api: Any, tid: str, team: str, other: str, points: int, stage: str
) -> int:
    """``team`` takes ``points`` from ``other`` in their ``stage`` match; returns the version."""
    views = (await api.views(tid))["views"]
    fid = pair_fixture(views["country/fixtures"], team, other, stage)
    r = await api.post(f"/api/t/{tid}/country/games", games_body(fid, team, other, points))
    r.raise_for_status()
    return int(r.json()["version"])


async def stage_over_http(
    api: Any, tid: str, results: dict[tuple[str, str], int], stage: str = "qualifying"
) -> None:
    """Every match of ``stage`` still to play: ``results[(a, b)]`` to ``a``, else 16-16."""
    views = (await api.views(tid))["views"]
    for fid, f in views["country/fixtures"].items():
        if f["stage"] != stage or f["status"] != "to_play":
            continue
        home, away = f["home"], f["away"]
        team, other = (away, home) if (away, home) in results else (home, away)
        body = games_body(fid, team, other, results.get((team, other), 16))
        (await api.post(f"/api/t/{tid}/country/games", body)).raise_for_status()


async def four_ball_over_http(api: Any, tid: str, scores: dict[str, int]) -> None:
    for n, (team, score) in enumerate(scores.items()):
        body = {"team": team, "machine": FOUR_BALL_MACHINES[n % 2], "score": score}
        (await api.post(f"/api/t/{tid}/country/four-ball", body)).raise_for_status()
