"""The FWPL league API: one endpoint per record of ``display/competitions/fwpl/kind.py``, under
``/api/t/{tournament}/league/…``. Every write goes through ``display.http.endpoint.write`` (validated on
the live state, compare-and-append, ``Idempotency-Key``). The TD runs the season (members,
nights, corrections, penalties, playoffs); stewards and the TD enter games and picks.

Members may also come through the generic ``POST /api/t/{tournament}/players`` (unranked) and
machines through ``POST /api/t/{tournament}/machines``; a single score through the generic
``POST /api/t/{tournament}/scores`` lands in the player's group's next game tonight.

A correction (``POST …/league/corrections``, a league night's game or a playoff game) and a
playoff game's void (``POST …/league/playoff-voids``) name the game's version in ``If-Match``
(``game_version``, ``playoff_game_version``; docs/protocol.md "Changing an entry").
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from display.competitions.fwpl.kind import KIND
from display.errors import ApiError
from display.http import endpoint, preconditions
from display.http.auth import Principal
from display.http.schemas import Body, Id, Name
from display.live.tournament import LiveTournament
from display.types import Json, Record
from scoring.fwpl.league import League

Handler = Callable[[Request], Awaitable[Response]]
"""A Starlette endpoint: the request in, the response out."""

Penalty = Literal["extra_ball", "deathsave", "serious"]
WeekNo = Annotated[int, Field(ge=1, le=104)]
GroupNo = Annotated[int, Field(ge=1, le=64)]
GameNo = Annotated[int, Field(ge=1, le=20)]
Reason = Annotated[str, Field(min_length=1, max_length=200)]
Seed = Annotated[
    int | None, Field(ge=0, le=2**53 - 1, description="TD only; drawn at random when absent")
]
Score = Annotated[Json, Field(description="whole number 0 … 2^53−1, or null: a forfeit (FWPL 2.4)")]
"""A JSON value of any type, on purpose: the rules check a score (``scoring.fwpl.games.final_score``) and
answer with their words, where a typed field would answer with pydantic's."""


class LeaguePlayerIn(Body):
    """A member: IFPA rank seeds week 1 (FWPL 4.3, unranked: alphabetically at the bottom)."""

    number: Id
    name: Name
    ifpa_rank: int | None = Field(None, ge=1, le=10_000_000)
    joined_week: int | None = Field(None, ge=1, le=104)
    missed_countable: bool = True


class LeaguePlayersIn(Body):
    """Several members in one append: ``{"players": [LeaguePlayerIn, …]}``, 1 to 2,000."""

    players: list[LeaguePlayerIn] = Field(min_length=1, max_length=2000)


class NightIn(Body):
    """Start the next league night: announced absences (FWPL 3.1), the LO's group sizes (4.1)."""

    week: WeekNo | None = None
    absent: list[Id] = Field(default_factory=list, max_length=2000)
    sizes: list[int] | None = Field(None, max_length=600)
    seed: Seed = None


class GameRef(Body):
    """Which game: ``week`` of the season (FWPL 3.1), ``group`` of the night (4.2), ``game_no`` of
    the match (4)."""

    week: WeekNo
    group: GroupNo
    game_no: GameNo


class PickIn(GameRef):
    """The next machine of a group's match: the previous game's last-placed player's pick (FWPL 5),
    or a replacement for an unplayable machine (5.1); ``reason`` stays in the log for the audit."""

    machine: Id
    reason: str | None = Field(None, max_length=200)


class DeathIn(GameRef):
    """FWPL 7.3: play cannot continue on ``machine`` (the game's); the game is replayed on
    ``replay_on``, the machine the LO names."""

    machine: Id
    replay_on: Id
    reason: Reason


class Compensatory(Body):
    """FWPL 7.3: the compensatory game's displayed score, less the points the LO subtracts."""

    score: Score
    subtract: Json = 0


