"""The ``bracket`` view: the FWPL playoffs (FWPL 6.3-6.6), once started. Reshapes
``scoring.fwpl.playoffs`` results; decides no rule.

```
{"withdrawn": ["7"]?,
 "divisions": {"A": {
    "order": 1, "seeds": {"<number>": 1}, "round": "semifinal", "places": {"<number>": 5}?,
    "matches": {"semifinal-1": {
       "round": "semifinal", "number": 1, "order": 1,
       "players": {"<number>": {"seed": 1, "points": 6?, "place": 1?, "advances": true?,
                                "missing": true?}},
       "started": true?, "complete": true?, "tie": "Players … record the order …"?,
       "tied": ["3", "6"]?,
       "games": {"1": {"machine": "tz", "picked_by": "8"?, "version": 57,
                       "rows": {"<number>": {"score": 1, "place": 1, "points": 4}}}},
       "game_no": 2?, "machine": "afm"?, "picker": "5"?, "allowed": ["tz"]?}}}}}
```

``places`` are the final places decided so far (1-4 from the final; knocked-out players per the
setting ``playoff_lower_places``); ``tie`` says a 6.5 tie is still to break and ``tied`` who
plays the tie-breaker (its order goes to ``POST …/league/playoff-tiebreaks``).
"""

from __future__ import annotations

from display.competitions.docs import compact
from display.types import Doc
from scoring.fwpl import Division, allowed_machines, final_score, papa_points
from scoring.fwpl.bracket import BracketMatch, places, walk
from scoring.fwpl.entry import busy, picker, score_game
from scoring.fwpl.league import League, PlayoffGroup
from scoring.fwpl.playoffs import PLAYOFF_GAMES


def _games(league: League, group: PlayoffGroup) -> Doc:
    present = [p for p in group.players if p not in group.missing]
    games: Doc = {}
    for n, slot in enumerate(group.games, start=1):
        scored = score_game(slot, present, league.config, f"game {n}")
        placed = [row for row in scored.rows if row.place is not None]
        won = papa_points(len(placed))
        rows = {}
        for row in scored.rows:
            entry = slot.line(row.player)
            assert entry is not None
            final = final_score(entry)
            rows[row.player] = compact(
                {
                    "score": entry.score,
                    "place": row.place,
                    "points": won[row.place - 1] if row.place is not None else 0,
                    "forfeit": True if final is None else None,
                }
            )
        games[str(n)] = compact(
            {
                "machine": slot.machine,
                "picked_by": slot.picked_by,
                "version": slot.version,
                "rows": rows,
            }
        )
    return games


def _next(league: League, group: PlayoffGroup) -> Doc:
    if len(group.games) >= PLAYOFF_GAMES:
        return {"complete": True}
    present = [p for p in group.players if p not in group.missing]
    info: Doc = {"game_no": len(group.games) + 1, "machine": group.open.machine}
    if group.open.machine is None:
        assert league.playoffs is not None
        last = group.games[-1]
        info["picker"] = picker(score_game(last, present, league.config, "previous game"))
        others = [m.open for m in league.playoffs.matches if m is not group]
        state, awaited = busy(others)
        played = [s.machine for s in group.games if s.machine]
        info["allowed"] = list(allowed_machines(list(league.machines), played, state, awaited))
    return compact(info)


def match_view(league: League, match: BracketMatch, order: int, seeds: dict[str, int]) -> Doc:
    """One bracket match: players with seed, points, place, through; games; the next game."""
    rows = {row.player: row for row in match.result.rows} if match.result else {}
    players = {}
    for player in match.players:
        row = rows.get(player)
        players[player] = compact(
            {
                "seed": seeds[player],
                "points": row.points if row else None,
                "place": row.place if row and match.started and match.started.games else None,
                "advances": True if row and row.advances else None,
                "missing": True if match.started and player in match.started.missing else None,
            }
        )
    info: Doc = {
        "round": match.round,
        "number": match.number,
        "order": order,
        "players": players,
        "tie": match.tie,
        "tied": list(match.tied) or None,
    }
    if match.started is not None:
        info["started"] = True
        info["games"] = _games(league, match.started)
        info.update(_next(league, match.started))
    return compact(info)


def division_view(league: League, division: Division, order: int) -> Doc:
    """One division: seeds, the round being played, places decided, matches."""
    seeds = {p: n for n, p in enumerate(division.seeds, start=1)}
    matches = walk(league, division)
    outcome = places(league, division)
    return compact(
        {
            "order": order,
            "seeds": seeds,
            "round": outcome.round,
            "places": dict(outcome.places) or None,
            "matches": {
                f"{m.round}-{m.number}": match_view(league, m, n, seeds)
                for n, m in enumerate(matches, start=1)
            },
        }
    )


def bracket_view(league: League) -> Doc | None:
    """``bracket``: every division of the playoffs (see the module docstring), None before."""
    if league.playoffs is None:
        return None
    return compact(
        {
            "withdrawn": list(league.playoffs.withdrawn) or None,
            "divisions": {
                d.name: division_view(league, d, n)
                for n, d in enumerate(league.playoffs.divisions, start=1)
            },
        }
    )
