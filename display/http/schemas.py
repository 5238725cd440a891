"""Request bodies, validated by pydantic; their JSON Schemas feed ``/openapi.json``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from display.http.names import nfc_value
from display.http.venue_time import check_zone
from display.types import FormatSettings

Id = Annotated[
    str,
    BeforeValidator(lambda v: str(v) if isinstance(v, int) and not isinstance(v, bool) else v),
    Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$", description="1–32 letters, digits, _ . -"),
]
Name = Annotated[str, BeforeValidator(nfc_value), Field(min_length=1, max_length=80)]
"""A person's or machine's name, stored in NFC (``display.http.names``)."""
TimeZone = Annotated[
    Annotated[str, Field(max_length=64)] | None,  # the length on the text: None has none (a 500)
    BeforeValidator(check_zone),
    Field(None, description="the venue's IANA time zone; default the server's"),
]


class Body(BaseModel):
    """Base of every request body: a field the model does not name is refused (422)."""

    model_config = ConfigDict(extra="forbid")


class SignIn(Body):
    """TD: ``{"role": "td", "password"}``; steward: ``{"role": "steward", "tournament", "name", "pin"}``."""

    role: Literal["td", "steward"]
    password: str | None = Field(None, max_length=200)
    pin: str | None = Field(None, max_length=200)
    tournament: Id | None = None
    name: str = Field("", max_length=80)


class TournamentIn(Body):
    """A new tournament of ``format`` (e.g. "epc-qualifying", "ukpl-meeting") with settings."""

    id: Id
    name: Name
    format: str
    settings: FormatSettings = {}
    time_zone: TimeZone = None


class PlayerIn(Body):
    """A player to register: ``number`` (an ``Id``, a JSON number becomes its string), ``name``,
    ``guest``: a player from another region, shown but not ranked (UKPL 1C, 3C), and ``tag``: a
    city, club or nickname the steward's lookup shows beside the name."""

    number: Id
    name: Name
    guest: bool = False
    tag: Annotated[str, BeforeValidator(nfc_value), Field(max_length=40)] | None = Field(
        None, description="a city, club or nickname shown beside the name (two 'J. Smith')"
    )


class PlayersIn(Body):
    """Several players in one append: ``{"players": [PlayerIn, …]}``, 1 to 2,000 of them."""

    players: list[PlayerIn] = Field(min_length=1, max_length=2000)


class MachineIn(Body):
    """A machine to add: ``id`` (an ``Id``), the ``name`` on its backglass and, optionally, the
    ``digits`` its display shows (a score there may roll over: ``scoring.rollover``)."""

    id: Id
    name: Name
    digits: int | None = Field(None, ge=1, le=15, description="digits the display shows")


class MachinesIn(Body):
    """Several machines in one append: ``{"machines": [MachineIn, …]}``, 1 to 500 of them."""

    machines: list[MachineIn] = Field(min_length=1, max_length=500)


class SettingsIn(Body):
    """Settings to change, by name (the rest keep their values)."""

    settings: FormatSettings = Field(min_length=1)


class StewardIn(Body):
    """A steward to issue a PIN to, by ``name`` (1–80 characters)."""

    name: Name


class ScoreIn(Body):
    """A score as the steward typed it. ``score`` is checked by the rules (whole, 0 … 2^53−1)."""

    player: Id
    machine: Id
    # Any JSON: the rules check it, so "12.5" or -1 get their message (and the same 422) there
    score: Any = Field(description="whole number, 0 … 9007199254740991")
    rollovers: Any = Field(
        None,
        description="times the display rolled over (a machine that declares its digits): "
        "score is then the score as displayed",
    )