class Lines(Body):
    """A whole game's lines: ``scores`` names every player of the group (null: a forfeit, FWPL 2.4),
    ``playoff`` the one-ball playoff order of tied scores, winner first (3.2), ``penalties`` (8.1,
    8.2-8.5, 8.7), ``late`` arrivals who joined the game (2.3), ``compensatory`` games (7.3)."""

    scores: dict[Id, Json] = Field(description="every player: a score, or null for a forfeit")
    playoff: list[Id] = Field(default_factory=list, max_length=4)
    penalties: dict[Id, Penalty] = Field(default_factory=dict)
    late: list[Id] = Field(default_factory=list, max_length=4)
    compensatory: dict[Id, Compensatory] = Field(default_factory=dict)


class GameIn(GameRef, Lines):
    """A group's whole game (FWPL 3.2); ``machine`` may be left out once assigned or picked."""

    machine: Id | None = None


class LineIn(Body):
    """One player's line of a game (FWPL 2.3, 2.4, 7.3, 8.x): score or null (a forfeit), penalty,
    ``late``, and a compensatory game's score with the points ``subtract``-ed from it."""

    player: Id
    score: Score
    penalty: Penalty | None = None
    late: bool = False
    compensatory: Json = None
    subtract: Json = 0


class LinesIn(GameRef):
    """Some players' scores of a group's next game, the rest to follow (one by one)."""

    machine: Id | None = None
    lines: list[LineIn] = Field(min_length=1, max_length=4)
    playoff: list[Id] = Field(default_factory=list, max_length=4)


class CorrectionIn(Lines):
    """TD: a played game's lines replaced, with the ``reason`` (FWPL 3: the group agreed): a
    league night's game named by ``week`` and ``group``, or a playoff game by ``division`` and
    ``players`` (FWPL 6.3; refused once a later round drawn from it has started, until the TD
    reopens the round); ``game_no`` of the match, ``machine`` when it was another. The game's
    version goes in ``If-Match``."""

    week: WeekNo | None = None
    group: GroupNo | None = None
    division: str | None = Field(None, min_length=1, max_length=2)
    players: list[Id] | None = Field(None, min_length=2, max_length=4)
    game_no: GameNo
    machine: Id | None = None
    reason: Reason

    @model_validator(mode="after")
    def one_game(self) -> CorrectionIn:
        """Raise ValueError (422) unless the body names one game: week and group, or division
        and players."""
        night, playoff = (self.week, self.group), (self.division, self.players)
        named = [ref for ref in (night, playoff) if any(v is not None for v in ref)]
        if len(named) != 1 or None in named[0]:
            raise ValueError(
                "name one game: week and group (a league night) or division and players "
                "(a playoff match)"
            )
        return self


class PenaltyIn(Body):
    """TD: a penalty on a player's game (FWPL 8.1, 8.7; ``serious``: 8.2-8.5, the current game, or
    else the match's game with most points, forfeited); ``game_no`` names the game when given."""

    week: WeekNo
    group: GroupNo
    player: Id
    penalty: Penalty
    game_no: GameNo | None = None
    reason: Reason
    playoff: list[Id] = Field(default_factory=list, max_length=4)


class OffenceIn(Body):
    """TD: an automatic third offence (FWPL 8.5: violence or vandalism): the season forfeited, the
    player's scores wiped."""

    player: Id
    reason: Reason


class CloseIn(Body):
    """TD: close night ``week`` once every group has played; its match bonus is final (FWPL 3.3)."""

    week: WeekNo


class DrawIn(Body):
    """TD: draw the random machine of a tie-breaker between ``players`` (FWPL 6.1 "single ball play
    on a random machine", 6.5); ``seed`` drawn here when absent."""

    players: list[Id] = Field(min_length=2, max_length=2000)
    reason: str = Field("", max_length=200)
    seed: Seed = None


