"""``backglass demo fwpl``: a simulated FWPL season (20 players, 8 weeks, playoffs) pushed through
the HTTP API of a real server, then checked against an independent full recompute: the test
rebuilds every week's groups from the ladder and scores the whole season and the playoffs with the
pure engine (``scoring.fwpl``) from what the demo sent, never from the server's state."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from click.testing import CliRunner

from display.cli.main import cli
from display.competitions.fwpl.demo import FwplJournal, run_fwpl
from scoring.fwpl import (
    Game,
    GameScore,
    LeaguePlayer,
    Match,
    PlayoffConfig,
    PlayoffMatch,
    SeasonStandings,
    Week,
    division_result,
    playoff_divisions,
    season_standings,
    split_groups,
)
from scoring.rounding import points_json
from tests.utils import TD_PASSWORD


def recompute_season(journal: FwplJournal) -> tuple[SeasonStandings, list[list[tuple[str, ...]]]]:
    """The season from the journal alone: week by week, groups cut from the ladder the season so
    far gives (FWPL 3.1, 4.1-4.3), the week's games scored (3.2, 3.3, 2.4)."""
    players = [LeaguePlayer(n, name, rank) for n, (name, rank) in journal.players.items()]
    weeks: list[Week] = []
    groups_by_week = []
    for week in sorted(journal.games):
        ladder = season_standings(players, weeks).next_ladder
        groups = split_groups(ladder, set(journal.absent[week]))
        groups_by_week.append(list(groups))
        games: dict[int, list[Game]] = defaultdict(list)
        for group, _game_no, machine, lines, playoff in sorted(
            journal.games[week], key=lambda g: (g[0], g[1])
        ):
            scores = tuple(
                GameScore(
                    p,
                    line["score"],
                    penalty=line.get("penalty", "none"),
                    late=line.get("late", False),
                )
                for p, line in lines.items()
            )
            games[group].append(Game(machine, scores, tuple(playoff)))
        matches = tuple(Match(g, tuple(games[n])) for n, g in enumerate(groups, start=1))
        weeks.append(Week(matches))
    return season_standings(players, weeks), groups_by_week


def recompute_playoffs(journal: FwplJournal, standings: SeasonStandings) -> dict[str, Any]:
    """Divisions (FWPL 6.1, 6.2) and each bracket's places (6.3-6.5) from the journal alone."""
    divisions = playoff_divisions(standings.rows, PlayoffConfig(), (), journal.tiebreaks)
    out = {}
    for division in divisions:
        games: dict[frozenset[str], list[Game]] = defaultdict(list)
        groups: dict[frozenset[str], tuple[str, ...]] = {}
        for name, players, _n, machine, scores, playoff in journal.playoff_games:
            if name == division.name:
                key = frozenset(players)
                groups[key] = tuple(players)
                lines = tuple(GameScore(p, s) for p, s in scores.items())
                games[key].append(Game(machine, lines, tuple(playoff)))
        tiebreaks: dict[frozenset[str], list[tuple[str, ...]]] = defaultdict(list)
        for name, players, order in journal.playoff_tiebreaks:
            if name == division.name:
                tiebreaks[frozenset(players)].append(tuple(order))
        played = [
            PlayoffMatch(groups[k], tuple(games[k]), tiebreaks=tuple(tiebreaks[k])) for k in groups
        ]
        out[division.name] = (division.seeds, division_result(division.seeds, played))
    return out


async def test_a_simulated_season_matches_an_independent_recompute(server: str) -> None:
    lines: list[str] = []
    result = await run_fwpl(
        url=server, td_password=TD_PASSWORD, players=20, weeks=8, seed=2024, fast=True,
        echo=lines.append,
    )  # fmt: skip
    assert result is not None
    journal, views = result.journal, result.views
    # the season exercised what the recompute must get right
    assert len(journal.players) == 20 and len(journal.games) == 8
    assert any(journal.absent.values())  # announced absences (FWPL 3.1)
    every = [g for week in journal.games.values() for g in week]
    assert any(playoff for *_, playoff in every)  # a one-ball play-off (3.2)
    assert any(line["score"] is None for g in every for line in g[3].values())  # forfeits (2.4)
    assert any(line.get("late") for g in every for line in g[3].values())  # a late arrival (2.3)

    standings, groups = recompute_season(journal)
    for week, expected in enumerate(groups, start=1):
        doc = views[f"night/{week}"]["groups"]
        served = [
            tuple(
                sorted(doc[str(n)]["players"], key=lambda p, n=n: doc[str(n)]["players"][p]["seed"])
            )
            for n in range(1, len(doc) + 1)
        ]
        assert served == expected, f"week {week} groups"
    season = views["season"]["rows"]
    assert len(season) == 20
    for row in standings.rows:
        assert season[row.player]["points"] == points_json(row.points), row.player
        assert season[row.player].get("place") == row.place, row.player
        assert season[row.player]["forfeits"] == row.forfeits, row.player
    assert any(row.credit for row in standings.rows)  # an absence credit (2.4) was recomputed

    brackets = recompute_playoffs(journal, standings)
    served_divisions = views["bracket"]["divisions"]
    assert set(served_divisions) == set(brackets) == {"A"}  # 17-24 players: one division of 12
    for name, (seeds, outcome) in brackets.items():
        division = served_divisions[name]
        assert len(seeds) == 12
        assert sorted(division["seeds"], key=division["seeds"].__getitem__) == list(seeds)
        assert outcome.round == division["round"] == "done"
        assert division["places"] == dict(outcome.places)
        assert sorted(division["places"].values())[:4] == [1, 2, 3, 4]
    assert "Season complete" in "\n".join(lines)


def test_the_command_is_registered() -> None:
    answer = CliRunner().invoke(cli, ["demo", "fwpl", "--help"])
    assert answer.exit_code == 0, answer.output
    assert "--weeks" in answer.output and "--players" in answer.output
