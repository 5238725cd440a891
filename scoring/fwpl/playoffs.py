"""FWPL playoff matches and the bracket of one division.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. In short:

- 6.3: PAPA style, 4-2-1-0 points per game, no bonus points; matches of three games; the top two
  of each match advance; points do not carry over. Eight players: semi-finals 1-4-5-8 and
  2-3-6-7, then the final. Twelve: quarter-finals 5-8-9-12 and 6-7-10-11 (1-4 have a bye), then
  semi-finals 1, 4 + the winners of quarter-final 1 and 2, 3 + those of quarter-final 2;
- 6.5: ties in a match are decided by the tied players' head-to-head game
  (``PlayoffConfig.ties``), recorded as ``PlayoffMatch.tiebreaks``, on a random machine
  (``scoring.fwpl.flow.random_machine``); only ties that decide who advances, or a place in the
  final, need one;
- 6.6: a player not present at the match start is disqualified from it; the three left play 4,
  2, 1 and one is eliminated;
- 6.4 and "5.3": machine choice and play order as in league nights (``scoring.fwpl.flow``).

Places below the final four follow ``PlayoffConfig.lower_places``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.errors import SettingsError
from scoring.fwpl.config import PlayoffConfig
from scoring.fwpl.errors import NotInGroup, PlayoffNeeded
from scoring.fwpl.games import Game, final_score, finishing_order, group_entries
from scoring.ranking import player_key, rank

PLAYOFF_GAMES = 3
"""FWPL 6.3: each match consists of three games."""

PAPA_POINTS = (4, 2, 1, 0)
"""FWPL 6.3: "4-2-1-0 points awarded for 1st-4th place finishes"."""

ADVANCE = 2
"""FWPL 6.3: "The top two players of each match will advance"."""


@dataclass(frozen=True, slots=True)
class PlayoffMatch:
    """One playoff match (FWPL 6.3). ``group``: players in seed order; ``games``: up to three;
    ``missing``: players not present at the start, disqualified (6.6); ``tiebreaks``: finishing
    orders of tie-breaker games, winner first, each naming every player of one tie (6.5)."""

    group: tuple[str, ...]
    games: tuple[Game, ...] = ()
    missing: frozenset[str] = frozenset()
    tiebreaks: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class PlayoffRow:
    """One player in a playoff match (FWPL 6.3): total ``points`` of its games, ``place`` (shared
    while a tie does not matter or the match is unfinished), ``advances`` to the next round,
    ``missing`` (6.6, disqualified, placed last)."""

    player: str
    points: int
    place: int
    advances: bool = False
    missing: bool = False


@dataclass(frozen=True, slots=True)
class PlayoffMatchResult:
    """A scored playoff match, best first; ``complete`` once all three games are in. FWPL 6.3."""

    rows: tuple[PlayoffRow, ...]
    complete: bool


@dataclass(frozen=True, slots=True)
class DivisionResult:
    """A division's bracket so far (FWPL 6.3). ``places``: (player, place) decided so far, best
    first; ``next_groups``: the matches to play (or finish) next, players in seed order, empty
    when done; ``round``: ``"quarterfinal"``, ``"semifinal"``, ``"final"`` or ``"done"``."""

    places: tuple[tuple[str, int], ...]
    next_groups: tuple[tuple[str, ...], ...]
    round: str


def papa_points(players: int) -> tuple[int, ...]:
    """Points by place for a game of ``players`` eligible scores: 4, 2, 1, 0 (FWPL 6.3); three
    players 4, 2, 1 (FWPL 6.6). Raises ValueError for more than four."""
    if players > len(PAPA_POINTS):
        raise ValueError(f"a playoff game has at most four players, not {players}")
    return PAPA_POINTS[:players]


def _game_orders(match: PlayoffMatch) -> list[tuple[str, ...]]:
    present = [p for p in match.group if p not in match.missing]
    orders = []
    for game in match.games:
        for entry in game.scores:
            if entry.player in match.missing:
                raise NotInGroup(
                    f"Player {entry.player} was not present at the start of the match and is "
                    "disqualified from it (FWPL 6.6)."
                )
        finals = {p: final_score(e) for p, e in group_entries(game, present).items()}
        scores = {p: s for p, s in finals.items() if s is not None}
        orders.append(finishing_order(scores, game.playoff))
    return orders


def _matters(place: int, size: int, advance: int | None) -> bool:
    if advance is None:  # the final: every place counts
        return size > 1
    return place <= advance < place + size - 1


def _extra_game(tied: list[str], match: PlayoffMatch) -> list[list[str]]:
    for order in match.tiebreaks:
        if set(tied) <= set(order):
            return [[p] for p in sorted(tied, key=list(order).index)]
    names = ", ".join(sorted(tied, key=player_key))
    raise PlayoffNeeded(
        f"Players {names} are tied in this playoff match (FWPL 6.5); record the order of their "
        "tie-breaker game on a random machine."
    )


def _beats(order: tuple[str, ...], p: str, q: str) -> bool:
    return p in order and (q not in order or order.index(p) < order.index(q))


def _break_tie(
    tied: list[str],
    place: int,
    match: PlayoffMatch,
    advance: int | None,
    config: PlayoffConfig,
) -> list[list[str]]:
    if config.ties == "extra_game":
        return _extra_game(tied, match)
    orders = _game_orders(match)
    # Countback: how often each tied player finished ahead of the others in the match (6.5).
    wins = {p: sum(_beats(o, p, q) for o in orders for q in tied) for p in tied}
    blocks: list[list[str]] = []
    for group in rank(tied, value=wins.__getitem__, order=lambda p: (match.group.index(p),)):
        part = list(group.items)
        at = place + sum(map(len, blocks))
        blocks.extend(_extra_game(part, match) if _matters(at, len(part), advance) else [part])
    return blocks


def playoff_match(
    match: PlayoffMatch, advance: int | None = ADVANCE, config: PlayoffConfig | None = None
) -> PlayoffMatchResult:
    """Score a playoff match. FWPL 6.3 (4-2-1-0 per game among eligible scores, summed), 6.5 (ties
    that decide who of the top ``advance`` goes through, or, with ``advance`` None for the final,
    any place, broken per ``config.ties``), 6.6 (``missing`` players get no points and the last
    place). Raises NotInGroup (a score from outside the group, or from a missing player),
    PlayoffNeeded (equal scores in a game without a one-ball play-off, or a tie that matters
    without a tie-breaker once the three games are in), InvalidScore.
    """
    config = config or PlayoffConfig()
    orders = _game_orders(match)
    present = [p for p in match.group if p not in match.missing]
    points = dict.fromkeys(present, 0)
    for order in orders:
        for player, won in zip(order, papa_points(len(order)), strict=True):
            points[player] += won
    complete = len(orders) >= PLAYOFF_GAMES
    blocks: list[list[str]] = []
    for group in rank(present, value=points.__getitem__, order=lambda p: (match.group.index(p),)):
        tied, at = list(group.items), group.place
        settle = complete and _matters(at, len(tied), advance)
        blocks.extend(_break_tie(tied, at, match, advance, config) if settle else [tied])
    rows: list[PlayoffRow] = []
    for block in blocks:
        place = len(rows) + 1
        through = complete and advance is not None and place + len(block) - 1 <= advance
        rows.extend(PlayoffRow(p, points[p], place, through) for p in block)
    last = len(present) + 1
    rows.extend(PlayoffRow(p, 0, last, missing=True) for p in match.group if p in match.missing)
    return PlayoffMatchResult(tuple(rows), complete)


def first_groups(seeds: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The first round's groups by seed (FWPL 6.3): 4 players, the final; 8, the semi-finals
    1-4-5-8 and 2-3-6-7; 12, the quarter-finals 5-8-9-12 and 6-7-10-11 (1-4 have a bye).
    Raises SettingsError for another number of players.

    >>> first_groups([str(s) for s in range(1, 9)])
    (('1', '4', '5', '8'), ('2', '3', '6', '7'))
    """
    pattern = {
        4: ((1, 2, 3, 4),),
        8: ((1, 4, 5, 8), (2, 3, 6, 7)),
        12: ((5, 8, 9, 12), (6, 7, 10, 11)),
    }
    if len(seeds) not in pattern:
        raise SettingsError(f"FWPL 6.3 has brackets for 4, 8 and 12 players, not {len(seeds)}.")
    return tuple(tuple(seeds[s - 1] for s in group) for group in pattern[len(seeds)])