class PlayoffsIn(Body):
    """TD: start the playoffs, cut and divided by the season table (FWPL 6.1, 6.2), without the
    players ``withdrawn`` (6.6); ``tiebreaks``: the play-off order of each tie at a cut line."""

    withdrawn: list[Id] = Field(default_factory=list, max_length=2000)
    tiebreaks: list[list[Id]] = Field(default_factory=list, max_length=100)


class ReopenIn(Body):
    """Why the league officer takes the playoffs' start back (FWPL 6.1, 6.2; for the audit
    page); with ``division`` and ``round`` ("quarterfinal", "semifinal"), only the start of the
    round after that one in that division (FWPL 6.3), so its games can be corrected."""

    reason: str = Field(min_length=1, max_length=200)
    division: str | None = Field(None, min_length=1, max_length=2)
    round: Literal["quarterfinal", "semifinal"] | None = None


class MatchRef(Body):
    """Which playoff match: its ``division`` ("A", "B" …) and its 2 to 4 ``players`` (FWPL 6.3)."""

    division: str = Field(min_length=1, max_length=2)
    players: list[Id] = Field(min_length=2, max_length=4)


class MatchIn(MatchRef):
    """Start a playoff match, its first machine drawn with ``seed`` (FWPL 6.4); ``missing`` players
    absent at the start, disqualified from it (6.6)."""

    missing: list[Id] = Field(default_factory=list, max_length=4)
    seed: Seed = None


class PlayoffPickIn(MatchRef):
    """A playoff game's machine (``game_no`` 1-3), picked by the last game's loser (FWPL 6.4)."""

    game_no: Annotated[int, Field(ge=1, le=3)]
    machine: Id


class PlayoffGameIn(MatchRef, Lines):
    """A playoff game's lines (``Lines``), scored 4-2-1-0 without bonus points (FWPL 6.3);
    ``game_no`` 1 to 3."""

    game_no: Annotated[int, Field(ge=1, le=3)]
    machine: Id | None = None


class PlayoffVoidIn(MatchRef):
    """TD: a playoff match's last game voided, never played, so it is played again on its
    machine (FWPL 6.3, 6.4); the game's version goes in ``If-Match``."""

    game_no: Annotated[int, Field(ge=1, le=3)]
    reason: Reason


class PlayoffTiebreakIn(MatchRef):
    """The result of a tie-breaker game between tied players of a match, best first (FWPL 6.5)."""

    order: list[Id] = Field(min_length=2, max_length=4)


def _league(request: Request) -> LiveTournament:
    """The path's tournament, an FWPL season. Raises ApiError 404, 409 ``not_a_league``."""
    live = endpoint.live_or_404(request)
    if live.kind is not KIND:
        raise ApiError(409, "not_a_league", f"Tournament {live.id} is not an FWPL league season.")
    return live


def _fields(data: BaseModel) -> Record:
    """The body's fields for a record, without the ones left out (None)."""
    return {k: v for k, v in data.model_dump().items() if v is not None}


def _seeded(principal: Principal, fields: Record) -> Record:
    """``fields`` with a draw's ``seed``: the TD's if given, else drawn here. Raises ApiError 403
    for a seed from anyone else."""
    if "seed" in fields and principal.role != "td":
        raise ApiError(403, "td_only", "Only the TD may choose a draw's seed.")
    return {**fields, "seed": fields.get("seed", secrets.randbits(32))}


def record_endpoint(
    model: type[BaseModel], kind: str, td_only: bool = False, seeded: bool = False
) -> Handler:
    """A POST handler writing one ``kind`` record from a ``model`` body; answers 201 with the
    version and the record's fields (the seed drawn, for a draw)."""

    async def handler(request: Request) -> Response:
        tid = request.path_params["tournament"]
        principal = await endpoint.signed_in(request, tid, td_only=td_only)
        data = await endpoint.body(request, model)
        _league(request)
        fields = _fields(data)
        if seeded:
            fields = _seeded(principal, fields)
        record = endpoint.stamp(principal, {"type": kind, **fields})
        seq, replayed = await endpoint.write(request, tid, [record])
        if replayed:  # the first answer's seed is the one in the log
            fields = await _stored(request, tid, seq)
        return endpoint.written(seq, replayed, fields)

    handler.__name__ = f"post_{kind}"
    return handler


