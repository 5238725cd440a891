"""What every competition's view documents share: ``compact`` (views have no nulls, since null
deletes a key in a merge patch) and place words (``ordinal``)."""

from __future__ import annotations

from typing import Any


def compact(values: dict[str, Any]) -> dict[str, Any]:
    """Drop None values: in views an absent key means "none", because null deletes in a merge patch."""
    return {key: value for key, value in values.items() if value is not None}


def ordinal(n: int) -> str:
    """``n`` as a place in words a phone shows: 1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
