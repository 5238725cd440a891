"""View documents: the JSON the displays hold, built from a scoring ``Tournament``.

Shapes are in docs/protocol.md. Documents are keyed by stable ids; order is a field. This module only
reshapes what ``scoring/`` computed; it decides no rule.
"""

from __future__ import annotations

from typing import Any

from scoring.model import MachineTable, Standings
from scoring.rounding import points_json as number
from scoring.tournament import Tournament


def compact(values: dict[str, Any]) -> dict[str, Any]:
    """Drop None values: in views an absent key means "none", because null deletes in a merge patch."""
    return {key: value for key, value in values.items() if value is not None}


def tournament_view(meta: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """``tournament``: id, name, format, title, settings, cut (or None)."""
    settings = tournament.format.settings_dict(tournament.config)
    qualify, standby = settings.get("qualify"), settings.get("standby")
    cut = {"qualify": qualify, "standby": standby} if qualify is not None else None
    return compact(
        {
            "id": meta["id"],
            "name": meta["name"],
            "format": tournament.format.name,
            "title": tournament.format.title,
            "settings": compact(settings),
            "cut": cut,
        }
    )


def machines_view(tournament: Tournament) -> dict[str, Any]:
    """``machines``: machine id -> name and display order (order added, from 1)."""
    return {
        mid: {"name": machine.name, "order": order}
        for order, (mid, machine) in enumerate(tournament.machines.items(), start=1)
    }


def players_view(tournament: Tournament) -> dict[str, Any]:
    """``players``: player number -> name and guest flag."""
    return {
        number_: {"name": player.name, "guest": player.guest}
        for number_, player in tournament.players.items()
    }


def machine_view(tournament: Tournament, machine_id: str) -> dict[str, Any]:
    """``machine/<id>``: how many have played it, the latest score, and every row.

    Row keys ``place``/``points`` are absent for an unranked row; ``bonus``/``joker`` only when set.
    """
    table: MachineTable = tournament.tables[machine_id]
    entries = tournament.entries[machine_id]
    latest = entries[-1] if entries else None
    return compact(
        {
            "played": len(table.rows),
            "latest": (
                {"player": latest.player, "score": latest.score, "seq": latest.seq}
                if latest is not None
                else None
            ),
            "rows": {
                row.player: compact(
                    {
                        "score": row.score,
                        "place": row.place,
                        "points": number(row.points),
                        "bonus": row.bonus or None,
                        "joker": row.joker or None,
                    }
                )
                for row in table.rows
            },
        }
    )


def standings_view(standings: Standings) -> dict[str, Any]:
    """``standings``: player number -> place, total, machines played, band, league points."""
    return {
        "rows": {
            row.player: compact(
                {
                    "place": row.place,
                    "total": number(row.total),
                    "played": row.played,
                    "band": row.band,
                    "league_points": number(row.league_points),
                }
            )
            for row in standings.rows
        }
    }