def next_groups(
    seeds: Sequence[str], advancers: Sequence[Sequence[str]], after: str
) -> tuple[tuple[str, ...], ...]:
    """The next round's groups, players in seed order, from the ``advancers`` of each match of
    round ``after`` (in bracket order). FWPL 6.3: after the quarter-finals, "Players 1 and 4
    will play the winners of group 1; players 2 and 3 will play the winners of Group 2"; after
    the semi-finals the advancers meet in the final. Raises nothing.

    >>> next_groups([str(s) for s in range(1, 13)], [["9", "5"], ["6", "11"]], "quarterfinal")
    (('1', '4', '5', '9'), ('2', '3', '6', '11'))
    """
    by_seed = {p: i for i, p in enumerate(seeds)}
    if after == "quarterfinal":
        groups = [(seeds[0], seeds[3], *advancers[0]), (seeds[1], seeds[2], *advancers[1])]
    else:
        groups = [tuple(p for group in advancers for p in group)]
    return tuple(tuple(sorted(group, key=by_seed.__getitem__)) for group in groups)


def _lower_places(
    results: Sequence[PlayoffMatchResult], base: int, seeds: Sequence[str], config: PlayoffConfig
) -> list[tuple[str, int]]:
    out = [row for result in results for row in result.rows if not row.advances]
    out.sort(key=lambda row: seeds.index(row.player))
    if config.lower_places == "shared":
        return [(row.player, base) for row in out]
    points = {row.player: row.points for row in out}
    groups = rank(points, value=points.__getitem__)
    return [(p, base + g.place - 1) for g in groups for p in g.items]


