"""The ``night/<week>`` view: one league night's groups board and standings (FWPL 3.2, 3.3, 5,
5.2). Reshapes ``scoring.fwpl`` results; decides no rule.

```
{"week": 3, "closed": true?, "absent": ["17"]?, "unplayable": ["tz"]?,
 "groups": {"1": {
    "players": {"<number>": {"seed": 1, "points": 21, "bonus": 1?, "total": 22, "place": 1?,
                             "played": 4, "forfeits": 0?, "excluded": true?, "order": 2?}},
    "games": {"1": {"machine": "tz", "picked_by": "4"?, "version": 57,
                    "rows": {"<number>": {"score": 123?, "final": 92.25?, "place": 1?, "points": 8,
                                          "bonus": 1?, "forfeit": true?, "penalty": "…"?,
                                          "late": true?, "compensatory": 500?}},
                    "dead": ["tz"]?, "voided": {"<number>": {"score": 1?, "forfeit": true?}}?}},
    "game_no": 3?, "machine": "afm"?, "picked_by": "2"?, "picker": "2"?, "allowed": ["tz"]?,
    "waiting": true?, "last_ball": true?, "entered": {"<number>": {"score": 1?, "forfeit": true?}}?,
    "replay_pending": true?, "dead": ["tz"]?, "voided": {…}?, "complete": true?}}}
```

``replay_pending``: the next game's machine died mid-game (FWPL 7.3) and its replay on
``machine`` is not in yet; ``dead`` the machines the game was on when play could not continue,
``voided`` the scores entered on them (kept, counted nowhere); a night's ``unplayable`` machines
may not be chosen again tonight.

``order`` is the play order of the group's next game (FWPL 5.2); ``picker`` who picks its machine
(FWPL 5); ``allowed`` the machines they may pick now (absent once chosen); ``waiting`` the machine
chosen is still in use by a group that chose it first; ``entered`` scores entered one by one so far. A played game's ``version`` is the seq of the last
record that set or changed its result; a correction names it in ``If-Match`` (docs/protocol.md).
``place``/``bonus`` of a player come once the match is complete (the fifth game, FWPL 3.3).
"""

from __future__ import annotations

from display.competitions.docs import compact
from display.types import Doc
from scoring.fwpl import GameResult, allowed_machines, final_score, play_order
from scoring.fwpl.entry import busy, picker
from scoring.fwpl.games import GameScore
from scoring.fwpl.league import Group, League, Night, Slot, result
from scoring.rounding import points_json


def game_rows(slot: Slot, scored: GameResult) -> Doc:
    """One played game's rows: machine score as entered, final score when 7.3/8.x changed it,
    place, points, bonus, forfeit, penalty, late, compensatory score."""
    rows: Doc = {}
    for row in scored.rows:
        entry = slot.line(row.player)
        assert entry is not None
        final = final_score(entry)
        changed = final is not None and entry.score is not None and final != entry.score
        rows[row.player] = compact(
            {
                "score": entry.score,
                "final": points_json(final) if changed else None,
                "place": row.place,
                "points": row.points,
                "bonus": row.bonus or None,
                "forfeit": True if row.forfeit else None,
                "penalty": entry.penalty if entry.penalty != "none" else None,
                "late": True if entry.late else None,
                "compensatory": entry.compensatory,
            }
        )
    return rows


def _entered(lines: tuple[GameScore, ...]) -> Doc | None:
    if not lines:
        return None
    return {
        line.player: compact({"score": line.score, "forfeit": True if line.score is None else None})
        for line in lines
    }


def _open(league: League, night: Night, index: int, group: Group, done: list[GameResult]) -> Doc:
    """The group's next game: number, machine or who picks and what, play order (FWPL 5, 5.2)."""
    if len(group.games) >= league.config.games_per_match:
        return {"complete": True}
    slot = group.open
    previous = done[-1] if done else None
    others = [g.open for i, g in enumerate(night.groups) if i != index]
    info: Doc = {
        "game_no": len(group.games) + 1,
        "machine": slot.machine,
        "picked_by": slot.picked_by,
        "last_ball": True if slot.last_ball else None,
        "entered": _entered(slot.lines),
        "replay_pending": True if slot.dead else None,
        "dead": list(slot.dead) or None,
        "voided": _entered(slot.voided),
    }
    if slot.machine is None:
        info["picker"] = picker(previous)
        state, awaited = busy(others)
        played = [s.machine for s in group.games if s.machine]
        machines = [m for m in league.machines if m not in night.unplayable]
        info["allowed"] = list(allowed_machines(machines, played, state, awaited))
    else:
        earlier = any(o.machine == slot.machine and o.chosen_at < slot.chosen_at for o in others)
        info["waiting"] = True if earlier else None
    return compact(info)


def _late(group: Group, done: list[GameResult]) -> set[str]:
    """Players with no place in any game yet, once a game is played: they joined late or are not
    here, and play last (FWPL 5.2)."""
    if not done:
        return set()
    placed = {row.player for game in done for row in game.rows if row.place is not None}
    return {p for p in group.players if p not in placed}


def group_view(league: League, night: Night, index: int) -> Doc:
    """One group of ``night``: players, games, next game. FWPL 3.2, 3.3, 5, 5.2."""
    group = night.groups[index]
    scored = result(group.match(), league.config)
    done = list(scored.games)
    complete = len(group.games) >= league.config.games_per_match
    order: dict[str, int] = {}
    if not complete:
        previous = done[-1] if done else None
        sequence = play_order(group.players, previous, late=_late(group, done))
        order = {p: n for n, p in enumerate(sequence, start=1)}
    players = {
        row.player: compact(
            {
                "seed": row.seed,
                "points": row.game_points,
                "bonus": row.match_bonus or None,
                "total": row.total,
                "place": row.place,
                "played": row.played,
                "forfeits": row.forfeits or None,
                "excluded": True if scored.complete and not row.eligible else None,
                "order": order.get(row.player),
                "firsts": row.finishes[0] or None,
            }
        )
        for row in scored.rows
    }
    games = {
        str(n): compact(
            {
                "machine": slot.machine,
                "picked_by": slot.picked_by,
                "version": slot.version,
                "rows": game_rows(slot, game),
                "dead": list(slot.dead) or None,
                "voided": _entered(slot.voided),
            }
        )
        for n, (slot, game) in enumerate(zip(group.games, done, strict=True), start=1)
    }
    return {"players": players, "games": games, **_open(league, night, index, group, done)}


def night_view(league: League, week: int) -> Doc | None:
    """``night/<week>``: the night's groups (see the module docstring), or None for no such
    week."""
    if not 1 <= week <= len(league.nights):
        return None
    night = league.nights[week - 1]
    return compact(
        {
            "week": week,
            "closed": True if night.closed else None,
            "absent": list(night.absent) or None,
            "unplayable": sorted(night.unplayable) or None,
            "groups": {
                str(n): group_view(league, night, n - 1) for n in range(1, len(night.groups) + 1)
            },
        }
    )
