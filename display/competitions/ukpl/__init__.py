"""The UK Pinball League: a meeting's machine points, bonus point and league points, its
adjustments and faults, and the region's season table across meetings (``scoring.ukpl``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from display.competitions.base import Competition, Default, Page, Template
from display.competitions.ukpl.kind import KIND
from display.competitions.ukpl.records import ESCALATION
from display.competitions.ukpl.state import UkplState
from scoring.tournament import Tournament
from scoring.ukpl import adjust, meeting, season

if TYPE_CHECKING:  # the writer loads Redis; declaring the competition must not (test_layout)
    from display.log.writer import Writer


def qualifying(state: object) -> Tournament | None:
    """The meeting's per-machine tournament (UKPL 3B): it counts until the meeting is over."""
    return state.meeting if isinstance(state, UkplState) else None


def observe(writer: Writer, tid: str) -> None:
    """After records of meeting ``tid`` were applied: keep the season's meetings in step
    (``display.competitions.ukpl.season_links``, UKPL 3E)."""
    from display.competitions.ukpl import season_links as ukpl_season_view

    ukpl_season_view.observe(writer, tid)


TEMPLATES: tuple[Template, ...] = (
    Template(
        "ukpl-meeting", "UKPL league meeting", "UK Pinball League", "ukpl-meeting",
        "Machine points N down to 1 with a bonus point, then 20 league points down.",
        (
            Default("ties", "high", "UKPL 3B: equal scores both get the higher value (the "
                    "league's 2025 practice)"),
            Default("bonus", "gt", "UKPL 3B: a bonus point for more than double the second"),
            Default("no_score", "unranked", "UKPL 3D: league points go to placed players; one "
                    "with no score did not compete"),
        ),
    ),
)  # fmt: skip
"""The desk's templates of this competition."""

REASON_REQUIRED = frozenset(
    {
        "jackpot_adjusted", "fault_replay", "fault_one_ball", "adjustment_withdrawn",
        "season_results_removed", "penalty", "extra_ball_penalty", "slam_tilt",
        "player_reclassified",
    }
)  # fmt: skip
"""Adjustments, faults, penalties, season removals and a player made a guest or a region player
say why (UKPL 1C, 2E, 3C, 6A, 6C, 7A-7D)."""


COMPETITION = Competition(
    name="ukpl",
    formats=("ukpl-meeting",),
    kind=KIND,
    routes="display.competitions.ukpl.routes:routes",
    # a UKPL meeting plays in groups, not queues: a queues page would show every machine "free"
    display_views={"ukpl-meeting": ("machines", "standings", "ukpl_season")},
    view_scripts=("ukpl_season", "ukpl_adjustments"),
    pages={"ukpl-meeting": (Page("Season", "season"), Page("Adjustments", "adjust"))},
    templates=TEMPLATES,
    reason_required=REASON_REQUIRED,
    versioned_paths=(r"/adjustments/\{seq\}/withdraw$",),
    observe=observe,
    qualifying=qualifying,
    player_place="region",
    demos=("display.competitions.ukpl.demo:ukpl",),
    offline={
        "ukpl-meeting": "display.competitions.ukpl.offline:UKPL_MEETING",
        "ukpl-season": "display.competitions.ukpl.offline:UKPL_SEASON",
    },
    setting_choices={
        "ukpl-meeting": {
            **meeting.CHOICES,
            **season.CHOICES,
            **adjust.CHOICES,
            "escalation": ESCALATION,
        }
    },
)
