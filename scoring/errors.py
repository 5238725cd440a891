"""Domain errors raised by the rule engines.

Every message is written for a steward: it says what was expected and what arrived.
``display/`` maps each class to one HTTP status in one place (``display/errors.py``)::

    ScoringError                    base; never raised itself
    ├── SettingsError               a tournament setting is unknown or out of range   -> 422
    ├── InvalidScore                not a whole number in 0 .. 2**53-1                 -> 422
    ├── UnknownPlayer               no such player number in this tournament           -> 404
    ├── UnknownMachine              no such machine in this tournament                 -> 404
    ├── UnknownEntry                no counting score at that log version              -> 422
    ├── DuplicateRegistration       a player number or machine id that already exists  -> 409
    └── EntryNotAllowed             the rules forbid this entry now                    -> 409
        ├── TooManyMachines         a seventh machine (EPC 2009, EPC Qualifying)
        ├── MachineAlreadyPlayed    a second score on a machine, joker already used or not allowed
        ├── JokerAlreadyUsed        a second joker game (EPC 2009, EPC Qualifying)
        ├── MachineUnavailable      a machine out of order, closed or replaced refuses this
        ├── ReplacementRefused      the competition's rule does not let this machine be replaced
        ├── PlayerWithdrawn         a withdrawn player neither queues nor scores
        └── AboveMaximum            a steward's score above the tournament's maximum: the TD's

The per-machine engine (``scoring.tournament``, ``scoring.corrections``,
``scoring.machine_faults``) raises these; a rulebook with refusals of its own keeps them in its
own ``errors`` module, under these classes (``scoring.fwpl.errors``, ``scoring.ukpl.errors``).
"""

from __future__ import annotations


class ScoringError(Exception):
    """Base of every rule-engine error. ``code`` is a stable machine-readable name."""

    code = "scoring_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SettingsError(ScoringError):
    """A setting unknown, out of range or fixed by now, or naming no such thing (422)."""

    code = "invalid_setting"


class InvalidScore(ScoringError):
    """A score that is not a whole number in 0 .. 2**53-1 (422)."""

    code = "invalid_score"


class UnknownPlayer(ScoringError):
    """No player with that number is registered in this tournament (404)."""

    code = "unknown_player"


class UnknownMachine(ScoringError):
    """No machine with that id is in this tournament (404)."""

    code = "unknown_machine"


class UnknownEntry(ScoringError):
    """No counting score has this log version: never recorded, voided, or wiped with its machine.
    EPC 2009, EPC Qualifying ("The contestant should verify the score")."""

    code = "unknown_entry"


class DuplicateRegistration(ScoringError):
    """A player number, machine id, team, seed or meeting that is already registered (409)."""

    code = "duplicate"


class EntryNotAllowed(ScoringError):
    """The rules forbid this entry now; the base of every 409 refusal of a score or queue."""

    code = "entry_not_allowed"


class TooManyMachines(EntryNotAllowed):
    """A score on a seventh machine: a player plays six (EPC 2009, EPC Qualifying)."""

    code = "too_many_machines"


class MachineAlreadyPlayed(EntryNotAllowed):
    """A second score by a player on one machine or game: EPC qualifying machines are played once
    save the joker game (EPC 2009, EPC Qualifying), a UKPL meeting counts one game per machine
    (UKPL 3A, 3B)."""

    code = "machine_already_played"


class JokerAlreadyUsed(EntryNotAllowed):
    """A second joker game: each player may only play one (EPC 2009, EPC Qualifying)."""

    code = "joker_already_used"


class MachineUnavailable(EntryNotAllowed):
    """A machine out of order, closed or replaced refuses this: a closed or replaced machine takes
    no more scores (EPC 2009, EPC Classic Tournament, "closed to further qualification"; UKPL 6A),
    a machine out of order no queue until it is repaired (UKPL 6A)."""

    code = "machine_unavailable"


class ReplacementRefused(EntryNotAllowed):
    """The competition's rule does not let this machine be replaced, or bring it back (EPC 2009,
    EPC Classic Tournament; UK Pinball Kids Tournament; UKPL 6A: a replaced machine stays out)."""

    code = "replacement_refused"


class PlayerWithdrawn(EntryNotAllowed):
    """A withdrawn player neither queues nor scores; their scores stand (EPC 2009, EPC Qualifying,
    "Any unplayed games will score zero")."""

    code = "player_withdrawn"


class PlayerNotWithdrawn(EntryNotAllowed):
    """A withdrawal is undone only for a player who has withdrawn (EPC 2009, EPC Qualifying)."""

    code = "player_not_withdrawn"


class AboveMaximum(EntryNotAllowed):
    """A steward's score above the tournament's maximum (the hall setting ``max_score``): only
    the TD records it. No rulebook caps a score; the maximum catches a typed extra digit before
    it reaches the board (EPC 2009, EPC Qualifying: "The contestant should verify the score")."""

    code = "above_maximum"
