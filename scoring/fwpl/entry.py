"""What entering a league night's game and a playoff match's game share: a player's line, the
lines of a whole game, who picks the next machine and which machine the group may pick.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. In short:

- 2.3, 2.4, 7.3, 8.x: a line is a score or a forfeit (None), with a penalty (8.1 extra ball, 8.7
  deathsave, 8.2-8.5 serious), a late arrival and a compensatory game;
- 2.4 and 4.2: a whole game names every player of the group and nobody else; a forfeit is given
  explicitly (Backglass's reading, so a forgotten player is never a silent forfeit);
- 5, 5.1 and 6.4: a machine is assigned or picked before scores go on it; picking follows
  ``flow.check_pick``; a game with scores keeps its machine until they are corrected.

Messages name the group and the game (``where``, e.g. "group 2, game 3 of week 4").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypedDict, TypeGuard, get_args

from scoring.errors import InvalidScore, UnknownMachine
from scoring.fwpl.config import FwplConfig
from scoring.fwpl.errors import MachineNotAllowed, NotInGroup
from scoring.fwpl.flow import MachineState, check_pick, next_picker
from scoring.fwpl.games import GameResult, GameScore, Penalty, final_score, game_points
from scoring.fwpl.league import League, Slot

EntryNumber = object
"""A week, group or game number as an entry names it (the night's week, FWPL 3.1; the group,
4.2; the game of the match, 4). Backglass has every game entry name all three, so a retry or a
late phone never lands on another game. An entry read from a log file may hold any JSON value
there: the rules compare it with the right number and refuse anything else with the words they
use for a number out of range, naming the value given."""

PENALTIES = tuple(p for p in get_args(Penalty) if p != "none")
"""The penalties a line may carry: FWPL 8.1 ``extra_ball``, 8.7 ``deathsave``, 8.2-8.5
``serious``."""


@dataclass(frozen=True, slots=True)
class LineEntry:
    """One player's line as entered (FWPL 2.3, 2.4, 7.3, 8.x): ``score`` (None: a forfeit,
    2.4), ``penalty`` (one of ``PENALTIES``; None or ``"none"``: no penalty), ``late`` (2.3),
    the ``compensatory`` game's displayed score and the points ``subtract``-ed from it (7.3;
    None: nothing)."""

    score: int | None
    penalty: str | None = None
    late: bool = False
    compensatory: int | None = None
    subtract: int | None = None


class CompensatoryGame(TypedDict, total=False):
    """A compensatory game as entered (FWPL 7.3): its displayed ``score`` and the points the LO
    ``subtract``-s (absent or None: not given)."""

    score: int | None
    subtract: int | None


@dataclass(frozen=True)
class GameEntry:
    """A whole game as entered (FWPL 2.3, 2.4, 3.2, 7.3, 8.x): ``scores`` {player: score or None
    for a forfeit}, ``penalties`` {player: penalty}, ``late`` players, ``compensatory`` games
    {player: {score, subtract}} and ``playoff``, the one-ball play-off order of equal scores
    (3.2). ``game_lines`` checks them against the group."""

    scores: Mapping[str, int | None]
    penalties: Mapping[str, str | None] = field(default_factory=dict)
    late: Iterable[str] = ()
    compensatory: Mapping[str, CompensatoryGame | None] = field(default_factory=dict)
    playoff: tuple[str, ...] = ()


def _is_penalty(value: object) -> TypeGuard[Penalty]:
    return value in get_args(Penalty)


def score_line(player: str, entry: LineEntry) -> GameScore:
    """``player``'s line from ``entry`` (FWPL 2.3, 2.4, 7.3; penalties 8.1, 8.2-8.5, 8.7).
    Raises InvalidScore for a penalty not in ``PENALTIES``, or a score ``final_score`` refuses
    (checked before anything is kept)."""
    penalty = entry.penalty or "none"
    if not _is_penalty(penalty):
        raise InvalidScore(
            f"Player {player}: penalty must be one of {', '.join(PENALTIES)}, not {penalty!r}."
        )
    line = GameScore(
        player=player,
        score=entry.score,
        compensatory=entry.compensatory,
        subtract=entry.subtract or 0,
        penalty=penalty,
        late=entry.late,
    )
    final_score(line)
    return line


def game_lines(entry: GameEntry, players: Sequence[str], where: str) -> tuple[GameScore, ...]:
    """The lines of a whole game of ``players`` (FWPL 2.4, 4.2): ``entry.scores`` names every
    one of them (a forfeit is an explicit None, so a forgotten player is never a silent
    forfeit) and nobody else; so do its penalties and compensatory games. Raises NotInGroup for a
    missing or extra player (the message names ``where``), and what ``score_line`` raises."""
    outside = [p for p in entry.scores if p not in players]
    if outside:
        raise NotInGroup(f"Player {outside[0]} is not in {where}.")
    missing = [p for p in players if p not in entry.scores]
    if missing:
        raise NotInGroup(
            f"Give a score, or a forfeit, for every player of {where}; missing: "
            f"{', '.join(missing)}."
        )
    late = set(entry.late)
    extras: tuple[tuple[str, Collection[str]], ...] = (
        ("penalty", entry.penalties),
        ("compensatory game", entry.compensatory),
    )
    for name, values in extras:
        stray = [p for p in values if p not in players]
        if stray:
            raise NotInGroup(f"A {name} for player {stray[0]}, who is not in {where}.")

    def line_of(player: str) -> LineEntry:
        extra: CompensatoryGame = entry.compensatory.get(player) or {}
        return LineEntry(
            score=entry.scores[player],
            penalty=entry.penalties.get(player),
            late=player in late,
            compensatory=extra.get("score"),
            subtract=extra.get("subtract"),
        )

    return tuple(score_line(p, line_of(p)) for p in players)


def score_game(slot: Slot, players: Sequence[str], config: FwplConfig, where: str) -> GameResult:
    """Score ``slot``'s lines as a game of ``players`` (FWPL 3.2, 2.4). Raises what
    ``game_points`` raises, a NotInGroup message naming ``where``."""
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
    machine is ``awaited``. Returns (state by machine, machines awaited)."""
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
    unplayable: Collection[str] = (),
) -> Slot:
    """The open ``slot`` with ``machine`` picked for it at entry ``seq`` by ``who`` (FWPL 5,
    5.1, 6.4): one of the league's machines, not one the group played tonight (``played``), not
    one another group (``others``, their open games) is playing unless on ball 3, or already
    waiting for, unless nothing else is left; the machines ``unplayable`` tonight (7.3) are not
    there to choose. A slot that has scores already keeps its machine.
    Raises UnknownMachine, MachineNotAllowed."""
    if machine not in league.machines:
        raise UnknownMachine(f"Machine {machine} is not one of this league's machines.")
    if slot.lines and slot.machine != machine:
        raise MachineNotAllowed(
            f"{where} has scores on {league.machines.get(slot.machine or '', slot.machine)}; "
            "correct those first."
        )
    state, awaited = busy(others)
    machines = [m for m in league.machines if m not in unplayable]
    check_pick(machine, machines, [s.machine for s in played if s.machine], state, awaited)
    return replace(slot, machine=machine, chosen_at=seq, picked_by=who, last_ball=False)


def settle(
    league: League,
    slot: Slot,
    machine: str | None,
    played: Sequence[Slot],
    others: Sequence[Slot],
    seq: int,
    who: str | None,
    where: str,
    unplayable: Collection[str] = (),
) -> Slot:
    """The open ``slot`` ready for scores on ``machine`` (FWPL 5, 5.1): the machine assigned or
    picked for it must be the one named (None: whichever it is); with none chosen yet, naming
    it is the pick (``choose``). Raises MachineNotAllowed, and what ``choose`` raises."""
    if slot.machine is None:
        if machine is None:
            raise MachineNotAllowed(f"Nobody has picked the machine for {where} yet; name it.")
        return choose(league, slot, machine, played, others, seq, who, where, unplayable)
    if machine is not None and machine != slot.machine:
        name = league.machines.get(slot.machine, slot.machine)
        raise MachineNotAllowed(
            f"{where} is to be played on {name}, not {league.machines.get(machine, machine)}."
            " To change machine (FWPL 5.1), pick again before entering scores."
        )
    return slot
