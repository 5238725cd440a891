"""The Flip Well Pinball League: league nights of group matches, the season table and the
playoffs (``scoring.fwpl``)."""

from __future__ import annotations

from display.competitions.base import Competition, Default, Page, Template
from display.competitions.fwpl.kind import KIND
from display.competitions.fwpl.state import PLAYOFF_PREFIX
from scoring.fwpl.config import CHOICES, PLAYOFF_CHOICES

TEMPLATES: tuple[Template, ...] = (
    Template(
        "fwpl-league-night",
        "FWPL league night",
        "Flip Well Pinball League",
        "fwpl-league",
        "Groups of four by the ladder, four games a night, a season and playoffs.",
        (
            Default("games_per_match", 4, "FWPL 4: a match consists of four games"),
            Default(
                "match_bonus",
                "bonus",
                "FWPL 3.3: the fifth game awards the match bonus points only",
            ),
            Default(
                "absence_credits",
                1,
                "FWPL 2.4: 50% of the average for the first whole "
                "night missed; later ones get nothing",
            ),
            Default(
                "season_forfeit_limit",
                12,
                "FWPL 2.5: twelve countable forfeits forfeit the season",
            ),
            Default("weeks", 8, "FWPL 2: the LO sets the season's length"),
            Default(
                "playoff_cut", "table", "FWPL 6.1: the playoff division sizes by league size"
            ),
        ),
    ),
)  # fmt: skip
"""The desk's templates of this competition."""


COMPETITION = Competition(
    name="fwpl",
    formats=("fwpl-league",),
    kind=KIND,
    routes="display.competitions.fwpl.routes:routes",
    display_views={"fwpl-league": ("fwpl_groups", "fwpl_night", "fwpl_season", "fwpl_bracket")},
    view_scripts=("fwpl_groups", "fwpl_night", "fwpl_season", "fwpl_bracket"),
    pages={"fwpl-league": (Page("League", "league"), Page("Group entry", "league-entry"))},
    players_page={"fwpl-league": "league"},
    templates=TEMPLATES,
    reason_required=frozenset(
        {
            "game_corrected",
            "penalty_recorded",
            "third_offence_recorded",
            "machine_died",
            "playoffs_reopened",
            "playoff_game_voided",
        }
    ),
    versioned_paths=(r"/league/corrections$", r"/league/playoff-voids$"),
    demos=("display.competitions.fwpl.demo:fwpl",),
    commands=("display.competitions.fwpl.offline:league",),
    setting_choices={
        "fwpl-league": {
            **CHOICES,
            **{PLAYOFF_PREFIX + name: choices for name, choices in PLAYOFF_CHOICES.items()},
        }
    },
)
