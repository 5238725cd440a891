"""View documents: the JSON the displays hold, built from a scoring ``Tournament``.

Shapes are in docs/protocol.md. Documents are keyed by stable ids; order is a field. This module only
reshapes what ``scoring/`` computed; it decides no rule.
"""

from __future__ import annotations

from typing import Any

from display.competitions.machines import views as hall_views
from scoring.model import MachineTable, Standings
from scoring.rounding import points_json as number
from scoring.tournament import Tournament


def compact(values: dict[str, Any]) -> dict[str, Any]:
    """Drop None values: in views an absent key means "none", because null deletes in a merge patch."""
    return {key: value for key, value in values.items() if value is not None}


def tournament_view(meta: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """``tournament``: id, name, format, title, settings, cut (or None), and ``hall``: the hall
    settings (``display.competitions.machines.state.HallSettings``) when the tournament has a hall."""
    settings = tournament.format.settings_dict(tournament.config)
    qualify, standby = settings.get("qualify"), settings.get("standby")
    cut = {"qualify": qualify, "standby": standby} if qualify is not None else None
    hall = getattr(tournament, "hall", None)
    return compact(
        {
            "id": meta["id"],
            "name": meta["name"],
            "format": tournament.format.name,
            "title": tournament.format.title,
            "settings": compact(settings),
            "cut": cut,
            "hall": hall.settings.as_dict() if hall is not None else None,
        }
    )


def machines_view(tournament: Tournament) -> dict[str, Any]:
    """``machines``: machine id -> name, display order (order added, from 1) and, for a machine
    not in service, its hall status (``hall_views.machine_status``)."""
    hall = getattr(tournament, "hall", None)
    return {
        mid: {
            "name": machine.name,
            "order": order,
            **(hall_views.machine_status(tournament, mid) if hall is not None else {}),
        }
        for order, (mid, machine) in enumerate(tournament.machines.items(), start=1)
    }


def players_view(tournament: Tournament) -> dict[str, Any]:
    """``players``: player number -> name, guest flag, and ``withdrawn`` (the reason, "" for none
    given) only for a withdrawn player."""
    hall = getattr(tournament, "hall", None)
    withdrawn = hall.withdrawn if hall is not None else {}
    return {
        number_: compact(
            {"name": player.name, "guest": player.guest, "withdrawn": withdrawn.get(number_)}
        )
        for number_, player in tournament.players.items()
    }


def machine_view(tournament: Tournament, machine_id: str) -> dict[str, Any]:
    """``machine/<id>``: how many have played it, the latest score, and every row.

    Row keys ``place``/``points`` are absent for an unranked row; ``bonus``/``joker`` only when set;
    ``corrected`` when a TD corrected one of the player's scores here.
    """
    table: MachineTable = tournament.tables[machine_id]
    entries = tournament.entries[machine_id]
    hall = getattr(tournament, "hall", None)
    fixed = {e.player for e in entries if hall is not None and e.seq in hall.corrected}
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
                        "corrected": (row.player in fixed) or None,
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


def ordinal(n: int) -> str:
    """``n`` as a place in words a phone shows: 1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
