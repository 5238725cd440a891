"""A UKPL meeting as it is played: every game recorded, the adjustments decided on the day, and
which games may still be recorded. The arithmetic of the adjustments is ``scoring.ukpl.adjust``;
this module says what a live meeting may record before that arithmetic runs.

Rule text: UKPL rules (UK Pinball League regional rules), sections 2E, 2F, 3A, 3B, 6A, 6C, 7A, 7C, 7D.

- 3A/3B: one game per player per machine counts, so a second game is refused ...
- 6A/6C: ... unless a fault opened it: a ``Replay`` or ``OneBallAdded`` decision on a player's
  game lets exactly one more game be recorded on that machine (the replay, or the one ball of a
  new game), and a second fault on the same machine waits until the first one's game is in;
- 6A: no game is recorded on a machine taken out of the meeting (``Substitute``): its games are
  replayed on the substitute;
- 7A: a player banned from this meeting (a ban given at an earlier meeting of the season) has no
  game recorded;
- 2F: a multiplayer game is 2-6 different players on one machine, entered together; each of
  their scores is checked like a single game;
- 7A: "for the next offence, the next level of penalty above will be imposed as a minimum"
  (``check_decision`` with ``escalate``);
- 6A: a substitution is not withdrawn: the machine stays out (``without_decision``).

A recorded game may be corrected (the score typed wrong) or voided (``correct_game``): only a game
that counts now, not one score of a multiplayer game (2F: the group's scores are one entry), and
not so that an adjustment loses the game it names.

Choices the text leaves open (settings of the live meeting, documented in display/competitions/ukpl/kind.py):

- a fault recorded whose game is not yet played is *pending*: the original game counts as it
  was until the replay (or the extra ball) is entered. 6A "offered the chance to replay": a
  replay not taken leaves the game as played, and the table does not jump twice;
- an adjustment that names a game must name a machine of the meeting that is not taken out; the
  game itself must exist when ``scoring.ukpl.adjust.adjust`` runs (it raises otherwise).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import get_args

from scoring.errors import EntryNotAllowed, MachineAlreadyPlayed, UnknownMachine, UnknownPlayer
from scoring.model import Entry
from scoring.tournament import check_score
from scoring.ukpl.adjust import (
    AdjustConfig,
    Adjusted,
    OneBallAdded,
    Penalty,
    PenaltyLevel,
    Record,
    Replay,
    Substitute,
    adjust,
    minimum_penalty,
)
from scoring.ukpl.errors import (
    AdjustedGame,
    GameNotCounting,
    MultiplayerGameSplit,
    SubstitutionFinal,
)

FAULTS = (Replay, OneBallAdded)
"""Decisions that open one more game on a machine (UKPL 6A, 6C)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One adjustment decided at the meeting: the log version ``seq`` that recorded it and the
    record (UKPL 2E, 6A, 6C, 7A, 7C, 7D). Decisions are applied in ``seq`` order."""

    seq: int
    record: Record


def games_of(games: Iterable[Entry], player: str, machine: str) -> tuple[Entry, ...]:
    """``player``'s games on ``machine``, in the order played (UKPL 3A, 6C)."""
    return tuple(g for g in games if g.player == player and g.machine == machine)


def removed_machines(decisions: Iterable[Decision]) -> dict[str, str]:
    """Machines taken out of the meeting -> their substitute (UKPL 6A)."""
    return {
        d.record.machine: d.record.substitute for d in decisions if isinstance(d.record, Substitute)
    }


def pending_faults(games: Sequence[Entry], decisions: Iterable[Decision]) -> frozenset[int]:
    """The ``seq`` of every fault decision whose game is not yet recorded (UKPL 6A, 6C): the n-th
    fault on a player's machine waits until the player has n + 1 games there."""
    count: dict[tuple[str, str], int] = {}
    pending: set[int] = set()
    for d in decisions:
        if isinstance(d.record, FAULTS):
            key = (d.record.player, d.record.machine)
            count[key] = count.get(key, 0) + 1
            if len(games_of(games, *key)) < count[key] + 1:
                pending.add(d.seq)
    return frozenset(pending)


