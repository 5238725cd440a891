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

Pure: the caller records when (``seq``) and why; nothing here reads a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, TypeVar

from scoring.corrections import without_entries
from scoring.epc.classic import ClassicConfig, after_fault, machine_fault
from scoring.errors import EntryNotAllowed
from scoring.model import Entry
from scoring.tournament import Tournament

T = TypeVar("T", bound=Tournament)


class ReplacementRefused(EntryNotAllowed):
    """The competition's rule does not let this machine be replaced, or bring it back (EPC 2009,
    EPC Classic Tournament; UK Pinball Kids Tournament). Belongs in ``scoring.errors``."""

    code = "replacement_refused"


@dataclass(frozen=True, slots=True)
class TakenOut:
    """The result of taking a machine out (EPC 2009, EPC Classic Tournament; UKPL 6A).

    ``tournament``: the standings that follow. ``wiped``: entries no longer counted, in the order
    played. ``owed``: players owed a game on the replacement ("a free game", EPC Classic; "replayed
    on the new game", UKPL 6A), in the order they first played the old machine.
    """

    tournament: Tournament
    wiped: tuple[Entry, ...] = ()
    owed: tuple[str, ...] = ()


def take_out(tournament: T, machine: str, replacement: str | None, seq: int) -> TakenOut:
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


def _scores_stand(tournament: T, machine: str, replacement: str | None, seq: int) -> TakenOut:
    return TakenOut(tournament)


def _ukpl(tournament: T, machine: str, replacement: str | None, seq: int) -> TakenOut:
    if replacement is None:
        return TakenOut(tournament)
    played = tournament.entries.get(machine, ())
    owed = tuple(dict.fromkeys(e.player for e in played))
    return TakenOut(without_entries(tournament, (e.seq for e in played)), played, owed)


def _kids(tournament: T, machine: str, replacement: str | None, seq: int) -> TakenOut:
    if replacement is not None:
        raise ReplacementRefused(
            "The kids tournament is played on one designated machine; it can be closed, not "
            "replaced. Start a new kids tournament on the other machine."
        )
    return TakenOut(tournament)


def _classic(tournament: T, machine: str, replacement: str | None, seq: int) -> TakenOut:
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


Rule = Callable[[Any, str, "str | None", int], TakenOut]
_RULES: Mapping[str, Rule] = MappingProxyType(
    {"epc-classic": _classic, "ukpl-meeting": _ukpl, "epc-kids": _kids}
)
