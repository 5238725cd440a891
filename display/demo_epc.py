"""``backglass demo epc``: an invented EPC-style qualifying pushed through the steward API.

Players are clearly fictional (ordinary first names, pinball-pun surnames); machines are real titles
from three eras, each with a score scale of its own (tens of thousands on an electromechanical game,
billions on Attack from Mars). Every game follows the EPC 2009 qualifying rules: at most six
distinct machines per player, and about a quarter of the players spend their one joker game on a
machine they already played. The plan is a pure function of the seed (``plan_epc``).
"""

from __future__ import annotations

import asyncio
import math
import random
from dataclasses import dataclass, field

from display.demo import Client, Echo, Target, stderr, target

MACHINES_PER_PLAYER = 6
JOKER_SHARE = 0.25
STEWARD = "Demo Steward"


@dataclass(frozen=True)
class DemoMachine:
    """A real title with the median score of a decent game on it, the spread of scores (sigma of
    the log) and how popular it is (relative chance that a player picks it)."""

    id: str
    name: str
    median: int
    sigma: float
    popularity: float


# Ordered so that the first few span the eras: ``--machines 6`` still mixes EM, early SS and modern.
MACHINES = (
    DemoMachine("mm", "Medieval Madness", 18_000_000, 0.7, 1.8),
    DemoMachine("fb", "Fireball", 52_000, 0.4, 0.8),
    DemoMachine("gz", "Godzilla (Stern)", 450_000_000, 0.9, 1.7),
    DemoMachine("8b", "Eight Ball", 110_000, 0.45, 0.7),
    DemoMachine("afm", "Attack from Mars", 2_400_000_000, 0.8, 1.6),
    DemoMachine("bk", "Black Knight", 420_000, 0.6, 0.9),
    DemoMachine("tz", "Twilight Zone", 100_000_000, 0.8, 1.5),
    DemoMachine("rf", "Royal Flush", 38_000, 0.4, 0.6),
    DemoMachine("dp", "Deadpool", 180_000_000, 0.8, 1.2),
    DemoMachine("taf", "The Addams Family", 25_000_000, 0.8, 1.6),
    DemoMachine("cen", "Centaur", 650_000, 0.6, 0.8),
    DemoMachine("tom", "Theatre of Magic", 420_000_000, 0.8, 1.1),
    DemoMachine("jp", "Jurassic Park (Stern)", 55_000_000, 0.8, 1.0),
    DemoMachine("fp", "Firepower", 380_000, 0.55, 0.8),
    DemoMachine("mb", "Monster Bash", 95_000_000, 0.8, 1.3),
    DemoMachine("im", "Iron Maiden", 72_000_000, 0.9, 1.2),
    DemoMachine("fh", "Funhouse", 22_000_000, 0.7, 1.0),
    DemoMachine("cv", "Cirqus Voltaire", 60_000_000, 0.8, 0.9),
)


def words(text: str) -> tuple[str, ...]:
    """The words of ``text`` (a long word list reads better as prose)."""
    return tuple(text.split())


FIRST_NAMES = words(
    "Alex Bea Callum Dana Elif Finn Greta Hugo Ines Jonas Kaia Lars Mira Nils Olga Pavel Quinn "
    "Rosa Sven Tilde Ugo Vera Wim Xenia Yusuf Zofia Anouk Bram Carla Dirk Emre Fleur Gerrit Hanna "
    "Ivo Jana Kees Lotte Matteo Noor"
)
LAST_NAMES = words(
    "Flipperton Tiltmann Bumperfeld Slingsworth Plungerova Rollovers Kickbackes Outlanesson "
    "Spinnerud Dropwood Multiballa Jackpotter Nudgewick Rampsworth Orbitson Saucerby Targetti "
    "Gobblehole Extraballe Scoopmann Matchsen Replayski Hurryupp Skillshotti Backboxer Playfieldt "
    "Cabineau Coinslotte Kickerud Lanechange"
)


@dataclass(frozen=True)
class Game:
    """One game to push: ``joker`` marks the player's second game on ``machine``."""

    player: str
    machine: str
    score: int
    joker: bool = False


@dataclass
class EpcPlan:
    """Players (number -> name), machines and the games in the order they are pushed."""

    players: dict[str, str]
    machines: tuple[DemoMachine, ...]
    games: list[Game]


@dataclass
class EpcResult:
    """What a demo run did: the tournament id, games pushed, and the refusals (server messages)."""

    tournament: str
    pushed: int = 0
    accepted: int = 0
    refused: list[str] = field(default_factory=list)


