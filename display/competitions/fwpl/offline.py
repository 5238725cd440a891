"""``backglass league SEASON.json``: an FWPL season table offline, from a results file, with the
groups of the coming week. No server: the rules are ``scoring.fwpl``'s, as in the live league.

The file (JSON)::

    {"settings": {"match_bonus": "bonus"},              # optional; names as the server's
     "players": [{"number": "1", "name": "Ann", "ifpa_rank": 120, "joined_week": 1}, ...],
     "weeks": [
       {"absent": ["7"],                                # announced absences (FWPL 3.1)
        "groups": [["1", "2", "3", "4"], ...],          # optional: as played; default: cut
                                                        # from the ladder (FWPL 4.1-4.3)
        "games": [{"group": 1, "machine": "tz",
                   "scores": {"1": 1000, "2": null},    # null: a forfeit (FWPL 2.4)
                   "playoff": ["3", "4"],               # one-ball play-off order (3.2)
                   "penalties": {"2": "deathsave"},     # 8.1 extra_ball, 8.7, 8.2-8.5 serious
                   "late": ["4"]}]},                    # 2.3
       ...]}

Games of a group are in the order played; a group member without a line in a game forfeits it.
Output: CSV ``place,player,name,points,nights,forfeits,credit,status`` (points exact to 2
decimals as published), and with ``--groups`` the next week's groups after a blank line.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from pathlib import Path

import click

from display.types import FormatSettings, Json
from scoring.errors import ScoringError
from scoring.fwpl import (
    FwplConfig,
    Game,
    GameScore,
    LeaguePlayer,
    Match,
    SeasonStandings,
    Week,
    season_standings,
    split_groups,
)
from scoring.fwpl.config import PlayoffConfig
from scoring.rounding import points_json
from scoring.settings import check_known

COLUMNS = ("place", "player", "name", "points", "nights", "forfeits", "credit", "status")


def _lines(game: Mapping[str, Json]) -> tuple[GameScore, ...]:
    penalties = game.get("penalties") or {}
    late = set(game.get("late") or ())
    return tuple(
        GameScore(str(p), s, penalty=penalties.get(p, "none"), late=p in late)
        for p, s in (game.get("scores") or {}).items()
    )


def parse_settings(raw: FormatSettings) -> FwplConfig:
    """The league's ``FwplConfig`` from the server's setting names (``playoff_*`` and ``weeks``
    are accepted and play no part in the table). Raises SettingsError."""
    league = tuple(FwplConfig.__dataclass_fields__)
    others = (*(f"playoff_{k}" for k in PlayoffConfig.__dataclass_fields__), "weeks")
    check_known("Flip Well Pinball League", raw, (*league, *others))
    return FwplConfig(**{k: v for k, v in raw.items() if k in league})


def read_season(
    data: Mapping[str, Json],
) -> tuple[list[LeaguePlayer], list[Week], FwplConfig, SeasonStandings]:
    """The players, weeks and settings of a results file (see the module docstring), and the
    season table. Groups a week does not list are cut from the ladder the weeks before give
    (FWPL 3.1, 4.1-4.3). Raises ScoringError (the rules refuse something), KeyError/TypeError/
    ValueError (the file's shape)."""
    config = parse_settings(data.get("settings") or {})
    players = [
        LeaguePlayer(
            str(p["number"]), str(p["name"]), p.get("ifpa_rank"), int(p.get("joined_week", 1))
        )
        for p in data["players"]
    ]
    weeks: list[Week] = []
    for week in data.get("weeks") or ():
        if week.get("groups"):
            groups = [tuple(map(str, g)) for g in week["groups"]]
        else:
            ladder = season_standings(players, weeks, config).next_ladder
            groups = list(split_groups(ladder, set(map(str, week.get("absent") or ())), config))
        games: dict[int, list[Game]] = {n: [] for n in range(1, len(groups) + 1)}
        for game in week.get("games") or ():
            playoff = tuple(map(str, game.get("playoff") or ()))
            games[int(game["group"])].append(
                Game(str(game.get("machine", "")), _lines(game), playoff)
            )
        matches = tuple(Match(g, tuple(games[n])) for n, g in enumerate(groups, start=1))
        weeks.append(Week(matches))
    return players, weeks, config, season_standings(players, weeks, config)


def standings_csv(players: list[LeaguePlayer], standings: SeasonStandings) -> str:
    """The season table as CSV (``COLUMNS``)."""
    names = {p.number: p.name for p in players}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in standings.rows:
        writer.writerow(
            (
                "" if row.place is None else row.place,
                row.player,
                names[row.player],
                points_json(row.points),
                row.nights,
                row.forfeits,
                points_json(row.credit),
                row.status,
            )
        )
    return out.getvalue()


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--groups", is_flag=True, help="Also print the next week's groups.")
@click.option("--absent", default="", help="Announced absences next week, comma-separated.")
def league(file: Path, groups: bool, absent: str) -> None:
    """An FWPL season table from a results file (JSON; see `display/competitions/fwpl/offline.py`)."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        players, _, config, standings = read_season(data)
        click.echo(standings_csv(players, standings), nl=False)
        if groups:
            away = {p.strip() for p in absent.split(",") if p.strip()}
            click.echo("")
            for n, group in enumerate(split_groups(standings.next_ladder, away, config), start=1):
                click.echo(f"group {n}," + ",".join(group))
    except ScoringError as exc:
        raise click.ClickException(exc.message) from None
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise click.ClickException(f"{file} is not a season file as described: {exc!r}") from None
