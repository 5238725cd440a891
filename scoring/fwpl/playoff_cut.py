"""Who plays the FWPL playoffs, in which division, with which seed.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. In short:

- 6.1: the cut and the divisions by league size (the table; or the "top half rounded down to a
  multiple of four" formula, ``PlayoffConfig.cut``); entry by total points after the final week;
  "Ties will be settled by single ball play on a random machine" (recorded as tie-break orders);
- 6.2: within each division the players with the most league points qualify; at least 50%;
- 6.6: a player who announces they cannot attend is dropped before the cut, "all lower-seeded
  players advance one spot, and the highest ranked player that did not qualify ... is now
  qualified".

Seeds follow the season table (``SeasonStandings.rows``: points, equal points in ladder order,
FWPL 4.3); only a tie that a division line or the cut runs through needs a play-off.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from scoring.errors import SettingsError
from scoring.fwpl.config import PlayoffConfig
from scoring.fwpl.errors import PlayoffNeeded
from scoring.fwpl.season import SeasonRow
from scoring.ranking import player_key

DIVISION_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""Division names in order (FWPL 6.1: "two divisions (A and B)")."""


@dataclass(frozen=True, slots=True)
class Division:
    """A playoff division (FWPL 6.1): ``name`` ("A", "B", ...) and ``seeds``, player numbers by
    seed, seed 1 first (4, 8 or 12 of them)."""

    name: str
    seeds: tuple[str, ...]


def split_divisions(qualifiers: int) -> tuple[int, ...]:
    """Division sizes, top division first, for ``qualifiers`` (a multiple of 4). FWPL 6.1 as the
    table does it: one division up to 12 (16 -> 8 + 8, 20 -> 8 + 12, 24 -> 12 + 12), as few
    divisions of 8 and 12 as possible, eights first (28 -> 8 + 8 + 12). A lone 4 plays a final.
    Raises SettingsError for a count that is not 0, 4 or a multiple of 4 from 8.
    """
    if qualifiers in (0, 4):
        return (qualifiers,) if qualifiers else ()
    if qualifiers % 4 or qualifiers < 8:
        raise SettingsError(f"{qualifiers} qualifiers cannot form divisions of 8 and 12.")
    divisions = -(-qualifiers // 12)
    twelves = (qualifiers - 8 * divisions) // 4
    return (8,) * (divisions - twelves) + (12,) * twelves


def playoff_sizes(league_size: int, config: PlayoffConfig | None = None) -> tuple[int, ...]:
    """Division sizes for a league of ``league_size`` players. FWPL 6.1: with ``cut="table"``,
    8 up to 16 players (16: ``cut_at_16``), 12 for 17-24, 8 + 8 for 25-32, 8 + 12 for 33-40,
    12 + 12 for 41-48; beyond, 4 more per 8 players (``large_league``); under 8, a final of 4
    (``small_league``). With ``"formula"``, "the top half ... rounded down to the nearest multiple
    of four", split by ``split_divisions``. Raises SettingsError with ``large_league="error"``
    above 48 players.

    >>> playoff_sizes(20), playoff_sizes(20, PlayoffConfig(cut="formula")), playoff_sizes(36)
    ((12,), (8,), (8, 12))
    """
    config = config or PlayoffConfig()
    if config.cut == "formula":
        return split_divisions(league_size // 2 // 4 * 4)
    if league_size < 8:
        final = league_size >= 4 and config.small_league == "final_of_4"
        return (4,) if final else ()
    if league_size > 48 and config.large_league == "error":
        raise SettingsError(
            f"FWPL 6.1 sets divisions for up to 48 players, not {league_size}; "
            "set large_league to extend or set the divisions by hand."
        )
    if league_size <= 16:
        return (12,) if league_size == 16 and config.cut_at_16 == 12 else (8,)
    return split_divisions(4 * -(-league_size // 8))


def _break_line(
    rows: list[SeasonRow], line: int, tiebreaks: Sequence[Sequence[str]]
) -> list[SeasonRow]:
    """Reorder the equal-points run that ``line`` (a count of rows above it) cuts through."""
    if not 0 < line < len(rows) or rows[line - 1].points != rows[line].points:
        return rows
    points = rows[line].points
    tied = [i for i, row in enumerate(rows) if row.points == points]
    players = {rows[i].player for i in tied}
    for order in tiebreaks:
        if players <= set(order):
            ranked = sorted((rows[i] for i in tied), key=lambda r: list(order).index(r.player))
            return rows[: tied[0]] + ranked + rows[tied[-1] + 1 :]
    names = ", ".join(sorted(players, key=player_key))
    raise PlayoffNeeded(
        f"Players {names} have {points} points each across a playoff line (FWPL 6.1); record "
        "the order of their single-ball play-off on a random machine."
    )


def playoff_divisions(
    rows: Sequence[SeasonRow],
    config: PlayoffConfig | None = None,
    withdrawn: Collection[str] = frozenset(),
    tiebreaks: Sequence[Sequence[str]] = (),
) -> tuple[Division, ...]:
    """The playoff divisions from the final season table. FWPL 6.1, 6.2, 6.6.

    ``rows``: ``SeasonStandings.rows``; players without a place (forfeited seasons, wiped, not
    joined) neither count in the league size nor qualify. ``withdrawn``: players who announced
    they cannot attend (6.6), dropped before the cut so everyone below moves up. ``tiebreaks``:
    finishing orders of single-ball play-offs (winner first), each naming every player of one
    equal-points run that a division line or the cut runs through. The league size, which sets
    the divisions, counts every ranked player; ``withdrawn`` only changes who fills the seeds (a
    division is short if nobody is left to move up). Raises PlayoffNeeded for such a run without
    a recorded order; SettingsError per ``playoff_sizes``.
    """
    ranked = [row for row in rows if row.place is not None]
    sizes = playoff_sizes(len(ranked), config)
    pool = [row for row in ranked if row.player not in withdrawn]
    start, lines = 0, []
    for size in sizes:
        start += size
        lines.append(start)
    for line in lines:
        pool = _break_line(pool, line, tiebreaks)
    divisions, start = [], 0
    for name, size in zip(DIVISION_NAMES, sizes, strict=False):
        seeds = tuple(row.player for row in pool[start : start + size])
        divisions.append(Division(name, seeds))
        start += size
    return tuple(divisions)
