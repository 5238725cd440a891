"""Domain errors raised by the rule engines.

Every message is written for a steward: it says what was expected and what arrived.
``display/`` maps each class to one HTTP status in one place (``display/errors.py``)::

    ScoringError                    base; never raised itself
    ├── SettingsError               a tournament setting is unknown or out of range   -> 422
    ├── InvalidScore                not a whole number in 0 .. 2**53-1                 -> 422
    ├── UnknownPlayer               no such player number in this tournament           -> 404
    ├── UnknownMachine              no such machine in this tournament                 -> 404
    ├── DuplicateRegistration       a player number or machine id that already exists  -> 409
    └── EntryNotAllowed             the rules forbid this entry now                    -> 409
        ├── TooManyMachines         a seventh machine (EPC 2009, EPC Qualifying)
        ├── MachineAlreadyPlayed    a second score on a machine, joker already used or not allowed
        └── JokerAlreadyUsed        a second joker game (EPC 2009, EPC Qualifying)
"""

from __future__ import annotations


class ScoringError(Exception):
    """Base of every rule-engine error. ``code`` is a stable machine-readable name."""

    code = "scoring_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SettingsError(ScoringError):
    code = "invalid_setting"


class InvalidScore(ScoringError):
    code = "invalid_score"


class UnknownPlayer(ScoringError):
    code = "unknown_player"


class UnknownMachine(ScoringError):
    code = "unknown_machine"


class DuplicateRegistration(ScoringError):
    code = "duplicate"


class EntryNotAllowed(ScoringError):
    code = "entry_not_allowed"


class TooManyMachines(EntryNotAllowed):
    code = "too_many_machines"


class MachineAlreadyPlayed(EntryNotAllowed):
    code = "machine_already_played"


class JokerAlreadyUsed(EntryNotAllowed):
    code = "joker_already_used"
