"""One UK Pinball League meeting: machine points, the bonus point, meeting positions, league points.

Rule text: UKPL rules (UK Pinball League regional rules), sections 1C, 3B, 3C, 3D, 3F. In short:

- 3B: on each machine the best score gets as many machine points as there are competitors, the
  next one fewer, down to 1; one bonus machine point to a score "more than double" the second
  placed score; the meeting total is the sum of a player's machine points;
- 1C/3C: players from another region ("guests") may play for fun but get no league points;
- 3D: league points 20 for the best placed player, one fewer per place, for the top 20;
- 3F: ties at a meeting share the points.

Choices the text leaves open (docs/rules.md, "UK Pinball League"), each a field of ``UkplConfig``:

- N, the top machine points, is the number of non-guest players *with a score on that machine*
  (what the published results show; tests/cases/README.md);
- equal scores on a machine: ``ties`` = ``"high"`` (both get the better place's points; the 2025
  season), ``"low"`` (the worse place's; the 2023 season) or ``"shared"`` (the average); default
  ``"high"``, the league's current practice;
- the bonus: ``bonus`` = ``"gt"`` (more than double, the rules' text, default) or ``"gte"`` (at
  least double, the league's website). Only a sole top scorer can earn it, and only when there is a
  second placed non-guest score to compare with;
- guests are left out of the machine ranking itself, not only of league points: they do not count
  in N, take no place and no points (place and points None), and are shown after the ranked rows;
- a blank cell is no entry (the player did not play that machine), not a zero: it counts nowhere.
  A zero score is entered as 0;
- a non-guest player with no score on any machine: ``no_score`` = ``"unranked"`` (default: shown
  with place None and no league points; they did not compete at this meeting, and 3D gives league
  points to placed players) or ``"ranked"`` (placed with a total of 0);
- league points of tied players are always shared as the average (3F "points will be shared"),
  kept exact; ``scoring.rounding`` rounds them half up to 2 decimals as the league publishes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Literal, get_args

from scoring.errors import MachineAlreadyPlayed
from scoring.model import Entry, MachineRow, MachineTable, Player, StandingRow, Standings
from scoring.ranking import TiePolicy, player_key, rank, tally, tied_points
from scoring.restand import restand
from scoring.settings import Choice, check_known, choice, described
from scoring.tournament import Tournament

BonusRule = Literal["gt", "gte"]
NoScore = Literal["unranked", "ranked"]

LEAGUE_POINTS_TOP = 20
"""UKPL 3D: league points of the best placed player; one fewer per place, 0 below 20th."""


@dataclass(frozen=True, slots=True)
class UkplConfig:
    """Settings of a UKPL meeting (UKPL 3B, 3C, 3D, 3F). Raises SettingsError when invalid.

    ``ties``: ``"high"`` | ``"low"`` | ``"shared"``, machine points of equal scores on a machine
    (UKPL 3B; 2025 used high, 2023 low), default ``"high"``. ``bonus``: ``"gt"`` | ``"gte"``, the
    bonus point needs more than / at least double the second placed score (UKPL 3B), default
    ``"gt"``. ``no_score``: ``"unranked"`` | ``"ranked"``, a non-guest with no score at all (module
    docstring), default ``"unranked"``.
    """

    ties: TiePolicy = "high"
    bonus: BonusRule = "gt"
    no_score: NoScore = "unranked"

    def __post_init__(self) -> None:
        object.__setattr__(self, "ties", choice("ties", self.ties, get_args(TiePolicy)))
        object.__setattr__(self, "bonus", choice("bonus", self.bonus, get_args(BonusRule)))
        object.__setattr__(self, "no_score", choice("no_score", self.no_score, get_args(NoScore)))


@lru_cache(maxsize=1 << 16)  # pure, and asked again for every row each push moves
def machine_points(place: int, size: int, competitors: int, ties: TiePolicy) -> Fraction:
    """Machine points for each of ``size`` equal scores sharing ``place`` (1-based) on a machine
    with ``competitors`` ranked (non-guest) scores: untied place p gets ``competitors - p + 1``
    (N down to 1), a tie per ``ties``. UKPL 3B. Raises ValueError for a bad tie policy.

    >>> machine_points(2, 2, 5, "high"), machine_points(2, 2, 5, "low")
    (Fraction(4, 1), Fraction(3, 1))
    """
    return tied_points(place, size, lambda p: competitors - p + 1, ties)


def earns_bonus(top: int, second: int | None, rule: BonusRule) -> bool:
    """Whether a sole top score ``top`` earns the bonus machine point over the second placed
    non-guest score ``second`` (None: nobody to compare with, no bonus). UKPL 3B: "more than
    double" (``"gt"``) or, as the league's website has it, at least double (``"gte"``).
    """
    if second is None:
        return False
    return top > 2 * second if rule == "gt" else top >= 2 * second


@lru_cache(maxsize=1 << 16)  # pure, and asked again for every tie group each push moves
def league_points(place: int, size: int) -> Fraction:
    """League points for each of ``size`` players tied at meeting ``place``: 20 for 1st, one fewer
    per place, 0 below 20th, tied players sharing the average of the places they cover, exact.
    UKPL 3D and 3F. E.g. two tied 4th: (17 + 16) / 2 = 16.5; three tied 20th: (1 + 0 + 0) / 3.
    """
    return tied_points(place, size, lambda p: max(0, LEAGUE_POINTS_TOP + 1 - p), "shared")


class UkplMeeting:
    """The UKPL meeting format (UKPL 3B-3F); the ``Format`` registered as ``"ukpl-meeting"`` in
    ``scoring.FORMATS``. Stateless; every method is pure."""

    __slots__ = ()

    def __reduce__(self) -> str:
        """Pickled as the module's ``UKPL_MEETING``: a snapshot's state unpickles to the one format
        object, which views compare by identity (UKPL 3)."""
        return "UKPL_MEETING"

    name: str = "ukpl-meeting"
    title: str = "UKPL meeting"
    checks_entries_only: bool = True
    """``check_entry`` reads only who played which machine (UKPL 3A, 3B: one game per player per
    machine), never a table or the standings, so a replay may record entries first and rank them
    once (``scoring.tournament.deferring``)."""

    def parse_settings(self, settings: Mapping[str, Any]) -> UkplConfig:
        """Settings mapping (JSON values, or text from the CLI) -> ``UkplConfig``; missing keys
        take the defaults. Raises SettingsError for an unknown key or a bad value. UKPL 3B."""
        check_known(self.title, settings, UkplConfig.__dataclass_fields__)
        return UkplConfig(**settings)

    def settings_dict(self, config: UkplConfig) -> dict[str, Any]:
        """``UkplConfig`` -> JSON-safe settings; round-trips through ``parse_settings``. UKPL 3B."""
        return {"ties": config.ties, "bonus": config.bonus, "no_score": config.no_score}

    def check_entry(self, config: UkplConfig, tournament: Tournament, entry: Entry) -> None:
        """Raise MachineAlreadyPlayed for a second score by a player on one machine: a meeting
        counts one game per player per machine (UKPL 3A, 3B). A wrong score is corrected, not
        played again."""
        for earlier in tournament.entries[entry.machine]:
            if earlier.player == entry.player:
                machine = tournament.machines[entry.machine].name
                raise MachineAlreadyPlayed(
                    f"Player {entry.player} already has a score on {machine} "
                    f"({earlier.score:,}); a meeting counts one game per machine."
                )

    def rank_machine(
        self, config: UkplConfig, players: Mapping[str, Player], entries: tuple[Entry, ...]
    ) -> MachineTable:
        """Every entry on one machine -> its ranked table (UKPL 3B, 3C). Non-guest scores are
        ranked 1, 2, 2, 4 and get machine points N down to 1 (N = non-guest players with a score
        here), ties per ``config.ties``; the sole top score gets ``bonus`` 1 (included in
        ``points``) per ``earns_bonus``. Guest rows follow, best score first, with place and
        points None. A player missing from ``players`` is treated as a non-guest.
        """
        scores = {entry.player: entry.score for entry in entries}
        guests = {p for p in scores if p in players and players[p].guest}
        ranked = [p for p in scores if p not in guests]
        groups = rank(ranked, value=scores.__getitem__, order=player_key)
        bonus_to = None
        if groups and groups[0].size == 1:
            second = scores[groups[1].items[0]] if len(groups) > 1 else None
            if earns_bonus(scores[groups[0].items[0]], second, config.bonus):
                bonus_to = groups[0].items[0]
        rows: list[MachineRow] = []
        for group in groups:
            points = machine_points(group.place, group.size, len(ranked), config.ties)
            for player in group.items:
                bonus = int(player == bonus_to)
                rows.append(MachineRow(player, scores[player], group.place, points + bonus, bonus))
        for group in rank(guests, value=scores.__getitem__, order=player_key):
            rows.extend(MachineRow(p, scores[p], None, None) for p in group.items)
        return MachineTable(machine=entries[0].machine if entries else "", rows=tuple(rows))

    def standings(
        self,
        config: UkplConfig,
        players: Mapping[str, Player],
        tables: Mapping[str, MachineTable],
    ) -> Standings:
        """Machine tables -> meeting standings of every registered player (UKPL 3B, 3C, 3D, 3F).

        ``total`` is the meeting total (sum of machine points, bonus included); positions 1, 2, 2,
        4 by total; ``league_points`` per ``league_points`` (exact Fraction; round for display with
        ``scoring.rounding``). Guests, and with ``no_score="unranked"`` non-guests without a score,
        come last with place and league points None and total 0. ``played`` counts machines with
        a score.
        """
        totals, played = tally(players, tables.values())
        ranked = [
            p
            for p, player in players.items()
            if not player.guest and (played[p] or config.no_score == "ranked")
        ]
        rows = [
            StandingRow(
                player=p,
                place=group.place,
                total=totals[p],
                played=played[p],
                league_points=league_points(group.place, group.size),
            )
            for group in rank(ranked, value=totals.__getitem__, order=player_key)
            for p in group.items
        ]
        unranked = sorted(set(players) - set(ranked), key=player_key)
        rows.extend(StandingRow(p, None, Fraction(0), played[p]) for p in unranked)
        return Standings(rows=tuple(rows))

    def restand(
        self,
        config: UkplConfig,
        players: Mapping[str, Player],
        standings: Standings,
        updates: Mapping[str, tuple[Fraction, int]],
    ) -> Standings:
        """``standings`` with the players of ``updates`` (player -> (total, played), from
        ``scoring.restand.machine_updates`` or a new player at (0, 0)) moved and placed again,
        equal to ``standings`` of the changed tables (UKPL 3B: the meeting total; 3C: guests,
        and with ``no_score="unranked"`` players without a score, come last unplaced; 3D, 3F:
        league points per place, shared by ties)."""

        def ranked(player: str, played: int) -> bool:
            registered = players.get(player)
            guest = registered is not None and registered.guest
            return not guest and (played > 0 or config.no_score == "ranked")

        return restand(
            standings,
            updates,
            lambda place, last: None,
            ranked,
            lambda place, last: league_points(place, last - place + 1),
        )


UKPL_MEETING = UkplMeeting()
"""The UKPL meeting format (stateless)."""


CHOICES: Mapping[str, tuple[Choice, ...]] = MappingProxyType(
    {
        "ties": described(
            TiePolicy,
            {
                "high": "equal scores both get the higher machine points",
                "low": "equal scores both get the lower machine points",
                "shared": "equal scores share the points of their places",
            },
        ),
        "bonus": described(
            BonusRule,
            {
                "gt": "bonus point for more than double the second score",
                "gte": "bonus point for at least double the second score",
            },
        ),
        "no_score": described(
            NoScore,
            {
                "unranked": "a player with no score gets no place or league points",
                "ranked": "a player with no score is placed with a total of 0",
            },
        ),
    }
)
"""The settings of ``UkplConfig`` that take one of a fixed set, with each value's meaning (UKPL 3B,
3D; the class docstring gives the readings)."""
