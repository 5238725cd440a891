"""``backglass league SEASON.json``: an FWPL season table offline, from a results file, with the
groups of the coming week. No server: the rules are ``scoring.fwpl``'s, as in the live league.

The file (JSON)::

    {"settings": {"match_bonus": "bonus"},              # optional; names as the server's
     "players": [{"number": "1", "name": "Ann", "ifpa_rank": 120, "joined_week": 1,
                  "missed_countable": true}, ...],  # false: the LO waives a late joiner's
                                                    # missed-night forfeits (FWPL 2.4, 2.5)
     "weeks": [
       {"absent": ["7"],                                # announced absences (FWPL 3.1)
        "groups": [["1", "2", "3", "4"], ...],          # optional: as played; default: cut
                                                        # from the ladder (FWPL 4.1-4.3)
        "games": [{"group": 1, "machine": "tz",
                   "scores": {"1": 1000, "2": null},    # null: a forfeit (FWPL 2.4)
                   "playoff": ["3", "4"],               # one-ball play-off order (3.2)
                   "penalties": {"2": "deathsave"},     # 8.1 extra_ball, 8.7, 8.2-8.5 serious
                   "late": ["4"]}]},                    # 2.3
       ...],
     "playoffs": {                                      # optional (FWPL 6)
       "withdrawn": ["9"],                              # cannot attend (6.6)
       "tiebreaks": [["5", "6"]],                       # single-ball order at the cut (6.1)
       "matches": [{"group": ["1", "4", "5", "8"],      # players, seed order
                    "games": [{"machine": "tz", "scores": {...}, "playoff": [...]}],
                    "missing": ["8"], "tiebreaks": [["4", "5"]]}]}}   # 6.6, 6.5

Games of a group are in the order played; a group member without a line in a game forfeits it.
Output: CSV ``place,player,name,points,nights,forfeits,credit,status`` (points exact to 2
decimals as published); with ``--groups`` the next week's groups after a blank line; then, after
a blank line, the playoff cut as the table stands (``division,seed,player,name``: FWPL 6.1, 6.2,
6.6; a tie the cut runs through without a recorded single-ball order is printed as a ``tie at
the cut`` line naming the players instead); and, when the file lists playoff matches, after a
blank line the playoffs so far (``division,round,place,player,name``: a ``placed`` row per
place decided, then a row per player of each match to play next, its round and number, FWPL
6.3-6.6). A league with no playoffs (``playoff_small_league: none``) prints neither.
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
from scoring.fwpl.errors import PlayoffNeeded
from scoring.fwpl.playoff_cut import Division, playoff_divisions
from scoring.fwpl.playoffs import PlayoffMatch, division_result
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


def _flag(value: Json, name: str) -> bool:
    """A true/false field of the file; anything else is a ValueError naming it."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}")
    return value


def parse_playoff_settings(raw: FormatSettings) -> PlayoffConfig:
    """The playoffs' ``PlayoffConfig`` from the server's ``playoff_*`` setting names (checked by
    ``parse_settings``). Raises SettingsError."""
    fields = PlayoffConfig.__dataclass_fields__
    return PlayoffConfig(
        **{
            k.removeprefix("playoff_"): v
            for k, v in raw.items()
            if k.removeprefix("playoff_") in fields and k.startswith("playoff_")
        }
    )


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
            str(p["number"]),
            str(p["name"]),
            p.get("ifpa_rank"),
            int(p.get("joined_week", 1)),
            _flag(p.get("missed_countable", True), "missed_countable"),
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


def _names(rows: list[list[object]], names: Mapping[str, str]) -> list[list[object]]:
    return [[*row, names.get(str(row[-1]), "")] for row in rows]


