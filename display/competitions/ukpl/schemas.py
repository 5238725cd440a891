"""Request bodies of the UKPL meeting endpoints (``display.competitions.ukpl.api``), validated by pydantic."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, RootModel

from display.http.schemas import Body, Id, MachineIn, Name, PlayerIn

Reason = Annotated[str, Field(min_length=1, max_length=300, description="why, for the record")]
Score = Annotated[int, Field(ge=0, le=2**53 - 1)]


class RegionPlayerIn(PlayerIn):
    """A player with the region they are registered in (UKPL 1C); another region's player is a
    guest at this meeting."""

    region: str | None = Field(None, max_length=80)


class RegionPlayersIn(Body):
    """Several players in one append: ``{"players": [RegionPlayerIn, …]}``, 1 to 2,000."""

    players: list[RegionPlayerIn] = Field(min_length=1, max_length=2000)


class ReclassifyIn(Body):
    """A player made a guest (``guest``: true) or a region player (false) at this meeting, with
    why (UKPL 1C, 3C)."""

    guest: bool
    reason: Reason


class GameIn(Body):
    """An adjustment of one player's game on one machine."""

    player: Id
    machine: Id
    reason: Reason


class JackpotIn(GameIn):
    """UKPL 2E: the jackpot values awarded in the game and the pre-agreed value."""

    type: Literal["jackpot_adjusted"]
    awarded: list[Score] = Field(min_length=1, max_length=20)
    agreed: Score


class ExtraBallIn(GameIn):
    """UKPL 7C: an extra ball played by mistake."""

    type: Literal["extra_ball_penalty"]
    last_ball: bool
    kept_playing: bool = False


class SlamTiltIn(GameIn):
    """UKPL 7D: a slam tilt scores zero."""

    type: Literal["slam_tilt"]


class FaultIn(GameIn):
    """UKPL 6A/6C: a replay (the first game discarded) or one ball of a new game added."""

    type: Literal["fault_replay", "fault_one_ball"]


class PenaltyIn(Body):
    """UKPL 7A: zero on one machine, disqualification from the meet, or a ban."""

    type: Literal["penalty"]
    player: Id
    level: Literal["zero", "disqualify", "ban_next", "ban_season"]
    machine: Id | None = None
    reason: Reason


class SubstituteIn(Body):
    """UKPL 6A: a machine taken out; its games are replayed on ``substitute`` (a machine of the
    meeting with no scores, or a new one given as {id, name})."""

    type: Literal["machine_substituted"]
    machine: Id
    substitute: Id | MachineIn
    reason: Reason


Adjustment = Annotated[
    JackpotIn | ExtraBallIn | SlamTiltIn | FaultIn | PenaltyIn | SubstituteIn,
    Field(discriminator="type"),
]


class WithdrawIn(Body):
    """Why an adjustment is withdrawn, for the record."""

    reason: Reason


class GroupScoreIn(Body):
    """One player's score in a multiplayer game (UKPL 2F); the rules check the score."""

    player: Id
    # any JSON value: the rules check a score (scoring.tournament.check_score) and say what is wrong.
    score: Any = Field(description="whole number, 0 … 9007199254740991")


class MultiplayerIn(Body):
    """UKPL 2F: one game played by 2-6 players at once, entered together."""

    machine: Id
    scores: list[GroupScoreIn] = Field(min_length=2, max_length=6)


class ResultRowIn(Body):
    """One published line: league points blank or null for a guest playing for fun."""

    player: Id
    name: Name | None = None
    position: int | None = Field(None, ge=1, le=999)
    meet_total: float | str | None = None
    league_points: float | str | None = None


class ResultsIn(Body):
    """A past meeting's published results: ``rows``, or ``csv`` text with the columns
    player,position,meet_total,league_points (name optional), as the league publishes them."""

    meet: Id
    held: str | None = Field(None, pattern=r"^\d{4}-\d{2}-\d{2}$")
    rows: list[ResultRowIn] | None = Field(None, max_length=2000)
    csv: str | None = Field(None, max_length=500_000)


class RemoveResultsIn(Body):
    """Why a past meeting's imported results are taken out, for the record."""

    reason: Reason


class AdjustmentIn(RootModel[Adjustment]):
    """One adjustment, by ``type`` (jackpot_adjusted, extra_ball_penalty, slam_tilt, penalty,
    fault_replay, fault_one_ball, machine_substituted)."""
