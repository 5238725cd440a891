"""``backglass demo epc-weekend``: the whole EPC 2009 weekend through the HTTP API.

Friday and Saturday: the Country Competition (when the server runs "epc-country"), EPC qualifying
(``display.competitions.machines.demo.plan_epc``'s invented field) and Saturday's kids tournament. Sunday: the
quarter-finals with re-registration (one qualifier of each group does not come back, so stand-bys
33 and 34 play), the EPC Classic (with a machine fault and a replacement), Sunday's kids
tournament, the EPC semi-finals and finals, then the Classic semi-finals and final (EPC
semi-finalists forfeit their Classic places). Everything a TD or steward does is one HTTP call;
ties the rules leave to a play-off get one, ordered by a seeded coin.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

import click

from display.cli.demo.common import Client, DemoError, Echo, run, server_options, stderr, target
from display.competitions.epc_country.demo import run_country
from display.competitions.machines.demo import (
    MACHINES,
    STEWARD,
    DemoMachine,
    game_score,
    plan_epc,
    words,
)
from display.types import Doc, FormatSettings

CLASSIC_MACHINES = (
    DemoMachine("c-fb", "Fireball", 52_000, 0.4, 1),
    DemoMachine("c-8b", "Eight Ball", 110_000, 0.45, 1),
    DemoMachine("c-rf", "Royal Flush", 38_000, 0.4, 1),
    DemoMachine("c-cen", "Centaur", 650_000, 0.6, 1),
    DemoMachine("c-bk", "Black Knight", 420_000, 0.6, 1),
    DemoMachine("c-fp", "Firepower", 380_000, 0.55, 1),
    DemoMachine("c-xen", "Xenon", 400_000, 0.55, 1),
    DemoMachine("c-pb", "Paragon", 300_000, 0.5, 1),
)
REPLACEMENT = DemoMachine("c-eb", "Eight Ball Deluxe", 600_000, 0.55, 1)
KIDS = words("Ada Ben Cleo Dev Eli Fay Gus Hal Ivy Joe Kit Liv Max Nia Oli Pip")


@dataclass
class WeekendResult:
    """Tournament ids by competition, and the winners the server declared."""

    tournaments: dict[str, str] = field(default_factory=dict)
    winners: dict[str, str | list[str]] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)


class Weekend:
    """One run of the weekend against one server."""

    def __init__(self, client: Client, rng: random.Random, pace: float, echo: Echo) -> None:
        self.client, self.rng, self.pace, self.echo = client, rng, pace, echo
        self.result = WeekendResult()
        self.stewards: dict[str, str] = {}  # tournament -> its steward's token

    async def steward(self, tid: str) -> None:
        """A steward for ``tid`` (a steward's sign-in is for one tournament)."""
        await self.client.sign_in_steward(tid, STEWARD)
        self.stewards[tid] = self.client.steward_token

    async def td(self, tid: str, path: str, body: Doc | None = None) -> Doc:
        """A TD stage action (``/api/t/{tid}/epc/…``); it has to work. Returns the server's
        answer, ``{"version", "record"}``."""
        answer: Doc = await self.client.must("POST", f"/api/t/{tid}/epc/{path}", body or {})
        return answer

    async def push(self, tid: str, player: str, machine: str, score: int) -> None:
        """One score from ``tid``'s steward under a fresh Idempotency-Key; a refusal is kept in
        ``result.refused`` and printed, not raised. Sleeps ``pace`` seconds after."""
        key = f"{tid}-{player}-{machine}-{self.rng.random()}"
        self.client.steward_token = self.stewards[tid]
        refused = await self.client.push(tid, player, machine, score, key)
        if refused:
            self.result.refused.append(f"{tid} #{player} on {machine}: {refused}")
            self.echo(f"  REFUSED #{player} on {machine}: {refused}")
        if self.pace:
            await asyncio.sleep(self.pace)

    async def views(self, tid: str) -> dict[str, Doc]:
        """Every view of ``tid`` as the server has it now, by name."""
        return await self.client.views(tid)

    async def create(self, wanted: str, name: str, fmt: str, settings: FormatSettings) -> str:
        """A new tournament; its id is kept under ``wanted`` without the prefix."""
        tid = await self.client.create_tournament(wanted, name, fmt, settings)
        label = wanted.split("-", 1)[-1]
        self.result.tournaments[label] = tid
        # its links as soon as it exists, so a watcher opens it while it is played
        self.echo(links_line(self.client.target.url, label, tid))
        return tid

    # ---- the EPC main tournament ----

    async def qualifying(self, prefix: str, players: int, seed: int) -> tuple[str, dict[str, str]]:
        """EPC qualifying (EPC 2009, EPC Qualifying): ``plan_epc``'s games for ``players`` invented
        players (up to six machines each, some a joker game), pushed one by one. Returns (id, names
        by number)."""
        plan = plan_epc(players, len(MACHINES), seed)
        tid = await self.create(f"{prefix}-main", "EPC 2009", "epc-main", {})
        roster = [{"number": n, "name": name} for n, name in plan.players.items()]
        await self.client.must("POST", f"/api/t/{tid}/players", {"players": roster})
        kit = [{"id": m.id, "name": m.name} for m in plan.machines]
        await self.client.must("POST", f"/api/t/{tid}/machines", {"machines": kit})
        await self.steward(tid)
        self.echo(f"EPC qualifying {tid!r}: {len(plan.games)} games.")
        for game in plan.games:
            await self.push(tid, game.player, game.machine, game.score)
        return tid, plan.players

    async def settle_qualifying_ties(self, tid: str) -> None:
        """Equal totals inside the 38 seeded places get a play-off (EPC 2009, EPC Qualifying)."""
        views = await self.views(tid)
        settings = views["tournament"]["settings"]
        seeded = settings["qualify"] + settings["standby"]
        by_place: dict[int, list[str]] = {}
        for player, row in views["standings"]["rows"].items():
            by_place.setdefault(row["place"], []).append(player)
        order: list[str] = []
        for place in sorted(p for p in by_place if p <= seeded):
            tied = sorted(by_place[place])
            if len(tied) > 1:
                self.rng.shuffle(tied)
                order.extend(tied)
        if order:
            self.echo(f"Qualifying play-off for equal totals: {', '.join(order)}.")
            await self.td(tid, "playoffs", {"tie": "qualifying", "order": order})

    async def quarterfinals(self, tid: str) -> None:
        """The quarter-finals (EPC 2009, EPC Quarter-Finals): group B plays round 1, then group A;
        in each one qualifier does not re-register, so the stand-bys ranked 33rd and 34th play."""
        await self.settle_qualifying_ties(tid)
        ids = [m.id for m in MACHINES[:8]]
        await self.td(tid, "stage", {"stage": "quarterfinal", "machines": ids})
        qf = (await self.views(tid))["quarterfinal"]
        seeds = {int(s): doc["qualifier"] for s, doc in qf["seeds"].items()}
        standby = sorted(qf["standby"], key=lambda p: qf["standby"][p]["position"])
        half = len(seeds) // 2
        for rnd, group, absent in (
            (1, range(half + 1, 2 * half + 1), half + 4),
            (2, range(1, half + 1), 5),
        ):
            for s in group:
                if s != absent:
                    await self.td(tid, "registrations", {"player": seeds[s], "round": rnd})
            for player in standby[:2]:
                await self.td(tid, "registrations", {"player": player, "round": rnd})
            await self.td(tid, "rounds", {"round": rnd})
            self.echo(f"Quarter-final round {rnd}: seed {absent} did not re-register.")
            await self.play_round(tid, "B" if rnd == 1 else "A")

    async def play_round(self, tid: str, group: str) -> None:
        """Every pair of quarter-final ``group`` ("A" or "B") plays two games on each of its
        machines, taking turns to go first (EPC 2009, EPC Quarter-Finals)."""
        qf = (await self.views(tid))["quarterfinal"]
        kit = {m.id: m for m in MACHINES}
        for pair in sorted(qf["pairs"].values(), key=lambda p: p["order"]):
            if pair["group"] != group:
                continue
            players = [qf["seeds"][str(s)].get("player") for s in pair["seeds"]]
            for machine in pair["machines"]:
                for first in players, players[::-1]:  # taking turns to go first
                    for player in first:
                        if player is not None:
                            score = game_score(kit[machine], self.rng.gauss(0.5, 1), self.rng)
                            await self.push(tid, player, machine, score)

    async def four_player_games(self, tid: str, view: str, keys: tuple[str, ...]) -> None:
        """Every player of each game scores; equal scores that matter get a play-off."""
        kit = {m.id: m for m in MACHINES}
        for key in keys:
            game = (await self.views(tid))[view]["games"][key]
            machine = game.get("machine") or next(iter(kit))
            for player in game["players"]:
                await self.push(tid, player, machine, game_score(kit[machine], 1, self.rng))
            await self.playoff_if_tied(tid, view, key, key)

    async def playoff_if_tied(self, tid: str, view: str, key: str, tie: str) -> None:
        """If game ``key`` of view ``view`` reports a tie that matters, the TD records a play-off
        for ``tie`` in a shuffled order."""
        game = (await self.views(tid))[view]["games"][key]
        if game.get("tie"):
            order = list(game["players"])
            self.rng.shuffle(order)
            await self.td(tid, "playoffs", {"tie": tie, "order": order})

    async def epc_finals(self, tid: str, names: dict[str, str]) -> list[str]:
        """The semi-finals and finals (EPC 2009, EPC Semi-Finals; EPC Finals: the game for
        5th-8th, then the Grand Final). Returns the eight semi-finalists."""
        ids = [m.id for m in MACHINES[:4]]
        await self.td(tid, "stage", {"stage": "semifinal", "machines": {"A": ids[0], "B": ids[1]}})
        await self.four_player_games(tid, "semifinal", ("A", "B"))
        semis = (await self.views(tid))["semifinal"]["games"]
        semifinalists = [p for g in semis.values() for p in g["players"]]
        await self.td(
            tid, "stage", {"stage": "final", "machines": {"playoff": ids[2], "final": ids[3]}}
        )
        await self.four_player_games(tid, "finals", ("playoff", "final"))
        await self.td(tid, "stage", {"stage": "complete"})
        rows = (await self.views(tid))["placings"]["rows"]
        top = sorted((r["place"], p) for p, r in rows.items() if r.get("place"))[:4]
        self.result.winners["epc"] = [p for _, p in top]
        self.echo("EPC 2009: " + "; ".join(f"{pl}. {names[p]}" for pl, p in top))
        return semifinalists

    # ---- the Classic and the kids ----

    async def classic_qualifying(self, prefix: str, epc_names: dict[str, str]) -> str:
        """EPC Classic qualifying (EPC 2009, EPC Classic Tournament): 160 games on eight machines,
        Paragon replaced by Eight Ball Deluxe after 20, then qualifying closed. Returns its id."""
        order = {"machine_order": [m.id for m in CLASSIC_MACHINES]}  # machines 1-8 as numbered
        tid = await self.create(f"{prefix}-classic", "EPC Classic", "epc-classic", order)
        entrants = dict(list(epc_names.items())[:25])  # EPC players may enter; numbers kept
        entrants.update({str(200 + i): f"Classic Fan {i}" for i in range(1, 16)})
        roster = [{"number": n, "name": name} for n, name in entrants.items()]
        await self.client.must("POST", f"/api/t/{tid}/players", {"players": roster})
        kit = [{"id": m.id, "name": m.name} for m in CLASSIC_MACHINES]
        await self.client.must("POST", f"/api/t/{tid}/machines", {"machines": kit})
        await self.steward(tid)
        numbers = list(entrants)
        for n in range(160):
            if n == 20:  # Paragon's flipper coil burns out with a handful of scores on it
                fault = {"machine": "c-pb", "replacement": REPLACEMENT.id,
                         "replacement_name": REPLACEMENT.name}  # fmt: skip
                await self.td(tid, "faults", fault)
                self.echo("Classic: Paragon is out; Eight Ball Deluxe replaces it.")
            kit_now = [*CLASSIC_MACHINES[:-1], CLASSIC_MACHINES[-1] if n < 20 else REPLACEMENT]
            machine = self.rng.choice(kit_now)
            player = self.rng.choice(numbers)
            await self.push(
                tid, player, machine.id, game_score(machine, self.rng.gauss(0, 1), self.rng)
            )
        await self.td(tid, "close")
        return tid

    async def classic_finals(self, tid: str, semifinalists: list[str]) -> None:
        """The Classic semi-finals and final, EPC semi-finalists forfeiting their places (EPC
        2009, EPC Classic Tournament, "their Classic Tournament place will be forfeit")."""
        players = (await self.views(tid))["players"]
        epc = [p for p in semifinalists if p in players]
        await self.client.must("POST", f"/api/t/{tid}/settings", {"settings": {"epc_players": epc}})
        places = (await self.views(tid))["classic"]["places"]
        first_half = [places[str(s)]["machine"] for s in (1, 2, 3, 4)]
        second_half = [places[str(s)]["machine"] for s in (5, 6, 7, 8)]
        await self.td(
            tid,
            "stage",
            {"stage": "semifinal", "machines": {"1": second_half[0], "2": first_half[0]}},
        )
        kit = {m.id: m for m in (*CLASSIC_MACHINES, REPLACEMENT)}
        for key in ("1", "2"):
            game = (await self.views(tid))["classic/games"]["games"][key]
            for player in game["players"]:
                await self.push(
                    tid, player, game["machine"], game_score(kit[game["machine"]], 1, self.rng)
                )
            await self.playoff_if_tied(tid, "classic/games", key, key)
        await self.td(tid, "stage", {"stage": "final", "machines": {"final": first_half[1]}})
        game = (await self.views(tid))["classic/games"]["games"]["final"]
        for player in game["players"]:
            await self.push(tid, player, first_half[1], game_score(kit[first_half[1]], 1, self.rng))
        await self.playoff_if_tied(tid, "classic/games", "final", "final")
        await self.td(tid, "stage", {"stage": "complete"})
        final = (await self.views(tid))["classic/games"]["games"]["final"]["players"]
        winner = next(p for p, row in final.items() if row.get("place") == 1)
        self.result.winners["classic"] = winner
        self.echo(f"Classic winner: #{winner} {players[winner]['name']}")

    async def kids(self, prefix: str, day: str) -> None:
        """One UK Pinball Kids Tournament on ``day`` ("Saturday", "Sunday"): 40 entries on one
        machine, then closed; its three trophies kept (EPC 2009, UK Pinball Kids Tournament)."""
        tid = await self.create(f"{prefix}-kids-{day.lower()[:3]}", f"Kids {day}", "epc-kids", {})
        roster = [{"number": str(300 + i), "name": f"{k} ({day[:3]})"} for i, k in enumerate(KIDS)]
        await self.client.must("POST", f"/api/t/{tid}/players", {"players": roster})
        await self.client.must(
            "POST",
            f"/api/t/{tid}/machines",
            {"machines": [{"id": "k1", "name": "The Simpsons Pinball Party"}]},
        )
        await self.steward(tid)
        machine = DemoMachine("k1", "", 2_000_000, 0.9, 1)
        for _ in range(40):
            kid = self.rng.choice(roster)["number"]
            await self.push(tid, kid, "k1", game_score(machine, self.rng.gauss(0, 1), self.rng))
        await self.td(tid, "close")
        rows = (await self.views(tid))["standings"]["rows"]
        self.result.winners[f"kids-{day}"] = sorted(
            (p for p, r in rows.items() if r.get("band") == "trophy"),
            key=lambda p: rows[p]["place"],
        )
        self.echo(f"Kids {day}: trophies for {', '.join(self.result.winners[f'kids-{day}'])}")


def links_line(url: str, label: str, tid: str) -> str:
    """A competition's hall display and phone page on one line ("  main:     …/display   …")."""
    phone = "country" if label == "country" else "epc"
    return f"  {label + ':':10}{url}/t/{tid}/display   {url}/t/{tid}/{phone}"


async def run_weekend(
    url: str | None = None,
    td_password: str | None = None,
    players: int = 150,
    seed: int = 2009,
    pace: float = 0.0,
    fast: bool = True,
    tournament: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    keep_serving: bool = False,
    echo: Echo = stderr,
) -> WeekendResult:
    """Run the EPC 2009 weekend on ``url`` (or a server started here): every competition from
    the first qualifying game to its last placing. Raises DemoError if a step the TD must take
    is refused (that would be a bug: the demo follows the rules)."""
    if players < 40:
        raise DemoError("The weekend needs at least 40 EPC players (32 qualifiers, 6 stand-bys).")
    rng = random.Random(seed)
    prefix = tournament or "epc"
    async with target(url, td_password, host, port) as tgt, Client(tgt, echo) as client:
        await client.sign_in_td()
        echo(f"The EPC 2009 weekend at {tgt.url}/ (the TD's desk: {tgt.url}/desk)")
        echo(f"  {'TD password:':15}{tgt.td_password}")
        echo("Each competition's hall display and phone page, as it starts:")
        weekend = Weekend(client, rng, 0.0 if fast else pace, echo)
        formats = (await client.must("GET", "/api/formats"))["formats"]
        if "epc-country" in formats:
            await run_country(weekend, prefix)
        else:
            echo("This server has no Country Competition (format epc-country): skipped.")
        main, names = await weekend.qualifying(prefix, players, seed)
        await weekend.kids(prefix, "Saturday")
        await weekend.quarterfinals(main)
        classic = await weekend.classic_qualifying(prefix, names)
        await weekend.kids(prefix, "Sunday")
        semifinalists = await weekend.epc_finals(main, names)
        await weekend.classic_finals(classic, semifinalists)
        for label, tid in weekend.result.tournaments.items():
            echo(links_line(tgt.url, label, tid))
        if keep_serving and tgt.own_server is not None and not tgt.stopping:
            echo(f"The server keeps running at {tgt.url}/ ; Ctrl-C to stop.")
            await tgt.serve_until_stopped()
    return weekend.result


@click.command("epc-weekend")
@server_options
@click.option("--players", type=click.IntRange(40, 1000), default=150, show_default=True)
@click.option("--seed", type=int, default=2009, show_default=True, help="Same seed, same weekend.")
def weekend(**options: Any) -> None:
    """The EPC 2009 weekend: Country Competition, EPC qualifying to the grand final, Classic and
    both kids tournaments, all through the HTTP API. --pace slows it to watch (default: fast).

    With no --url the server keeps running afterwards until Ctrl-C."""
    options["fast"] = options["fast"] or options["pace"] == 1.5  # the shared default: go fast
    run(run_weekend(**options, keep_serving=True))
