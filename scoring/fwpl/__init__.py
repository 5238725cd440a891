"""Flip Well Pinball League (FWPL) rules as pure functions: frozen data in, frozen data out.

Rule text: FWPL rules (the Flip Well Pinball League rules); how Backglass reads them and the open questions it settles: docs/rules.md.
Each choice the text leaves open is a field of ``FwplConfig`` (league nights and the season) or
``PlayoffConfig`` (section 6), documented there with its section. Randomness (first machines,
tie-breaker machines) comes in as a seed the caller draws and records, so a replay is identical.

Modules, in the order a night runs:

- ``ladder``: 4.3/3.1 the ladder (IFPA for week 1, then season points), 4.1/4.2 the groups;
- ``flow``: 5/5.2/2.3 first machines, who picks, which machines are allowed, play order;
- ``games``: 3.2 game points, 2.4 forfeits, 7.3 compensatory games, 8.x penalties;
- ``night``: 3.3 match bonus points over a group's four games;
- ``season``: the season table over the weeks, 2.4 absences, 2.5/8.5 season forfeits, the next
  week's ladder;
- ``playoff_cut`` and ``playoffs``: section 6, divisions, seeds, matches and brackets.

The league's entries, each a pure function from a ``League`` and one entry to the new ``League``
(or the error that refuses the entry), over the modules above:

- ``league``: the season as entered (``League`` and its nights, groups, games and playoff
  matches), members (2, 2.4), machines and the settings the season still allows (2, 6);
- ``entry``: what a night's game and a playoff game share: lines (2.3, 2.4, 7.3, 8.x), the whole
  game's players (4.2), the machine picked or assigned (5, 5.1, 6.4);
- ``league_night``: a night started, machines picked, games entered and corrected, penalties,
  the night closed (3, 3.1-3.3, 4.1-4.3, 5, 8.x);
- ``bracket``: the playoffs started, matches, picks, games and tie-breakers (6.1-6.6), and the
  walk over a division's bracket.
"""

from __future__ import annotations

from scoring.fwpl.bracket import BracketMatch
from scoring.fwpl.config import FwplConfig, PlayoffConfig
from scoring.fwpl.entry import CompensatoryGame, GameEntry, LineEntry
from scoring.fwpl.errors import (
    GroupingNotPossible,
    MachineNotAllowed,
    NotInGroup,
    PlayoffNeeded,
    SeasonForfeited,
)
from scoring.fwpl.flow import (
    MachineState,
    allowed_machines,
    check_pick,
    first_machines,
    may_join_late,
    next_picker,
    play_order,
    random_machine,
)
from scoring.fwpl.games import (
    Game,
    GameResult,
    GameRow,
    GameScore,
    Penalty,
    bonus_points,
    final_score,
    finishing_order,
    game_points,
    place_points,
    serious_penalty_game,
)
from scoring.fwpl.ladder import (
    LeaguePlayer,
    group_sizes,
    initial_ladder,
    ranked_ladder,
    split_groups,
)
from scoring.fwpl.league import Draw, Group, League, Night, PlayoffGroup, Playoffs, Slot
from scoring.fwpl.night import (
    Match,
    MatchResult,
    MatchRow,
    fifth_game_order,
    match_bonus,
    match_result,
)
from scoring.fwpl.playoff_cut import Division, playoff_divisions, playoff_sizes, split_divisions
from scoring.fwpl.playoffs import (
    DivisionResult,
    PlayoffMatch,
    PlayoffMatchResult,
    PlayoffRow,
    division_result,
    first_groups,
    next_groups,
    papa_points,
    playoff_match,
)
from scoring.fwpl.season import (
    NightPoints,
    SeasonRow,
    SeasonStandings,
    Week,
    absence_average,
    absence_credit,
    season_standings,
)

__all__ = [
    "BracketMatch",
    "CompensatoryGame",
    "Division",
    "DivisionResult",
    "Draw",
    "FwplConfig",
    "Game",
    "GameEntry",
    "GameResult",
    "GameRow",
    "GameScore",
    "Group",
    "GroupingNotPossible",
    "League",
    "LeaguePlayer",
    "LineEntry",
    "MachineNotAllowed",
    "MachineState",
    "Match",
    "MatchResult",
    "MatchRow",
    "Night",
    "NightPoints",
    "NotInGroup",
    "Penalty",
    "PlayoffConfig",
    "PlayoffGroup",
    "PlayoffMatch",
    "PlayoffMatchResult",
    "PlayoffNeeded",
    "PlayoffRow",
    "Playoffs",
    "SeasonForfeited",
    "SeasonRow",
    "SeasonStandings",
    "Slot",
    "Week",
    "absence_average",
    "absence_credit",
    "allowed_machines",
    "bonus_points",
    "check_pick",
    "division_result",
    "fifth_game_order",
    "final_score",
    "finishing_order",
    "first_groups",
    "first_machines",
    "game_points",
    "group_sizes",
    "initial_ladder",
    "match_bonus",
    "match_result",
    "may_join_late",
    "next_groups",
    "next_picker",
    "papa_points",
    "place_points",
    "play_order",
    "playoff_divisions",
    "playoff_match",
    "playoff_sizes",
    "random_machine",
    "ranked_ladder",
    "season_standings",
    "serious_penalty_game",
    "split_divisions",
    "split_groups",
]
