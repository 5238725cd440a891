"""``backglass demo epc``: an invented EPC-style qualifying played through the hall's queues.

Players are clearly fictional (ordinary first names, pinball-pun surnames); machines are real titles
from three eras, each with a score scale of its own (tens of thousands on an electromechanical game,
billions on Attack from Mars) and a typical game length. Every game follows the EPC 2009 qualifying
rules: at most six distinct machines per player, and about a quarter of the players spend their one
joker game on a machine they already played. The plan is a pure function of the seed
(``plan_epc``).

The hall is simulated through the same HTTP API stewards use (``HallSim``): players who are free
join the queue for the next machine they still need ("join the queue for that machine if there is
one", EPC 2009, EPC Qualifying), so the popular machines draw the longest queues; a free machine
starts its next player, and a finished game's score is pushed, which calls the next. Game starts
are dated back by the machine's typical length (the TD may give a start time), so the queue board's
estimated waits read in real minutes while the demo runs at a pace a person can watch.

Run again, the demo continues its tournament (``choose_tournament``): the first of ``epc``,
``epc-2``, … made by this demo with the same plan is played on from the games its log already holds
(or, all played, served as it is); a tournament of that id that is not this plan's is passed over
and a new one made, saying why. ``--reset`` removes the demo's data first (``display.cli.demo.common``).
Scores are pushed with an ``Idempotency-Key`` naming the game, so a game pushed twice (a retry, or a
run that stopped before it saw the answer) is recorded once.
"""

from __future__ import annotations

import asyncio
import math
import random
import secrets
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

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
from display.types import Doc

MACHINES_PER_PLAYER = 6
JOKER_SHARE = 0.25
STEWARD = "Demo Steward"
NAME = "EPC qualifying (demo)"
"""The demo tournament's name: with the plan's players and machines, what marks one as its own."""
LOG_PAGE = 10_000
"""Records per ``GET /api/t/{id}/log`` answer (the server's page)."""

Played = Counter[tuple[str, str, int]]
"""Score records of a tournament's log: (player, machine, score) -> how many."""


@dataclass(frozen=True)
class DemoMachine:
    """A real title with the median score of a decent game on it, the spread of scores (sigma of
    the log), how popular it is (relative chance that a player picks it) and the minutes a typical
    game takes (an electromechanical game is quicker than a modern one)."""

    id: str
    name: str
    median: int
    sigma: float
    popularity: float
    minutes: float = 8.0