async def _stored(request: Request, tid: str, seq: int) -> Record:
    """Record ``seq`` of ``tid`` as written, without its type and audit fields."""
    record = await endpoint.services(request).store.record(tid, seq)
    return {k: v for k, v in (record or {}).items() if k not in ("type", "by", "at")}


async def add_players(request: Request) -> Response:
    """TD: add members, ``{"players": [...]}`` or one player."""
    tid = request.path_params["tournament"]
    principal = await endpoint.signed_in(request, tid, td_only=True)
    data = await endpoint.body(request, (LeaguePlayerIn, LeaguePlayersIn))
    _league(request)
    players = data.players if isinstance(data, LeaguePlayersIn) else [data]
    new = [
        endpoint.stamp(principal, {"type": "league_player_added", "player": _fields(p)})
        for p in players
    ]
    seq, replayed = await endpoint.write(request, tid, new)
    return endpoint.written(seq, replayed, {"players": [p.number for p in players]})


async def add_lines(request: Request) -> Response:
    """Steward: some players' scores of a group's next game; the game counts when all are in."""
    tid = request.path_params["tournament"]
    principal = await endpoint.signed_in(request, tid)
    data = await endpoint.body(request, LinesIn)
    _league(request)
    ref: Record = {"week": data.week, "group": data.group, "game_no": data.game_no}
    if data.machine is not None:
        ref["machine"] = data.machine
    new = []
    for n, entry in enumerate(data.lines, start=1):
        fields = {**ref, **_fields(entry), "score": entry.score}
        if n == len(data.lines) and data.playoff:
            fields["playoff"] = data.playoff
        new.append(endpoint.stamp(principal, {"type": "game_line_recorded", **fields}))
    seq, replayed = await endpoint.write(request, tid, new)
    return endpoint.written(seq, replayed, {**ref, "players": [e.player for e in data.lines]})


def game_version(league: League, week: int, group: int, game_no: int) -> int | None:
    """A played game's version (``Slot.version``: the seq of the last record that set or changed
    its result), None when there is no such game (the rules then refuse with their message)."""
    nights = league.nights
    if not 1 <= week <= len(nights) or not 1 <= group <= len(nights[week - 1].groups):
        return None
    games = nights[week - 1].groups[group - 1].games
    return games[game_no - 1].version if 1 <= game_no <= len(games) else None


def playoff_game_version(
    league: League, division: str, players: list[str], game_no: int
) -> int | None:
    """A played playoff game's version (``Slot.version``), None when the match has not started
    or played it (the rules then refuse with their message)."""
    if league.playoffs is None:
        return None
    wanted = frozenset(players)
    for match in league.playoffs.matches:
        if match.division == division and frozenset(match.players) == wanted:
            games = match.games
            return games[game_no - 1].version if 1 <= game_no <= len(games) else None
    return None


def _game_ref(fields: Record) -> Record:
    """The game a versioned body names: week, group and game_no, or division, players and
    game_no for a playoff game."""
    keys = ("division", "players") if "division" in fields else ("week", "group")
    return {k: fields[k] for k in (*keys, "game_no")}


def _version_of(ref: Record) -> Callable[[League], int | None]:
    if "division" in ref:
        return lambda league: playoff_game_version(
            league, ref["division"], ref["players"], ref["game_no"]
        )
    return lambda league: game_version(league, ref["week"], ref["group"], ref["game_no"])


