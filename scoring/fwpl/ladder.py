"""The FWPL ladder and its groups.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. In short:

- 4.3 and 3.1: week 1 is seeded by IFPA ranking, unranked players alphabetically at the bottom;
  later weeks by season league points only; equal points per ``FwplConfig.ladder_ties``;
- 4.1 and 4.2: the ladder of the players present is cut, top down, into as many groups of four
  as possible with the threes at the bottom (the table for 6 to 32 players, extended the same way
  above); ``FwplConfig.group_table`` chooses between the table's all-four rows and "at least one
  three-player group". The LO may set other sizes ("may be altered by the LO");
- 3.1: groups are adjusted for announced absences, not for unannounced ones.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.errors import UnknownPlayer
from scoring.fwpl.config import FwplConfig, LadderTies
from scoring.fwpl.errors import GroupingNotPossible
from scoring.ranking import player_key


@dataclass(frozen=True, slots=True)
class LeaguePlayer:
    """A league member (FWPL 2.4, 4.3). ``number``: badge number; ``name``: as it should sort
    alphabetically (e.g. "Surname, Given" if the league sorts by surname); ``ifpa_rank``: IFPA
    world ranking (1 is best), None if unranked; ``joined_week``: first week in the league (2.4,
    a late joiner); ``missed_countable``: the LO's designation of the forfeits a late joiner
    accumulates for the weeks before joining (2.4; "Unless designated by the LO, all forfeits are
    considered countable").
    """

    number: str
    name: str
    ifpa_rank: int | None = None
    joined_week: int = 1
    missed_countable: bool = True


def _name_key(player: LeaguePlayer) -> tuple[str, tuple[tuple[int, int | str, str], ...]]:
    return (player.name.casefold(), player_key(player.number))


def initial_ladder(players: Iterable[LeaguePlayer]) -> tuple[str, ...]:
    """Week-1 ladder (player numbers, top first): IFPA-ranked players by rank, then unranked
    players alphabetically by name. FWPL 4.3 ("Unranked players are placed alphabetically at the
    bottom") and 3.1. Equal IFPA ranks are ordered by name. Raises nothing.

    >>> initial_ladder([LeaguePlayer("1", "Zed"), LeaguePlayer("2", "Amy", 900),
    ...                 LeaguePlayer("3", "Bea"), LeaguePlayer("4", "Cy", 25)])
    ('4', '2', '3', '1')
    """
    pool = list(players)
    ranked = sorted(
        (p for p in pool if p.ifpa_rank is not None),
        key=lambda p: (p.ifpa_rank, *_name_key(p)),
    )
    unranked = sorted((p for p in pool if p.ifpa_rank is None), key=_name_key)
    return tuple(p.number for p in (*ranked, *unranked))


def ranked_ladder(
    points: Mapping[str, Fraction | int],
    previous: Sequence[str],
    initial: Sequence[str],
    names: Mapping[str, str],
    ties: LadderTies = "previous",
) -> tuple[str, ...]:
    """Ladder of the players in ``points`` (season league points) after week 1: most points first.
    FWPL 4.3 ("ranked based on accrued points for the current league session only") and 3.1.
    Equal points per ``ties`` (``FwplConfig.ladder_ties``): ``"previous"``, the order of
    ``previous`` (last week's ladder; players not on it follow in ``initial`` order);
    ``"initial"``, the order of ``initial`` (the week-1 ladder of every member); ``"name"``,
    alphabetical by ``names``. Raises UnknownPlayer for a player missing from ``initial``.
    """
    start = {p: i for i, p in enumerate(initial)}
    before = {p: i for i, p in enumerate(previous)}
    missing = sorted(set(points) - set(start), key=player_key)
    if missing:
        raise UnknownPlayer(f"Player {missing[0]} is not on the league's initial ladder.")

    def tie_key(p: str) -> tuple[object, ...]:
        if ties == "name":
            return (names.get(p, p).casefold(), player_key(p))
        if ties == "initial":
            return (start[p],)
        return (before.get(p, len(before) + start[p]),)

    return tuple(sorted(points, key=lambda p: (-points[p], tie_key(p))))


def group_sizes(players: int, config: FwplConfig | None = None) -> tuple[int, ...]:
    """Group sizes, top group first, for ``players`` present. FWPL 4.1: as many groups of four as
    possible, the threes at the bottom (6: 3 3; 7: 4 3; 13: 4 3 3 3; 32: eight 4s), extended the
    same way above 32 (33: 4 x 6 + 3 x 3). With ``group_table="one_three"``, 12 or more players in
    a multiple of four get four threes ("at least one three-player group"). Three and four
    players make one group. Raises GroupingNotPossible for 1, 2 or 5 players.

    >>> group_sizes(10), group_sizes(16, FwplConfig(group_table="one_three"))
    ((4, 3, 3), (4, 3, 3, 3, 3))
    """
    groups = -(-players // 4)
    threes = 4 * groups - players
    if (config or FwplConfig()).group_table == "one_three" and threes == 0 and players >= 12:
        groups, threes = groups + 1, 4
    if players < 0 or threes > groups:
        raise GroupingNotPossible(
            f"{players} players cannot be split into groups of three and four (FWPL 4.1); "
            "the LO must group them by hand."
        )
    return (4,) * (groups - threes) + (3,) * threes


def split_groups(
    ladder: Sequence[str],
    absent: Collection[str] = frozenset(),
    config: FwplConfig | None = None,
    sizes: Sequence[int] | None = None,
) -> tuple[tuple[str, ...], ...]:
    """Cut the ladder of present players into groups, top down. FWPL 4.2 ("This ladder is then
    divided into groups based on the league size") with 4.1 sizes (``group_sizes``) and 3.1
    ("groups can be adjusted accordingly ahead of time"): ``absent`` lists announced absences
    only, since "Groups will not be adjusted for unannounced absences". ``sizes``: the LO's own
    sizes (4.1 "may be altered by the LO"), each 2 to 4, summing to the players present.
    Raises GroupingNotPossible for sizes that do not fit.

    >>> split_groups(["a", "b", "c", "d", "e", "f", "g"], absent={"c"})
    (('a', 'b', 'd'), ('e', 'f', 'g'))
    """
    present = [p for p in ladder if p not in absent]
    chosen = tuple(sizes) if sizes is not None else group_sizes(len(present), config)
    if sum(chosen) != len(present) or any(not 2 <= size <= 4 for size in chosen):
        raise GroupingNotPossible(
            f"Group sizes {', '.join(map(str, chosen))} do not split {len(present)} players "
            "into groups of two to four (FWPL 4.1)."
        )
    groups: list[tuple[str, ...]] = []
    start = 0
    for size in chosen:
        groups.append(tuple(present[start : start + size]))
        start += size
    return tuple(groups)
