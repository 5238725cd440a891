"""View documents of the EPC main tournament's stages, reshaped from what ``scoring/`` decided.

Shapes (no nulls; an absent key means "none"; order is a field):

- ``stage``: ``{"stage": "quarterfinal", "round": 1, "waiting": "…"}``. ``waiting`` says what the
  next step needs, in words for the TD and the hall.
- ``quarterfinal``: ``{"round", "complete", "machines": {id: {"order"}}, "seeds": {seed: {"group",
  "qualifier", "player", "replaced", "registered"}}, "standby": {player: {"position",
  "registered": {"1": true}, "fills"}}, "pairs": {key: {"group", "order", "seeds": [a, b],
  "machines": [m1, m2, m3]}}, "rows": {player: {"place", "total", "games", "seed", "band"}}}``.
- ``quarterfinal/<machine>``: ``{"games", "rows": {player: {"score", "place", "points",
  "games"}}, "latest": {"player", "score", "seq"}}``.
- ``semifinal`` / ``finals``: ``{"games": {key: {"name", "order", "machine", "decided", "tie":
  [players], "players": {player: {"choice", "seed", "score", "place"}}}}}``; ``choice`` is the
  order of choosing a player position (1 first), ``seed`` the quarter-final place, ``place`` the
  place in the game once decided (the final place in ``finals``).
- ``placings``: ``{"complete", "rows": {player: {"place", "stage"}}}``: every entrant, one table.
"""

from __future__ import annotations

from display.competitions.docs import compact
from display.types import Doc
from scoring.epc.main_tournament import GAME_KEYS, MainTournament, games_in_progress
from scoring.epc.qualifying import cut_standings
from scoring.rounding import points_json

GAME_ORDER = {"A": 1, "B": 2, "playoff": 1, "final": 2}
PLACE_OFFSET = {"A": 0, "B": 0, "playoff": 4, "final": 0}


def stage_view(state: MainTournament) -> Doc:
    """``stage``: where the tournament is and what the next step waits for."""
    return compact(
        {
            "stage": state.stage,
            "round": state.round if state.stage == "quarterfinal" else None,
            "waiting": waiting(state),
        }
    )


def waiting(state: MainTournament) -> str:
    """What the next step needs, in a TD's words."""
    if state.stage == "qualifying":
        standings = state.qualifying.standings
        tie = cut_standings(
            state.qualifying.config, standings, state.playoffs.get("qualifying", ())
        )[1]
        if tie is not None:
            return (
                f"Qualifying is running. {tie.note.capitalize()} (players "
                f"{', '.join(tie.players)}): the TD records their play-off order."
            )
        if state.closed_after is not None:
            playing = games_in_progress(state)
            return (
                f"Qualifying has closed; {playing} game(s) started before the close in progress."
                if playing
                else "Qualifying has closed: the quarter-finals can start."
            )
        return "Qualifying is running; the TD closes it by starting the quarter-finals."
    if state.stage == "quarterfinal":
        qf = state.quarterfinal
        assert qf is not None
        if state.round < 2:
            size, last = state.config.group_size, state.config.quarterfinalists
            seeds = f"B (seeds {size + 1}-{last})" if state.round == 0 else f"A (seeds 1-{size})"
            return f"Re-registration for round {state.round + 1}, group {seeds}, is open."
        if not qf.complete:
            return "Quarter-final round 2 is being played."
        if qf.unresolved:
            return "Players are tied for the semi-finals: the TD records their play-off."
        return "The quarter-finals are complete: the semi-finals can start."
    if state.stage in GAME_KEYS:
        open_games = [k for k in GAME_KEYS[state.stage] if state.result(k) is None]
        if any(state.tie(k) for k in open_games):
            return "A tie needs a play-off: the TD records its order."
        if open_games:
            return "The games are being played."
        return "Both games are decided." + (
            " The finals can start." if state.stage == "semifinal" else ""
        )
    return "The EPC is complete."


