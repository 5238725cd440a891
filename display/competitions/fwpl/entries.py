"""What league nights and playoff matches share: score lines from records, who picks the next
machine, and which machines a group may pick (FWPL 3.2, 5, 5.1, 6.4, 7.3, 8.x).

The rules are ``scoring.fwpl``'s; this module only turns records into its inputs and its errors
into messages that name the group and the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, get_args

from display.competitions.fwpl.state import League, Slot
from scoring.errors import InvalidScore, UnknownMachine
from scoring.fwpl import (
    FwplConfig,
    GameResult,
    GameScore,
    MachineState,
    NotInGroup,
    Penalty,
    check_pick,
    final_score,
    game_points,
    next_picker,
)
from scoring.fwpl.errors import MachineNotAllowed

PENALTIES = tuple(p for p in get_args(Penalty) if p != "none")


def line(player: str, raw: Mapping[str, Any]) -> GameScore:
    """One player's line from a record's fields: ``score`` (None: a forfeit, FWPL 2.4),
    ``penalty`` (8.1 ``extra_ball``, 8.7 ``deathsave``, 8.2-8.5 ``serious``), ``late`` (2.3),
    ``compensatory`` and ``subtract`` (7.3). Raises InvalidScore for a bad value."""
    penalty: Penalty = raw.get("penalty") or "none"
    if penalty != "none" and penalty not in PENALTIES:
        raise InvalidScore(
            f"Player {player}: penalty must be one of {', '.join(PENALTIES)}, not {penalty!r}."
        )
    entry = GameScore(
        player=player,
        score=raw.get("score"),
        compensatory=raw.get("compensatory"),
        subtract=raw.get("subtract") or 0,
        penalty=penalty,
        late=bool(raw.get("late", False)),
    )
    final_score(entry)  # refuses a score that is not a whole number, before anything is kept
    return entry


def full_lines(
    record: Mapping[str, Any], players: Sequence[str], where: str
) -> tuple[GameScore, ...]:
    """The lines of a whole game: ``scores`` {player: score or None} naming every player of the
    group (a forfeit is an explicit None, FWPL 2.4, so a forgotten player is never a silent
    forfeit), with ``penalties`` {player: kind}, ``late`` [players] and ``compensatory``
    {player: {score, subtract}}. Raises NotInGroup for a missing or extra player."""
    scores: Mapping[str, Any] = record.get("scores") or {}
    outside = [p for p in scores if p not in players]
    if outside:
        raise NotInGroup(f"Player {outside[0]} is not in {where}.")
    missing = [p for p in players if p not in scores]
    if missing:
        raise NotInGroup(
            f"Give a score, or a forfeit, for every player of {where}; missing: "
            f"{', '.join(missing)}."
        )
    penalties = record.get("penalties") or {}
    late = set(record.get("late") or ())
    extra = record.get("compensatory") or {}
    for name, values in (("penalty", penalties), ("compensatory game", extra)):
        stray = [p for p in values if p not in players]
        if stray:
            raise NotInGroup(f"A {name} for player {stray[0]}, who is not in {where}.")

    def fields(player: str) -> dict[str, Any]:
        extra_game = extra.get(player) or {}
        return {
            "score": scores[player],
            "penalty": penalties.get(player),
            "late": player in late,
            "compensatory": extra_game.get("score"),
            "subtract": extra_game.get("subtract"),
        }

    return tuple(line(p, fields(p)) for p in players)


def score_game(slot: Slot, players: Sequence[str], config: FwplConfig, where: str) -> GameResult:
    """Score ``slot``'s lines as a game of ``players`` (FWPL 3.2, 2.4). Raises what
    ``game_points`` raises, the message naming ``where``."""
    try:
        return game_points(slot.game(), config, players)
    except NotInGroup as exc:
        raise NotInGroup(f"{where}: {exc.message}") from None


def picker(previous: GameResult | None) -> str | None:
    """Who picks the next machine (FWPL 5, 6.4: the last placed player of the previous game who
    was on time), None for a first game or a game nobody placed in."""
    if previous is None:
        return None
    try:
        return next_picker(previous)
    except NotInGroup:
        return None


def busy(open_slots: Sequence[Slot]) -> tuple[dict[str, MachineState], set[str]]:
    """Machine states from other groups' open games (FWPL 5): the first to choose a machine plays
    it (``in_use``, or ``last_ball`` once on ball 3); a later chooser is waiting for it, so the
    machine is ``awaited``."""
    state: dict[str, MachineState] = {}
    awaited: set[str] = set()
    for slot in sorted((s for s in open_slots if s.machine), key=lambda s: s.chosen_at):
        assert slot.machine is not None
        if slot.machine in state:
            awaited.add(slot.machine)
        else:
            state[slot.machine] = "last_ball" if slot.last_ball else "in_use"
    return state, awaited


def choose(
    league: League,
    slot: Slot,
    machine: str,
    played: Sequence[Slot],
    others: Sequence[Slot],
    seq: int,
    who: str | None,
    where: str,
) -> Slot:
    """The open ``slot`` with ``machine`` picked for it (FWPL 5, 5.1, 6.4): one of the league's
    machines, not one the group played tonight, not one another group is playing (unless on ball
    3) or already waiting for, unless nothing else is left. A slot that has scores already keeps
    its machine. Raises UnknownMachine, MachineNotAllowed."""
    if machine not in league.machines:
        raise UnknownMachine(f"Machine {machine} is not one of this league's machines.")
    if slot.lines and slot.machine != machine:
        raise MachineNotAllowed(
            f"{where} has scores on {league.machines.get(slot.machine or '', slot.machine)}; "
            "correct those first."
        )
    state, awaited = busy(others)
    check_pick(
        machine, list(league.machines), [s.machine for s in played if s.machine], state, awaited
    )
    return replace(slot, machine=machine, chosen_at=seq, picked_by=who, last_ball=False)


def settle(
    league: League,
    slot: Slot,
    machine: Any,
    played: Sequence[Slot],
    others: Sequence[Slot],
    seq: int,
    who: str | None,
    where: str,
) -> Slot:
    """The open ``slot`` ready for scores on ``machine``: the machine assigned or picked for it
    must be the one named; with none chosen yet, naming it is the pick (``choose``)."""
    if slot.machine is None:
        if machine is None:
            raise MachineNotAllowed(f"Nobody has picked the machine for {where} yet; name it.")
        return choose(league, slot, str(machine), played, others, seq, who, where)
    if machine is not None and str(machine) != slot.machine:
        name = league.machines.get(slot.machine, slot.machine)
        raise MachineNotAllowed(
            f"{where} is to be played on {name}, not {league.machines.get(str(machine), machine)}."
            " To change machine (FWPL 5.1), pick again before entering scores."
        )
    return slot
