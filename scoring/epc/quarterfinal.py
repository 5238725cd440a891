"""EPC 2009 quarter-finals: the draw (partners and machines) and the standings.

Rule text: EPC 2009 rules, "EPC Quarter-Finals". In short:

- group B (seeds 17-32) plays the first round, group A (1-16) the second, on the same 8 machines;
- each player plays two two-player games with a pre-selected partner on each of three allocated
  machines, taking turns to go first; the recorded score is the better of their two games;
- "As in the qualifying round", all scores on a machine (both rounds together) are ranked and earn
  ranking points (``EpcStagesConfig.scale``); a player's total is the sum over their machines;
- the top 8 by points go to the semi-finals; the rest are "ranked 9th to 32nd".

Partners: the TD's pairs of seeds, or ``EpcStagesConfig.pairing``. A stand-by who fills a place
plays with that place's partner on its machines. Machines: pair k of a group (pairs ordered by
their better seed, from 0) plays machines k, k+1, k+2 of the list (wrapping round), so in each
of the three sessions every machine holds one pair. Equal totals: ``EpcStagesConfig.cut_ties``
(the top 8) and ``place_ties`` (9th down). Equal scores on a machine share the place and its
points, as in qualifying.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.epc.errors import NotAllocated, UnresolvedTie
from scoring.epc.stages import EpcStagesConfig, Group, Lineup, Seeding, order_ties
from scoring.errors import MachineAlreadyPlayed, SettingsError, UnknownPlayer
from scoring.model import Entry, MachineRow, MachineTable, StandingRow
from scoring.ranking import player_key, rank, tally
from scoring.tournament import check_score

MACHINES_PER_PAIR = 3
"""EPC 2009, EPC Quarter-Finals: "on three allocated machines"."""
GAMES_PER_MACHINE = 2
"""EPC 2009, EPC Quarter-Finals: "two two-player games ... on three allocated machines"."""
SEMIFINALISTS = 8
"""EPC 2009, EPC Quarter-Finals: "The top ranked 8 players will move on to the semi-finals"."""


@dataclass(frozen=True, slots=True)
class Pair:
    """Two quarter-final places that play together (EPC 2009, EPC Quarter-Finals). ``seeds``:
    better seed first. ``players``: who plays each place (None for an unfilled vacancy).
    ``machines``: their three machines, in the order played."""

    group: Group
    seeds: tuple[int, int]
    players: tuple[str | None, str | None]
    machines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """The quarter-final draw (EPC 2009, EPC Quarter-Finals): the line-up, the machines, and the
    pairs, group B's first (they play the first round), each group by better seed."""

    lineup: Lineup
    machines: tuple[str, ...]
    pairs: tuple[Pair, ...]

    def pair_of(self, player: str) -> Pair | None:
        """The pair ``player`` plays in, or None. EPC 2009, EPC Quarter-Finals."""
        return next((p for p in self.pairs if player in p.players), None)


def seeded_pairs(config: EpcStagesConfig) -> tuple[tuple[int, int], ...]:
    """The default partners by ``config.pairing``, group B's pairs first (EPC 2009, EPC
    Quarter-Finals, "a pre-selected partner").

    >>> seeded_pairs(EpcStagesConfig(quarterfinalists=8))
    ((5, 8), (6, 7), (1, 4), (2, 3))
    >>> seeded_pairs(EpcStagesConfig(quarterfinalists=8, pairing="adjacent"))
    ((5, 6), (7, 8), (1, 2), (3, 4))
    """
    pairs: list[tuple[int, int]] = []
    for first in (config.group_size + 1, 1):
        seeds = range(first, first + config.group_size)
        half = len(seeds) // 2
        if config.pairing == "fold":
            pairs.extend((seeds[i], seeds[-1 - i]) for i in range(half))
        else:
            pairs.extend((seeds[2 * i], seeds[2 * i + 1]) for i in range(half))
    return tuple(pairs)