def quarterfinal_view(state: MainTournament) -> Doc | None:
    """``quarterfinal``: the line-up, stand-bys, pairs with their machines, and the table."""
    seeds, lineup, draw, qf = state.seeding, state.lineup, state.draw, state.quarterfinal
    if seeds is None or lineup is None or draw is None or qf is None:
        return None
    registered = state.registered
    rounds_of = {s.seed: (1 if s.group == "B" else 2) for s in lineup.slots}
    fills = {s.player: s.seed for s in lineup.slots if s.replaced and s.player is not None}
    seed_of = {s.player: s.seed for s in lineup.slots if s.player is not None}
    started = state.round
    return {
        "round": state.round,
        "complete": qf.complete,
        "machines": {m: {"order": i} for i, m in enumerate(draw.machines, start=1)},
        "seeds": {
            str(s.seed): compact(
                {
                    "group": s.group,
                    "qualifier": s.qualifier,
                    "player": s.player if started >= rounds_of[s.seed] else None,
                    "replaced": True if s.replaced and started >= rounds_of[s.seed] else None,
                    "registered": True
                    if s.qualifier in registered.get(rounds_of[s.seed], ())
                    else None,
                }
            )
            for s in lineup.slots
        },
        "standby": {
            player: compact(
                {
                    "position": len(seeds.qualifiers) + i,
                    "registered": {str(r): True for r in (1, 2) if player in registered.get(r, ())}
                    or None,
                    "fills": fills.get(player)
                    if player in fills and started >= rounds_of[fills[player]]
                    else None,
                }
            )
            for i, player in enumerate(seeds.standby, start=1)
        },
        "pairs": {
            f"{pair.group}{k}": {
                "group": pair.group,
                "order": k,
                "seeds": list(pair.seeds),
                "machines": list(pair.machines),
            }
            for group in ("B", "A")
            for k, pair in enumerate((p for p in draw.pairs if p.group == group), start=1)
        },
        "rows": {
            row.player: compact(
                {
                    "place": row.place,
                    "total": points_json(row.total),
                    "games": _games_of(state, row.player),
                    "seed": seed_of.get(row.player),
                    "band": row.band,
                }
            )
            for row in qf.rows
        },
    }


def _games_of(state: MainTournament, player: str) -> int:
    return sum(1 for e in state.games.get("qf", ()) if e.player == player)


def quarterfinal_machine_view(state: MainTournament, machine: str) -> Doc | None:
    """``quarterfinal/<machine>``: every player's better game on it, with place and points."""
    qf = state.quarterfinal
    if qf is None or machine not in state.qf_machines:
        return None
    table = next(t for t in qf.tables if t.machine == machine)
    games = [e for e in state.games.get("qf", ()) if e.machine == machine]
    counts: dict[str, int] = {}
    for e in games:
        counts[e.player] = counts.get(e.player, 0) + 1
    latest = games[-1] if games else None
    return compact(
        {
            "games": len(games),
            "latest": {"player": latest.player, "score": latest.score, "seq": latest.seq}
            if latest
            else None,
            "rows": {
                row.player: compact(
                    {
                        "score": row.score,
                        "place": row.place,
                        "points": points_json(row.points),
                        "games": counts.get(row.player, 0),
                    }
                )
                for row in table.rows
            },
        }
    )


def games_view(state: MainTournament, stage: str) -> Doc | None:
    """``semifinal`` or ``finals``: each four-player game, its players in the order they choose
    a player position, with scores and, once decided, places."""
    if not state.at_least(stage):
        return None
    qf = state.quarterfinal
    assert qf is not None
    seed = {row.player: row.place for row in qf.rows}
    out: Doc = {}
    for key in GAME_KEYS[stage]:
        game = state.game(key)
        if game is None:
            continue
        scores, result = state.scores(key), state.result(key)
        places = dict(zip(result.order, result.places, strict=True)) if result else {}
        machine = state.game_machines.get(key)
        out[key] = compact(
            {
                "name": game.name,
                "order": GAME_ORDER[key],
                "machine": machine,
                "decided": result is not None,
                "tie": list(state.tie(key)) or None,
                "players": {
                    player: compact(
                        {
                            "choice": i,
                            "seed": seed.get(player),
                            "score": scores.get(player),
                            "place": places[player] + PLACE_OFFSET[key]
                            if player in places
                            else None,
                        }
                    )
                    for i, player in enumerate(game.players, start=1)
                },
            }
        )
    return {"games": out}


def placings_view(state: MainTournament) -> Doc | None:
    """``placings``: every entrant's final place (absent while undecided) and where their EPC
    ended; ``complete`` once the grand final is decided."""
    placings = state.placings
    if placings is None:
        return None
    return {
        "complete": state.result("final") is not None,
        "rows": {p.player: compact({"place": p.place, "stage": p.stage}) for p in placings},
    }
