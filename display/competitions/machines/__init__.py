"""Per-machine competitions and the hall around them: every entry is one score by one player on one
machine (``scoring.FORMATS``), with machine queues, machine status, corrections and voids. The
EPC qualifying runs here as it is; the UKPL meeting and the EPC main event, Classic and Kids
tournaments wrap this kind."""

from __future__ import annotations

from display.competitions.base import Competition, Default, Template
from display.competitions.machines.kind import MACHINES
from scoring.epc import qualifying as epc_qualifying
from scoring.tournament import Tournament

QUALIFYING = "EPC 2009, EPC Qualifying"
EPC_QUALIFYING_DEFAULTS = (
    Default("scale", "papa", f"{QUALIFYING}: 100 points for the top score; the text gives no "
            "lower values, so the PAPA scale 100, 90, 85, 84 …"),
    Default("machines_per_player", 6, f"{QUALIFYING}: one game on each of six machines"),
    Default("jokers_per_player", 1, f"{QUALIFYING}: one Joker Game"),
    Default("qualify", 32, f"{QUALIFYING}: the 32 highest ranked players progress"),
    Default("standby", 6, f"{QUALIFYING}: players ranked 33-38 are stand-by"),
    Default("cut_ties", "include", f"{QUALIFYING}: silent on ties at the cut; tied players "
            "share the better place and go through together"),
)  # fmt: skip


def qualifying(state: object) -> Tournament | None:
    """The state itself: a per-machine tournament is qualifying all along."""
    return state if isinstance(state, Tournament) else None


TEMPLATES: tuple[Template, ...] = (
    Template(
        "epc-qualifying",
        "EPC qualifying only",
        "EPC 2009",
        "epc-qualifying",
        "Just the qualifying round: best game on each machine, a joker, the cut.",
        EPC_QUALIFYING_DEFAULTS,
    ),
)  # fmt: skip
"""The desk's templates of this competition."""


COMPETITION = Competition(
    name="machines",
    formats=("epc-qualifying",),
    kind=MACHINES,
    routes="display.competitions.machines.routes:routes",
    # what is happening now first: who is on each machine, then the queues, then the tables
    display_views={"epc-qualifying": ("queue", "queues", "standings", "machines")},
    view_scripts=("queues",),
    templates=TEMPLATES,
    reason_required=frozenset(
        {
            "score_corrected",
            "score_voided",
            "player_withdrawn",
            "player_reinstated",
            "players_merged",
        }
    ),
    versioned_paths=(r"/scores/\{seq\}/(correct|void)$",),
    qualifying=qualifying,
    demos=("display.competitions.machines.demo:epc",),
    offline={"epc-qualifying": "display.competitions.machines.offline:EPC_QUALIFYING"},
    setting_choices={"epc-qualifying": epc_qualifying.CHOICES},
)