def quarterfinal_draw(
    lineup: Lineup,
    machines: Sequence[str],
    config: EpcStagesConfig,
    pairs: Sequence[tuple[int, int]] | None = None,
) -> Draw:
    """The draw: who partners whom and on which machines (EPC 2009, EPC Quarter-Finals: "Each
    player will play two two-player games with a pre-selected partner on three allocated
    machines"; group B first, then group A "on the same machines in the same way").

    ``machines``: machine ids, at least 3 and at least as many as pairs in a group (8 for 32
    players). ``pairs``: the TD's partners as pairs of seeds, each seed once, both in one group;
    None for ``config.pairing``. Raises SettingsError for a bad machine list or pairs.
    """
    machine_list = tuple(machines)
    per_group = config.group_size // 2
    if len(set(machine_list)) != len(machine_list) or len(machine_list) < max(
        MACHINES_PER_PAIR, per_group
    ):
        raise SettingsError(
            f"The quarter-finals need at least {max(MACHINES_PER_PAIR, per_group)} different "
            f"machines, one per pair in a round; got {', '.join(machine_list) or 'none'}."
        )
    chosen = seeded_pairs(config) if pairs is None else _check_pairs(pairs, config)
    slots = {s.seed: s for s in lineup.slots}
    drawn: list[Pair] = []
    for group in ("B", "A"):
        in_group = [p for p in chosen if config.group(p[0]) == group]
        for k, (a, b) in enumerate(sorted(in_group)):
            drawn.append(
                Pair(
                    group=config.group(a),
                    seeds=(a, b),
                    players=(slots[a].player, slots[b].player),
                    machines=tuple(
                        machine_list[(k + i) % len(machine_list)] for i in range(MACHINES_PER_PAIR)
                    ),
                )
            )
    return Draw(lineup=lineup, machines=machine_list, pairs=tuple(drawn))


def _check_pairs(
    pairs: Sequence[tuple[int, int]], config: EpcStagesConfig
) -> tuple[tuple[int, int], ...]:
    seeds = [seed for pair in pairs for seed in pair]
    expected = list(range(1, config.quarterfinalists + 1))
    if sorted(seeds) != expected or any(len(pair) != 2 for pair in pairs):
        raise SettingsError(
            f"Quarter-final pairs must use each seed 1-{config.quarterfinalists} exactly once, "
            "two to a pair."
        )
    for a, b in pairs:
        if config.group(a) != config.group(b):
            raise SettingsError(
                f"Seeds {a} and {b} are in different quarter-final groups and cannot be partners."
            )
    return tuple((min(a, b), max(a, b)) for a, b in pairs)


@dataclass(frozen=True, slots=True)
class QuarterFinal:
    """Quarter-final results (EPC 2009, EPC Quarter-Finals).

    ``tables``: one per machine, in ``draw.machines`` order (``MachineRow.score`` is the better of
    the player's two games). ``rows``: every quarter-finalist, best first; ``band`` is
    ``"semifinal"`` for a place in the top 8, ``"playoff"`` for players tied across the cut who
    await a play-off, else None. ``unresolved``: tied groups whose order the semi-finals need and
    no play-off has settled (``cut_ties="playoff"``). ``complete``: every player has both games on
    all three machines.
    """

    draw: Draw
    tables: tuple[MachineTable, ...]
    rows: tuple[StandingRow, ...]
    unresolved: tuple[tuple[str, ...], ...] = ()
    complete: bool = False

    @property
    def semifinalists(self) -> tuple[str, ...]:
        """The top 8, best first (EPC 2009, EPC Quarter-Finals). Raises UnresolvedTie while a tie
        that decides the semi-finals awaits its play-off."""
        if self.unresolved:
            tied = "; ".join(", ".join(group) for group in self.unresolved)
            raise UnresolvedTie(
                f"The quarter-final top {SEMIFINALISTS} is not settled: players {tied} are "
                "tied on points; enter the order of their play-off."
            )
        return tuple(r.player for r in self.rows if r.band == "semifinal")


