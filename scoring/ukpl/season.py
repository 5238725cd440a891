"""A UK Pinball League regional season: best meeting results, season ties, finals places.

Rule text: UKPL rules (UK Pinball League regional rules), sections 1B, 1C, 1E, 1G, 3C, 3E, 3F, 3G. In short:

- 3E: a player's best four meeting league-points results count (so at most 4 x 20 = 80); the rest
  are discarded. The number counted is ``SeasonConfig.counted`` (the league has used 2, 3 and 4
  by region and season);
- 1E: a meeting counts towards the league only with at least five competitors from the region;
- 1C/3C: only region players earn league points; others play "for fun" and are shown apart;
- 3F: a season tie for a finals qualifying place is decided by the fifth, then the sixth best
  result, and if still tied by a one-game sudden-death play-off, which Backglass marks;
- 1G/3G: the number of finals qualifying places is set per region and season
  (``SeasonConfig.qualifiers``); the table highlights them.

Choices the text leaves open (docs/rules.md, "UK Pinball League", 3F), fields of ``SeasonConfig``:

- ``tie_break``: ``"qualifying"`` (default) applies the 5th/6th-best countback only to a tie for a
  finals qualifying place, as 3F says ("In the event of a tie at the end of the season, for a
  finals qualifying place"); other tied players share their place, as the league's own table
  shows them. ``"all"`` applies the countback to every season tie;
- ``missing``: what a result a player does not have (fewer meetings played, or a season of fewer
  than five or six meetings) counts as in the countback. ``"zero"`` (default): 0 league points,
  the same as a meeting outside the top 20, and how 3E's total already treats a missing meeting.
  ``"lowest"``: below any result, so having played (even for 0 points) beats not having played.

A play-off is marked only where a qualifying place depends on it, under either reading: it is a
game to organise (3F), and only the qualification line (1F, 1G) has a consequence. Elsewhere tied
players share the place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, get_args

from scoring.errors import DuplicateRegistration, InvalidScore
from scoring.model import Player, Standings
from scoring.ranking import player_key, rank
from scoring.settings import Choice, check_known, choice, described, whole_number
from scoring.ukpl.meeting import LEAGUE_POINTS_TOP

TieBreakScope = Literal["qualifying", "all"]
MissingResult = Literal["zero", "lowest"]

_BELOW_ANY_RESULT = Fraction(-1)  # league points are never negative (UKPL 3D)


@dataclass(frozen=True, slots=True)
class SeasonConfig:
    """Settings of a UKPL regional season (UKPL 1E, 1G, 3E, 3F). Raises SettingsError when invalid.

    ``counted``: how many best meeting results count, 1-6 (UKPL 3E "top four"; 1B: at most six
    meetings), default 4. ``qualifiers``: finals qualifying places in the region, 0 = none
    highlighted (UKPL 1G, 3G: set per region and season; in 2022 London and South East had 8 of
    the 40), default 0. ``min_competitors``: region competitors a meeting needs to count (UKPL 1E),
    default 5. ``countback``: how many next-best results break a tie (UKPL 3F "fifth and then if
    required sixth"), default 2. ``tie_break``: ``"qualifying"`` | ``"all"``, which season ties the
    countback decides (UKPL 3F; module docstring), default ``"qualifying"``. ``missing``:
    ``"zero"`` | ``"lowest"``, a result a player does not have, in the countback (UKPL 3F; module
    docstring), default ``"zero"``.
    """

    counted: int = 4
    qualifiers: int = 0
    min_competitors: int = 5
    countback: int = 2
    tie_break: TieBreakScope = "qualifying"
    missing: MissingResult = "zero"

    def __post_init__(self) -> None:
        bounds = {"counted": 6, "qualifiers": 999, "min_competitors": 999, "countback": 6}
        for name, highest in bounds.items():
            lowest = 0 if name in {"qualifiers", "countback"} else 1
            object.__setattr__(self, name, whole_number(name, getattr(self, name), lowest, highest))
        scope = choice("tie_break", self.tie_break, get_args(TieBreakScope))
        missing = choice("missing", self.missing, get_args(MissingResult))
        object.__setattr__(self, "tie_break", scope)
        object.__setattr__(self, "missing", missing)


def parse_season_settings(settings: Mapping[str, Any]) -> SeasonConfig:
    """Settings mapping (JSON values, or text from the CLI) -> ``SeasonConfig``; missing keys take
    the defaults. Raises SettingsError for an unknown key or a bad value. UKPL 3E, 3F."""
    check_known("UKPL season", settings, SeasonConfig.__dataclass_fields__)
    return SeasonConfig(**settings)


@dataclass(frozen=True, slots=True)
class MeetResult:
    """One player's published line at one meeting (UKPL 3A, 4C).

    ``league_points`` None: the player played "for fun" (another region's player, UKPL 1C/3C).
    ``position`` and ``meet_total`` are shown, never used for the season.
    """

    player: str
    league_points: Fraction | None
    position: int | None = None
    meet_total: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class Meet:
    """One league meeting's results (UKPL 1B, 3A); ``id`` is unique in the season (e.g. "609")."""

    id: str
    results: tuple[MeetResult, ...] = ()


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One region player's season line (UKPL 3E-3G).

    ``points``: the sum of ``counted``, the best ``SeasonConfig.counted`` results (best first).
    ``results``: (meet id, league points) for every counting meeting played, in meeting order.
    ``qualified``: in a finals qualifying place (1G). ``playoff``: tied for a qualifying place
    after the countback, to be settled by a one-game play-off (3F); such rows share their place.
    """

    player: str
    place: int
    points: Fraction
    counted: tuple[Fraction, ...]
    results: tuple[tuple[str, Fraction], ...]
    qualified: bool = False
    playoff: bool = False


@dataclass(frozen=True, slots=True)
class ForFunRow:
    """A player with no league result in the region, only "for fun" ones: shown apart, never
    ranked (UKPL 1C, 3C). ``meets``: the counting meetings they played, in meeting order."""

    player: str
    meets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeasonTable:
    """A region's season table (UKPL 3G). ``rows`` best first; ``for_fun`` shown apart;
    ``meets`` the meetings that count, in the order given; ``void`` those with too few region
    competitors (UKPL 1E), left out of every total."""

    rows: tuple[SeasonRow, ...] = ()
    for_fun: tuple[ForFunRow, ...] = ()
    meets: tuple[str, ...] = ()
    void: tuple[str, ...] = ()


def region_competitors(meet: Meet) -> int:
    """Players from the region who took part in ``meet``: those with league points, even 0.
    UKPL 1E ("at least five competitors from that region must take part")."""
    return sum(1 for result in meet.results if result.league_points is not None)


def best_results(results: Iterable[Fraction]) -> tuple[Fraction, ...]:
    """League-points results, best first: index 0-3 are the "top four" (UKPL 3E), 4 and 5 the
    "fifth and then ... sixth next best scores" of the tie-break (UKPL 3F)."""
    return tuple(sorted(results, reverse=True))


def season_points(results: Iterable[Fraction], counted: int = 4) -> Fraction:
    """The sum of the best ``counted`` results; "the other scores will be discarded" (UKPL 3E).

    >>> season_points([Fraction(20), Fraction(3), Fraction(19), Fraction(18), Fraction(16)])
    Fraction(73, 1)
    """
    return sum(best_results(results)[:counted], Fraction(0))


def countback_key(
    results: Iterable[Fraction], config: SeasonConfig = SeasonConfig()
) -> tuple[Fraction, ...]:
    """The results a season tie is decided on, in order: the ``counted + 1``-th best, then the next,
    ``config.countback`` of them (UKPL 3F: the fifth, then the sixth best). A result the player does
    not have counts per ``config.missing``: 0, or below any result ("lowest").

    >>> countback_key([Fraction(20)] * 5, SeasonConfig(missing="lowest"))
    (Fraction(20, 1), Fraction(-1, 1))
    """
    best = best_results(results)
    absent = Fraction(0) if config.missing == "zero" else _BELOW_ANY_RESULT
    wanted = range(config.counted, config.counted + config.countback)
    return tuple(best[i] if i < len(best) else absent for i in wanted)


def meet_from_standings(meet_id: str, standings: Standings, players: Mapping[str, Player]) -> Meet:
    """A meeting engine's standings -> a ``Meet`` for the season (UKPL 3A, 3C, 3D): guests become
    "for fun" results; a region player without a place (no score at all) did not compete and is
    left out."""
    results: list[MeetResult] = []
    for row in standings.rows:
        guest = row.player in players and players[row.player].guest
        if guest:
            results.append(MeetResult(row.player, None, None, row.total))
        elif row.place is not None and row.league_points is not None:
            results.append(MeetResult(row.player, row.league_points, row.place, row.total))
    return Meet(meet_id, tuple(results))


def season_table(meets: Iterable[Meet], config: SeasonConfig = SeasonConfig()) -> SeasonTable:
    """Meeting results -> the region's season table. UKPL 1C, 1E, 1G, 3C, 3E, 3F, 3G.

    ``meets`` in the order held (the order only orders ``SeasonRow.results``). Meetings with fewer
    than ``config.min_competitors`` region competitors are ``void`` (1E). Each region player's
    ``points`` are their best ``config.counted`` results (3E); places are 1, 2, 2, 4 by points, a
    tie decided per ``config.tie_break`` by ``countback_key`` (3F); ties still standing across the
    ``config.qualifiers`` line are marked ``playoff`` (3F), rows wholly inside it ``qualified``
    (1G). Players with only "for fun" results are listed in ``for_fun`` (1C, 3C).

    Raises DuplicateRegistration for a meeting id given twice or a player twice in one meeting,
    InvalidScore for league points outside 0-20 (3D).
    """
    meets = tuple(meets)
    _check(meets)
    void = tuple(m.id for m in meets if region_competitors(m) < config.min_competitors)
    counting = [m for m in meets if m.id not in void]
    league: dict[str, list[tuple[str, Fraction]]] = {}
    fun: dict[str, list[str]] = {}
    for meet in counting:
        for result in meet.results:
            if result.league_points is None:
                fun.setdefault(result.player, []).append(meet.id)
            else:
                league.setdefault(result.player, []).append((meet.id, result.league_points))
    rows = _rank(league, config)
    for_fun = tuple(
        ForFunRow(p, tuple(fun[p])) for p in sorted(set(fun) - set(league), key=player_key)
    )
    return SeasonTable(rows, for_fun, tuple(m.id for m in counting), void)


def _check(meets: tuple[Meet, ...]) -> None:
    seen: set[str] = set()
    for meet in meets:
        if meet.id in seen:
            raise DuplicateRegistration(f"Meeting {meet.id} is given twice in this season.")
        seen.add(meet.id)
        players: set[str] = set()
        for result in meet.results:
            if result.player in players:
                raise DuplicateRegistration(
                    f"Player {result.player} has two results at meeting {meet.id}."
                )
            players.add(result.player)
            points = result.league_points
            if points is not None and not 0 <= points <= LEAGUE_POINTS_TOP:
                raise InvalidScore(
                    f"Player {result.player} has {points} league points at meeting {meet.id}; "
                    f"league points run from 0 to {LEAGUE_POINTS_TOP}."
                )


def _rank(
    league: Mapping[str, list[tuple[str, Fraction]]], config: SeasonConfig
) -> tuple[SeasonRow, ...]:
    scores = {p: [points for _, points in results] for p, results in league.items()}
    totals = {p: season_points(s, config.counted) for p, s in scores.items()}
    keys = {p: countback_key(s, config) for p, s in scores.items()}
    groups: list[tuple[int, tuple[str, ...]]] = []
    for group in rank(totals, value=totals.__getitem__, order=player_key):
        groups.extend(_countback(group.place, group.items, keys, 0, config))
    rows: list[SeasonRow] = []
    for place, players in groups:
        last = place + len(players) - 1
        playoff = _at_stake(place, last, config.qualifiers)
        qualified = last <= config.qualifiers
        for p in players:
            counted = best_results(scores[p])[: config.counted]
            results = tuple(league[p])
            rows.append(SeasonRow(p, place, totals[p], counted, results, qualified, playoff))
    return tuple(rows)


def _at_stake(place: int, last: int, qualifiers: int) -> bool:
    # A tie is "for a finals qualifying place" when it covers both the last qualifying place and
    # the first place outside: some of the tied players would qualify, some not (UKPL 3F).
    return place <= qualifiers < last


def _countback(
    place: int,
    players: tuple[str, ...],
    keys: Mapping[str, tuple[Fraction, ...]],
    depth: int,
    config: SeasonConfig,
) -> list[tuple[int, tuple[str, ...]]]:
    # UKPL 3F: compare the fifth best result, then within any tie still standing the sixth.
    last = place + len(players) - 1
    decide = config.tie_break == "all" or _at_stake(place, last, config.qualifiers)
    if len(players) == 1 or depth >= config.countback or not decide:
        return [(place, players)]
    groups: list[tuple[int, tuple[str, ...]]] = []
    for group in rank(players, value=lambda p: keys[p][depth], order=player_key):
        groups.extend(_countback(place + group.place - 1, group.items, keys, depth + 1, config))
    return groups


CHOICES: Mapping[str, tuple[Choice, ...]] = MappingProxyType(
    {
        "tie_break": described(
            TieBreakScope,
            {
                "qualifying": "the countback decides ties at the finals places only",
                "all": "the countback decides every tie in the season table",
            },
        ),
        "missing": described(
            MissingResult,
            {
                "zero": "a result a player lacks counts as 0 in the countback",
                "lowest": "a result a player lacks counts below any result",
            },
        ),
    }
)
"""The settings of ``SeasonConfig`` that take one of a fixed set, with each value's meaning (UKPL 3F;
the module docstring gives the readings)."""
