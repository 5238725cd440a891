"""Placing teams on points, then breaking the ties the EPC 2009 country competition breaks.

Plumbing for ``scoring.epc.country.tables``. Teams are ranked on points with shared places (1, 2, 2,
4). A tie group is then handed to a *plan*: given the places it covers, the plan names the
tie-break steps to try in order (e.g. the qualifying 4-ball score) and whether a play-off game must
separate whatever is still level. A step that splits the group places each part at its own places,
and each part is planned again from the start (so a tie for 5th left by a play-off for 4th-6th goes
to countback, and a three-way head-to-head is recounted among the two still level). Play-off games
are taken in the order given, each for the tie whose teams are exactly its teams; a tie with no game
left is reported as needing one, and its teams share the place meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from scoring.epc.country.match import check_score
from scoring.epc.country.model import Playoff, PlayoffNeeded
from scoring.errors import EntryNotAllowed
from scoring.ranking import player_key, rank

Values = Callable[[tuple[str, ...]], Mapping[str, Fraction | int]]


@dataclass(frozen=True, slots=True)
class Step:
    """A tie-break: ``values`` gives each tied team a number (higher is better) from the tied teams;
    ``name`` is what a row shows as ``decided_by`` when this step separated it. EPC 2009, EPC
    Country Competition (the 4-ball score; the final's countback)."""

    name: str
    values: Values


Plan = Callable[[int, int], tuple[tuple[Step, ...], bool]]
"""(first place, last place) of a tie -> (steps to try in order, whether a play-off must follow)."""


@dataclass(frozen=True, slots=True)
class Placed:
    """A team's place after tie-breaks (EPC 2009, EPC Country Competition). ``decided_by``:
    ``"points"`` (no tie), a step's name, ``"playoff"`` (the play-off game "recorded as such"), or
    ``"tied"`` (sharing the place). ``pending``: in a tie awaiting a play-off."""

    team: str
    place: int
    decided_by: str
    pending: bool = False


def place_teams(
    totals: Mapping[str, Fraction], plan: Plan, playoffs: Iterable[Playoff]
) -> tuple[tuple[Placed, ...], tuple[PlayoffNeeded, ...]]:
    """Every team of ``totals`` placed, best first, and the play-offs still needed (EPC 2009, EPC
    Country Competition: the tie for sixth; the final's ties). ``plan`` picks each tie's
    tie-breaks (module docstring). Raises EntryNotAllowed for a malformed play-off or one that
    matches no tie needing it; InvalidScore for a bad play-off score."""
    left = [_checked(p) for p in playoffs]
    placed: list[Placed] = []
    needed: list[PlayoffNeeded] = []
    for group in rank(totals, value=totals.__getitem__, order=player_key):
        _settle(group.items, group.place, "points", plan, left, placed, needed)
    if left:
        names = " v ".join(sorted(left[0].teams, key=player_key))
        raise EntryNotAllowed(
            f"The play-off {names} matches no tie that needs one; check the teams and the order "
            "of the play-off games."
        )
    return tuple(placed), tuple(needed)


def _settle(
    teams: tuple[str, ...],
    place: int,
    label: str,
    plan: Plan,
    left: list[Playoff],
    placed: list[Placed],
    needed: list[PlayoffNeeded],
) -> None:
    if len(teams) == 1:
        placed.append(Placed(teams[0], place, label))
        return
    last = place + len(teams) - 1
    steps, playoff = plan(place, last)
    for step in steps:
        if _split(teams, place, step.name, step.values(teams), plan, left, placed, needed):
            return
    while playoff:
        game = next((p for p in left if p.teams == frozenset(teams)), None)
        if game is None:
            needed.append(PlayoffNeeded(tuple(sorted(teams, key=player_key)), place, last))
            break
        left.remove(game)
        if _split(teams, place, "playoff", dict(game.scores), plan, left, placed, needed):
            return
    placed.extend(Placed(t, place, "tied", playoff) for t in sorted(teams, key=player_key))


def _split(
    teams: tuple[str, ...],
    place: int,
    name: str,
    values: Mapping[str, Fraction | int],
    plan: Plan,
    left: list[Playoff],
    placed: list[Placed],
    needed: list[PlayoffNeeded],
) -> bool:
    """Settle each part of ``teams`` split by ``values``; False (nothing done) if all are level."""
    parts = rank(teams, value=values.__getitem__, order=player_key)
    if len(parts) == 1:
        return False
    for part in parts:
        _settle(part.items, place + part.place - 1, name, plan, left, placed, needed)
    return True


def _checked(game: Playoff) -> Playoff:
    teams = [team for team, _ in game.scores]
    if len(teams) < 2 or len(set(teams)) != len(teams):
        raise EntryNotAllowed(
            f"A play-off game needs one score from each of two or more teams, not {teams}."
        )
    for team, score in game.scores:
        check_score(score, f"the play-off game of {team}")
    return game
