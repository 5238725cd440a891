"""The EPC 2009 Country Competition: seeded teams in groups, team matches and the 4-ball game,
then a six-team final (``scoring.epc.country``)."""

from __future__ import annotations

from display.competitions.base import Competition, Default, Page, Template
from display.competitions.epc_country.kind import KIND
from scoring.epc.country.model import CHOICES

TEMPLATES: tuple[Template, ...] = (
    Template(
        "epc-country",
        "EPC Country Competition",
        "EPC 2009",
        "epc-country",
        "Teams of four in five groups of four, then a final of six.",
        (
            Default("groups", 5, "EPC 2009, EPC Country Competition: 5 groups of 4 teams"),
            Default("group_size", 4, "EPC 2009, EPC Country Competition: 5 groups of 4 teams"),
            Default(
                "finalists",
                6,
                "EPC 2009, EPC Country Competition: the six teams with the "
                "highest ranking points go on to the finals",
            ),
            Default(
                "team_players",
                4,
                "EPC 2009, EPC Country Competition: two members on each "
                "of a match's two machines",
            ),
            Default(
                "match_points",
                "sum_of_places",
                "EPC 2009, EPC Country Competition: the "
                "only reading giving the stated 84 and 140 maxima",
            ),
            Default(
                "forfeit_award",
                "both_machines",
                "EPC 2009, EPC Country Competition "
                "(Timekeeping): the opposing team gets the top 2 scores",
            ),
        ),
    ),
)  # fmt: skip
"""The desk's templates of this competition."""


COMPETITION = Competition(
    name="epc_country",
    formats=("epc-country",),
    kind=KIND,
    routes="display.competitions.epc_country.routes:routes",
    display_views={"epc-country": ("country_groups", "four_ball", "country_final")},
    view_scripts=("country_groups", "four_ball", "country_final"),
    pages={"epc-country": (Page("Tables", "country"), Page("Team entry", "team-entry"))},
    players_page={"epc-country": "country"},
    templates=TEMPLATES,
    reason_required=frozenset(
        {"record_voided", "slam_tilt_recorded", "late_recorded", "stage_reopened"}
    ),
    versioned_paths=(r"/country/void$",),
    setting_choices={"epc-country": CHOICES},
)