def check_game(
    entry: Entry,
    games: Sequence[Entry],
    decisions: Sequence[Decision],
    players: Collection[str],
    machines: Mapping[str, str],
    banned: Mapping[str, str] | None = None,
) -> None:
    """Raise unless ``entry`` may be recorded now (UKPL 3A, 3B, 6A, 6C, 7A). ``machines``: id ->
    name; ``banned``: player -> why they may not play at this meeting.

    Raises InvalidScore, UnknownPlayer, UnknownMachine, MachineAlreadyPlayed (a second game with
    no fault to replay), EntryNotAllowed (a machine taken out, a banned player).
    """
    check_score(entry.score)
    if entry.player not in players:
        raise UnknownPlayer(f"No player number {entry.player} is registered in this tournament.")
    if entry.machine not in machines:
        raise UnknownMachine(f"There is no machine {entry.machine} in this tournament.")
    name = machines[entry.machine]
    substitute = removed_machines(decisions).get(entry.machine)
    if substitute is not None:
        raise EntryNotAllowed(
            f"{name} was taken out of the meeting; its games are replayed on "
            f"{machines.get(substitute, substitute)}."
        )
    if banned and entry.player in banned:
        raise EntryNotAllowed(
            f"Player {entry.player} may not play at this meeting: {banned[entry.player]}."
        )
    played = games_of(games, entry.player, entry.machine)
    allowed = 1 + sum(
        1
        for d in decisions
        if isinstance(d.record, FAULTS)
        and (d.record.player, d.record.machine) == (entry.player, entry.machine)
    )
    if len(played) >= allowed:
        raise MachineAlreadyPlayed(
            f"Player {entry.player} already has a score on {name} ({played[-1].score:,}); a "
            "meeting counts one game per machine. For a replay after a fault, record the fault "
            "first."
        )


def check_group(entries: Sequence[Entry]) -> None:
    """Raise EntryNotAllowed unless ``entries`` are one multiplayer game: 2-6 different players
    on one machine (UKPL 2F)."""
    machines = {e.machine for e in entries}
    if len(machines) > 1:
        raise EntryNotAllowed("A multiplayer game is played on one machine.")
    if not 2 <= len(entries) <= 6:
        raise EntryNotAllowed(f"A multiplayer game has 2 to 6 players, not {len(entries)}.")
    players = [e.player for e in entries]
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise EntryNotAllowed(f"Player {', '.join(twice)} is entered twice in one game.")


def check_decision(
    decision: Decision,
    games: Sequence[Entry],
    decisions: Sequence[Decision],
    players: Collection[str],
    machines: Mapping[str, str],
    history: Iterable[Penalty] = (),
    escalate: bool = True,
) -> None:
    """Raise unless ``decision`` may be recorded after ``decisions`` (UKPL 6A, 6C, 7A).

    A fault names a machine of the meeting that is not taken out, on which the player has a game
    and no fault already waiting; a substitution names two different machines, neither taken
    out; a penalty with ``escalate`` is at least the level after the player's worst penalty in
    ``history`` (the season so far, UKPL 7A). Raises UnknownPlayer, UnknownMachine or
    EntryNotAllowed. Whether the named game exists for a score change is checked by ``counting``.
    """
    record = decision.record
    removed = removed_machines(decisions)
    if isinstance(record, Substitute):
        for machine in (record.machine, record.substitute):
            _machine(machine, machines, removed)
        if record.machine == record.substitute:
            raise EntryNotAllowed("A machine cannot be replaced by itself.")
        return
    if record.player not in players:
        raise UnknownPlayer(f"No player number {record.player} is registered in this tournament.")
    named: str | None = getattr(record, "machine", None)
    if named is not None:
        _machine(named, machines, removed)
    if isinstance(record, FAULTS):
        played = games_of(games, record.player, record.machine)
        if not played:
            raise EntryNotAllowed(
                f"Player {record.player} has no game on {machines[record.machine]} yet: record "
                "the game itself, no fault is needed."
            )
        if pending_faults(games, decisions) & {
            d.seq
            for d in decisions
            if isinstance(d.record, FAULTS)
            and (d.record.player, d.record.machine) == (record.player, record.machine)
        }:
            raise EntryNotAllowed(
                f"A fault for player {record.player} on {machines[record.machine]} is already "
                "waiting for its game."
            )
    if isinstance(record, Penalty) and escalate:
        check_escalation(record, history)


