"""``backglass demo ukpl FILE.csv``: replay a real UKPL meeting through the steward API.

The file has columns ``machine,player,score,guest`` (as tests/cases/ukpl/meet-*-scores.csv and examples/);
a blank score is no entry. The standings printed at the end are the SERVER's (its ``standings`` and
``players`` views), in the published files' shape: ``player,position,meet_total,league_points``.
"""

from __future__ import annotations

import asyncio
import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from display.cli.demo.common import (
    Client,
    DemoError,
    Echo,
    points_text,
    run,
    server_options,
    slug,
    stderr,
    target,
)
from display.types import Doc, FormatSettings

ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
GUEST = {"1", "true", "yes", "y"}
STEWARD = "Replay Steward"
COLUMNS = ("player", "position", "meet_total", "league_points")
Scored = tuple[str, str, Any]
"""A score as read: (player number, machine id, score as typed). The score is an int, or text the
server will refuse; either is pushed as it is, so its type is the server's to check."""


@dataclass
class Meeting:
    """A meeting read from CSV: players (number -> (name, guest)), machines (name -> id) and the
    scores (player number, machine id, score as typed: an int, or text the server will refuse)."""

    players: dict[str, tuple[str, bool]] = field(default_factory=dict)
    machines: dict[str, str] = field(default_factory=dict)
    scores: list[Scored] = field(default_factory=list)


def read_meeting(path: Path) -> Meeting:
    """Parse a meeting CSV. Machine ids are short unique slugs of the names; a player value that is
    not a valid id gets a slug as number and keeps the value as name. Raises DemoError if a column
    is missing."""
    meeting = Meeting()
    numbers: dict[str, str] = {}
    with path.open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        missing = {"machine", "player", "score"} - set(reader.fieldnames or ())
        if missing:
            raise DemoError(f"{path} has no column {', '.join(sorted(missing))}.")
        for row in reader:
            machine, player = row["machine"].strip(), row["player"].strip()
            if not machine or not player:
                continue
            if player not in numbers:
                taken = set(numbers.values())
                ok = ID.match(player) and player not in taken
                numbers[player] = player if ok else slug(player, taken, 32)
            number = numbers[player]
            guest = (row.get("guest") or "").strip().lower() in GUEST
            was_guest = meeting.players.get(number, ("", False))[1]
            meeting.players[number] = (player, guest or was_guest)
            if machine not in meeting.machines:
                meeting.machines[machine] = slug(machine, set(meeting.machines.values()))
            text = re.sub(r"[\s,_]", "", row["score"] or "")
            if text:
                score = int(text) if text.isdigit() else row["score"]
                meeting.scores.append((number, meeting.machines[machine], score))
    return meeting


def round_robin(scores: list[Scored]) -> list[Scored]:
    """The scores reordered as a meeting is played: a game on each machine in turn, so the
    displays show every machine filling up (the result does not depend on order)."""
    per_machine: dict[str, list[Scored]] = {}
    for score in scores:
        per_machine.setdefault(score[1], []).append(score)
    rounds = max((len(s) for s in per_machine.values()), default=0)
    return [s[i] for i in range(rounds) for s in per_machine.values() if i < len(s)]


def standings_rows(views: dict[str, Doc], meeting: Meeting) -> list[dict[str, str]]:
    """The server's meeting standings, guests and unplaced players left out, by position:
    ``player`` (as in the file), ``position``, ``meet_total``, ``league_points`` as text."""
    players = views["players"]
    rows = []
    for number, row in views["standings"]["rows"].items():
        if players[number].get("guest") or row.get("place") is None:
            continue
        rows.append(
            {
                "player": meeting.players[number][0] if number in meeting.players else number,
                "position": str(row["place"]),
                "meet_total": points_text(row.get("total", 0)),
                "league_points": points_text(row.get("league_points", 0)),
            }
        )
    return sorted(rows, key=lambda r: int(r["position"]))