def player_names(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct made-up names (at most 1200), combined from fixed lists by ``rng``."""
    pairs = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
    rng.shuffle(pairs)
    return pairs[:count]


def game_score(machine: DemoMachine, skill: float, rng: random.Random) -> int:
    """A plausible score: log-normal around the machine's median, shifted by the player's skill
    (a standard normal), rounded to tens as real machines score."""
    log = math.log(machine.median) + machine.sigma * (0.75 * skill + 0.66 * rng.gauss(0, 1))
    return max(10, round(math.exp(log) / 10) * 10)


def plan_epc(players: int = 150, machines: int = 18, seed: int = 2009) -> EpcPlan:
    """The whole qualifying as a pure function of its arguments (EPC 2009, EPC Qualifying).

    Each player gets a skill, picks up to six distinct machines (popular ones more often; about one
    in twelve stops early) and about a quarter replay one of them as their joker game, after the
    first game there. Players' games are interleaved so the standings fill in gradually.
    """
    rng = random.Random(seed)
    chosen = MACHINES[:machines]
    names = player_names(players, rng)
    roster = {str(n): name for n, name in enumerate(names, start=1)}
    queues: dict[str, list[Game]] = {}
    for number in roster:
        skill = rng.gauss(0, 1)
        count = min(MACHINES_PER_PLAYER, len(chosen))
        if rng.random() < 1 / 12:
            count = max(1, count - rng.randint(1, 2))
        # weighted sampling without replacement (Efraimidis-Spirakis keys)
        order = sorted(chosen, key=lambda m: rng.random() ** (1 / m.popularity), reverse=True)
        games = [Game(number, m.id, game_score(m, skill, rng)) for m in order[:count]]
        if rng.random() < JOKER_SHARE:
            again = rng.randrange(len(games))
            machine = next(m for m in chosen if m.id == games[again].machine)
            joker = Game(number, machine.id, game_score(machine, skill, rng), joker=True)
            games.insert(rng.randint(again + 1, len(games)), joker)
        queues[number] = games
    ordered: list[Game] = []
    while queues:
        number = rng.choices(list(queues), weights=[len(q) for q in queues.values()])[0]
        ordered.append(queues[number].pop(0))
        if not queues[number]:
            del queues[number]
    return EpcPlan(roster, chosen, ordered)


async def leaders(client: Client, tid: str, names: dict[str, str], top: int = 5) -> str:
    """The top of the server's standings as one line."""
    rows = (await client.views(tid))["standings"]["rows"]
    best = sorted(rows.items(), key=lambda item: item[1].get("place") or 10**9)[:top]
    return "; ".join(f"{row.get('place')}. {names[p]} {row.get('total')}" for p, row in best)


def banner(tgt: Target, tid: str, pin: str, plan: EpcPlan, pace: float | None) -> str:
    """What the demo prints at start: the pages to open and the credentials."""
    speed = "as fast as possible" if pace is None else f"one every ~{pace:g} s"
    lines = [
        f"Backglass demo: EPC qualifying {tid!r}: {len(plan.players)} players, "
        f"{len(plan.machines)} machines, {len(plan.games)} games ({speed}).",
        *(f"  {label + ':':15}{link}" for label, link in tgt.links(tid).items()),
        f"  {'TD password:':15}{tgt.td_password}",
        f"  {'Steward:':15}{STEWARD}, PIN {pin}",
    ]
    return "\n".join(lines)


async def run_epc(
    url: str | None = None,
    td_password: str | None = None,
    players: int = 150,
    machines: int = 18,
    seed: int = 2009,
    pace: float = 1.5,
    fast: bool = False,
    tournament: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    keep_serving: bool = False,
    echo: Echo = stderr,
) -> EpcResult:
    """Create an EPC qualifying on ``url`` (or on a server started here) and push every game of
    ``plan_epc(players, machines, seed)`` as a steward, one every ~``pace`` seconds (``fast``: no
    wait). A refused push (4xx) is printed and skipped. With ``keep_serving`` and a server of our
    own, keep serving after the last game until Ctrl-C. Raises DemoError if setup fails."""
    plan = plan_epc(players, machines, seed)
    jitter = random.Random()
    async with target(url, td_password, host, port) as tgt, Client(tgt, echo) as client:
        await client.sign_in_td()
        tid = await client.create_tournament(
            tournament or "epc", "EPC qualifying (demo)", "epc-qualifying", {}
        )
        result = EpcResult(tid)
        roster = [{"number": n, "name": name} for n, name in plan.players.items()]
        await client.must("POST", f"/api/t/{tid}/players", {"players": roster})
        kit = [{"id": m.id, "name": m.name} for m in plan.machines]
        await client.must("POST", f"/api/t/{tid}/machines", {"machines": kit})
        pin = await client.sign_in_steward(tid, STEWARD)
        echo(banner(tgt, tid, pin, plan, None if fast else pace))
        names = {m.id: m.name for m in plan.machines}
        width = len(str(len(plan.games)))
        for n, game in enumerate(plan.games, start=1):
            if tgt.stopping:
                break
            refused = await client.push(tid, game.player, game.machine, game.score, f"{tid}-{n}")
            result.pushed += 1
            what = f"#{game.player} {plan.players[game.player]} on {names[game.machine]}"
            line = f"{n:>{width}}/{len(plan.games)}  {what}: {game.score:,}"
            if game.joker:
                line += " (joker game)"
            if refused:
                result.refused.append(f"{what}: {refused}")
                line += f"  REFUSED {refused}"
            else:
                result.accepted += 1
            echo(line)
            if n % 50 == 0 or n == len(plan.games):
                echo(f"Leaders: {await leaders(client, tid, plan.players)}")
            if not fast and pace:
                await asyncio.sleep(pace * jitter.uniform(0.6, 1.4))
        echo(f"Done: {result.accepted} of {result.pushed} scores accepted.")
        if keep_serving and tgt.own_server is not None and not tgt.stopping:
            echo(f"The server keeps running at {tgt.url}/ ; Ctrl-C to stop.")
            await tgt.serve_until_stopped()
    return result
