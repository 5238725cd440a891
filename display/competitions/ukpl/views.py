"""View documents of a UKPL meeting beyond the machines kind's: ``adjustments`` and ``season``.

Shapes (docs/protocol.md's rules: keyed by stable ids, no nulls, absent = none)::

    adjustments  {"rows": {"<seq>": {"type", "player"?, "machine"?, "substitute"?, "level"?,
                                     "awarded"?, "agreed"?, "last_ball"?, "kept_playing"?,
                                     "by", "at", "reason", "status": "applied" | "pending" |
                                     "withdrawn", "version", "withdrawn"?: {"by", "at", "reason"},
                                     "effects"?: {"<machine>": {"player", "before"?, "after"?}}}},
                  "games": {"<seq>": {"machine", "scores": {"<player>": score}, "by", "at"}},
                  "banned": {"<player>": {"meet", "level", "by", "reason"}}}
    season       {"region", "season", "meet": this meeting's id, "settings": {...},
                  "meets": {"<id>": {"order", "held"?, "source": "this" | "linked" | "imported",
                                     "tournament"?, "competitors", "void"?}},
                  "rows": {"<player>": {"name", "place", "points", "counted": [..],
                                        "results": {"<meet>": points}, "qualified"?, "playoff"?}},
                  "for_fun": {"<player>": {"name", "meets": [ids]}}, "problem"?: text}

``version``: the seq of the record that withdrew the adjustment, else its own (a withdrawal names
it in ``If-Match``, ``display.competitions.ukpl.state.adjustment_version``). ``effects``: a missing ``before``
is no game (a zero award), a missing ``after`` a game that no longer counts. Points are rounded
as the league publishes them (``scoring.rounding``).
"""

from __future__ import annotations

from collections.abc import Mapping

from display.competitions.docs import compact
from display.competitions.ukpl.state import UkplState
from display.types import Doc
from scoring.errors import ScoringError
from scoring.rounding import points_json
from scoring.ukpl.region import held_order, region_season
from scoring.ukpl.season import region_competitors

DETAILS = (
    "type",
    "player",
    "machine",
    "substitute",
    "level",
    "awarded",
    "agreed",
    "last_ball",
    "kept_playing",
)


def adjustments_view(state: UkplState) -> Doc:
    """``adjustments``: every adjustment with who and why, its effect on the scores, the
    multiplayer games and the players banned from this meeting (UKPL 2E, 2F, 6A, 6C, 7A-7D)."""
    seq_of = {id(d.record): d.seq for d in state.decisions}
    effects: dict[int, Doc] = {}
    for applied in state.effects:
        seq = seq_of.get(id(applied.record))
        if seq is not None:
            effects.setdefault(seq, {})[applied.machine] = compact(
                {"player": applied.player, "before": applied.before, "after": applied.after}
            )
    rows = {}
    for seq, (record, withdrawn) in state.notes.items():
        status = "withdrawn" if withdrawn else "pending" if seq in state.pending else "applied"
        row = {key: record.get(key) for key in DETAILS}
        row.update(
            by=record.get("by", ""),
            at=record.get("at", ""),
            reason=record.get("reason", ""),
            status=status,
            version=seq if withdrawn is None else int(withdrawn.get("seq", seq)),
        )
        if withdrawn is not None:
            row["withdrawn"] = {k: withdrawn.get(k, "") for k in ("by", "at", "reason")}
        row["effects"] = effects.get(seq) if withdrawn is None else None
        rows[str(seq)] = compact(row)
    games = {
        str(seq): {
            "machine": str(group["machine"]),
            "scores": {str(s["player"]): s["score"] for s in group["scores"]},
            "by": group.get("by", ""),
            "at": group.get("at", ""),
        }
        for seq, group in state.groups.items()
    }
    banned = {
        player: {"meet": p.meet, "level": p.level, "by": p.by, "reason": p.reason}
        for player, p in state.banned.items()
    }
    return {"rows": rows, "games": games, "banned": banned}


def season_view(state: UkplState, meta: Mapping[str, str]) -> Doc:
    """``season``: the region's season table with this meeting live in it (UKPL 1C, 1E, 1G, 3C,
    3E-3G; ``scoring.ukpl.region``). A meeting id that another meeting of the season also has is a
    ``problem`` shown with the table (this meeting's results are the ones counted)."""
    options = state.options
    own = options.meet or str(meta["id"])
    head = compact({"region": options.region, "season": options.season, "meet": own})
    meets = state.season_meets(own)
    twice = [t for t, o in state.linked.items() if o.meet.id == own]
    if twice:
        problem = f"Meeting {own} is also tournament {', '.join(twice)}: give each its own meet id."
        head["problem"] = problem
    try:
        ordered = held_order(meets)
        table, config = region_season(ordered)
    except ScoringError as exc:
        return {**head, "problem": exc.message, "rows": {}, "meets": {}, "for_fun": {}}
    source = {own: {"source": "this"}}
    for tid, outside in state.linked.items():
        source.setdefault(outside.meet.id, {"source": "linked", "tournament": tid})
    for outside in state.imported.values():
        source.setdefault(outside.meet.id, {"source": "imported"})
    names: dict[str, str] = {}
    for outside in (*state.imported.values(), *state.linked.values()):
        names.update(outside.names)
    names.update({n: p.name for n, p in state.meeting.players.items()})
    void = set(table.void)
    doc_meets = {
        m.id: compact(
            {
                "order": order,
                "held": m.held or None,
                **source[m.id],
                "competitors": region_competitors(m.meet),
                "void": m.id in void or None,
            }
        )
        for order, m in enumerate(ordered, start=1)
    }
    rows = {
        row.player: compact(
            {
                "name": names.get(row.player, row.player),
                "place": row.place,
                "points": points_json(row.points),
                "counted": [points_json(p) for p in row.counted],
                "results": {meet: points_json(p) for meet, p in row.results},
                "qualified": row.qualified or None,
                "playoff": row.playoff or None,
            }
        )
        for row in table.rows
    }
    for_fun = {
        fun.player: {"name": names.get(fun.player, fun.player), "meets": list(fun.meets)}
        for fun in table.for_fun
    }
    settings = {key: getattr(config, key) for key in sorted(config.__dataclass_fields__)}
    return {**head, "settings": settings, "meets": doc_meets, "rows": rows, "for_fun": for_fun}
