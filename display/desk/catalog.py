"""Competition templates: one per competition in the rule texts, as data.

A template names the format that runs the competition and the settings it starts with, each with
the rule section its value comes from (or the reading Backglass takes where the text is silent;
the format's own settings docstring gives the reasons). The TD adjusts any of them when creating
the tournament and later (``POST /api/t/{id}/settings``). A template whose format this server does
not run yet is listed as unavailable, so it lights up when its kind lands. Each competition
declares its templates (``Competition.templates``); this module lists them all.
"""

from __future__ import annotations

from collections.abc import Iterable

from display import competitions
from display.competitions.base import Template


def find(template_id: str) -> Template | None:
    """The template with ``template_id``, or None."""
    return next((t for t in competitions.templates() if t.id == template_id), None)


def catalog(running: Iterable[str]) -> list[dict[str, object]]:
    """Every template as JSON, marked available where ``running`` has its format."""
    formats = set(running)
    return [
        template.as_json(formats, competitions.setting_choices(template.format))
        for template in competitions.templates()
    ]
