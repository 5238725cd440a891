"""UKPL meeting records and settings as JSON <-> the rule engines' frozen values.

Settings of a "ukpl-meeting" beyond the meeting format's own (``ties``, ``bonus``, ``no_score``,
``scoring.ukpl.meeting``), each a documented choice:

| setting          | default            | meaning                                                        |
|------------------|--------------------|----------------------------------------------------------------|
| region           | none               | the region the meeting is in (UKPL 1C); players of another    |
|                  |                    | region are guests                                              |
| season           | none               | the season, e.g. "2025"; with ``region`` it links the meeting  |
|                  |                    | to the other meetings of that region and season on the server  |
| meet             | the tournament id  | the meeting's id in the season table (e.g. "609")              |
| held             | the day created    | YYYY-MM-DD, orders the meetings (bans "for the next meet")     |
| disqualified     | "zero"             | 7A disqualification: "zero" every score, or "remove" the games |
| escalation       | "enforce"          | 7A "next level ... as a minimum": "enforce" or "off"           |
| counted, qualifiers, min_competitors, countback, tie_break, missing | the season table's |
|                  |                    | (``scoring.ukpl.season.SeasonConfig``); the latest meeting's   |
|                  |                    | settings are the season's                                      |
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import get_args

from display.types import FormatSettings, Record
from scoring.errors import InvalidScore, SettingsError
from scoring.settings import Choice, check_known, described
from scoring.tournament import check_score
from scoring.ukpl.adjust import (
    AdjustConfig,
    ExtraBall,
    Jackpot,
    OneBallAdded,
    Penalty,
    PenaltyLevel,
    Replay,
    SlamTilt,
)
from scoring.ukpl.adjust import Record as Adjustment
from scoring.ukpl.meeting import UkplConfig
from scoring.ukpl.region import SeasonMeet
from scoring.ukpl.season import Meet, MeetResult, SeasonConfig, parse_season_settings
from scoring.ukpl.season import season_table as _season_table

MEETING_KEYS = frozenset(UkplConfig.__dataclass_fields__)
SEASON_KEYS = frozenset(SeasonConfig.__dataclass_fields__)
LIVE_KEYS = frozenset({"region", "season", "meet", "held", "disqualified", "escalation"})
ESCALATION: tuple[Choice, ...] = described(
    ("enforce", "off"),
    {
        "enforce": "a penalty must be above the player's worst this season",
        "off": "any penalty level may be given",
    },
)
"""The ``escalation`` setting's values (UKPL 7A: a repeat offence gets the next penalty up)."""
OWN = ""
"""The meeting's own id inside its state (its ``meet`` setting or tournament id is resolved where
the tournament id is known: in views and in the season sync)."""

DECISIONS = (
    "jackpot_adjusted",
    "extra_ball_penalty",
    "slam_tilt",
    "penalty",
    "fault_replay",
    "fault_one_ball",
)
"""Record types that adjust the meeting (UKPL 2E, 6C, 7A, 7C, 7D); a machine substituted (6A) is
the hall's ``machine_status_changed`` "replaced"."""
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")


@dataclass(frozen=True, slots=True)
class Options:
    """The meeting's UKPL settings (module docstring). ``raw``: as given, for merging changes."""

    region: str | None
    season: str | None
    meet: str | None
    held: str
    adjust: AdjustConfig
    escalate: bool
    season_config: SeasonConfig
    raw: FormatSettings

    @property
    def linked(self) -> bool:
        """Whether the meeting belongs to a region's season (both settings given)."""
        return self.region is not None and self.season is not None

    def shown(self) -> FormatSettings:
        """Every UKPL setting with its value in force, for the ``tournament`` view."""
        season = self.season_config
        return {
            "region": self.region,
            "season": self.season,
            "meet": self.meet,
            "held": self.held or None,
            "disqualified": self.adjust.disqualified,
            "escalation": "enforce" if self.escalate else "off",
            **{key: getattr(season, key) for key in sorted(SEASON_KEYS)},
        }


def split_settings(settings: FormatSettings) -> tuple[FormatSettings, FormatSettings]:
    """(meeting format and hall settings, UKPL settings). Raises SettingsError for a key that is
    none of them, naming every setting a UKPL meeting has."""
    known = MEETING_KEYS | LIVE_KEYS | SEASON_KEYS | {"hall"}
    check_known("A UKPL meeting", settings, known)
    ours = {k: v for k, v in settings.items() if k in LIVE_KEYS | SEASON_KEYS}
    return {k: v for k, v in settings.items() if k not in ours}, ours


