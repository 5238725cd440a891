"""The EPC 2009 main tournament (qualifying, quarter-finals, semi-finals, finals) and the boards of
the Classic and Kids tournaments, each wrapping the per-machine ``machines`` kind."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from display.competitions.base import Competition, Default, Page, Template
from display.competitions.docs import ordinal
from display.competitions.epc_main.kind import KIND
from display.competitions.machines import EPC_QUALIFYING_DEFAULTS
from scoring.epc import classic, kids, stages
from scoring.epc import qualifying as epc_qualifying
from scoring.epc.main_tournament import STAGE_SETTINGS, MainTournament
from scoring.epc.side_tournaments import SideTournament
from scoring.tournament import Tournament
from scoring.what_if import Target


def qualifying(state: object) -> Tournament | None:
    """The qualifying tournament of an EPC main, Classic or Kids state while qualifying runs (EPC
    2009, EPC Qualifying), else None."""
    if isinstance(state, MainTournament) and state.stage == "qualifying":
        return state.qualifying
    if isinstance(state, SideTournament) and state.stage == "qualifying":
        return state.tournament
    return None


def what_if_target(fmt: str, settings: Mapping[str, Any]) -> tuple[Target, str] | None:
    """Without a cut: a Kids player aims for a trophy (EPC 2009, UK Pinball Kids Tournament), a
    Classic player for a qualifying place (EPC 2009, EPC Classic Tournament)."""
    if fmt == "epc-kids":
        trophies = int(settings.get("trophies", 3))
        return Target(trophies), f"a trophy ({ordinal(trophies)} or better)"
    if fmt == "epc-classic":
        return Target(bands=frozenset({"leading", "qualified"})), "a qualifying place"
    return None


TEMPLATES: tuple[Template, ...] = (
    Template(
        "epc-main",
        "EPC main tournament",
        "EPC 2009",
        "epc-main",
        "Qualifying on six machines, then quarter-finals, semi-finals and the final.",
        (
            *EPC_QUALIFYING_DEFAULTS,
            Default(
                "replaced_rank",
                "swap",
                "EPC 2009, EPC Quarter-Finals: a replaced player takes their qualifying rank",
            ),
            Default(
                "vacancies",
                "by-round",
                "EPC 2009, EPC Quarter-Finals: stand-bys fill vacancies before each round",
            ),
            Default(
                "absent_standby",
                "skip",
                "EPC 2009, EPC Quarter-Finals: the next stand-by present fills a vacancy",
            ),
            Default(
                "pairing",
                "fold",
                "EPC 2009, EPC Quarter-Finals: a pre-selected partner (best seed with worst)",
            ),
            Default(
                "quarterfinal_ties",
                "qualifying",
                "EPC 2009, EPC Quarter-Finals: equal "
                "totals at the top-8 cut ordered by qualifying position",
            ),
            Default(
                "place_ties",
                "share",
                "EPC 2009, EPC Quarter-Finals: places 9-32 by ranking "
                "points, equal points share",
            ),
            Default(
                "game_ties",
                "playoff",
                "EPC 2009, EPC Semi-Finals, EPC Finals: equal scores go to a play-off game",
            ),
            Default(
                "late_corrections",
                "refuse",
                "EPC 2009, EPC Qualifying: the seeding is made at the close; a later "
                "correction waits for the TD to reopen qualifying",
            ),
        ),
    ),
    Template(
        "epc-classic",
        "EPC Classic Tournament",
        "EPC 2009",
        "epc-classic",
        "Eight pre-DMD machines, best score per machine, semi-finals and a final.",
        (
            Default(
                "lead",
                "difference",
                "EPC 2009, EPC Classic Tournament: how far ahead of "
                "the second best, as a difference",
            ),
            Default(
                "already_qualified",
                "pass-on",
                "EPC 2009, EPC Classic Tournament: a player "
                "already top elsewhere passes an inherited machine on",
            ),
            Default(
                "fault_count",
                "players",
                "EPC 2009, EPC Classic Tournament: 10 or more "
                "players' scores, counted as players",
            ),
            Default(
                "fault_minimum",
                10,
                "EPC 2009, EPC Classic Tournament: 10 or more players' "
                "scores keep a broken machine's table",
            ),
        ),
    ),
    Template(
        "epc-kids",
        "UK Pinball Kids Tournament",
        "EPC 2009",
        "epc-kids",
        "One machine, any number of entries, three trophies a day.",
        (
            Default(
                "trophies",
                3,
                "EPC 2009, UK Pinball Kids Tournament: the three players "
                "with the highest scores",
            ),
            Default(
                "ties",
                "share",
                "EPC 2009, UK Pinball Kids Tournament: equal scores are "
                "equally high, so they share the place",
            ),
        ),
    ),
)  # fmt: skip
"""The desk's templates of this competition."""


COMPETITION = Competition(
    name="epc_main",
    formats=("epc-main", "epc-classic", "epc-kids"),
    kind=KIND,
    routes="display.competitions.epc_main.routes:routes",
    display_views={
        "epc-main": ("epc", "standings", "queues"),
        "epc-classic": ("classic", "machines"),
        "epc-kids": ("kids",),
    },
    view_scripts=("epc", "quarterfinal", "semifinal", "finals", "placings", "classic", "kids"),
    format_views={
        "epc-main": ("epc", "quarterfinal", "semifinal", "finals", "placings"),
        "epc-classic": ("classic",),
        "epc-kids": ("kids",),
    },
    pages={"epc-main": (Page("Stages", "epc"), Page("TD stages", "stages"))},
    templates=TEMPLATES,
    reason_required=frozenset({"stage_reopened", "reseeded"}),
    qualifying=qualifying,
    what_if_target=what_if_target,
    demos=("display.competitions.epc_main.demo:weekend",),
    setting_choices={
        # the stage choices under the main event's names (quarterfinal_ties for the stages' cut_ties)
        "epc-main": {
            **epc_qualifying.CHOICES,
            **{k: stages.CHOICES[f] for k, f in STAGE_SETTINGS.items() if f in stages.CHOICES},
        },
        "epc-classic": classic.CHOICES,
        "epc-kids": kids.CHOICES,
    },
)
