"""Settings and input records of the EPC 2009 country (team) competition.

Shapes and settings only. The rules live in ``scoring.epc.country`` (groups, fixtures),
``scoring.epc.country.match`` (a match's points and its penalties), ``scoring.epc.country.tables``
(4-ball, qualifying and final tables) and ``scoring.epc.country.entries`` (which entries the rules
accept, and when). A team is named by a string ("Belgium 1", "UK A").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from types import MappingProxyType
from typing import Literal, TypeAlias, get_args

from scoring.errors import SettingsError
from scoring.ranking import TIE_POLICIES, TiePolicy
from scoring.settings import Choice, choice, described, whole_number

MatchPoints = Literal["sum_of_places", "best_place"]
QualifyingTies = Literal["share", "four_ball"]
Countback = Literal["head_to_head", "matches_won"]
ForfeitAward = Literal["both_machines", "one_machine"]
Stage = Literal["qualifying", "final", "complete"]
"""Where a Country Competition stands: the groups and the 4-ball game, the six-team final, or
over (EPC 2009, EPC Country Competition: "The six teams with the highest ranking points will go
on to the finals")."""


def _points(name: str, value: object, length: int | None) -> tuple[int, ...]:
    """``value`` as a non-increasing tuple of whole points >= 0 (of ``length`` when given)."""
    items = tuple(value) if isinstance(value, tuple | list) else ()
    whole = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in items)
    falling = all(a >= b for a, b in pairwise(items))
    if not items or not whole or not falling or (length is not None and len(items) != length):
        size = f"{length} " if length is not None else ""
        raise SettingsError(
            f"Setting {name} must be {size}whole points of 0 or more, best place first and never "
            f"rising, not {value!r}."
        )
    return items