def parse_options(raw: FormatSettings, created: str) -> Options:
    """UKPL settings -> ``Options``; ``created`` (the creation record's ``at``) gives the default
    ``held`` date. Raises SettingsError."""
    region, season = _text(raw, "region", 80), _text(raw, "season", 20)
    meet = _text(raw, "meet", 32)
    if meet is not None and not ID.match(meet):
        raise SettingsError(f"Setting meet must be 1-32 letters, digits, _ . -, not {meet!r}.")
    held = _text(raw, "held", 10) or created[:10]
    if held and not DATE.match(held):
        raise SettingsError(f"Setting held must be a date like 2025-03-01, not {held!r}.")
    escalation = str(raw.get("escalation", "enforce")).strip().lower()
    if escalation not in {c.value for c in ESCALATION}:
        raise SettingsError(f"Setting escalation must be enforce or off, not {escalation!r}.")
    adjust = AdjustConfig(raw.get("disqualified", "zero"))
    config = parse_season_settings({k: v for k, v in raw.items() if k in SEASON_KEYS})
    return Options(region, season, meet, held, adjust, escalation == "enforce", config, dict(raw))


def _text(raw: FormatSettings, key: str, longest: int) -> str | None:
    value = raw.get(key)
    if value is None:
        return None
    text = str(value).strip() if isinstance(value, str | int) else None
    if text is None or len(text) > longest:
        raise SettingsError(f"Setting {key} must be text of at most {longest} characters.")
    return text or None


def decision(record: Record) -> Adjustment:
    """A decision record -> its ``scoring.ukpl.adjust`` value (UKPL 2E, 6A, 6C, 7A, 7C, 7D).
    Raises InvalidScore for a jackpot value that is not a score, ValueError for another type."""
    kind = record["type"]
    who = {"by": str(record.get("by", "")), "reason": str(record.get("reason", ""))}
    game = {"player": str(record["player"]), "machine": str(record.get("machine") or "")}
    if kind == "jackpot_adjusted":
        awarded = tuple(check_score(v) for v in record["awarded"])
        if not awarded:
            raise InvalidScore("Give the value of each jackpot awarded in the game.")
        return Jackpot(**game, awarded=awarded, agreed=check_score(record["agreed"]), **who)
    if kind == "extra_ball_penalty":
        return ExtraBall(
            **game,
            last_ball=bool(record.get("last_ball")),
            kept_playing=bool(record.get("kept_playing")),
            **who,
        )
    if kind == "slam_tilt":
        return SlamTilt(**game, **who)
    if kind == "fault_replay":
        return Replay(**game, **who)
    if kind == "fault_one_ball":
        return OneBallAdded(**game, **who)
    if kind == "penalty":
        level = record["level"]
        if level not in get_args(PenaltyLevel):
            raise SettingsError(
                f"A penalty is zero, disqualify, ban_next or ban_season, not {level!r}."
            )
        machine = str(record["machine"]) if record.get("machine") else None
        return Penalty(player=game["player"], level=level, meet=OWN, machine=machine, **who)
    raise ValueError(f"unknown record type {kind!r}")


def points(value: object) -> Fraction | None:
    """League points as given (a number, "16.5", "1/3"; None or "" = for fun). Raises
    InvalidScore for anything else."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise InvalidScore(f"League points must be a number, not {value!r}.")
    try:
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidScore(f"League points must be a number like 16.5, not {value!r}.") from None


def imported_meet(record: Record) -> tuple[SeasonMeet, dict[str, str]]:
    """A ``season_results_imported`` record -> (the meeting, player names given). Raises
    InvalidScore or DuplicateRegistration as ``scoring.ukpl.season.season_table`` would."""
    results, names = [], {}
    for row in record["rows"]:
        player = str(row["player"])
        total = points(row.get("meet_total")) or Fraction(0)
        position = row.get("position")
        results.append(
            MeetResult(
                player, points(row.get("league_points")), int(position) if position else None, total
            )
        )
        if row.get("name"):
            names[player] = str(row["name"])
    meet = Meet(str(record["meet"]), tuple(results))
    _season_table([meet])  # the table's own checks: league points 0-20, a player once
    return SeasonMeet(meet, str(record.get("held") or "")), names


def linked_meet(payload: Record) -> tuple[SeasonMeet, dict[str, str]]:
    """A ``season_meeting_linked`` record (``display.competitions.ukpl.season_links.summary``) -> (the
    meeting, player names). Raises SettingsError for settings the season cannot use."""
    meet_id = str(payload["meet"])
    results = tuple(
        MeetResult(r["player"], points(r.get("points")), r.get("place"), Fraction(r["total"]))
        for r in payload["results"]
    )
    penalties = tuple(
        Penalty(
            player=p["player"],
            level=p["level"],
            meet=meet_id,
            machine=p.get("machine"),
            by=p.get("by", ""),
            reason=p.get("reason", ""),
        )
        for p in payload["penalties"]
    )
    config = parse_season_settings(payload["settings"])
    meet = SeasonMeet(Meet(meet_id, results), str(payload["held"]), penalties, config)
    return meet, {r["player"]: r["name"] for r in payload["results"] if r.get("name")}
