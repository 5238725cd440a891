"""An FWPL league's settings as the records and the ``tournament`` view name them, and the empty
season they make.

The state itself is ``scoring.fwpl.league.League``: what the log's records established
(members, machines, each night's groups and games, the playoffs); everything else (game points,
match bonus, the season table, the ladder, the bracket) is computed from it by ``scoring.fwpl``.
States are immutable: ``apply`` in ``display.competitions.fwpl.kind`` returns a new one, so the
API can try a record on the live state without changing it.
"""

from __future__ import annotations

from collections.abc import Iterable

from display.types import FormatSettings
from scoring.errors import SettingsError
from scoring.fwpl import FwplConfig, PlayoffConfig
from scoring.fwpl.league import League
from scoring.settings import check_known, whole_number

TITLE = "Flip Well Pinball League"
FORMAT = "fwpl-league"
PLAYOFF_PREFIX = "playoff_"
LEAGUE_SETTINGS = tuple(FwplConfig.__dataclass_fields__)
PLAYOFF_SETTINGS = tuple(PLAYOFF_PREFIX + name for name in PlayoffConfig.__dataclass_fields__)
DEFAULT_WEEKS = 8
"""FWPL 2: "The LO must designate ... length of season"; eight weeks unless the LO sets ``weeks``."""


def parse_settings(raw: FormatSettings) -> tuple[FwplConfig, PlayoffConfig, int, FormatSettings]:
    """A league's settings: every ``FwplConfig`` field by name, every ``PlayoffConfig`` field with
    the prefix ``playoff_`` (``playoff_cut``, ``playoff_ties``, …), and ``weeks`` (season length,
    FWPL 2). Returns the two configs, the weeks and the settings as used (every value, defaults
    included). Raises SettingsError for an unknown name or a bad value."""
    check_known(TITLE, raw, (*LEAGUE_SETTINGS, *PLAYOFF_SETTINGS, "weeks"))
    league = {k: v for k, v in raw.items() if k in LEAGUE_SETTINGS}
    playoff = {k[len(PLAYOFF_PREFIX) :]: v for k, v in raw.items() if k in PLAYOFF_SETTINGS}
    try:
        config = FwplConfig(**league)
    except TypeError as exc:  # pragma: no cover - check_known has refused unknown names
        raise SettingsError(str(exc)) from None
    try:
        playoff_config = PlayoffConfig(**playoff)
    except SettingsError as exc:  # it names its field; the league officer set playoff_<field>
        raise SettingsError(
            exc.message.replace("Setting ", "Setting " + PLAYOFF_PREFIX, 1)
        ) from None
    weeks = whole_number("weeks", raw.get("weeks", DEFAULT_WEEKS), 1, 104)
    return config, playoff_config, weeks, _used(config, playoff_config, weeks)


def _used(config: FwplConfig, playoff_config: PlayoffConfig, weeks: int) -> FormatSettings:
    used: FormatSettings = {name: getattr(config, name) for name in LEAGUE_SETTINGS}
    used.update({PLAYOFF_PREFIX + k: getattr(playoff_config, k) for k in playoff_fields()})
    used["weeks"] = weeks
    return used


def settings_of(league: League) -> FormatSettings:
    """The settings ``league`` runs with, every value by its record name (``parse_settings``)."""
    return _used(league.config, league.playoff_config, league.weeks)


def playoff_fields() -> Iterable[str]:
    """The ``PlayoffConfig`` field names (the settings' names without ``playoff_``)."""
    return PlayoffConfig.__dataclass_fields__


def new_league(settings: FormatSettings) -> League:
    """An empty season with ``settings`` (see ``parse_settings``). Raises SettingsError."""
    config, playoff_config, weeks, _ = parse_settings(settings)
    return League(config, playoff_config, weeks)
