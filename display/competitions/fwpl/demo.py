"""``backglass demo fwpl``: a whole Flip Well league season pushed through the HTTP API.

Made-up members (most with an IFPA rank, a few unranked) play weekly nights on real machine titles:
the TD starts each night (announced absences leave the groups, FWPL 3.1), stewards read the groups
board, pick machines when the last placed player of a game chooses (FWPL 5) and enter each game
(some whole, some one score at a time). Now and then a player does not turn up (a whole-night
forfeit, FWPL 2.4), two scores tie and a one-ball play-off decides (3.2), a deathsave costs a
score (8.7). After the last week the TD starts the playoffs (equal points across a playoff line
are settled by a single-ball play-off on a random machine, 6.1) and the bracket is played out
(6.3-6.5). Every choice comes from ``--seed``, so a run can be replayed; ``FwplJournal`` keeps
what was sent, so a test can recompute the whole season on its own.
"""

from __future__ import annotations

import asyncio
import math
import random
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

import click

from display.cli.demo.common import (
    Client,
    DemoError,
    Echo,
    Target,
    message,
    run,
    server_options,
    stderr,
    target,
)
from display.types import Doc, Json

STEWARD = "League Steward"


class Line(TypedDict):
    """One player's line of a game as the demo sends it: ``score`` (None: a forfeit, FWPL 2.4),
    ``penalty`` (8.7 ``deathsave``) and ``late`` (2.3) when they apply."""

    score: int | None
    penalty: NotRequired[str]
    late: NotRequired[bool]


PlayedGame = tuple[int, int, str, dict[str, Line], list[str]]
"""A league night's game sent: (group, game_no, machine, lines by player, one-ball play-off)."""
PlayedPlayoffGame = tuple[str, list[str], int, str, dict[str, int | None], list[str]]
"""A playoff game sent: (division, players, game_no, machine, scores, one-ball play-off)."""


@dataclass(frozen=True)
class LeagueMachine:
    """A title with the median score of a decent game and the spread (sigma of the log)."""

    id: str
    name: str
    median: int
    sigma: float


MACHINES = (
    LeagueMachine("afm", "Attack from Mars", 2_400_000_000, 0.8),
    LeagueMachine("mm", "Medieval Madness", 18_000_000, 0.7),
    LeagueMachine("tz", "Twilight Zone", 100_000_000, 0.8),
    LeagueMachine("taf", "The Addams Family", 25_000_000, 0.8),
    LeagueMachine("bk", "Black Knight", 420_000, 0.6),
    LeagueMachine("gz", "Godzilla (Stern)", 450_000_000, 0.9),
    LeagueMachine("fh", "Funhouse", 22_000_000, 0.7),
    LeagueMachine("tom", "Theatre of Magic", 420_000_000, 0.8),
    LeagueMachine("fp", "Firepower", 380_000, 0.55),
    LeagueMachine("cv", "Cirqus Voltaire", 60_000_000, 0.8),
)
FIRST = [
    "Ada",
    "Ben",
    "Cleo",
    "Dev",
    "Edie",
    "Fox",
    "Gus",
    "Hal",
    "Iris",
    "Jude",
    "Kit",
    "Lou",
    "Max",
    "Nell",
    "Otto",
    "Pip",
    "Rex",
    "Sol",
    "Tess",
    "Uma",
    "Vic",
    "Wren",
    "Yara",
    "Zed",
]
LAST = [
    "Flipper",
    "Tilt",
    "Bumper",
    "Sling",
    "Plunger",
    "Spinner",
    "Ramp",
    "Orbit",
    "Saucer",
    "Kicker",
    "Drain",
    "Lane",
]


@dataclass
class FwplJournal:
    """What the demo sent, for an independent recompute: ``players`` (number -> (name, IFPA rank
    or None)), ``machines``; per week the ``absent`` list and the ``games`` as
    ``(group, game_no, machine, lines, playoff)`` with lines ``{number: {"score", "penalty"?,
    "late"?}}``;
    the cut ``tiebreaks``; the ``playoff_games`` as ``(division, players, game_no, machine,
    scores, playoff)``, ``playoff_tiebreaks`` as ``(division, players, order)``."""

    players: dict[str, tuple[str, int | None]] = field(default_factory=dict)
    machines: list[str] = field(default_factory=list)
    absent: dict[int, list[str]] = field(default_factory=dict)
    games: dict[int, list[PlayedGame]] = field(default_factory=dict)
    tiebreaks: list[list[str]] = field(default_factory=list)
    playoff_games: list[PlayedPlayoffGame] = field(default_factory=list)
    playoff_tiebreaks: list[tuple[str, list[str], list[str]]] = field(default_factory=list)


