"""Backglass rule engines: pure functions from frozen data to standings.

``FORMATS`` maps a format name to its ``Format`` object (``scoring.tournament.Format``); the server
creates a tournament with ``new_tournament(FORMATS[name], settings)`` and feeds it entries with
``record_entry``. Points are ``Fraction``; render them with ``points_json`` / ``points_text``.

No I/O here: nothing in ``scoring/`` imports asyncio, redis, starlette, display or time.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from scoring.epc.classic import EPC_CLASSIC
from scoring.epc.kids import EPC_KIDS
from scoring.epc.qualifying import EPC_QUALIFYING, EpcConfig, EpcQualifying, cut_band
from scoring.errors import (
    DuplicateRegistration,
    EntryNotAllowed,
    InvalidScore,
    JokerAlreadyUsed,
    MachineAlreadyPlayed,
    ScoringError,
    SettingsError,
    TooManyMachines,
    UnknownMachine,
    UnknownPlayer,
)
from scoring.model import (
    MAX_SCORE,
    Entry,
    Machine,
    MachineRow,
    MachineTable,
    Player,
    StandingRow,
    Standings,
)
from scoring.ranking import TieGroup, TiePolicy, player_key, rank, tied_points
from scoring.rounding import points_json, points_text, round_half_up
from scoring.scales import PRESETS, Scale, get_scale
from scoring.tournament import (
    Format,
    Tournament,
    add_machine,
    add_player,
    check_entry,
    check_score,
    new_tournament,
    rebuild,
    record_entry,
)
from scoring.ukpl.meeting import UKPL_MEETING, UkplConfig, UkplMeeting, league_points

FORMATS: Mapping[str, Format] = MappingProxyType(
    {fmt.name: fmt for fmt in (EPC_QUALIFYING, UKPL_MEETING, EPC_CLASSIC, EPC_KIDS)}
)
"""Every per-machine format by name (read-only): ``"epc-qualifying"``, ``"ukpl-meeting"``,
``"epc-classic"``, ``"epc-kids"``. Stage, team and league engines (``epc_stages``,
``epc_country``, ``ukpl_season``, ``fwpl``) are not per-machine formats and are used directly."""

__all__ = [
    "EPC_CLASSIC",
    "EPC_KIDS",
    "EPC_QUALIFYING",
    "FORMATS",
    "MAX_SCORE",
    "PRESETS",
    "UKPL_MEETING",
    "DuplicateRegistration",
    "Entry",
    "EntryNotAllowed",
    "EpcConfig",
    "EpcQualifying",
    "Format",
    "InvalidScore",
    "JokerAlreadyUsed",
    "Machine",
    "MachineAlreadyPlayed",
    "MachineRow",
    "MachineTable",
    "Player",
    "Scale",
    "ScoringError",
    "SettingsError",
    "StandingRow",
    "Standings",
    "TieGroup",
    "TiePolicy",
    "TooManyMachines",
    "Tournament",
    "UkplConfig",
    "UkplMeeting",
    "UnknownMachine",
    "UnknownPlayer",
    "add_machine",
    "add_player",
    "check_entry",
    "check_score",
    "cut_band",
    "get_scale",
    "league_points",
    "new_tournament",
    "player_key",
    "points_json",
    "points_text",
    "rank",
    "rebuild",
    "record_entry",
    "round_half_up",
    "tied_points",
]
