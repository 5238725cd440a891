"""EPC 2009 after qualifying: the settings of every later stage, the seeding and the stand-by places.

Rule text: EPC 2009 rules, "EPC Qualifying" (its last paragraphs), "EPC
Quarter-Finals", "EPC Semi-Finals" and "EPC Finals". The stages are pure functions over explicit
inputs, chained in the order the day runs:

- ``seeding``: qualifying standings -> seeds 1..32, stand-by 33..38 and everybody else;
- ``substitute``: the seeding and who re-registered for each round -> the quarter-final line-up;
- ``scoring.epc.quarterfinal``: the draw (pairs, machines) and the quarter-final standings;
- ``scoring.epc.finals``: the semi-finals, the 5th-8th play-off, the grand final, final placings.

Choices the text leaves open (docs/rules.md, "EPC 2009"), each a field of ``EpcStagesConfig``
(its docstring gives each default's reason):

- the replaced player's "final rank of the player who replaced them": ``replaced_rank``;
- vacancies in both quarter-final rounds: ``vacancies``; an absent stand-by: ``absent_standby``;
- quarter-final partners: ``pairing`` (or the TD's pairs, ``scoring.epc.quarterfinal``);
- equal quarter-final totals at the top-8 cut and for 9th-32nd: ``cut_ties``, ``place_ties``;
- equal scores in a semi-final or final game: ``game_ties``.

Equal qualifying places inside the 38 seeded places are not guessed: the quarter-finals need a
strict order (groups, partners, who fills a vacancy first), so the TD's play-off order is an input
and ``UnresolvedTie`` says which players still need one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal, get_args

from scoring.epc.errors import UnresolvedTie
from scoring.errors import SettingsError
from scoring.model import Standings
from scoring.scales import PRESETS, SCALE_CHOICES, Scale, get_scale, scale_setting
from scoring.settings import Choice, check_known, choice, described, whole_number

ReplacedRank = Literal["swap", "same"]
Vacancies = Literal["by-round", "together"]
AbsentStandby = Literal["skip", "leave-vacant"]
Pairing = Literal["fold", "adjacent"]
CutTies = Literal["qualifying", "playoff"]
PlaceTies = Literal["share", "qualifying"]
GameTies = Literal["playoff", "seed"]
LateCorrections = Literal["refuse", "keep-draw"]
Group = Literal["A", "B"]


@dataclass(frozen=True, slots=True)
class EpcStagesConfig:
    """Settings of the EPC stages after qualifying (EPC 2009, EPC Qualifying, EPC Quarter-Finals,
    EPC Semi-Finals, EPC Finals). Raises SettingsError when invalid.

    ``quarterfinalists``: places in the quarter-finals, default 32 ("Thirty-two players proceed");
    a multiple of 4 from 8, split in halves: group A the better seeds, group B the rest.
    ``standby``: stand-by places after them, default 6 ("Players ranked 33 - 38").
    ``scale``: quarter-final ranking points, default ``"papa"`` ("As in the qualifying round ...
    ranking points awarded"; the same scale as ``EpcConfig.scale``).

    ``replaced_rank`` (EPC Qualifying; EPC Quarter-Finals "will take the final rank of the player
    who replaced them"): ``"swap"`` (default) the replaced player takes the rank the stand-by would
    have had without playing, their qualifying rank (33rd for the 33rd); ``"same"`` the replaced
    player shares whatever final rank the stand-by then earns. Swap, because the next sentence
    gives unused stand-bys "their qualifying round ranking as their final position", so that is the
    stand-by's rank outside the quarter-finals; and a no-show must not share 3rd place because
    their replacement reached the final. Swap keeps every place held by one player.

    ``vacancies`` (EPC Quarter-Finals "five minutes before the start of the round"): ``"by-round"``
    (default) group B's vacancies are filled first, at its 11am round, from the stand-bys then,
    and group A's at the 1pm round from those left; ``"together"`` all vacancies are ranked as one
    list (group A's first) before either round. By round, because the group A deadline falls after
    group B has played, and stand-bys report "before the start of each quarter-final round".

    ``absent_standby`` (EPC Quarter-Finals "the stand-by player ranked 33rd will fill the highest
    ranked vacant position, the 34th ranked player the next"): ``"skip"`` (default) a stand-by not
    at the desk for that round is passed over and the next one present fills the vacancy (they may
    still fill one in the other round); ``"leave-vacant"`` the n-th vacancy is offered only to the
    n-th stand-by and stays empty if they are absent. Skip, because stand-by places exist "should
    some qualified players not be available"; a seat left empty while a stand-by waits defeats that.
    An absent stand-by keeps their qualifying rank either way ("do not fill a vacant position").

    ``pairing`` (EPC Quarter-Finals "a pre-selected partner"), used when the TD gives no pairs:
    ``"fold"`` (default) the best seed of a group with the worst, the 2nd with the next worst
    (1-16, 2-15 ... 8-9; 17-32 ... 24-25): every pair has the same seed total, the usual balanced
    draw, so no pair holds two top seeds; ``"adjacent"`` 1-2, 3-4 ... (peers play together).

    ``cut_ties`` (EPC Quarter-Finals "The top ranked 8 players will move on"): how equal totals are
    ordered where order decides the semi-finals (the 8th/9th cut and places 1-8, which set the
    semi-final groups): ``"qualifying"`` (default) the better qualifying position first, a
    countback on the round every player has already played, known in advance and needing no extra
    game between the second round and the semi-finals; ``"playoff"`` the TD's play-off order.

    ``place_ties`` (EPC Quarter-Finals "ranked 9th to 32nd according to their ranking points"):
    ``"share"`` (default) equal points share the place, as equal totals do in qualifying;
    ``"qualifying"`` they are split by qualifying position.

    ``game_ties`` (EPC Semi-Finals, EPC Finals "the top two highest scoring", "The winner of the
    game"): equal scores in a four-player game where the order matters: ``"playoff"`` (default) a
    tie-break game between the tied players, its order entered by the TD; ``"seed"`` the better
    quarter-final rank first. Play-off, because the text ranks these games by score alone and
    already gives the better seed its advantage (first choice of player position).

    ``late_corrections`` (EPC Qualifying "The 32 highest ranked players then progress": the
    seeding is made when qualifying closes): a change to a qualifying result once the
    quarter-finals have started. ``"refuse"`` (default) it is refused until the TD reopens
    qualifying (``stage_reopened``); ``"keep-draw"`` it is accepted for the qualifying standings
    but the seeding, frozen when the quarter-finals started, stays until the TD re-seeds
    (``reseeded``). Refuse, because a draw that silently stops matching the standings on the wall
    is worse than a TD who has to decide.
    """

    quarterfinalists: int = 32
    standby: int = 6
    scale: str | tuple[int, ...] = "papa"
    replaced_rank: ReplacedRank = "swap"
    vacancies: Vacancies = "by-round"
    absent_standby: AbsentStandby = "skip"
    pairing: Pairing = "fold"
    cut_ties: CutTies = "qualifying"
    place_ties: PlaceTies = "share"
    game_ties: GameTies = "playoff"
    late_corrections: LateCorrections = "refuse"

    def __post_init__(self) -> None:
        setting = scale_setting(get_scale(self.scale))
        object.__setattr__(self, "scale", setting if isinstance(setting, str) else tuple(setting))
        field = whole_number("quarterfinalists", self.quarterfinalists, 8, 1024)
        if field % 4:
            raise SettingsError(
                f"Setting quarterfinalists must be a multiple of 4 (two groups of pairs), not {field}."
            )
        object.__setattr__(self, "quarterfinalists", field)
        object.__setattr__(self, "standby", whole_number("standby", self.standby, 0, 1024))
        for name, options in _CHOICES.items():
            object.__setattr__(self, name, choice(name, getattr(self, name), options))

    @property
    def points_scale(self) -> Scale:
        """The quarter-final ``Scale`` (EPC 2009, EPC Quarter-Finals, "As in the qualifying
        round")."""
        return PRESETS[self.scale] if isinstance(self.scale, str) else Scale("custom", self.scale)

    @property
    def group_size(self) -> int:
        """Seeds per quarter-final group: 16 (EPC 2009, EPC Quarter-Finals)."""
        return self.quarterfinalists // 2

    def group(self, seed: int) -> Group:
        """``"A"`` for seeds 1-16, ``"B"`` for 17-32 (EPC 2009, EPC Quarter-Finals)."""
        return "A" if seed <= self.group_size else "B"


_CHOICES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "replaced_rank": get_args(ReplacedRank),
        "vacancies": get_args(Vacancies),
        "absent_standby": get_args(AbsentStandby),
        "pairing": get_args(Pairing),
        "cut_ties": get_args(CutTies),
        "place_ties": get_args(PlaceTies),
        "game_ties": get_args(GameTies),
        "late_corrections": get_args(LateCorrections),
    }
)


def parse_stage_settings(settings: Mapping[str, Any]) -> EpcStagesConfig:
    """Settings mapping (JSON values or CLI text) -> ``EpcStagesConfig``; missing keys take the
    defaults. Raises SettingsError. EPC 2009, EPC Quarter-Finals."""
    check_known("EPC stages", settings, EpcStagesConfig.__dataclass_fields__)
    return EpcStagesConfig(**settings)


def stage_settings_dict(config: EpcStagesConfig) -> dict[str, Any]:
    """``EpcStagesConfig`` -> JSON-safe settings; round-trips through ``parse_stage_settings``.
    EPC 2009, EPC Quarter-Finals."""
    out: dict[str, Any] = {
        name: getattr(config, name) for name in EpcStagesConfig.__dataclass_fields__
    }
    out["scale"] = config.scale if isinstance(config.scale, str) else list(config.scale)
    return out


@dataclass(frozen=True, slots=True)
class Seeding:
    """The final qualifying order as the later stages use it (EPC 2009, EPC Qualifying).

    ``qualifiers``: seeds 1..32, best first. ``standby``: qualifying places 33..38 in order.
    ``rest``: ``(player, place)`` of everybody else, best first; the place is their qualifying place
    ("placed 39th-150th depending on their ranking points total"), shared when totals are equal.
    """

    qualifiers: tuple[str, ...]
    standby: tuple[str, ...]
    rest: tuple[tuple[str, int], ...] = ()

    def position(self, player: str) -> int:
        """Qualifying position: the seed (1..32), or 33.. for a stand-by, or the qualifying place
        of anyone else. EPC 2009, EPC Qualifying. Raises KeyError for an unknown player."""
        seeded = (*self.qualifiers, *self.standby)
        if player in seeded:
            return seeded.index(player) + 1
        return dict(self.rest)[player]


def order_ties(members: Sequence[str], playoff: Sequence[str], what: str) -> tuple[str, ...]:
    """``members`` (players with equal results) in the order of the TD's ``playoff`` list.
    EPC 2009, EPC Quarter-Finals (ties the text leaves to the TD). Raises UnresolvedTie naming the
    tied players when any of them is missing from ``playoff``."""
    missing = [m for m in members if m not in playoff]
    if missing:
        names = ", ".join(members[:-1]) + f" and {members[-1]}"
        raise UnresolvedTie(
            f"Players {names} are tied {what}; enter the order of their play-off "
            f"(no result yet for {', '.join(missing)})."
        )
    return tuple(sorted(members, key=list(playoff).index))


def compose_playoffs(earlier: Sequence[str], order: Sequence[str]) -> tuple[str, ...]:
    """The play-off orders of one tie kind after a new record (EPC 2009, EPC Qualifying; EPC
    Quarter-Finals: the ties the text leaves to a play-off): the earlier players not in
    ``order``, then ``order`` (best first). Only the order within one group of tied players is
    ever read (``order_ties``), so two ties recorded apart both count."""
    return (*(p for p in earlier if p not in order), *order)


def seeding(standings: Standings, config: EpcStagesConfig, playoff: Sequence[str] = ()) -> Seeding:
    """Qualifying standings -> ``Seeding`` (EPC 2009, EPC Qualifying: "The 32 highest ranked
    players then progress"; "Players ranked 33 - 38 ... stand-by"; "All other players ... will be
    placed 39th-150th depending on their ranking points total").

    Players with equal qualifying totals inside the 32 + 6 seeded places are ordered by
    ``playoff`` (the TD's play-off result, player numbers best first); without one for them,
    UnresolvedTie. A tie that straddles the cut is settled the same way. Players past the seeded
    places keep their qualifying place, never better than the first place after the seeded ones.
    """
    seeded_count = config.quarterfinalists + config.standby
    by_place: dict[int, list[str]] = {}
    for row in standings.rows:
        if row.place is not None:
            by_place.setdefault(row.place, []).append(row.player)
    ordered: list[str] = []
    rest: list[tuple[str, int]] = []
    for place in sorted(by_place):
        members = by_place[place]
        if len(ordered) >= seeded_count:
            rest.extend((m, place) for m in members)
            continue
        if len(members) > 1:
            last = place + len(members) - 1
            members = list(order_ties(members, playoff, f"for qualifying places {place}-{last}"))
        room = seeded_count - len(ordered)
        ordered.extend(members[:room])
        rest.extend((m, max(place, seeded_count + 1)) for m in members[room:])
    return Seeding(
        qualifiers=tuple(ordered[: config.quarterfinalists]),
        standby=tuple(ordered[config.quarterfinalists :]),
        rest=tuple(rest),
    )


@dataclass(frozen=True, slots=True)
class Registrations:
    """Who re-registered at the desk by each round's deadline, five minutes before it starts
    (EPC 2009, EPC Quarter-Finals). ``first_round``: the 11am round, group B (seeds 17-32) and any
    stand-bys present then; ``second_round``: the 1pm round, group A (seeds 1-16) and stand-bys.
    """

    first_round: frozenset[str]
    second_round: frozenset[str]

    @staticmethod
    def of(first_round: Iterable[str], second_round: Iterable[str]) -> Registrations:
        """Build from any iterables of player numbers. EPC 2009, EPC Quarter-Finals."""
        return Registrations(frozenset(first_round), frozenset(second_round))

    def present(self, group: Group) -> frozenset[str]:
        """Players at the desk for ``group``'s round (B plays first). EPC 2009, EPC
        Quarter-Finals."""
        return self.second_round if group == "A" else self.first_round


@dataclass(frozen=True, slots=True)
class Slot:
    """One quarter-final place (EPC 2009, EPC Quarter-Finals). ``seed``: 1..32. ``qualifier``: who
    qualified into it (None when qualifying had fewer players). ``player``: who plays it: the
    qualifier, the stand-by who replaced them, or None for a vacancy nobody filled."""

    seed: int
    group: Group
    qualifier: str | None
    player: str | None

    @property
    def replaced(self) -> bool:
        """The qualifier was absent and a stand-by plays instead. EPC 2009, EPC Quarter-Finals."""
        return self.player is not None and self.player != self.qualifier


@dataclass(frozen=True, slots=True)
class Lineup:
    """The quarter-final after re-registration (EPC 2009, EPC Quarter-Finals): one ``Slot`` per
    seed, in seed order, and the ``Seeding`` it came from."""

    seeding: Seeding
    slots: tuple[Slot, ...]

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone who plays the quarter-finals, in seed order. EPC 2009, EPC Quarter-Finals."""
        return tuple(s.player for s in self.slots if s.player is not None)

    def replacement_of(self, player: str) -> str | None:
        """The stand-by who replaced ``player``, or None. EPC 2009, EPC Quarter-Finals."""
        return next((s.player for s in self.slots if s.replaced and s.qualifier == player), None)


def substitute(seeding: Seeding, registrations: Registrations, config: EpcStagesConfig) -> Lineup:
    """Fill the places of absent qualifiers with stand-bys (EPC 2009, EPC Quarter-Finals: "A player
    will be deemed unavailable if they have not re-registered at the tournament desk five minutes
    before the start of the round. In this case, the stand-by player ranked 33rd will fill the
    highest ranked vacant position, the 34th ranked player the next and so on").

    A vacancy is a seed whose qualifier is not in ``registrations`` for their group's round. Order
    of filling: ``config.vacancies``; who is passed over: ``config.absent_standby``. A stand-by
    fills at most one place and must be registered for that place's round. Never changes the
    number of places (``config.quarterfinalists``).

    >>> s = Seeding(qualifiers=tuple("abcdefgh"), standby=("i", "j"))
    >>> r = Registrations.of("efgi", "abcj")
    >>> [x.player for x in substitute(s, r, EpcStagesConfig(quarterfinalists=8)).slots]
    ['a', 'b', 'c', 'j', 'e', 'f', 'g', 'i']
    """
    slots = [
        Slot(seed, config.group(seed), q, q)
        for seed in range(1, config.quarterfinalists + 1)
        for q in [seeding.qualifiers[seed - 1] if seed <= len(seeding.qualifiers) else None]
    ]
    vacant = [
        s
        for s in slots
        if s.qualifier is not None and s.qualifier not in registrations.present(s.group)
    ]
    if config.vacancies == "by-round":
        vacant.sort(key=lambda s: (s.group == "A", s.seed))
    fill = _skipping if config.absent_standby == "skip" else _in_turn
    chosen = fill(seeding.standby, [registrations.present(s.group) for s in vacant])
    for slot, standby in zip(vacant, chosen, strict=True):
        slots[slot.seed - 1] = Slot(slot.seed, slot.group, slot.qualifier, standby)
    return Lineup(seeding=seeding, slots=tuple(slots))


def _skipping(line: Sequence[str], present: Sequence[frozenset[str]]) -> list[str | None]:
    # Each vacancy takes the best-placed stand-by not yet used who is at the desk for its round.
    used: set[str] = set()
    chosen: list[str | None] = []
    for here in present:
        pick = next((s for s in line if s not in used and s in here), None)
        if pick is not None:
            used.add(pick)
        chosen.append(pick)
    return chosen


def _in_turn(line: Sequence[str], present: Sequence[frozenset[str]]) -> list[str | None]:
    # The n-th vacancy is offered to the n-th stand-by only.
    return [
        line[i] if i < len(line) and line[i] in here else None for i, here in enumerate(present)
    ]


CHOICES: Mapping[str, tuple[Choice, ...]] = MappingProxyType(
    {
        "scale": SCALE_CHOICES,
        "replaced_rank": described(
            ReplacedRank,
            {
                "swap": "a replaced player keeps their qualifying rank",
                "same": "a replaced player shares the rank their stand-by earns",
            },
        ),
        "vacancies": described(
            Vacancies,
            {
                "by-round": "stand-bys fill each group's places before its own round",
                "together": "all vacancies are filled from one list before either round",
            },
        ),
        "absent_standby": described(
            AbsentStandby,
            {
                "skip": "an absent stand-by is passed over for the next one present",
                "leave-vacant": "a place stays empty when its stand-by is absent",
            },
        ),
        "pairing": described(
            Pairing,
            {
                "fold": "best seed with worst (1-16, 2-15 …)",
                "adjacent": "neighbouring seeds together (1-2, 3-4 …)",
            },
        ),
        "cut_ties": described(
            CutTies,
            {
                "qualifying": "equal totals ordered by qualifying position",
                "playoff": "equal totals ordered by a play-off the TD records",
            },
        ),
        "place_ties": described(
            PlaceTies,
            {
                "share": "equal points share the place",
                "qualifying": "equal points split by qualifying position",
            },
        ),
        "game_ties": described(
            GameTies,
            {
                "playoff": "equal scores play a tie-break game",
                "seed": "equal scores go to the better seed",
            },
        ),
        "late_corrections": described(
            LateCorrections,
            {
                "refuse": "refused until the TD reopens qualifying",
                "keep-draw": "accepted, and the draw stays until the TD re-seeds",
            },
        ),
    }
)
"""The settings of ``EpcStagesConfig`` that take one of a fixed set, with each value's meaning (EPC
2009, EPC Quarter-Finals, EPC Semi-Finals, EPC Finals; the class docstring gives the readings)."""
