"""EPC 2009 errors, under the ``scoring.errors`` classes (so ``display/errors.py`` maps them to the
same HTTP statuses as their parents)::

    ScoringError (422)
    ├── UnresolvedTie       equal results where the rules need an order and no play-off order was
    │                       given (EPC Quarter-Finals, EPC Semi-Finals, EPC Finals, EPC Classic)
    └── IncompleteResult    a stage result that does not match its line-up (EPC Semi-Finals, Finals)
    EntryNotAllowed (409)
    ├── StageNotReady       a stage step the rules do not allow now: out of order, or the stage
    │                       before it is not decided (the EPC main stages, the Classic's)
    ├── NotAllocated        a quarter-final score on another pair's machine (EPC Quarter-Finals)
    ├── MachineClosed       a Classic score on a machine closed or replaced after a fault
    ├── QualifyingClosed    a Classic or kids score after the close
    └── WrongMachine        a kids score on a second machine (UK Pinball Kids Tournament)
"""

from __future__ import annotations

from scoring.errors import EntryNotAllowed, ScoringError


class UnresolvedTie(ScoringError):
    """Equal results where the rules need an order, and no play-off order was given (EPC 2009,
    EPC Quarter-Finals, EPC Semi-Finals, EPC Finals; EPC Classic Tournament)."""

    code = "unresolved_tie"


class IncompleteResult(ScoringError):
    """A stage result that does not match its line-up: a missing or unknown player (EPC 2009, EPC
    Semi-Finals, EPC Finals)."""

    code = "incomplete_result"


class StageNotReady(EntryNotAllowed):
    """A stage step the rules do not allow now (EPC 2009, EPC Quarter-Finals, EPC Semi-Finals,
    EPC Finals, EPC Classic Tournament: the stages run in order, each once the one before it is
    decided)."""

    code = "stage_not_ready"


class NotAllocated(EntryNotAllowed):
    """A quarter-final score on a machine not allocated to the player's pair (EPC 2009, EPC
    Quarter-Finals)."""

    code = "not_allocated"


class MachineClosed(EntryNotAllowed):
    """A score on a machine closed or replaced after a fault (EPC 2009, EPC Classic Tournament)."""

    code = "machine_closed"


class QualifyingClosed(EntryNotAllowed):
    """A score after the close (EPC 2009, UK Pinball Kids Tournament "At the close of the
    tournament each day"; EPC Classic Tournament "ends at 3pm promptly")."""

    code = "qualifying_closed"


class WrongMachine(EntryNotAllowed):
    """A kids score on a second machine (EPC 2009, UK Pinball Kids Tournament, "the designated
    ... machine")."""

    code = "wrong_machine"