# Ordered so that the first few span the eras: ``--machines 6`` still mixes EM, early SS and modern.
MACHINES = (
    DemoMachine("mm", "Medieval Madness", 18_000_000, 0.7, 1.8, 9),
    DemoMachine("fb", "Fireball", 52_000, 0.4, 0.8, 4),
    DemoMachine("gz", "Godzilla (Stern)", 450_000_000, 0.9, 1.7, 11),
    DemoMachine("8b", "Eight Ball", 110_000, 0.45, 0.7, 4.5),
    DemoMachine("afm", "Attack from Mars", 2_400_000_000, 0.8, 1.6, 9),
    DemoMachine("bk", "Black Knight", 420_000, 0.6, 0.9, 5.5),
    DemoMachine("tz", "Twilight Zone", 100_000_000, 0.8, 1.5, 10),
    DemoMachine("rf", "Royal Flush", 38_000, 0.4, 0.6, 3.5),
    DemoMachine("dp", "Deadpool", 180_000_000, 0.8, 1.2, 10),
    DemoMachine("taf", "The Addams Family", 25_000_000, 0.8, 1.6, 9),
    DemoMachine("cen", "Centaur", 650_000, 0.6, 0.8, 5),
    DemoMachine("tom", "Theatre of Magic", 420_000_000, 0.8, 1.1, 9.5),
    DemoMachine("jp", "Jurassic Park (Stern)", 55_000_000, 0.8, 1.0, 10),
    DemoMachine("fp", "Firepower", 380_000, 0.55, 0.8, 5),
    DemoMachine("mb", "Monster Bash", 95_000_000, 0.8, 1.3, 9),
    DemoMachine("im", "Iron Maiden", 72_000_000, 0.9, 1.2, 11),
    DemoMachine("fh", "Funhouse", 22_000_000, 0.7, 1.0, 8),
    DemoMachine("cv", "Cirqus Voltaire", 60_000_000, 0.8, 0.9, 9.5),
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
    """What a demo run did: the tournament id, games pushed and accepted by this run, and the
    refusals (server messages). ``earlier``: the plan's games the tournament held before this run
    (a continued one); ``how``: "new", "continued", "complete" (nothing left to play) or
    "watched" (another demo process plays it; this one only served)."""

    tournament: str
    pushed: int = 0
    accepted: int = 0
    refused: list[str] = field(default_factory=list)
    earlier: int = 0
    how: str = "new"


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


TICKS_PER_MINUTE = 1.0
"""Demo ticks per minute of a game: a nine-minute game lasts nine ticks (about 13 s at the default
pace), so with every machine busy a score comes in every second or so."""
CROWD_PER_MACHINE = 2.5
"""Players in the queues at once, per machine: enough that popular machines build queues."""
JOINS_PER_TICK = 4


@dataclass
class HallSim:
    """The hall as the demo plays it (the queues themselves are the server's): which games each
    player still needs, in the order planned, and when each machine's current game ends."""

    plan: EpcPlan
    rng: random.Random
    crowd: int
    played: Played = field(default_factory=Counter)  # scores the log holds already
    pending: dict[str, list[Game]] = field(default_factory=dict)
    ends: dict[str, int] = field(default_factory=dict)
    tick: int = 0

    def __post_init__(self) -> None:
        left = Counter(self.played)
        for game in self.plan.games:
            if left[(game.player, game.machine, game.score)] > 0:  # played by an earlier run
                left[(game.player, game.machine, game.score)] -= 1
                continue
            self.pending.setdefault(game.player, []).append(game)

    @property
    def left(self) -> int:
        """Games still to play."""
        return sum(len(games) for games in self.pending.values())

    @property
    def finished(self) -> bool:
        """True once every planned game has been played."""
        return not any(self.pending.values())

    def busy(self, queues: Doc) -> set[str]:
        """Players up on a machine or waiting for one (``queues``: the server's view)."""
        found = set()
        for queue in queues.values():
            found.update(queue.get("waiting", {}))
            if "up" in queue:
                found.add(queue["up"]["player"])
        return found

    def joiners(self, queues: Doc) -> list[Game]:
        """The next games of free players, in the order planned, as many as the hall takes now."""
        busy = self.busy(queues)
        room = min(self.crowd - len(busy), JOINS_PER_TICK)
        chosen: list[Game] = []
        for game in self.plan.games:
            if len(chosen) >= room:
                break
            todo = self.pending.get(game.player)
            if todo and todo[0] is game and game.player not in busy:
                chosen.append(game)
                busy.add(game.player)
        return chosen

    def length(self, machine: str) -> float:
        """Minutes the next game on ``machine`` takes: its typical length, give or take."""
        minutes = next(m.minutes for m in self.plan.machines if m.id == machine)
        return minutes * self.rng.uniform(0.75, 1.35)

    def started(self, machine: str, minutes: float) -> None:
        """A game of ``minutes`` began on ``machine``: it ends that many ticks on, 2 at least."""
        self.ends[machine] = self.tick + max(2, round(minutes * TICKS_PER_MINUTE))

    def over(self, machine: str) -> bool:
        """True once the game on ``machine`` has run its length (False when none is running)."""
        return self.ends.get(machine, 10**9) <= self.tick


async def leaders(client: Client, tid: str, names: dict[str, str], top: int = 5) -> str:
    """The top of the server's standings as one line."""
    rows = (await client.views(tid))["standings"]["rows"]
    best = sorted(rows.items(), key=lambda item: item[1].get("place") or 10**9)[:top]
    return "; ".join(f"{row.get('place')}. {names[p]} {row.get('total')}" for p, row in best)


def longest(queues: Doc, names: dict[str, str], top: int = 5) -> str:
    """The longest queues as one line."""
    ranked = sorted(queues.items(), key=lambda item: -item[1].get("count", 0))[:top]
    return ", ".join(f"{names[m]} {q.get('count', 0)}" for m, q in ranked if q.get("count"))


def banner(
    tgt: Target, tid: str, pin: str, plan: EpcPlan, pace: float | None, steward: str = STEWARD
) -> str:
    """What the demo prints at start: the pages to open and the credentials (``steward``, the
    name ``pin`` was issued to)."""
    speed = "as fast as possible" if pace is None else f"a tick every ~{pace:g} s"
    lines = [
        f"Backglass demo: EPC qualifying {tid!r}: {len(plan.players)} players, "
        f"{len(plan.machines)} machines, {len(plan.games)} games through the queues ({speed}).",
        *(f"  {label + ':':15}{link}" for label, link in tgt.links(tid).items()),
        f"  {'Queue board:':15}{tgt.url}/t/{tid}/display?views=queues,machines,standings",
        f"  {'Queue page:':15}{tgt.url}/t/{tid}/queue",
        f"  {'Audit log:':15}{tgt.url}/t/{tid}/audit",
        f"  {'TD password:':15}{tgt.td_password}{tgt.password_note}",
        f"  {'Steward:':15}{steward}, PIN {pin}",
    ]
    return "\n".join(lines)


class HallRun:
    """One demo run: the HTTP calls a steward (joins, scores) and the TD (starts, dated back by
    the game's length) make as the simulated hall plays."""

    def __init__(self, client: Client, tid: str, plan: EpcPlan, sim: HallSim, echo: Echo) -> None:
        self.client, self.tid, self.plan, self.sim, self.echo = client, tid, plan, sim, echo
        self.result = EpcResult(tid, earlier=len(plan.games) - sim.left)
        self.names = {m.id: m.name for m in plan.machines}
        self.width = len(str(len(plan.games)))
        self.calls = 0
        self.run = secrets.token_hex(4)  # a run's queue calls must not replay an earlier run's

    def key(self, what: str) -> str:
        """A fresh Idempotency-Key for this run's next call named ``what``."""
        self.calls += 1
        return f"{self.tid}-{self.run}-{what}{self.calls}"

    async def post(self, path: str, body: Mapping[str, object], token: str) -> str | None:
        """POST to the tournament; None if accepted, else the server's message."""

        url = f"/api/t/{self.tid}{path}"
        answer = await self.client.call("POST", url, body, token, self.key(path.split("/")[-1]))
        return f"{answer.status_code}: {message(answer)}" if answer.is_error else None

    async def queues(self) -> Doc:
        """The server's ``queues`` view now."""
        answer = await self.client.call("GET", f"/api/t/{self.tid}/views/queues")
        return answer.json()["view"]  # type: ignore[no-any-return]

    async def step(self) -> None:
        """One tick: finished games are scored, called players start, free players queue."""
        queues = await self.queues()
        for machine, queue in queues.items():
            up = queue.get("up")
            if up is not None and up["state"] == "playing" and machine not in self.sim.ends:
                self.sim.started(machine, self.sim.length(machine))  # begun by an earlier run
            if up is not None and up["state"] == "playing" and self.sim.over(machine):
                await self.score(machine, up["player"])
            elif up is not None and up["state"] == "called":
                await self.start(machine, up["player"])
            elif up is None and any(not w.get("paused") for w in queue["waiting"].values()):
                await self.start(machine, None)
        for game in self.sim.joiners(await self.queues()):
            refused = await self.post(
                f"/queues/{game.machine}/join", {"player": game.player}, self.client.steward_token
            )
            if refused:
                self.sim.pending[game.player].pop(0)
                self.result.refused.append(f"#{game.player} queueing for {game.machine}: {refused}")

    async def start(self, machine: str, player: str | None) -> None:
        """The TD starts the game of ``player`` (None: the queue's next) on ``machine``, dated
        back by its length; refused, the player gives the turn up so the machine does not wait
        for ever."""
        minutes = self.sim.length(machine)
        when = (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat()
        body = {"started_at": when, **({"player": player} if player else {})}
        refused = await self.post(f"/queues/{machine}/start", body, self.client.td_token)
        if refused:  # give the turn up, or the machine would wait for them for ever
            self.result.refused.append(f"starting {self.names[machine]}: {refused}")
            if player is not None:
                await self.post(
                    f"/queues/{machine}/leave", {"player": player}, self.client.td_token
                )
        else:
            self.sim.started(machine, minutes)

    async def score(self, machine: str, player: str) -> None:
        """The game on ``machine`` ended: the steward pushes the planned score of ``player`` under a
        key of its own (a later run pushes it once); a game the plan lacks gives the turn up."""
        self.sim.ends.pop(machine, None)
        todo = self.sim.pending.get(player) or []
        game = todo.pop(0) if todo and todo[0].machine == machine else None
        if game is None:  # not a game the plan has: give the turn up
            await self.post(f"/queues/{machine}/leave", {"player": player}, self.client.td_token)
            return
        # the game names its key: pushed again by a later run, it is recorded once
        key = f"{self.tid}-{player}-{machine}{'-joker' if game.joker else ''}"
        refused = await self.client.push(self.tid, player, machine, game.score, key)
        self.result.pushed += 1
        what = f"#{player} {self.plan.players[player]} on {self.names[machine]}"
        done = self.result.earlier + self.result.pushed
        line = f"{done:>{self.width}}/{len(self.plan.games)}  {what}: {game.score:,}"
        if game.joker:
            line += " (joker game)"
        if refused:
            self.result.refused.append(f"{what}: {refused}")
            line += f"  REFUSED {refused}"
            await self.post(f"/queues/{machine}/leave", {"player": player}, self.client.td_token)
        else:
            self.result.accepted += 1
        self.echo(line)
        if self.result.pushed % 50 == 0 or self.sim.finished:
            self.echo(f"Leaders: {await leaders(self.client, self.tid, self.plan.players)}")
            self.echo(f"Longest queues: {longest(await self.queues(), self.names) or 'none'}")


def mismatch(views: dict[str, Doc], plan: EpcPlan) -> str | None:
    """Why a tournament with these views is not one this run can continue, or None: it must be
    the demo's (``NAME``, EPC qualifying) with the plan's players and machines, or none yet (a
    run stopped while setting it up)."""
    about = views.get("tournament", {})
    if about.get("name") != NAME or about.get("format") != "epc-qualifying":
        return f"is {about.get('name')!r}, not a demo tournament"
    players = {number: player.get("name") for number, player in views.get("players", {}).items()}
    if players and players != plan.players:
        return "has other players (another --players or --seed)"
    listed = sorted(views.get("machines", {}).items(), key=lambda item: item[1].get("order", 0))
    machines = [(mid, machine.get("name")) for mid, machine in listed]
    if machines and machines != [(m.id, m.name) for m in plan.machines]:
        return "has other machines (another --machines)"
    return None


async def played_games(client: Client, tid: str) -> Played:
    """The score records of ``tid``'s log (``GET /api/t/{id}/log``, a page at a time)."""
    found: Played = Counter()
    after = 0
    while True:
        records = (await client.must("GET", f"/api/t/{tid}/log?after={after}"))["records"]
        for record in records:
            if record.get("type") == "score_recorded":
                found[(str(record["player"]), str(record["machine"]), record["score"])] += 1
        if len(records) < LOG_PAGE:
            return found
        after = records[-1]["seq"]


async def choose_tournament(
    client: Client, wanted: str, plan: EpcPlan, echo: Echo
) -> tuple[str, Played, bool]:
    """The tournament this run plays: the first of ``wanted``, ``wanted-2``, … this run can
    continue (``mismatch``), else a new one at the first free id (printing why each one before
    was passed over). Returns its id, the scores it holds and whether it is new. Raises
    DemoError when the server refuses."""

    passed: list[str] = []
    n, tries = 1, 0
    while n < 1000 and tries < 2000:
        tries += 1
        tid = wanted if n == 1 else f"{wanted[:28]}-{n}"
        answer = await client.call("GET", f"/api/t/{tid}/views")
        if answer.status_code == 404:
            body = {"id": tid, "name": NAME, "format": "epc-qualifying", "settings": {}}
            made = await client.call("POST", "/api/tournaments", body, client.td_token)
            if made.status_code == 409:  # made by another client meanwhile: look again
                await asyncio.sleep(0.05)
                continue
            if made.is_error:
                raise DemoError(f"Cannot create {tid} ({made.status_code}): {message(made)}")
            reasons = f", as {'; '.join(passed)}" if passed else ""
            echo(f"Made a new demo tournament {tid}{reasons}.")
            return tid, Counter(), True
        if answer.is_error:
            raise DemoError(f"Cannot read {tid} ({answer.status_code}): {message(answer)}")
        why = mismatch(answer.json()["views"], plan)
        if why is None:
            return tid, await played_games(client, tid), False
        passed.append(f"{tid} {why}")
        n += 1
    raise DemoError(f"Tournament ids {wanted} … {wanted}-999 are all taken.")


async def set_up(client: Client, tid: str, plan: EpcPlan) -> None:
    """Give ``tid`` the plan's players and machines where it has none yet."""
    views = await client.views(tid)
    if not views.get("players"):
        roster = [{"number": n, "name": name} for n, name in plan.players.items()]
        await client.must("POST", f"/api/t/{tid}/players", {"players": roster})
    if not views.get("machines"):
        kit = [{"id": m.id, "name": m.name} for m in plan.machines]
        await client.must("POST", f"/api/t/{tid}/machines", {"machines": kit})


def continued(tid: str, plan: EpcPlan, sim: HallSim, own_server: bool) -> str:
    """What a run that continues ``tid`` prints: how far it got, and what is left."""
    total, left = len(plan.games), sim.left
    again = " (--reset starts over)" if own_server else ""
    if not left:
        return (
            f"The demo tournament {tid} is complete ({total} of {total} games played); "
            f"serving it as it is{again}."
        )
    return (
        f"Continuing the demo tournament {tid}: {total - left} of {total} games played before, "
        f"{left} to go{again}."
    )


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
    reset: bool = False,
    echo: Echo | None = None,
) -> EpcResult:
    """Play the EPC qualifying of ``plan_epc(players, machines, seed)`` on ``url`` (or on a server
    started here) through the queues (``HallSim``), a tick every ~``pace`` seconds (``fast``: no
    wait): in a new tournament, or continuing this demo's from an earlier run
    (``choose_tournament``); ``reset`` first removes the demo's data (no ``url``). When another
    demo process plays that tournament on the same data directory, this one only serves it. A
    refused call (4xx) is printed and skipped. With ``keep_serving`` and a server of our own, keep
    serving after the last game until Ctrl-C. Raises DemoError if setup fails."""

    echo = echo or stderr
    plan = plan_epc(players, machines, seed)
    jitter = random.Random()
    async with (
        target(url, td_password, host, port, reset, echo) as tgt,
        Client(tgt, echo) as client,
    ):
        await client.sign_in_td()
        tid, played, new = await choose_tournament(client, tournament or "epc", plan, echo)
        with tgt.playing(tid) as other:
            await set_up(client, tid, plan)
            # A demo beside one that plays signs in a steward of its own: a PIN issued again to
            # the same name ends that name's sessions, the playing demo's among them.
            steward = STEWARD if other is None else f"{STEWARD} 2"
            pin = await client.sign_in_steward(tid, steward)
            crowd = min(
                len(plan.players), max(len(plan.machines), round(machines * CROWD_PER_MACHINE))
            )
            sim = HallSim(plan, random.Random(seed), crowd, played)
            if not new:
                echo(continued(tid, plan, sim, tgt.own_server is not None))
            echo(banner(tgt, tid, pin, plan, None if fast else pace, steward))
            run = HallRun(client, tid, plan, sim, echo)
            run.result.how = "new" if new else "continued" if sim.left else "complete"
            if other is not None:
                run.result.how = "watched"
                echo(
                    f"Another demo ({other}) plays {tid} on {tgt.data_dir}; this one serves the "
                    f"same tournament at {tgt.url}/ without pushing games (same TD password)."
                )
            else:
                await play(run, tgt, fast, pace, jitter)
        if keep_serving and tgt.own_server is not None and not tgt.stopping:
            echo(f"The server keeps running at {tgt.url}/ ; Ctrl-C to stop.")
            await tgt.serve_until_stopped()
    return run.result


async def play(run: HallRun, tgt: Target, fast: bool, pace: float, jitter: random.Random) -> None:
    """Tick the hall until every game is played (or Ctrl-C), then say how it went: how many
    games of how many, also when Ctrl-C cancels it mid-push (uvicorn raises the signal again
    once the server has stopped, so the summary is in ``finally``)."""
    if run.sim.finished:
        return
    try:
        for _ in range(40 * run.sim.left + 100):  # a bound: every tick moves the hall on
            if tgt.stopping or run.sim.finished:
                break
            await run.step()
            run.sim.tick += 1
            if not fast and pace:
                await asyncio.sleep(pace * jitter.uniform(0.6, 1.4))
    finally:
        total, played = len(run.plan.games), len(run.plan.games) - run.sim.left
        pushed = f"{run.result.accepted} of {run.result.pushed} scores this run pushed accepted"
        word = "Done" if run.sim.finished else "Stopped"  # Ctrl-C: how far it got, not "done"
        run.echo(f"{word}: {played} of {total} games played; {pushed}.")


@click.command()
@server_options
@click.option("--players", type=click.IntRange(1, 1000), default=150, show_default=True)
@click.option("--machines", type=click.IntRange(1, 18), default=18, show_default=True)
@click.option("--seed", type=int, default=2009, show_default=True, help="Same seed, same games.")
@click.option("--reset", is_flag=True,
              help="Start over: remove the demo's data directory (.data/demo) first.")  # fmt: skip
def epc(**options: Any) -> None:
    """An EPC-style qualifying: made-up players on real machines, pushed one score at a time.

    Run again, it continues the demo tournament of the run before (or serves it when it is
    complete); --reset starts over. With no --url the server keeps running after the last game
    until Ctrl-C."""
    run(run_epc(**options, keep_serving=True))