def cut_csv(
    players: list[LeaguePlayer],
    standings: SeasonStandings,
    playoffs: Mapping[str, Json],
    config: PlayoffConfig,
) -> tuple[str, tuple[Division, ...]]:
    """The playoff cut as the table stands (FWPL 6.1, 6.2, 6.6) as CSV ``division,seed,player,
    name``, and the divisions (none while a tie at the cut has no recorded order: the CSV then
    has a ``tie at the cut`` row saying which players play it off). ``""`` and no divisions for a
    league without playoffs (``playoff_sizes`` gives none)."""
    names = {p.number: p.name for p in players}
    withdrawn = set(map(str, playoffs.get("withdrawn") or ()))
    tiebreaks = [tuple(map(str, t)) for t in playoffs.get("tiebreaks") or ()]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("division", "seed", "player", "name"))
    try:
        divisions = playoff_divisions(standings.rows, config, withdrawn, tiebreaks)
    except PlayoffNeeded as tie:
        writer.writerow(("tie at the cut", "", "", tie.message))
        return out.getvalue(), ()
    if not divisions:
        return "", ()
    rows: list[list[object]] = [
        [d.name, seed, player] for d in divisions for seed, player in enumerate(d.seeds, start=1)
    ]
    writer.writerows(_names(rows, names))
    return out.getvalue(), divisions


def playoffs_csv(
    players: list[LeaguePlayer],
    divisions: tuple[Division, ...],
    playoffs: Mapping[str, Json],
    config: PlayoffConfig,
) -> str:
    """The playoffs so far (FWPL 6.3-6.6) as CSV ``division,round,place,player,name``: each
    division's decided places (round ``placed``), then each player of the matches to play next
    (round ``semifinal 1`` …). A match goes to the division whose seeds hold its players. Raises
    ScoringError (a match outside every bracket, a score the rules refuse, a tie without its
    tie-breaker), KeyError/TypeError/ValueError (the file's shape)."""
    names = {p.number: p.name for p in players}
    played: dict[str, list[PlayoffMatch]] = {d.name: [] for d in divisions}
    for raw in playoffs.get("matches") or ():
        group = tuple(map(str, raw["group"]))
        games = tuple(
            Game(str(g.get("machine", "")), _lines(g), tuple(map(str, g.get("playoff") or ())))
            for g in raw.get("games") or ()
        )
        home = next((d.name for d in divisions if set(group) <= set(d.seeds)), None)
        if home is None:
            raise ValueError(f"playoff match {', '.join(group)} is in no division")
        missing = frozenset(map(str, raw.get("missing") or ()))
        ties = tuple(tuple(map(str, t)) for t in raw.get("tiebreaks") or ())
        played[home].append(PlayoffMatch(group, games, missing, ties))
    rows: list[list[object]] = []
    for division in divisions:
        result = division_result(division.seeds, played[division.name], config)
        rows += [[division.name, "placed", place, player] for player, place in result.places]
        for n, group in enumerate(result.next_groups, start=1):
            rows += [[division.name, f"{result.round} {n}", "", player] for player in group]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("division", "round", "place", "player", "name"))
    writer.writerows(_names(rows, names))
    return out.getvalue()


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--groups", is_flag=True, help="Also print the next week's groups.")
@click.option("--absent", default="", help="Announced absences next week, comma-separated.")
def league(file: Path, groups: bool, absent: str) -> None:
    """An FWPL season table from a results file (JSON; see `display/competitions/fwpl/offline.py`),
    then the playoff cut as the table stands and, when the file has playoff matches, the
    playoffs so far."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        players, _, config, standings = read_season(data)
        click.echo(standings_csv(players, standings), nl=False)
        if groups:
            away = {p.strip() for p in absent.split(",") if p.strip()}
            click.echo("")
            for n, group in enumerate(split_groups(standings.next_ladder, away, config), start=1):
                click.echo(f"group {n}," + ",".join(group))
        playoff_config = parse_playoff_settings(data.get("settings") or {})
        playoffs = data.get("playoffs") or {}
        cut, divisions = cut_csv(players, standings, playoffs, playoff_config)
        if cut:
            click.echo("")
            click.echo(cut, nl=False)
            if playoffs.get("matches") and divisions:
                click.echo("")
                click.echo(playoffs_csv(players, divisions, playoffs, playoff_config), nl=False)
    except ScoringError as exc:
        raise click.ClickException(exc.message) from None
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise click.ClickException(f"{file} is not a season file as described: {exc!r}") from None
