"""Score roll-over: a machine whose display shows fewer digits than a score needs starts again
from 0 (e.g. 99,999,990 + 20 shows 10 on an eight-digit display).

No rule text covers it: EPC 2009, EPC Qualifying, UKPL 3B and FWPL 3.2 rank players by the score
each made on a machine, and a display that rolled over shows less than that score. Backglass's
reading, documented in docs/rules.md ("Score roll-over"): a machine may declare the
``digits`` its display shows; a steward then enters the score as displayed and the number of
roll-overs the players saw, and the true score is ``displayed + rollovers x 10**digits``. A
machine that declares no digits refuses a roll-over, so nothing is guessed.
"""

from __future__ import annotations

from scoring.errors import EntryNotAllowed, InvalidScore, SettingsError
from scoring.tournament import check_score

MAX_DIGITS = 15
"""Displays up to 15 digits (999 trillion, within the 2**53 scores Backglass holds)."""
MAX_ROLLOVERS = 99


class RolloverNotDeclared(EntryNotAllowed):
    """A roll-over entered on a machine that does not declare its display's digits (409): the
    score ranked (EPC 2009, EPC Qualifying; UKPL 3B) is then the one displayed."""

    code = "rollover_not_declared"


def check_digits(digits: object) -> int:
    """``digits`` a machine declares, a whole number 1 .. ``MAX_DIGITS``: how far its display
    counts before the score it ranks by (EPC 2009, EPC Qualifying; UKPL 3B) rolls over. Raises
    SettingsError."""
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= MAX_DIGITS:
        raise SettingsError(f"A machine's display shows 1 to {MAX_DIGITS} digits, not {digits!r}.")
    return digits


def true_score(displayed: object, rollovers: object, digits: int | None, machine: str) -> int:
    """The score a player made on ``machine`` (its name, for messages) whose display of
    ``digits`` digits shows ``displayed`` after rolling over ``rollovers`` times:
    ``displayed + rollovers * 10**digits``. Raises RolloverNotDeclared (``digits`` None),
    InvalidScore (not whole numbers, ``rollovers`` outside 0 .. 99, more digits than the
    display has, or a total above 2**53 - 1). The result is the score the rules rank (EPC 2009,
    EPC Qualifying; UKPL 3B; FWPL 3.2).

    >>> true_score(12_345_678, 1, 8, "Attack from Mars")
    112345678
    """
    if digits is None:
        raise RolloverNotDeclared(
            f"{machine} does not declare how many digits its display shows, so a roll-over "
            "cannot be entered; enter the score as it is, or ask the TD."
        )
    shown = check_score(displayed)
    if isinstance(rollovers, bool) or not isinstance(rollovers, int):
        raise InvalidScore(f"Roll-overs are a whole number, not {rollovers!r}.")
    if not 0 <= rollovers <= MAX_ROLLOVERS:
        raise InvalidScore(f"Roll-overs are 0 to {MAX_ROLLOVERS}, not {rollovers}.")
    if shown >= 10**digits:
        raise InvalidScore(
            f"{machine}'s display shows {digits} digits; {shown:,} has more. Enter the score "
            "as displayed."
        )
    return check_score(shown + rollovers * 10**digits)