def check_escalation(penalty: Penalty, history: Iterable[Penalty]) -> None:
    """Raise EntryNotAllowed if ``penalty`` is milder than UKPL 7A allows after the player's
    earlier penalties in the season: "the next level of penalty above will be imposed as a
    minimum"."""
    floor = minimum_penalty(history, penalty.player)
    levels: tuple[PenaltyLevel, ...] = get_args(PenaltyLevel)
    if floor is not None and levels.index(penalty.level) < levels.index(floor):
        raise EntryNotAllowed(
            f"Player {penalty.player} already had a penalty this season; the next one is at "
            f"least {floor.replace('_', ' ')} (UKPL 7A)."
        )


def check_one_game(seq: object, multiplayer: Collection[int], done: str = "changed") -> None:
    """Raise MultiplayerGameSplit if the game of record ``seq`` (as a correction or void names
    it) is one of the ``multiplayer`` games (their records' seqs): its scores were entered
    together and are not ``done`` (e.g. "changed", "corrected") one by one. UKPL 2F."""
    if seq in multiplayer:
        raise MultiplayerGameSplit(
            f"Record {seq} is a multiplayer game; its scores cannot be {done} one by one."
        )


def correct_game(
    games: Sequence[Entry],
    decisions: Sequence[Decision],
    seq: int,
    counted: Entry | None,
    fixed: Entry | None,
    players: Collection[str],
    machines: Mapping[str, str],
) -> tuple[Entry, ...]:
    """The meeting's ``games`` with the game of record ``seq`` corrected to ``fixed`` (None: it is
    voided), in the order played. ``counted``: that game as it counted before (None: it counted
    nowhere); ``players``, ``machines`` (id -> name) as for ``check_game``. UKPL 3A, 3B, 6A, 6C.

    Raises GameNotCounting when the game does not count now (a replay took its place, or its
    player or machine is out of the meeting); AdjustedGame when it moves to another player or
    machine, or is voided, and an adjustment names it with no other game left there to name; or
    what ``check_game`` raises for the corrected game.
    """
    game = next((g for g in games if g.seq == seq), None)
    if game is None or counted is None or _where(counted) != _where(game):
        raise GameNotCounting(f"The game of record {seq} does not count now; nothing to change.")
    others = tuple(g for g in games if g.seq != seq)
    moved = fixed is None or _where(fixed) != _where(game)
    named = [
        d.seq
        for d in decisions
        if (getattr(d.record, "player", None), getattr(d.record, "machine", None)) == _where(game)
    ]
    if moved and named and not games_of(others, game.player, game.machine):
        raise AdjustedGame(
            f"The game of record {seq} has adjustment {', '.join(map(str, named))}; "
            "withdraw it first."
        )
    if fixed is None:
        return others
    check_game(fixed, others, decisions, players, machines)
    return tuple(sorted((*others, fixed), key=lambda g: g.seq))


def without_decision(decisions: Sequence[Decision], seq: int) -> tuple[Decision, ...]:
    """``decisions`` without the one recorded at ``seq`` (an adjustment withdrawn: the meeting as
    if it had not been decided; UKPL 2E, 6C, 7A, 7C, 7D). Raises SubstitutionFinal for a machine's
    substitution: "any games already played on the faulty machines will need to be replayed on
    the new game" (UKPL 6A), so the machine stays out."""
    if any(d.seq == seq and isinstance(d.record, Substitute) for d in decisions):
        raise SubstitutionFinal("A replaced machine stays out of the meeting (UKPL 6A).")
    return tuple(d for d in decisions if d.seq != seq)


def counting(
    games: Sequence[Entry],
    decisions: Sequence[Decision],
    config: AdjustConfig | None = None,
    banned: Collection[str] = frozenset(),
) -> Adjusted:
    """The meeting's counting games: ``scoring.ukpl.adjust.adjust`` over every game and every
    decision but the pending faults (whose original game counts as played, module docstring).
    UKPL 2E, 6A, 6C, 7A, 7C, 7D. Raises what ``adjust`` raises."""
    waiting = pending_faults(games, decisions)
    records = [d.record for d in decisions if d.seq not in waiting]
    return adjust(games, records, config or AdjustConfig(), banned)


def _where(game: Entry) -> tuple[str, str]:
    return game.player, game.machine


def _machine(machine: str, machines: Mapping[str, str], removed: Mapping[str, str]) -> None:
    if machine not in machines:
        raise UnknownMachine(f"There is no machine {machine} in this tournament.")
    if machine in removed:
        raise EntryNotAllowed(f"{machines[machine]} was already taken out of the meeting.")
