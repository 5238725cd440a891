"""People's and machines' names as typed: one Unicode form, and a warning for a likely duplicate.

A name typed on a Mac arrives decomposed ("A" + combining ring, NFD), on most other systems
composed ("Å", NFC); both look the same and must be the same name, so every name entering a log
(the API, a CSV import, the desk's late entry) is stored in NFC (Unicode UAX #15). Two players whose
names are equal once composed and case-folded ("Åsa Lind", "åsa lind") may be one person entered
twice: the write goes ahead (two people may share a name) and its answer carries a warning.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping


def nfc(text: str) -> str:
    """``text`` in Unicode normal form C, trimmed."""
    return unicodedata.normalize("NFC", text).strip()


def nfc_value(value: object) -> object:
    """A pydantic ``BeforeValidator``: text in NFC, anything else as it is (for the type's own
    error)."""
    return nfc(value) if isinstance(value, str) else value


def folded(text: str) -> str:
    """``text`` as names are compared: NFC, case-folded, inner white space collapsed."""
    return " ".join(nfc(text).casefold().split())


def existing_names(players: object) -> dict[str, str]:
    """Player number -> name from a ``players`` view (number -> ``{"name", …}``); {} for none."""
    if not isinstance(players, Mapping):
        return {}
    return {
        str(number): str(doc["name"])
        for number, doc in players.items()
        if isinstance(doc, Mapping) and isinstance(doc.get("name"), str)
    }


def duplicate_warnings(new: Iterable[tuple[str, str]], existing: Mapping[str, str]) -> list[str]:
    """One sentence per new player (number, name) whose name equals an earlier one's (an existing
    player's, or one earlier in ``new``) once composed and case-folded; [] when none does."""
    seen = {folded(name): (number, name) for number, name in existing.items()}
    warnings = []
    for number, name in new:
        key = folded(name)
        if key in seen and seen[key][0] != number:  # the same number: a retry, not a second person
            other, other_name = seen[key]
            warnings.append(
                f"Player {number} “{name}” may be the same person as player {other} "
                f"“{other_name}”: withdraw one if they are."
            )
        else:
            seen[key] = (number, name)
    return warnings
