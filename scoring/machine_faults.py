"""What a machine taken out of a competition does to its scores, per format.

A machine is *closed* (no more scores) or *replaced* (by another machine of the tournament). The
competition's own rule decides what happens to the scores already recorded on it:

- EPC Classic (EPC 2009, EPC Classic Tournament): ``scoring.epc.classic.machine_fault`` decides.
  With 10 or more players' scores it "will be closed to further qualification but all scores will
  stand", so a replacement is refused; with fewer it "may ... be replaced": its scores are wiped and
  "those players will be given a free game on the replacement machine"; closed with no
  replacement, its scores stand. The decision is recorded in the Classic settings (``faults``).
- UKPL meeting (UKPL 6A): "any games already played on the faulty machines will need to be
  replayed on the new game": replaced, its games are wiped and their players owe a replay on the
  substitute. Closed with no substitute, the text gives no rule; its games stand (a choice: a
  game played in full was fair, and wiping it without a substitute would leave those players a
  machine short).
- EPC qualifying (EPC 2009, EPC Qualifying) has no fault rule: scores on a closed or replaced
  machine stand (a choice, the one the Classic rule makes for a well-played machine); the
  replacement is another machine with a table of its own.
- UK Pinball Kids (EPC 2009, UK Pinball Kids Tournament) is played on one "designated" machine:
  it may close (its scores stand) but a replacement is refused, as the text has no rule for a
  second machine and the format refuses scores on one.

A machine's status changes (``change_status``) by these rules too: a machine closed or replaced
takes no more scores (``scoring.tournament.check_takes_scores``); a closed machine comes back into
service (``bring_back``) but is not put out of order; a replaced machine stays out (UKPL 6A, its
games are "replayed on the new game"); a replacement is another machine of the tournament, in
service, with no scores and replacing no other machine, as "the replacement machine" starts
fresh (EPC 2009, EPC Classic Tournament; UKPL 6A).

Pure: the caller records when (``seq``) and why; nothing here reads a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from scoring.corrections import without_entries
from scoring.epc.classic import ClassicConfig, after_fault, machine_fault
from scoring.errors import MachineUnavailable, UnknownMachine
from scoring.errors import ReplacementRefused as ReplacementRefused  # raised here, imported too
from scoring.model import Entry, MachineState, Status
from scoring.tournament import Tournament, check_in_service, machine_name

T = TypeVar("T", bound=Tournament)


@dataclass(frozen=True, slots=True)
class TakenOut(Generic[T]):
    """The result of taking a machine out (EPC 2009, EPC Classic Tournament; UKPL 6A).

    ``tournament``: the standings that follow (the tournament given, of its own type). ``wiped``:
    entries no longer counted, in the order played. ``owed``: players owed a game on the
    replacement ("a free game", EPC Classic; "replayed on the new game", UKPL 6A), in the order
    they first played the old machine.
    """

    tournament: T
    wiped: tuple[Entry, ...] = ()
    owed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StatusChanged(Generic[T]):
    """The result of a machine's status change (``change_status``; EPC 2009, EPC Classic
    Tournament; UKPL 6A): ``tournament``, the standings that follow; ``state``, the machine's new
    status (with its replacement and the players owed a game there); ``wiped``, the entries no
    longer counted, in the order played."""

    tournament: T
    state: MachineState
    wiped: tuple[Entry, ...] = ()


def change_status(
    tournament: T,
    statuses: Mapping[str, MachineState],
    machine: str,
    status: Status,
    note: str | None,
    replacement: str | None,
    seq: int,
) -> StatusChanged[T]:
    """Put ``machine`` (a machine of ``tournament``) in ``status`` with the TD's ``note``,
    decided at log version ``seq``; ``replacement``: the machine id that replaces it (status
    "replaced" only); ``statuses``: every machine's status now (absent: in service). A closed
    machine put back in service or out of order is brought back first (``bring_back``); closed or
    replaced, the competition's rule says what its scores become (``take_out``). EPC 2009, EPC
    Classic Tournament; UKPL 6A; EPC 2009, EPC Qualifying; EPC 2009, UK Pinball Kids Tournament.

    Raises ReplacementRefused for a machine already replaced (it stays out, UKPL 6A), a
    replacement not named, the machine itself, or one with scores or replacing another, or where
    the rule allows none; MachineUnavailable for a status the machine has already (out of order
    may be given again, with a new note), a closed machine put out of order, or a replacement not
    in service; UnknownMachine for a replacement not in the tournament.
    """
    current = statuses.get(machine) or MachineState()
    name = machine_name(tournament, machine)
    if current.status == "replaced":
        raise ReplacementRefused(f"{name} was replaced; a replaced machine stays out.")
    if status == current.status and status != "out_of_order":
        raise MachineUnavailable(f"{name} is already {status.replace('_', ' ')}.")
    if current.status == "closed" and status == "out_of_order":
        raise MachineUnavailable(f"{name} is closed; put it back in service first.")
    if current.status == "closed":
        tournament = bring_back(tournament, machine)
    if status == "in_service" or status == "out_of_order":
        return StatusChanged(tournament, MachineState(status, note))
    chosen = (
        _replacement(tournament, statuses, machine, replacement) if status == "replaced" else None
    )
    out = take_out(tournament, machine, chosen, seq)
    return StatusChanged(out.tournament, MachineState(status, note, chosen, out.owed), out.wiped)


def _replacement(
    tournament: Tournament,
    statuses: Mapping[str, MachineState],
    machine: str,
    replacement: str | None,
) -> str:
    # "the replacement machine" (EPC Classic), "the new game" (UKPL 6A): a machine of its own,
    # in service, that starts with no scores.
    if not replacement:
        raise ReplacementRefused(
            f"Name the machine that replaces {machine_name(tournament, machine)} (add it first)."
        )
    if replacement not in tournament.machines:
        raise UnknownMachine(f"There is no machine {replacement} in this tournament.")
    name = machine_name(tournament, replacement)
    if replacement == machine:
        raise ReplacementRefused(f"{name} cannot replace itself.")
    check_in_service(tournament, statuses, replacement)
    if tournament.entries.get(replacement) or any(
        s.replacement == replacement for s in statuses.values()
    ):
        raise ReplacementRefused(
            f"{name} already has scores or replaces another machine; a replacement starts fresh."
        )
    return replacement


def take_out(tournament: T, machine: str, replacement: str | None, seq: int) -> TakenOut[T]:
    """Close ``machine`` (``replacement`` None) or replace it with the machine id ``replacement``,
    decided at log version ``seq``; the format's rule (module docstring) says what its scores do.
    EPC 2009, EPC Classic Tournament; UKPL 6A; EPC 2009, EPC Qualifying; EPC 2009, UK Pinball Kids
    Tournament.

    Raises ReplacementRefused where the rule does not allow a replacement.
    """
    rule = _RULES.get(tournament.format.name, _scores_stand)
    return rule(tournament, machine, replacement, seq)


def bring_back(tournament: T, machine: str) -> T:
    """``tournament`` with a closed ``machine`` open again (a TD's mistake undone, or a repair
    after all): a Classic fault with no replacement is removed from the settings. EPC 2009, EPC
    Classic Tournament ("If this is possible, all existing scores will be valid").

    Raises ReplacementRefused for a Classic machine that was replaced: its scores were wiped.
    """
    if tournament.format.name != "epc-classic":
        return tournament
    config: ClassicConfig = tournament.config
    fault = config.fault_on(machine)
    if fault is None:
        return tournament
    if fault.replacement is not None:
        raise ReplacementRefused(
            f"Machine {machine} was replaced by {fault.replacement} and its scores wiped; it "
            "cannot come back. Add it as a new machine if it is repaired."
        )
    kept = tuple(f for f in config.faults if f.machine != machine)
    return _with_config(tournament, replace(config, faults=kept))


def _scores_stand(tournament: T, machine: str, replacement: str | None, seq: int) -> TakenOut[T]:
    return TakenOut(tournament)


def _ukpl(tournament: T, machine: str, replacement: str | None, seq: int) -> TakenOut[T]:
    if replacement is None:
        return TakenOut(tournament)
    played = tournament.entries.get(machine, ())
    owed = tuple(dict.fromkeys(e.player for e in played))
    return TakenOut(without_entries(tournament, (e.seq for e in played)), played, owed)


def _kids(tournament: T, machine: str, replacement: str | None, seq: int) -> TakenOut[T]:
    if replacement is not None:
        raise ReplacementRefused(
            "The kids tournament is played on one designated machine; it can be closed, not "
            "replaced. Start a new kids tournament on the other machine."
        )
    return TakenOut(tournament)


def _classic(tournament: T, machine: str, replacement: str | None, seq: int) -> TakenOut[T]:
    config: ClassicConfig = tournament.config
    played = tournament.entries.get(machine, ())
    decision = machine_fault(config, played, repairable=False, replacement=replacement is not None)
    if replacement is not None and decision.action == "close":
        counted = "players'" if config.fault_count == "players" else "recorded"
        raise ReplacementRefused(
            f"Machine {machine} has {decision.counted} {counted} scores, {config.fault_minimum} "
            "or more, so under the Classic rules it closes with its scores standing and is not "
            "replaced. Close it instead."
        )
    fresh = _with_config(tournament, after_fault(config, machine, decision, seq, replacement))
    if decision.action != "replace":
        return TakenOut(fresh)
    wiped = without_entries(fresh, (e.seq for e in played))
    return TakenOut(wiped, played, decision.free_games)


def _with_config(tournament: T, config: Any) -> T:
    fmt = tournament.format
    standings = fmt.standings(config, tournament.players, tournament.tables)
    return replace(tournament, config=config, standings=standings)


Rule = Callable[[Any, str, "str | None", int], "TakenOut[Any]"]
_RULES: Mapping[str, Rule] = MappingProxyType(
    {"epc-classic": _classic, "ukpl-meeting": _ukpl, "epc-kids": _kids}
)