def division_result(
    seeds: Sequence[str], played: Sequence[PlayoffMatch], config: PlayoffConfig | None = None
) -> DivisionResult:
    """Walk a division's bracket (FWPL 6.3-6.6). ``seeds``: 4, 8 or 12 players, seed 1 first
    (``Division.seeds``); ``played``: the matches played so far, each found by its players.
    Returns the places decided (final 1-4 from the final; players knocked out earlier per
    ``config.lower_places``) and the groups to play next. Raises NotInGroup for a played match
    that is not in the bracket (known only once the bracket is complete: until then a match of
    other players may be a later round's), SettingsError (``first_groups``), and what
    ``playoff_match`` raises.
    """
    config = config or PlayoffConfig()
    by_group: Mapping[frozenset[str], PlayoffMatch] = {frozenset(m.group): m for m in played}
    groups = first_groups(seeds)
    places: list[tuple[str, int]] = []
    used: set[frozenset[str]] = set()
    rounds = {4: ("final",), 8: ("semifinal", "final"), 12: ("quarterfinal", "semifinal", "final")}
    for name in rounds[len(seeds)]:
        final = name == "final"
        results = [
            playoff_match(by_group[frozenset(g)], None if final else ADVANCE, config)
            for g in groups
            if frozenset(g) in by_group
        ]
        used.update(frozenset(g) for g in groups)
        if len(results) < len(groups) or not all(r.complete for r in results):
            return DivisionResult(tuple(places), _open(groups, by_group), name)
        if final:
            places[:0] = [(row.player, row.place) for row in results[0].rows]
            break
        advancers = [[row.player for row in r.rows if row.advances] for r in results]
        groups = next_groups(seeds, advancers, name)
        still_in = sum(map(len, groups))  # advancers and, after quarter-finals, the byes
        places[:0] = _lower_places(results, still_in + 1, seeds, config)
    stray = [m.group for m in played if frozenset(m.group) not in used]
    if stray:
        raise NotInGroup(f"Match {', '.join(stray[0])} is not in this division's bracket.")
    return DivisionResult(tuple(places), (), "done")


def _open(
    groups: Sequence[tuple[str, ...]], by_group: Mapping[frozenset[str], PlayoffMatch]
) -> tuple[tuple[str, ...], ...]:
    return tuple(
        g
        for g in groups
        if frozenset(g) not in by_group or len(by_group[frozenset(g)].games) < PLAYOFF_GAMES
    )
