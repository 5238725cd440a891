"""Turning exact points into the numbers people see.

Points stay ``Fraction`` inside ``scoring/`` (shared UKPL points such as 1/3 are exact); they are
rounded only at the edge, the way the organisers publish them. UKPL 3D/3F: shared league points are
averages, published rounded to 2 decimals (16.5, 0.33). Use these helpers in JSON views and CSV
output so every screen rounds the same way.
"""

from __future__ import annotations

import math
from fractions import Fraction

PUBLISHED_PLACES = 2
"""Decimal places the UK Pinball League publishes shared points with (UKPL 3D)."""


def round_half_up(value: Fraction, places: int = PUBLISHED_PLACES) -> Fraction:
    """``value`` rounded to ``places`` decimals, halves rounded up (towards +infinity), exactly:
    1/3 -> 33/100, 1/8 -> 13/100 (0.125 -> 0.13, unlike Python's round-half-even ``round``).
    UKPL 3D (published to 2 decimals). Raises ValueError for negative ``places``.
    """
    if places < 0:
        raise ValueError(f"places must be >= 0, not {places}")
    scale = 10**places
    return Fraction(math.floor(value * scale + Fraction(1, 2)), scale)


def points_json(value: Fraction | None, places: int = PUBLISHED_PLACES) -> int | float | None:
    """A JSON number for points: an ``int`` when whole, else a ``float`` of the value rounded half
    up to ``places`` decimals (16.5, 0.33); ``None`` stays ``None`` (an unranked row).
    UKPL 3D; EPC 2009, EPC Qualifying points are always whole.
    """
    if value is None:
        return None
    if isinstance(value, int):  # whole points (the common case) need no rounding
        return value
    if value.denominator == 1:
        return value.numerator
    rounded = round_half_up(value, places)
    if rounded.denominator == 1:
        return int(rounded)
    return float(rounded)


def points_text(value: Fraction, places: int = PUBLISHED_PLACES) -> str:
    """Points as the league publishes them: "20", "16.5", "0.33" (rounded half up to ``places``
    decimals, no trailing zeros, no exponent). UKPL 3D; EPC 2009, EPC Qualifying."""
    rounded = round_half_up(value, places)
    sign = "-" if rounded < 0 else ""
    whole, rest = divmod(abs(rounded), 1)
    if rest == 0:
        return f"{sign}{int(whole)}"
    digits = str(int(rest * 10**places)).rjust(places, "0").rstrip("0")
    return f"{sign}{int(whole)}.{digits}"