@dataclass
class FwplResult:
    """A run: the tournament id, the journal and the server's final views."""

    tournament: str
    journal: FwplJournal
    views: dict[str, Doc] = field(default_factory=dict)


def members(count: int, rng: random.Random) -> dict[str, tuple[str, int | None, float]]:
    """``count`` made-up members: number -> (name, IFPA rank or None, skill). About one in six
    is unranked (FWPL 4.3 puts them alphabetically at the bottom of week 1's ladder)."""
    names = [f"{f} {last}" for f in FIRST for last in LAST]
    rng.shuffle(names)
    out = {}
    for n in range(1, count + 1):
        skill = rng.gauss(0, 1)
        rank = (
            None
            if rng.random() < 1 / 6
            else max(1, int(math.exp(9 - 1.2 * skill + rng.gauss(0, 0.5))))
        )
        out[str(n)] = (names[n - 1], rank, skill)
    return out


def game_score(machine: LeagueMachine, skill: float, rng: random.Random) -> int:
    """A plausible score: log-normal around the median, shifted by skill, rounded to tens."""
    log = math.log(machine.median) + machine.sigma * (0.6 * skill + 0.8 * rng.gauss(0, 1))
    return max(10, round(math.exp(log) / 10) * 10)


class Season:
    """One demo season against a server: the TD's and the stewards' calls, and the journal."""

    def __init__(
        self, client: Client, tid: str, rng: random.Random, echo: Echo, pace: float
    ) -> None:
        self.client, self.tid, self.rng, self.echo, self.pace = client, tid, rng, echo, pace
        self.journal = FwplJournal()
        self.skill: dict[str, float] = {}
        self.late: set[str] = set()
        self.machines = {m.id: m for m in MACHINES}

    async def post(self, path: str, body: Json, td: bool = False) -> Doc:
        """``POST /api/t/{tid}/league/{path}`` as the TD or the steward, with a fresh
        Idempotency-Key; the answer. Raises DemoError when the server refuses it."""
        token = self.client.td_token if td else self.client.steward_token
        key = f"{self.tid}-{self.rng.getrandbits(64):016x}"
        answer = await self.client.call(
            "POST", f"/api/t/{self.tid}/league/{path}", body, token, key
        )
        if answer.is_error:
            raise DemoError(f"POST {path} refused ({answer.status_code}): {message(answer)}")
        if self.pace:
            await asyncio.sleep(self.pace)
        written: Doc = answer.json()  # the league API answers a JSON object (``written``)
        return written

    async def views(self) -> dict[str, Doc]:
        """Every view of the season now, by name."""
        return await self.client.views(self.tid)

    def scores(
        self, players: list[str], machine: str, away: set[str]
    ) -> tuple[dict[str, Line], list[str]]:
        """Lines for a game: a score each (None for a player who is not there); now and then a
        tie, settled by a one-ball play-off, or a deathsave (FWPL 3.2, 8.7)."""
        lines: dict[str, Line] = {}
        for p in players:
            lines[p] = {
                "score": None
                if p in away
                else game_score(self.machines[machine], self.skill[p], self.rng)
            }
        here = [p for p in players if p not in away]
        playoff: list[str] = []
        if len(here) >= 2 and self.rng.random() < 0.05:
            a, b = self.rng.sample(here, 2)
            lines[b]["score"] = lines[a]["score"]
            playoff = self.rng.sample([a, b], 2)
        elif here and self.rng.random() < 0.03:
            lines[self.rng.choice(here)]["penalty"] = "deathsave"
        return lines, playoff

    async def night(self, week: int) -> None:
        """League night ``week``: the TD starts it with a few announced absences (FWPL 3.1),
        someone may not turn up (2.4) or come late (2.3), every group plays its four games and
        the TD closes the night."""
        roster = list(self.journal.players)
        absent = [p for p in roster if self.rng.random() < 0.06]
        started = await self.post(
            "nights", {"week": week, "absent": absent, "seed": self.rng.getrandbits(32)}, td=True
        )
        self.journal.absent[week] = absent
        self.journal.games[week] = []
        doc = (await self.views())[f"night/{week}"]
        groups = {int(n): list(g["players"]) for n, g in doc["groups"].items()}
        present = [p for members_ in groups.values() for p in members_]
        # now and then someone does not turn up without calling: every game a forfeit (FWPL 2.4)
        no_show = {self.rng.choice(present)} if self.rng.random() < 0.35 else set()
        # ... or comes late and joins the first game in progress (2.3)
        self.late = {self.rng.choice(present)} - no_show if self.rng.random() < 0.3 else set()
        self.echo(
            f"Week {week}: {len(groups)} groups, absent {', '.join(absent) or 'none'} (v{started['version']})."
        )
        for game_no in range(1, 5):
            for number, players in groups.items():
                await self.game(week, number, game_no, players, no_show)
        await self.post("close", {"week": week}, td=True)

    async def game(
        self, week: int, number: int, game_no: int, players: list[str], away: set[str]
    ) -> None:
        """Game ``game_no`` of group ``number``: the machine picked if nobody has (FWPL 5), then
        the scores, whole or one at a time; ``away`` players forfeit (2.4)."""
        group = (await self.views())[f"night/{week}"]["groups"][str(number)]
        machine = group.get("machine")
        if machine is None:
            machine = self.rng.choice(group["allowed"])
            body = {"week": week, "group": number, "game_no": game_no, "machine": machine}
            await self.post("picks", body)
        lines, playoff = self.scores(players, machine, away)
        if game_no == 1:
            for p in self.late & set(players):
                lines[p]["late"] = True
        ref = {"week": week, "group": number, "game_no": game_no, "machine": machine}
        if self.rng.random() < 0.25:  # one score at a time, as a steward walks the bank
            order = list(lines)
            for n, p in enumerate(order, start=1):
                entry = {"player": p, **lines[p]}
                last = {"playoff": playoff} if n == len(order) and playoff else {}
                await self.post("scores", {**ref, "lines": [entry], **last})
        else:
            body = {
                **ref,
                "scores": {p: line["score"] for p, line in lines.items()},
                "playoff": playoff,
                "penalties": {p: line["penalty"] for p, line in lines.items() if "penalty" in line},
                "late": [p for p, line in lines.items() if line.get("late")],
            }
            await self.post("games", body)
        self.journal.games[week].append((number, game_no, machine, lines, playoff))

    async def playoffs(self) -> None:
        """The playoffs: the cut's ties settled on a drawn machine (FWPL 6.1), then every
        division's bracket played out (6.3-6.5)."""
        season = (await self.views())["season"]
        for tied in season["cut"].get("ties", []):
            await self.post(
                "tiebreak-draws",
                {"players": tied, "reason": "playoff cut", "seed": self.rng.getrandbits(32)},
                td=True,
            )
            self.journal.tiebreaks.append(self.rng.sample(tied, len(tied)))
        await self.post("playoffs", {"tiebreaks": self.journal.tiebreaks}, td=True)
        self.echo("Playoffs started.")
        while True:
            bracket = (await self.views())["bracket"]
            open_matches = [
                (name, m) for name, d in bracket["divisions"].items()
                for m in d["matches"].values() if not m.get("complete") or m.get("tied")
            ]  # fmt: skip
            if not open_matches:
                return
            for division, match in open_matches:
                await self.playoff_match(division, match)

    async def playoff_match(self, division: str, match: Doc) -> None:
        """Play the bracket ``match`` (its view) of ``division`` through: start it, pick and
        enter its games (FWPL 6.3, 6.4), then its tie-breaker if one is left (6.5)."""
        players = sorted(match["players"], key=lambda p: match["players"][p]["seed"])
        ref = {"division": division, "players": players}
        if not match.get("started"):
            await self.post("playoff-matches", {**ref, "seed": self.rng.getrandbits(32)}, td=True)
        for game_no in range(len(match.get("games", {})) + 1, 4):
            doc = (await self.views())["bracket"]["divisions"][division]["matches"]
            current = next(m for m in doc.values() if set(m["players"]) == set(players))
            machine = current.get("machine")
            if machine is None:
                machine = self.rng.choice(current["allowed"])
                await self.post("playoff-picks", {**ref, "game_no": game_no, "machine": machine})
            lines, playoff = self.scores(players, machine, set())
            scores = {p: line["score"] for p, line in lines.items()}
            await self.post(
                "playoff-games",
                {
                    **ref,
                    "game_no": game_no,
                    "machine": machine,
                    "scores": scores,
                    "playoff": playoff,
                },
            )
            self.journal.playoff_games.append(
                (division, players, game_no, machine, scores, playoff)
            )
        doc = (await self.views())["bracket"]["divisions"][division]["matches"]
        current = next(m for m in doc.values() if set(m["players"]) == set(players))
        if current.get("tied"):
            tied = current["tied"]
            await self.post(
                "tiebreak-draws",
                {"players": tied, "reason": "playoff tie", "seed": self.rng.getrandbits(32)},
                td=True,
            )
            order = self.rng.sample(tied, len(tied))
            await self.post("playoff-tiebreaks", {**ref, "order": order})
            self.journal.playoff_tiebreaks.append((division, players, order))


