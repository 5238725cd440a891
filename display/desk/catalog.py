"""Competition templates: one per competition in the rule texts, as data.

A template names the format that runs the competition and the settings it starts with, each with
the rule section its value comes from (or the reading Backglass takes where the text is silent;
the format's own settings docstring gives the reasons). The TD adjusts any of them when creating
the tournament and later (``POST /api/t/{id}/settings``). A template whose format this server does
not run yet is listed as unavailable, so it lights up when its kind lands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Default:
    """One setting: its ``key`` and ``value`` as the format reads them, and where it comes from."""

    key: str
    value: Any
    source: str


@dataclass(frozen=True)
class Template:
    """A competition: ``id`` (stable, for the API), ``name``, ``rules`` (the text it follows),
    ``format`` (a format name of ``display.competitions``), ``about`` (one line for the TD) and its
    ``defaults``."""

    id: str
    name: str
    rules: str
    format: str
    about: str
    defaults: tuple[Default, ...]

    def settings(self) -> dict[str, Any]:
        """The default settings as the format reads them."""
        return {d.key: d.value for d in self.defaults}

    def as_json(self, running: Iterable[str]) -> dict[str, Any]:
        """The template for ``GET /api/templates``; ``available`` when the server runs its format."""
        return {
            "id": self.id,
            "name": self.name,
            "rules": self.rules,
            "format": self.format,
            "about": self.about,
            "available": self.format in set(running),
            "settings": [
                {"key": d.key, "value": d.value, "source": d.source} for d in self.defaults
            ],
        }


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

TEMPLATES: tuple[Template, ...] = (
    Template(
        "epc-main", "EPC main tournament", "EPC 2009", "epc-main",
        "Qualifying on six machines, then quarter-finals, semi-finals and the final.",
        (
            *EPC_QUALIFYING_DEFAULTS,
            Default("replaced_rank", "swap", "EPC 2009, EPC Quarter-Finals: a replaced player "
                    "takes their qualifying rank"),
            Default("vacancies", "by-round", "EPC 2009, EPC Quarter-Finals: stand-bys fill "
                    "vacancies before each round"),
            Default("absent_standby", "skip", "EPC 2009, EPC Quarter-Finals: the next stand-by "
                    "present fills a vacancy"),
            Default("pairing", "fold", "EPC 2009, EPC Quarter-Finals: a pre-selected partner "
                    "(best seed with worst)"),
            Default("quarterfinal_ties", "qualifying", "EPC 2009, EPC Quarter-Finals: equal "
                    "totals at the top-8 cut ordered by qualifying position"),
            Default("place_ties", "share", "EPC 2009, EPC Quarter-Finals: places 9-32 by ranking "
                    "points, equal points share"),
            Default("game_ties", "playoff", "EPC 2009, EPC Semi-Finals, EPC Finals: equal scores "
                    "go to a play-off game"),
        ),
    ),
    Template(
        "epc-qualifying", "EPC qualifying only", "EPC 2009", "epc-qualifying",
        "Just the qualifying round: best game on each machine, a joker, the cut.",
        EPC_QUALIFYING_DEFAULTS,
    ),
    Template(
        "epc-country", "EPC Country Competition", "EPC 2009", "epc-country",
        "Teams of four in five groups of four, then a final of six.",
        (
            Default("groups", 5, "EPC 2009, EPC Country Competition: 5 groups of 4 teams"),
            Default("group_size", 4, "EPC 2009, EPC Country Competition: 5 groups of 4 teams"),
            Default("finalists", 6, "EPC 2009, EPC Country Competition: the six teams with the "
                    "highest ranking points go on to the finals"),
            Default("team_players", 4, "EPC 2009, EPC Country Competition: two members on each "
                    "of a match's two machines"),
            Default("match_points", "sum_of_places", "EPC 2009, EPC Country Competition: the "
                    "only reading giving the stated 84 and 140 maxima"),
            Default("forfeit_award", "both_machines", "EPC 2009, EPC Country Competition "
                    "(Timekeeping): the opposing team gets the top 2 scores"),
        ),
    ),
    Template(
        "epc-classic", "EPC Classic Tournament", "EPC 2009", "epc-classic",
        "Eight pre-DMD machines, best score per machine, semi-finals and a final.",
        (
            Default("lead", "difference", "EPC 2009, EPC Classic Tournament: how far ahead of "
                    "the second best, as a difference"),
            Default("already_qualified", "pass-on", "EPC 2009, EPC Classic Tournament: a player "
                    "already top elsewhere passes an inherited machine on"),
            Default("fault_count", "players", "EPC 2009, EPC Classic Tournament: 10 or more "
                    "players' scores, counted as players"),
            Default("fault_minimum", 10, "EPC 2009, EPC Classic Tournament: 10 or more players' "
                    "scores keep a broken machine's table"),
        ),
    ),
    Template(
        "epc-kids", "UK Pinball Kids Tournament", "EPC 2009", "epc-kids",
        "One machine, any number of entries, three trophies a day.",
        (
            Default("trophies", 3, "EPC 2009, UK Pinball Kids Tournament: the three players "
                    "with the highest scores"),
            Default("ties", "share", "EPC 2009, UK Pinball Kids Tournament: equal scores are "
                    "equally high, so they share the place"),
        ),
    ),
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
    Template(
        "fwpl-league-night", "FWPL league night", "Flip Well Pinball League", "fwpl-league",
        "Groups of four by the ladder, four games a night, a season and playoffs.",
        (
            Default("games_per_match", 4, "FWPL 4: a match consists of four games"),
            Default("match_bonus", "bonus", "FWPL 3.3: the fifth game awards the match bonus "
                    "points only"),
            Default("absence_credits", 1, "FWPL 2.4: 50% of the average for the first whole "
                    "night missed; later ones get nothing"),
            Default("season_forfeit_limit", 12, "FWPL 2.5: twelve countable forfeits forfeit "
                    "the season"),
            Default("weeks", 8, "FWPL 2: the LO sets the season's length"),
            Default("playoff_cut", "table", "FWPL 6.1: the playoff division sizes by league "
                    "size"),
        ),
    ),
)  # fmt: skip
"""Every template, in the order the desk lists them."""


def find(template_id: str) -> Template | None:
    """The template with ``template_id``, or None."""
    return next((t for t in TEMPLATES if t.id == template_id), None)


def catalog(running: Iterable[str]) -> list[dict[str, Any]]:
    """Every template as JSON, marked available where ``running`` has its format."""
    formats = set(running)
    return [template.as_json(formats) for template in TEMPLATES]
