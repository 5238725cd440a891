"""UKPL errors, under ``scoring.errors.EntryNotAllowed`` (so ``display/`` maps them to 409)::

EntryNotAllowed
├── MultiplayerGameSplit   one score of a multiplayer game changed on its own (UKPL 2F)
├── GameNotCounting        a correction of a game that does not count now (UKPL 3A, 6A, 6C, 7A)
├── AdjustedGame           a correction that takes away the game an adjustment names
│                          (UKPL 2E, 6C, 7A, 7C, 7D)
├── SubstitutionFinal      a machine's substitution withdrawn (UKPL 6A)
└── OwnMeeting             this meeting's results imported as another's (UKPL 3E)

Each keeps the code of ``EntryNotAllowed`` (``entry_not_allowed``): the API answers these
refusals as it did before they had classes of their own.
"""

from __future__ import annotations

from scoring.errors import EntryNotAllowed


class MultiplayerGameSplit(EntryNotAllowed):
    """A multiplayer game's scores are entered together, so they are not corrected or voided one
    by one (UKPL 2F)."""


class GameNotCounting(EntryNotAllowed):
    """The game a correction names does not count now: a replay took its place, or its machine
    or player is out of the meeting (UKPL 3A, 6A, 6C, 7A)."""


class AdjustedGame(EntryNotAllowed):
    """A correction would take away the game an adjustment names; the adjustment is withdrawn
    first (UKPL 2E, 6C, 7A, 7C, 7D)."""


class SubstitutionFinal(EntryNotAllowed):
    """A machine taken out of the meeting stays out: its games are replayed on the substitute
    (UKPL 6A)."""


class OwnMeeting(EntryNotAllowed):
    """A meeting's own results are its scores, not an import (UKPL 3E)."""