async def run_fwpl(
    url: str | None = None,
    td_password: str | None = None,
    players: int = 20,
    weeks: int = 8,
    machines: int = 8,
    seed: int = 2024,
    pace: float = 0.3,
    fast: bool = False,
    tournament: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    keep_serving: bool = False,
    echo: Echo = stderr,
) -> FwplResult | None:
    """Run a season of ``weeks`` nights for ``players`` members on ``machines`` machines, then the
    playoffs, on ``url`` (or a server started here). Returns the journal and the final views.
    Raises DemoError if the server refuses a call (the demo only sends what the rules allow)."""
    rng = random.Random(seed)
    async with target(url, td_password, host, port) as tgt, Client(tgt, echo) as client:
        await client.sign_in_td()
        tid = await client.create_tournament(
            tournament or "fwpl", "Flip Well League (demo)", "fwpl-league", {"weeks": weeks}
        )
        season = Season(client, tid, rng, echo, 0 if fast else pace)
        roster = members(players, rng)
        body = [
            {"number": n, "name": name, **({"ifpa_rank": rank} if rank else {})}
            for n, (name, rank, _) in roster.items()
        ]
        await client.must("POST", f"/api/t/{tid}/league/players", {"players": body})
        season.skill = {n: skill for n, (_, _, skill) in roster.items()}
        season.journal.players = {n: (name, rank) for n, (name, rank, _) in roster.items()}
        kit = [{"id": m.id, "name": m.name} for m in MACHINES[:machines]]
        await client.must("POST", f"/api/t/{tid}/machines", {"machines": kit})
        season.journal.machines = [m["id"] for m in kit]
        pin = await client.sign_in_steward(tid, STEWARD)
        _links(echo, tgt, tid, pin)
        for week in range(1, weeks + 1):
            if tgt.stopping:
                return None
            await season.night(week)
        await season.playoffs()
        result = FwplResult(tid, season.journal, await client.views(tid))
        echo(f"Season complete: {tid}.")
        if keep_serving:
            await tgt.serve_until_stopped()
        return result