@dataclass(frozen=True, slots=True)
class CountryConfig:
    """Settings of the EPC country competition (EPC 2009, EPC Country Competition). Every choice the
    rule text leaves open (docs/rules.md, "EPC 2009", Country) is a named field; SettingsError
    when a value is invalid.

    ``groups`` x ``group_size``: 5 groups of 4 seeded teams ("Teams will be divided into 5 groups of
    4 teams"). ``finalists``: 6 ("The six teams with the highest ranking points will go on to the
    finals"). ``match_places``: points for 1st..4th in a four-player match game, (9, 5, 2, 0).
    ``four_ball_points``: the 4-ball game's points for 1st..13th, (17, 14, ..., 1); lower places 0
    ("14th-20th=zero points").

    ``match_points``: how the places of one machine become a team's points. ``"sum_of_places"``
    (default): a team scores the points of both its players' places, so a machine gives the teams
    9+5+2+0 = 16 between them. It is the only reading that gives the text's maxima: a team placing
    1st and 2nd on both machines scores 2 x (9+5) = 28 per match, 3 x 28 = 84 in its group ("a
    maximum of 84 points") and 5 x 28 = 140 in the final ("140 being the maximum").
    ``"best_place"``: only the better-placed player counts, 2 x 9 = 18 a match, 54 and 90 at most;
    kept to show the arithmetic, not for use.

    ``game_ties``: equal scores in one four-player match game (the text is silent). ``"shared"``
    (default): the tied players average the points of the places they cover (two tied for 1st
    get (9+5)/2 = 7 each), so a game still gives 16 and a match 32, and the 84/140 maxima hold;
    ``"high"``/``"low"`` as in ``scoring.ranking.TiePolicy`` (``"high"`` can give 9+9+2+0 = 20).

    ``four_ball_ties``: equal 4-ball scores. ``"high"`` (default): they share the place and its
    points, Backglass's reading of equal machine scores in EPC 2009, EPC Qualifying; nothing in
    the 4-ball game fixes a total to conserve. ``"shared"``/``"low"`` are the alternatives.

    ``qualifying_ties``: equal qualifying totals other than a tie for 6th ("If there is a tie for
    sixth place, the team with the highest score on the 4 ball "team game" will prevail" says
    nothing of other places). ``"share"`` (default): they share the place; nothing depends on it,
    as the final starts from zero. ``"four_ball"``: the 4-ball score orders every tie; play-off
    games are still asked for only at the cut.

    ``playoff_places``: final ties for places up to this (4th) are settled by a 4-ball play-off
    game ("any places up to 4th"). ``countback``: the final's "countback from the head to head
    matches" for 5th and lower. ``"head_to_head"`` (default): the points the tied teams scored in
    the matches between them (for two teams, their direct match), the usual sense of "head to
    head". ``"matches_won"``: the number of final matches each won (more than half the match's
    points). Either way a tie left over goes to the qualifying 4-ball score.

    ``forfeit_award``: "the opposing team will get the top 2 scores" (Timekeeping).
    ``"both_machines"`` (default): 1st and 2nd on each machine, 2 x (9+5) = 28, what the team earns
    by winning both games outright; a team whose opponents fail to turn up is not left short of a
    team that played. ``"one_machine"``: 9+5 = 14, one machine's top two scores.
    ``late_minutes``: a team called and arriving more than this (5) many minutes later forfeits.
    ``teams_at_once``: teams playing matches at one time, 10 ("there will be at most 10 teams
    playing at any one time"); the fixtures fill slots of ``teams_at_once // 2`` matches.
    """

    groups: int = 5
    group_size: int = 4
    finalists: int = 6
    match_places: tuple[int, ...] = (9, 5, 2, 0)
    four_ball_points: tuple[int, ...] = (17, 14, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
    match_points: MatchPoints = "sum_of_places"
    game_ties: TiePolicy = "shared"
    four_ball_ties: TiePolicy = "high"
    qualifying_ties: QualifyingTies = "share"
    playoff_places: int = 4
    countback: Countback = "head_to_head"
    forfeit_award: ForfeitAward = "both_machines"
    late_minutes: int = 5
    teams_at_once: int = 10

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        put("groups", whole_number("groups", self.groups, 1, 26))
        put("group_size", whole_number("group_size", self.group_size, 2, 100))
        put("finalists", whole_number("finalists", self.finalists, 1, 1000))
        put("match_places", _points("match_places", self.match_places, 4))
        put("four_ball_points", _points("four_ball_points", self.four_ball_points, None))
        put("match_points", choice("match_points", self.match_points, get_args(MatchPoints)))
        put("game_ties", choice("game_ties", self.game_ties, TIE_POLICIES))
        put("four_ball_ties", choice("four_ball_ties", self.four_ball_ties, TIE_POLICIES))
        ties = choice("qualifying_ties", self.qualifying_ties, get_args(QualifyingTies))
        put("qualifying_ties", ties)
        put("playoff_places", whole_number("playoff_places", self.playoff_places, 0, 1000))
        put("countback", choice("countback", self.countback, get_args(Countback)))
        put("forfeit_award", choice("forfeit_award", self.forfeit_award, get_args(ForfeitAward)))
        put("late_minutes", whole_number("late_minutes", self.late_minutes, 0, 1000))
        put("teams_at_once", whole_number("teams_at_once", self.teams_at_once, 2, 1000))

    @property
    def seeds(self) -> int:
        """Seeded teams the draw takes: ``groups`` x ``group_size`` = 5 x 4 = 20. EPC 2009, EPC
        Country Competition ("Teams will be divided into 5 groups of 4 teams")."""
        return self.groups * self.group_size

    @property
    def machine_best(self) -> int:
        """Most points one team can take from one match machine: 9+5 = 14 by sum of places, 9 by
        best place. EPC 2009, EPC Country Competition ("1st 9 points, 2nd 5 points")."""
        first, second = self.match_places[0], self.match_places[1]
        return first + second if self.match_points == "sum_of_places" else first

    @property
    def max_match_points(self) -> int:
        """Most points one team can take from one match (two machines): 2 x 14 = 28.
        EPC 2009, EPC Country Competition ("a maximum of 84 points" = 3 x 28)."""
        return 2 * self.machine_best


@dataclass(frozen=True, slots=True)
class Group:
    """A qualifying group (EPC 2009, EPC Country Competition: "Group A - 1st, 6th, 11th & 16th
    seeds"): its letter, its teams best seed first, and their seed numbers (1-based)."""

    name: str
    teams: tuple[str, ...]
    seeds: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Team:
    """A registered team: ``seed`` 1..20 in the draw, None for a reserve team (EPC 2009, EPC Country
    Competition: "the following teams have been placed on the reserve list"); its ``players`` by
    name (``scoring.epc.country.entries.add_team`` checks them)."""

    id: str
    name: str
    seed: int | None
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CountryMachine:
    """A machine of the hall. ``four_ball``: one of "two identical machines" set up for the 4-ball
    game; the others run matches on 3 balls (EPC 2009, EPC Country Competition: "all machines will
    be set on 3 ball play (except the two 4 ball machines)")."""

    id: str
    name: str
    four_ball: bool = False


@dataclass(frozen=True, slots=True)
class Replacement:
    """A seeded team replaced by a reserve team, who takes its seed and group (EPC 2009, EPC
    Country Competition, Registration: "the team will be disqualified and where possible replaced
    by a reserve team"). ``by``: the official; ``reason``: in words."""

    withdrawn: str
    reserve: str
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class GameScore:
    """One player's score in a four-player match game (EPC 2009, EPC Country Competition); the
    ``player`` name is optional, for display."""

    team: str
    score: int
    player: str = ""


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One machine of a match: four scores, two from each team (EPC 2009, EPC Country Competition:
    "two players from each team playing a four player, three ball game"). ``machine`` may be a
    substitute brought in after a breakdown; a game completed on the broken machine still counts
    ("All previous (completed) match points will still count")."""

    machine: str
    scores: tuple[GameScore, ...]


@dataclass(frozen=True, slots=True)
class Match:
    """A match between two teams of a group (or two finalists) on two machines (EPC 2009, EPC
    Country Competition: "two teams play each other on two machines"). ``games`` is empty for a
    match that a penalty decides without play."""

    home: str
    away: str
    games: tuple[MatchGame, ...] = ()


@dataclass(frozen=True, slots=True)
class FourBallGame:
    """A team's one-player 4-ball game, one ball per team member, on either of the two identical
    machines (EPC 2009, EPC Country Competition, "The 4 ball game")."""

    team: str
    machine: str
    score: int


@dataclass(frozen=True, slots=True)
class Late:
    """A team called for its match against ``opponent`` that appeared ``minutes`` after the call
    (EPC 2009, EPC Country Competition, Timekeeping: "more than 5 minutes after the announcement,
    they will be disqualified from that match"). ``by``: the official; ``reason``: in words."""

    team: str
    opponent: str
    minutes: int
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class SlamTilt:
    """A slam tilt from shaking or nudging by ``team`` in its match against ``opponent``, or in its
    4-ball game when ``opponent`` is None (EPC 2009, EPC Country Competition, Slam Tilts: "the team
    will be disqualified from that match. If this happens on the 4 ball game, the team score will
    be entered as zero"). A tilt from an over-sensitive switch is no penalty: the game is replayed
    or not, and only its scores are entered."""

    team: str
    opponent: str | None
    by: str
    reason: str


Penalty: TypeAlias = Late | SlamTilt
"""A penalty record; each carries who recorded it (``by``) and why (``reason``)."""


@dataclass(frozen=True, slots=True)
class Playoff:
    """One play-off game between tied teams: each team's score, highest first place (EPC 2009, EPC
    Country Competition: "a single game per team on one of the 4 ball machines shall decide the
    position"; in the final "a 4 ball play off game ... with the highest score declared the
    winners"). Play-offs are applied in the order given; each settles the tie whose teams are
    exactly its teams."""

    scores: tuple[tuple[str, int], ...]

    @property
    def teams(self) -> frozenset[str]:
        """The teams that played this play-off game. EPC 2009, EPC Country Competition."""
        return frozenset(team for team, _ in self.scores)


@dataclass(frozen=True, slots=True)
class PlayoffNeeded:
    """Teams still tied over places ``place`` .. ``last_place`` that a play-off game must separate
    (EPC 2009, EPC Country Competition: the tie for sixth, the final's places up to 4th, and a tie
    for 5th or 6th that countback and the qualifying 4-ball score leave level)."""

    teams: tuple[str, ...]
    place: int
    last_place: int


def points_at(scale: tuple[int, ...], place: int) -> int:
    """Points of 1-based ``place`` on ``scale``; 0 below its last place (EPC 2009, EPC Country
    Competition: "4th zero points"; "14th-20th=zero points")."""
    return scale[place - 1] if place <= len(scale) else 0


_TIES = MappingProxyType(
    {
        "high": "equal scores both get the better place's points",
        "low": "equal scores both get the worse place's points",
        "shared": "equal scores share the points of the places they cover",
    }
)

CHOICES: Mapping[str, tuple[Choice, ...]] = MappingProxyType(
    {
        "match_points": described(
            MatchPoints,
            {
                "sum_of_places": "a team scores both its players' places (max 84 and 140)",
                "best_place": "a team scores its better player's place only",
            },
        ),
        "game_ties": described(TIE_POLICIES, _TIES),
        "four_ball_ties": described(TIE_POLICIES, _TIES),
        "qualifying_ties": described(
            QualifyingTies,
            {
                "share": "equal qualifying totals share the place",
                "four_ball": "equal qualifying totals ordered by the 4-ball score",
            },
        ),
        "countback": described(
            Countback,
            {
                "head_to_head": "final ties: points in the matches between the tied teams",
                "matches_won": "final ties: the number of final matches won",
            },
        ),
        "forfeit_award": described(
            ForfeitAward,
            {
                "both_machines": "a forfeit gives the opponents the top 2 on both machines (28)",
                "one_machine": "a forfeit gives the opponents the top 2 on one machine (14)",
            },
        ),
    }
)
"""The settings of ``CountryConfig`` that take one of a fixed set, with each value's meaning (EPC
2009, EPC Country Competition; the class docstring gives the readings)."""
