"""View documents of an EPC Country Competition, reshaped from what ``scoring.epc.country`` computed.

No rule is decided here. Shapes (absent key = none; documents never hold null):

- ``tournament``: id, name, format, title, settings, ``stage`` ("qualifying", "final", "complete"),
  ``draw`` {registered, needed}: seeded teams so far.
- ``machines``: id -> {name, order, four_ball (only when true)}.
- ``teams``: id -> {name, players [names], seed | reserve: true, group, withdrawn: true,
  replaced_by, replaces}.
- ``country/groups``: ``groups`` {letter: {order, seeds}}, ``rows`` {team: {group, seed,
  group_place, place, match_points, four_ball_points, total, played, decided_by, qualified, pending}},
  ``finalists`` (6), ``played``/``matches`` (group matches with a result / all).
- ``country/fixtures``: fixture id -> {stage, group, round, slot, order, home, away, status
  ("to_play", "playing", "played", "forfeit"), home_points, away_points, games {"1": {machine, seq,
  home_points, away_points, rows {"1": {team, player, score, place, points}}}}, penalties {seq:
  {type ("late", "slam_tilt"), team, minutes, reason, by}}}.
- ``country/four_ball``: ``rows`` {team: {score, place, points, machine, seq (of the game),
  slam_tilt (seq of the slam tilt), slot, scheduled (the allocated 4-ball machine)}}, ``played``, ``teams``, ``machines`` [ids of the 4-ball machines].
- ``country/final`` (from the final on): ``rows`` {team: {place, points, played, won, decided_by,
  qualifying_place, four_ball_score, pending}}, ``played``/``matches``, ``complete``.
- ``country/playoffs``: ``pending`` {"<stage>-<place>": {stage, teams, place, last_place}} (a tie
  that needs a play-off game now that its stage's matches are all decided), ``played`` {seq: {stage,
  scores {team: score}, machine}}.
"""

from __future__ import annotations

from collections.abc import Mapping

from display.competitions.docs import compact
from display.competitions.epc_country.state import (
    TITLE,
    CountryState,
    decided,
    four_ball_tilt,
    settings_dict,
    undecided,
)
from display.types import Doc
from scoring.epc.country import (
    FinalTable,
    Late,
    MatchGame,
    MatchResult,
    Penalty,
    QualifyingTable,
    game_result,
)
from scoring.epc.country.entries import stage_of
from scoring.epc.country.model import Stage
from scoring.rounding import points_json as number

COUNTRY_VIEWS = (
    "country/groups",
    "country/fixtures",
    "country/four_ball",
    "country/playoffs",
)


def tournament_view(meta: Mapping[str, object], state: CountryState) -> Doc:
    """``tournament``: what the competition is and where it stands."""
    seeded = sum(1 for t in state.teams.values() if t.seed is not None)
    return {
        "id": meta["id"],
        "name": meta["name"],
        "format": "epc-country",
        "title": TITLE,
        "settings": settings_dict(state),
        "stage": state.stage,
        "draw": {"registered": seeded, "needed": state.seeds_needed},
    }


def machines_view(state: CountryState) -> Doc:
    """``machines``: id -> name, order added, and the 4-ball flag."""
    return {
        m.id: compact({"name": m.name, "order": order, "four_ball": m.four_ball or None})
        for order, m in enumerate(state.machines.values(), start=1)
    }


def teams_view(state: CountryState) -> Doc:
    """``teams``: every registered team, reserves included, with its group once drawn."""
    group_of = {t: g.name for g in state.derived.draw or () for t in g.teams}
    out_by = {r.withdrawn: r.reserve for r in state.replacements}
    in_for = {r.reserve: r.withdrawn for r in state.replacements}
    return {
        t.id: compact(
            {
                "name": t.name,
                "players": list(t.players),
                "seed": t.seed,
                "reserve": True if t.seed is None else None,
                "group": group_of.get(t.id),
                "withdrawn": True if t.id in out_by else None,
                "replaced_by": out_by.get(t.id),
                "replaces": in_for.get(t.id),
            }
        )
        for t in state.teams.values()
    }


def groups_view(state: CountryState) -> Doc:
    """``country/groups``: each group's teams with their qualifying line (EPC 2009, EPC Country
    Competition: match points + 4-ball points; the six best totals reach the final)."""
    table, draw = state.derived.qualifying, state.derived.draw
    doc: Doc = {"finalists": state.config.finalists, "groups": {}, "rows": {}}
    group_fixtures = [f for f in state.derived.fixtures if not f.startswith("final-")]
    doc["matches"] = len(group_fixtures)
    doc["played"] = len(decided(state, group_fixtures))
    if table is None or draw is None:
        return doc
    seed_of = {t: s for g in draw for t, s in zip(g.teams, g.seeds, strict=True)}
    group_place = {r.team: r.place for g in table.groups for r in g.rows}
    for order, g in enumerate(draw, start=1):
        doc["groups"][g.name] = {"order": order, "seeds": list(g.seeds)}
    for r in table.rows:
        doc["rows"][r.team] = compact(
            {
                "group": r.group,
                "seed": seed_of[r.team],
                "group_place": group_place[r.team],
                "place": r.place,
                "match_points": number(r.match_points),
                "four_ball_points": number(r.four_ball_points),
                "total": number(r.total),
                "played": r.played,
                "decided_by": r.decided_by,
                "qualified": r.qualified,
                "pending": True if r.qualified is None else None,
            }
        )
    return doc