def quarterfinal(
    draw: Draw,
    games: Iterable[Entry],
    config: EpcStagesConfig,
    playoff: Sequence[str] = (),
) -> QuarterFinal:
    """Every quarter-final game -> ``QuarterFinal`` (EPC 2009, EPC Quarter-Finals: "Scores are
    recorded by the marshals after the first game and updated if either player's second game
    scored higher"; "all players' scores will be ranked against other players on the same machine
    and ranking points awarded"; "The top ranked 8 players will move on to the semi-finals. The
    remaining players will be ranked 9th to 32nd according to their ranking points").

    ``games``: one ``Entry`` per game played (any order; applied by ``seq``). ``playoff``: the TD's
    play-off order for tied players (``cut_ties="playoff"``). A quarter-finalist with no game has
    0 points. Raises InvalidScore, UnknownPlayer (not in the quarter-finals), NotAllocated (not one
    of their pair's machines) or MachineAlreadyPlayed (a third game on a machine).
    """
    best: dict[str, dict[str, int]] = {m: {} for m in draw.machines}
    counts: dict[tuple[str, str], int] = {}
    for entry in sorted(games, key=lambda e: e.seq):
        _check_game(draw, counts, entry)
        counts[entry.player, entry.machine] = counts.get((entry.player, entry.machine), 0) + 1
        on = best[entry.machine]
        on[entry.player] = max(entry.score, on.get(entry.player, entry.score))
    tables = tuple(_table(m, best[m], config) for m in draw.machines)
    players = draw.lineup.players
    totals, played = tally(players, tables)
    rows, unresolved = _standings(totals, played, draw.lineup.seeding, config, playoff)
    complete = all(
        counts.get((player, machine)) == GAMES_PER_MACHINE
        for pair in draw.pairs
        for player in pair.players
        if player is not None
        for machine in pair.machines
    )
    return QuarterFinal(draw, tables, rows, unresolved, complete)


def _check_game(draw: Draw, counts: Mapping[tuple[str, str], int], entry: Entry) -> None:
    check_score(entry.score)
    pair = draw.pair_of(entry.player)
    if pair is None:
        raise UnknownPlayer(f"Player {entry.player} is not playing in the quarter-finals.")
    if entry.machine not in pair.machines:
        raise NotAllocated(
            f"Player {entry.player} plays the quarter-finals on machines "
            f"{', '.join(pair.machines)}, not on {entry.machine}."
        )
    if counts.get((entry.player, entry.machine), 0) >= GAMES_PER_MACHINE:
        raise MachineAlreadyPlayed(
            f"Player {entry.player} has already played both quarter-final games on {entry.machine}."
        )


def _table(machine: str, best: Mapping[str, int], config: EpcStagesConfig) -> MachineTable:
    scale = config.points_scale
    return MachineTable(
        machine=machine,
        rows=tuple(
            MachineRow(p, best[p], group.place, Fraction(scale.points(group.place)))
            for group in rank(best, value=best.__getitem__, order=player_key)
            for p in group.items
        ),
    )


def _standings(
    totals: Mapping[str, Fraction],
    played: Mapping[str, int],
    seeding: Seeding,
    config: EpcStagesConfig,
    playoff: Sequence[str],
) -> tuple[tuple[StandingRow, ...], tuple[tuple[str, ...], ...]]:
    # Places 1-8 must be strict (they set the semi-final groups); below, ties follow place_ties.
    rows: list[StandingRow] = []
    unresolved: list[tuple[str, ...]] = []

    def row(player: str, place: int, band: str | None) -> StandingRow:
        return StandingRow(player, place, totals[player], played[player], band)

    for group in rank(totals, value=totals.__getitem__, order=player_key):
        members = list(group.items)
        room = max(0, SEMIFINALISTS - group.place + 1)
        if room and len(members) > 1:
            if config.cut_ties == "qualifying":
                members.sort(key=seeding.position)
            elif all(m in playoff for m in members):
                members = list(order_ties(members, playoff, "on quarter-final points"))
            else:
                unresolved.append(tuple(members))
                band = "semifinal" if group.last_place <= SEMIFINALISTS else "playoff"
                rows.extend(row(m, group.place, band) for m in members)
                continue
        rows.extend(row(m, group.place + i, "semifinal") for i, m in enumerate(members[:room]))
        below = members[room:]
        first = group.place + len(members) - len(below)
        if config.place_ties == "qualifying":
            below.sort(key=seeding.position)
            rows.extend(row(m, first + i, None) for i, m in enumerate(below))
        else:
            rows.extend(row(m, first, None) for m in below)
    return tuple(rows), tuple(unresolved)