def _links(echo: Echo, tgt: Target, tid: str, pin: str) -> None:
    echo(f"League {tid!r}:")
    echo(
        f"  {'Hall display:':15}{tgt.url}/t/{tid}/display?views=fwpl_groups,fwpl_night,fwpl_season,fwpl_bracket"
    )
    echo(f"  {'League entry:':15}{tgt.url}/t/{tid}/league-entry")
    echo(f"  {'League page:':15}{tgt.url}/t/{tid}/league")
    echo(f"  {'TD password:':15}{tgt.td_password}\n  {'Steward:':15}{STEWARD}, PIN {pin}")


MACHINE_TITLES = 10
"""How many machine titles ``MACHINES`` has."""


@click.command("fwpl")
@server_options
@click.option("--players", type=click.IntRange(6, 200), default=20, show_default=True)
@click.option("--weeks", type=click.IntRange(1, 52), default=8, show_default=True)
@click.option("--machines", type=click.IntRange(4, MACHINE_TITLES), default=8, show_default=True)
@click.option("--seed", type=int, default=2024, show_default=True, help="Same seed, same season.")
def fwpl(**options: Any) -> None:
    """A Flip Well league season: weekly nights of groups, then the playoffs, through the API.

    With no --url the server keeps running after the playoffs until Ctrl-C."""
    run(run_fwpl(**options, keep_serving=True))