def fixtures_view(state: CountryState) -> Doc:
    """``country/fixtures``: every match of the groups (and of the final) with its result."""
    results = _results(state)
    doc: Doc = {}
    for order, (fid, f) in enumerate(state.derived.fixtures.items(), start=1):
        stage = stage_of(f)
        games = state.games_of(fid)
        penalties = state.penalties_of(fid)
        result = results.get((stage, frozenset((f.home, f.away))))
        status = "to_play"
        if penalties:
            status = "forfeit" if result is not None else "playing"
        elif len(games) == 2:
            status = "played"
        elif games:
            status = "playing"
        item: Doc = {
            "stage": stage,
            "group": f.group,
            "round": f.round,
            "slot": f.slot,
            "order": order,
            "home": f.home,
            "away": f.away,
            "status": status,
        }
        if result is not None:
            item["home_points"] = number(result.points(f.home))
            item["away_points"] = number(result.points(f.away))
        if games:
            item["games"] = {
                str(n): _game_doc(state, e.seq, e.game, f.home, f.away)
                for n, e in enumerate(games, start=1)
            }
        if penalties:
            item["penalties"] = {str(p.seq): _penalty_doc(p.penalty) for p in penalties}
        doc[fid] = item
    return doc


def four_ball_view(state: CountryState) -> Doc:
    """``country/four_ball``: every team's 4-ball game ranked together (EPC 2009, EPC Country
    Competition, "The 4 ball game"), with each team's allocated slot and machine."""
    table = state.derived.qualifying
    machines = [m.id for m in state.machines.values() if m.four_ball]
    doc: Doc = {"rows": {}, "played": 0, "teams": len(state.in_draw())}
    doc["machines"] = machines
    if table is None:
        return doc
    seq_of = {e.game.team: e.seq for e in state.four_ball.values()}
    slots = {s.team: s for s in state.derived.schedule}
    for r in table.four_ball.rows:
        slot = slots.get(r.team)
        tilt = four_ball_tilt(state, r.team)
        scheduled = None
        if slot is not None and len(machines) >= slot.machine:
            scheduled = machines[slot.machine - 1]
        doc["rows"][r.team] = compact(
            {
                "score": r.score if r.team in seq_of or tilt else None,
                "place": r.place,
                "points": number(r.points),
                "machine": r.machine,
                "seq": seq_of.get(r.team),
                "slam_tilt": tilt.seq if tilt else None,
                "slot": slot.slot if slot else None,
                "scheduled": scheduled,
            }
        )
    doc["played"] = len(seq_of)
    return doc


def final_view(state: CountryState) -> Doc | None:
    """``country/final``: the six finalists' table (EPC 2009, EPC Country Competition, Final)."""
    final = state.derived.final
    if final is None:
        return None
    field = {f.team: f for f in state.finalists}
    pending = {t for need in final.playoffs_needed for t in need.teams}
    ids = [fid for fid in state.derived.fixtures if fid.startswith("final-")]
    return {
        "rows": {
            r.team: compact(
                {
                    "place": r.place,
                    "points": number(r.points),
                    "played": r.played,
                    "won": r.won,
                    "decided_by": r.decided_by,
                    "qualifying_place": field[r.team].qualifying_place,
                    "four_ball_score": field[r.team].four_ball_score,
                    "pending": True
                    if r.team in pending and not undecided(state, "final")
                    else None,
                }
            )
            for r in final.rows
        },
        "matches": len(ids),
        "played": len(decided(state, ids)),
        "complete": state.stage == "complete",
    }


def playoffs_view(state: CountryState) -> Doc:
    """``country/playoffs``: ties that need a play-off game now, and the play-offs recorded
    (EPC 2009, EPC Country Competition: the tie for sixth; the final's ties)."""
    pending: Doc = {}
    for stage, table in _tables(state):
        if table is None or undecided(state, stage):
            continue
        for need in table.playoffs_needed:
            pending[f"{stage}-{need.place}"] = {
                "stage": stage,
                "teams": list(need.teams),
                "place": need.place,
                "last_place": need.last_place,
            }
    played = {
        str(p.seq): compact(
            {"stage": p.stage, "scores": dict(p.playoff.scores), "machine": p.machine}
        )
        for p in state.playoffs.values()
    }
    return {"pending": pending, "played": played}


def _tables(
    state: CountryState,
) -> tuple[tuple[Stage, QualifyingTable | FinalTable | None], ...]:
    """Each stage with its table (None before the draw, or before the final)."""
    return (("qualifying", state.derived.qualifying), ("final", state.derived.final))


def _results(state: CountryState) -> dict[tuple[str, frozenset[str]], MatchResult]:
    """Decided matches by (stage, pair): two teams of a group may meet again in the final."""
    out: dict[tuple[str, frozenset[str]], MatchResult] = {}
    for stage, table in _tables(state):
        for r in table.results if table is not None else ():
            out[(stage, frozenset((r.home, r.away)))] = r
    return out


def _game_doc(state: CountryState, seq: int, game: MatchGame, home: str, away: str) -> Doc:
    result = game_result(state.config, game, (home, away))
    return {
        "machine": game.machine,
        "seq": seq,
        "home_points": number(result.points(home)),
        "away_points": number(result.points(away)),
        "rows": {
            str(n): compact(
                {
                    "team": row.team,
                    "player": row.player or None,
                    "score": row.score,
                    "place": row.place,
                    "points": number(row.points),
                }
            )
            for n, row in enumerate(result.rows, start=1)
        },
    }


def _penalty_doc(penalty: Penalty) -> Doc:
    late = isinstance(penalty, Late)
    return compact(
        {
            "type": "late" if late else "slam_tilt",
            "team": penalty.team,
            "minutes": penalty.minutes if isinstance(penalty, Late) else None,
            "reason": penalty.reason or None,
            "by": penalty.by,
        }
    )
