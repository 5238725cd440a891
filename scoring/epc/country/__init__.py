"""EPC 2009 country competition: seeded teams in groups, team matches, a 4-ball game, a six-team final.

Rule text: EPC 2009 rules, section "EPC COUNTRY COMPETITION 2009 RULES". In
short:

- 20 seeded teams in 5 groups (A: seeds 1, 6, 11, 16; ... E: 5, 10, 15, 20); reserve teams replace
  teams that cannot play (``groups``);
- each team plays the 3 others of its group (``fixtures``); a match is two machines, two players of
  each team in a four-player game on each; places score 9, 5, 2, 0 (``match_result``);
- each team plays one one-player 4-ball game; all teams' scores are ranked together for 17, 14,
  12, ... 1 points, 0 from 14th (``four_ball_table``);
- the six best totals reach the final, a tie for sixth going to the 4-ball score, then to a
  play-off game (``qualifying_table``, ``finalists``);
- the final is a round robin of the six; ties up to 4th go to a play-off game, ties for 5th or 6th
  to countback, then the qualifying 4-ball score (``final_table``);
- a team more than 5 minutes late for a match, or slam-tilting by shaking, is disqualified from
  the match (``Late``, ``SlamTilt``; in the 4-ball game a slam tilt scores zero);
- which entries are accepted, and when: a team's registration and seed, a reserve's replacement,
  a match's two machines, the 4-ball game, penalties, play-offs and the stages
  (``scoring.epc.country.entries``, its errors in ``scoring.epc.country.errors``).

Choices the text leaves open (docs/rules.md, "EPC 2009", Country), each a field of
``CountryConfig`` whose docstring gives the reasons: ``match_points`` (sum of places, the only
reading giving 84 and 140), ``game_ties`` (shared), ``four_ball_ties`` (high),
``qualifying_ties`` (share), ``countback`` (head to head) and ``forfeit_award`` (both machines).
Every function is pure: frozen records in, new frozen records out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.epc.country.match import GameResult, GameRow, MatchResult, game_result, match_result
from scoring.epc.country.model import (
    CountryConfig,
    FourBallGame,
    GameScore,
    Group,
    Late,
    Match,
    MatchGame,
    Penalty,
    Playoff,
    PlayoffNeeded,
    Replacement,
    SlamTilt,
)
from scoring.epc.country.tables import (
    Finalist,
    FinalRow,
    FinalTable,
    FourBallRow,
    FourBallTable,
    GroupRow,
    GroupTable,
    QualifyingRow,
    QualifyingTable,
    final_table,
    finalists,
    four_ball_table,
    qualifying_table,
)
from scoring.errors import DuplicateRegistration, EntryNotAllowed


@dataclass(frozen=True, slots=True)
class Fixture:
    """One match to play: ``group`` ("A".."E", or "Final"), the group's ``round`` (1-based) and
    the time ``slot`` (1-based, across all groups). EPC 2009, EPC Country Competition."""

    group: str
    round: int
    slot: int
    home: str
    away: str


@dataclass(frozen=True, slots=True)
class FourBallSlot:
    """When and where a team plays its 4-ball game: a ``slot`` with no match for it and one of the
    two machines, 1 or 2 (EPC 2009, EPC Country Competition: "All teams have been allocated a
    machine and a time to play")."""

    team: str
    slot: int
    machine: int


def groups(
    config: CountryConfig,
    seeds: Sequence[str],
    reserves: Sequence[str] = (),
    replacements: Iterable[Replacement] = (),
) -> tuple[Group, ...]:
    """Seeded teams (best first) -> the groups (EPC 2009, EPC Country Competition: "Group A - 1st,
    6th, 11th & 16th seeds ... Group E - 5th, 10th, 15th & 20th seeds").

    Group k (A, B, ...) takes seeds k, k + n, k + 2n, ... for n = ``config.groups``. Each
    ``Replacement`` puts a team from ``reserves`` in a withdrawn team's seed (applied in order, so
    a reserve can itself be replaced). Raises EntryNotAllowed for the wrong number of seeds or a
    replacement that does not fit, DuplicateRegistration for a team named twice.

    >>> [g.seeds for g in groups(CountryConfig(), [f"T{i}" for i in range(1, 21)])][0]
    (1, 6, 11, 16)
    """
    teams, n = list(seeds), config.groups
    want = n * config.group_size
    if len(teams) != want:
        raise EntryNotAllowed(
            f"The draw needs {want} seeded teams ({n} groups of {config.group_size}); "
            f"{len(teams)} were given."
        )
    named = [*teams, *reserves]
    twice = sorted({t for t in named if named.count(t) > 1})
    if twice:
        raise DuplicateRegistration(f"Each team is entered once; named twice: {', '.join(twice)}.")
    used: set[str] = set()
    for r in replacements:
        if r.withdrawn not in teams:
            raise EntryNotAllowed(f"{r.withdrawn} is not in the draw, so nobody can replace it.")
        if r.reserve not in reserves or r.reserve in used:
            free = ", ".join(t for t in reserves if t not in used) or "none"
            raise EntryNotAllowed(
                f"{r.reserve} cannot replace {r.withdrawn}: the reserve teams left are {free}."
            )
        teams[teams.index(r.withdrawn)] = r.reserve
        used.add(r.reserve)
    return tuple(
        Group(chr(ord("A") + k), tuple(teams[k::n]), tuple(range(k + 1, want + 1, n)))
        for k in range(n)
    )


def final_group(field: Iterable[Finalist]) -> Group:
    """The finalists as one group named "Final", for ``fixtures`` (EPC 2009, EPC Country
    Competition, Final: "each team will play each other once")."""
    field = tuple(field)
    return Group("Final", tuple(f.team for f in field), tuple(f.qualifying_place for f in field))


def fixtures(config: CountryConfig, groups: Iterable[Group]) -> tuple[Fixture, ...]:
    """Who plays whom, in which round and time slot (EPC 2009, EPC Country Competition: "Within
    each group, there will be 3 matches"; "there will be at most 10 teams playing at any one
    time"; the final: "each team will play each other once").

    Each group is a round robin by the circle method, the top seeds meeting last (group A: round 1
    1v16 and 6v11, round 2 1v11 and 16v6, round 3 1v6 and 11v16). A round's matches fill slots of
    ``config.teams_at_once // 2`` matches, first matches of every group first, so with 5 groups
    each round takes two slots of 5 matches and every team has a free slot per round for the
    4-ball game. An odd group gives a bye each round.
    """
    order: list[tuple[int, int, int, str, str, str]] = []
    for position, group in enumerate(groups):
        for number, pairs in enumerate(_round_robin(group.teams), start=1):
            order += [(number, i, position, group.name, h, a) for i, (h, a) in enumerate(pairs)]
    order.sort(key=lambda row: row[:3])
    capacity = config.teams_at_once // 2
    out: list[Fixture] = []
    slot, in_slot, current = 0, capacity, 0
    for number, _, _, name, home, away in order:
        if number != current or in_slot == capacity:  # a new round starts a new slot
            slot, in_slot, current = slot + 1, 0, number
        out.append(Fixture(name, number, slot, home, away))
        in_slot += 1
    return tuple(out)


def four_ball_schedule(
    groups: Iterable[Group], matches: Iterable[Fixture]
) -> tuple[FourBallSlot, ...]:
    """Give each team, best seed first, its first slot without a match and alternate the two
    4-ball machines within a slot (EPC 2009, EPC Country Competition: "those teams not playing in
    the match format will be able to play on the 4 ball game"). A team with no free slot plays
    after the last one."""
    matches = tuple(matches)
    slots = sorted({f.slot for f in matches})
    busy = {(f.slot, t) for f in matches for t in (f.home, f.away)}
    seeded = sorted(
        (seed, team)
        for g in groups
        for seed, team in zip(g.seeds or range(1, len(g.teams) + 1), g.teams, strict=True)
    )
    taken: dict[int, int] = {}
    out: list[FourBallSlot] = []
    for _, team in seeded:
        slot = next((s for s in slots if (s, team) not in busy), (slots[-1] if slots else 0) + 1)
        taken[slot] = taken.get(slot, 0) + 1
        out.append(FourBallSlot(team, slot, 2 - taken[slot] % 2))
    return tuple(sorted(out, key=lambda f: (f.slot, f.machine)))


def _round_robin(teams: Sequence[str]) -> list[list[tuple[str, str]]]:
    circle: list[str | None] = [*teams, *([None] if len(teams) % 2 else [])]
    size, rounds = len(circle), []
    for _ in range(size - 1):
        pairs = [(circle[i], circle[size - 1 - i]) for i in range(size // 2)]
        rounds.append([(h, a) for h, a in pairs if h is not None and a is not None])
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


__all__ = [
    "CountryConfig",
    "FinalRow",
    "FinalTable",
    "Finalist",
    "Fixture",
    "FourBallGame",
    "FourBallRow",
    "FourBallSlot",
    "FourBallTable",
    "GameResult",
    "GameRow",
    "GameScore",
    "Group",
    "GroupRow",
    "GroupTable",
    "Late",
    "Match",
    "MatchGame",
    "MatchResult",
    "Penalty",
    "Playoff",
    "PlayoffNeeded",
    "QualifyingRow",
    "QualifyingTable",
    "Replacement",
    "SlamTilt",
    "final_group",
    "final_table",
    "finalists",
    "fixtures",
    "four_ball_schedule",
    "four_ball_table",
    "game_result",
    "groups",
    "match_result",
    "qualifying_table",
]
