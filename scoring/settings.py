"""Reading settings the same way for every format: JSON values or the CLI's strings.

Plumbing for each format's ``parse_settings``; raises SettingsError with a steward-readable message.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, get_args

from scoring.errors import SettingsError


def check_known(title: str, settings: Mapping[str, Any], known: Collection[str]) -> None:
    """Raise SettingsError for a key of ``settings`` that ``known`` does not list."""
    for key in settings:
        if key not in known:
            raise SettingsError(
                f"{title} has no setting {key!r}; the settings are {', '.join(sorted(known))}."
            )


def whole_number(name: str, value: object, lowest: int, highest: int) -> int:
    """``value`` (an int, or digits as text) as an int in ``lowest .. highest``."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().isdigit():
        number = int(value.strip())
    if number is None or not lowest <= number <= highest:
        raise SettingsError(
            f"Setting {name} must be a whole number from {lowest} to {highest}, not {value!r}."
        )
    return number


def choice(name: str, value: object, choices: Collection[str]) -> str:
    """``value`` if it is one of ``choices`` (text, case-insensitive), else SettingsError."""
    text = value.strip().lower() if isinstance(value, str) else ""
    if text not in choices:
        raise SettingsError(f"Setting {name} must be one of {', '.join(choices)}, not {value!r}.")
    return text


@dataclass(frozen=True, slots=True)
class Choice:
    """One allowed value of a setting that takes one of a fixed set: ``value`` as the format reads
    it and its ``meaning`` in a TD's words (a line on the desk's select)."""

    value: str
    meaning: str


def described(options: object, meanings: Mapping[str, str]) -> tuple[Choice, ...]:
    """The choices of a setting: ``options`` (a ``Literal`` type or a tuple of the values the
    format's parser accepts) each with its meaning from ``meanings``, in the options' order.
    Raises ValueError when ``meanings`` does not name exactly those values (a declaration that has
    drifted from its parser, found at import)."""
    values = get_args(options) or tuple(options)  # type: ignore[arg-type]
    if set(values) != set(meanings):
        raise ValueError(f"meanings {sorted(meanings)} do not match the values {sorted(values)}")
    return tuple(Choice(str(value), meanings[value]) for value in values)