async def void_playoff_game(request: Request) -> Response:
    """TD: void a playoff match's last game (``PlayoffVoidIn``) with its version in
    ``If-Match`` (428 / 412); answers 201 with the record's fields, the ETag its seq."""
    tid = request.path_params["tournament"]
    principal = await endpoint.signed_in(request, tid, td_only=True)
    data = await endpoint.body(request, PlayoffVoidIn)
    _league(request)
    fields = _fields(data)
    check = preconditions.precondition(
        request.headers.get("if-match"), _version_of(_game_ref(fields)), "game"
    )
    record = endpoint.stamp(principal, {"type": "playoff_game_voided", **fields})
    seq, replayed = await endpoint.write(request, tid, [record], precondition=check)
    return preconditions.tagged(endpoint.written(seq, replayed, fields), seq)


def _game(
    model: type[BaseModel], kind: str, td_only: bool = False, versioned: bool = False
) -> Handler:
    """Like ``endpoint`` for a game: null scores (forfeits) are kept in the record. ``versioned``
    (a correction): the request names the game's version in ``If-Match`` (``display.http.preconditions``:
    428 / 412), and the answer gives the new one as ``game.version`` and the ``ETag``."""

    async def handler(request: Request) -> Response:
        tid = request.path_params["tournament"]
        principal = await endpoint.signed_in(request, tid, td_only=td_only)
        data = await endpoint.body(request, model)
        _league(request)
        fields = _fields(data)
        fields["compensatory"] = {
            p: {k: v for k, v in c.items() if v is not None}
            for p, c in fields.get("compensatory", {}).items()
        }
        fields = {k: v for k, v in fields.items() if v not in ({}, [])}
        fields["scores"] = data.model_dump()["scores"]
        check, ref = None, _game_ref(fields) if versioned else {}
        if versioned:
            check = preconditions.precondition(
                request.headers.get("if-match"), _version_of(ref), "game"
            )
        seq, replayed = await endpoint.write(
            request, tid, [endpoint.stamp(principal, {"type": kind, **fields})], precondition=check
        )
        answer = {k: v for k, v in fields.items() if k != "scores"}
        if not versioned:
            return endpoint.written(seq, replayed, answer)
        answer["game"] = {**ref, "version": seq}
        return preconditions.tagged(endpoint.written(seq, replayed, answer), seq)

    handler.__name__ = f"post_{kind}"
    return handler


def _route(path: str, handler: Handler) -> Route:
    return Route(f"/api/t/{{tournament}}/league/{path}", handler, methods=["POST"])


routes = [
    _route("players", add_players),
    _route("nights", record_endpoint(NightIn, "night_started", td_only=True, seeded=True)),
    _route("picks", record_endpoint(PickIn, "machine_picked")),
    _route("last-ball", record_endpoint(GameRef, "last_ball_reached")),
    _route("dead-machines", record_endpoint(DeathIn, "machine_died", td_only=True)),
    _route("games", _game(GameIn, "game_recorded")),
    _route("scores", add_lines),
    _route("corrections", _game(CorrectionIn, "game_corrected", td_only=True, versioned=True)),
    _route("penalties", record_endpoint(PenaltyIn, "penalty_recorded", td_only=True)),
    _route("third-offences", record_endpoint(OffenceIn, "third_offence_recorded", td_only=True)),
    _route("close", record_endpoint(CloseIn, "night_closed", td_only=True)),
    _route("tiebreak-draws", record_endpoint(DrawIn, "tiebreak_drawn", td_only=True, seeded=True)),
    _route("playoffs", record_endpoint(PlayoffsIn, "playoffs_started", td_only=True)),
    _route("playoffs/reopen", record_endpoint(ReopenIn, "playoffs_reopened", td_only=True)),
    _route("playoff-matches", record_endpoint(MatchIn, "playoff_match_started", seeded=True)),
    _route("playoff-picks", record_endpoint(PlayoffPickIn, "playoff_machine_picked")),
    _route("playoff-games", _game(PlayoffGameIn, "playoff_game_recorded")),
    _route("playoff-tiebreaks", record_endpoint(PlayoffTiebreakIn, "playoff_tiebreak_recorded")),
    _route("playoff-voids", void_playoff_game),
]