def standings_csv(rows: list[dict[str, str]]) -> str:
    """Rows from ``standings_rows`` as CSV text with a header line."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


async def replay_ukpl(
    file: Path,
    url: str | None = None,
    td_password: str | None = None,
    settings: FormatSettings | None = None,
    pace: float = 1.5,
    fast: bool = False,
    tournament: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    echo: Echo = stderr,
    done: Callable[[list[dict[str, str]]], None] | None = None,
    keep_serving: bool = False,
) -> list[dict[str, str]]:
    """Replay the meeting in ``file`` on ``url`` (or on a server started here, stopped at the end)
    as a "ukpl-meeting" with ``settings`` (e.g. ``{"ties": "low"}``; the format's defaults
    otherwise), pushing every score as a steward. A refused push is printed and skipped. Returns
    the server's final standings (``standings_rows``), first to ``done`` when given; with
    ``keep_serving`` and a server of our own it then serves until Ctrl-C, like the other demos.
    Raises DemoError if setup fails."""
    meeting = read_meeting(file)
    wanted = tournament or slug(re.sub(r"[-_ ]?scores$", "", file.stem), limit=28)
    async with target(url, td_password, host, port) as tgt, Client(tgt, echo) as client:
        await client.sign_in_td()
        tid = await client.create_tournament(
            wanted, f"UKPL meeting ({file.name})"[:80], "ukpl-meeting", settings or {}
        )
        roster = [
            {"number": n, "name": name[:80], "guest": guest}
            for n, (name, guest) in meeting.players.items()
        ]
        if roster:
            await client.must("POST", f"/api/t/{tid}/players", {"players": roster})
        kit = [{"id": mid, "name": name[:80]} for name, mid in meeting.machines.items()]
        if kit:
            await client.must("POST", f"/api/t/{tid}/machines", {"machines": kit})
        pin = await client.sign_in_steward(tid, STEWARD)
        used = (await client.views(tid))["tournament"].get("settings", {})
        echo(f"Replaying {file.name} as {tid!r}: {len(roster)} players, {len(kit)} machines, "
             f"{len(meeting.scores)} scores.")  # fmt: skip
        echo("  Settings:      " + ", ".join(f"{k}={v}" for k, v in used.items()))
        for label, link in tgt.links(tid).items():
            echo(f"  {label + ':':15}{link}")
        echo(f"  {'TD password:':15}{tgt.td_password}\n  {'Steward:':15}{STEWARD}, PIN {pin}")
        machine_names = {mid: name for name, mid in meeting.machines.items()}
        for n, (player, machine, score) in enumerate(round_robin(meeting.scores), start=1):
            if tgt.stopping:
                break
            refused = await client.push(tid, player, machine, score, f"{tid}-{n}")
            if refused or not fast:
                name = meeting.players[player][0]
                shown = f"{score:,}" if isinstance(score, int) else repr(score)
                note = f"  REFUSED {refused}" if refused else ""
                echo(f"{n:>4}  {name} on {machine_names[machine]}: {shown}{note}")
            if not fast and pace:
                await asyncio.sleep(pace)
        rows = standings_rows(await client.views(tid), meeting)
        if done is not None:
            done(rows)
        if keep_serving and tgt.own_server is not None and not tgt.stopping:
            echo(f"The server keeps running at {tgt.url}/ ; Ctrl-C to stop.")
            await tgt.serve_until_stopped()
        return rows


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@server_options
@click.option("--set", "pairs", multiple=True, metavar="KEY=VALUE",
              help="A format setting, e.g. ties=low or bonus=gte; repeatable.")  # fmt: skip
def ukpl(file: Path, pairs: tuple[str, ...], **options: Any) -> None:
    """Replay a UKPL meeting (CSV: machine,player,score,guest) and print the server's standings
    as CSV: player,position,meet_total,league_points (guests left out).

    With no --url the server keeps running afterwards until Ctrl-C."""
    settings = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--set")
        settings[key.strip()] = value.strip()

    def print_standings(rows: list[dict[str, str]]) -> None:
        click.echo(standings_csv(rows), nl=False)  # before serving on: a pipe reads it at once

    run(replay_ukpl(file, settings=settings, done=print_standings, keep_serving=True, **options))
