"""EPC 2009 qualifying: best game on six machines, one joker game, ranking points per machine.

Rule text: EPC 2009 rules, section "EPC Qualifying". In short:

- a player plays one game on each of up to six machines; each counting score is ranked against
  every other score on that machine; the top score gets 100 ranking points, lower places fewer
  (the scale is a setting, ``scoring.scales``); unplayed machines score 0;
- one joker game replays one of the player's machines; it replaces the earlier score only if
  higher (a second entry by a player on a machine *is* their joker game);
- the total is the sum of the player's ranking points; the top 32 qualify, 33-38 are standby.

Choices the text leaves open (docs/rules.md, "EPC 2009", Qualifying), each a field of
``EpcConfig``:

- the scale below 100: ``scale``, default ``"papa"`` (100, 90, 85, 84, ... 1 at 87th; see
  ``scoring.scales`` for the sources);
- equal scores on a machine share the place *and* its points: both get the points of the better
  place they share (tie policy "high"); the text ranks scores, and equal scores hold equal rank;
- equal totals at the cut (32nd/33rd) and at the standby line (38th/39th): ``cut_ties``.
  ``"include"`` (default): tied players share the better place (e.g. 32nd), and a band is decided
  by that shared place, so all of them qualify and the field may exceed 32; the TD can still hold a
  playoff. ``"exclude"``: a tie that would not fit wholly inside a band drops, whole, to the next
  band, so never more than ``qualify`` players qualify.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, get_args

from scoring.cut_tie import CutTie, settle_cut
from scoring.errors import JokerAlreadyUsed, MachineAlreadyPlayed, TooManyMachines
from scoring.model import Entry, MachineRow, MachineTable, Player, StandingRow, Standings
from scoring.ranking import player_key, rank, tally
from scoring.restand import restand
from scoring.scales import (
    PRESETS,
    SCALE_CHOICES,
    ZERO,
    Scale,
    get_scale,
    scale_setting,
    whole_points,
)
from scoring.settings import Choice, check_known, choice, described, whole_number
from scoring.tournament import Tournament, played_index

CutTies = Literal["include", "exclude"]
BANDS = ("qualified", "standby", "out")


@dataclass(frozen=True, slots=True)
class EpcConfig:
    """Settings of EPC qualifying (EPC 2009, EPC Qualifying). Raises SettingsError when invalid.

    ``scale``: preset name (``scoring.scales.PRESETS``) or custom points for places 1..n; default
    ``"papa"``. ``machines_per_player``: distinct machines a player may play, default 6.
    ``jokers_per_player``: joker games per player (0 disables them; each on a different machine),
    default 1. ``qualify``: players who go through, default 32. ``standby``: places after them on
    standby, default 6. ``cut_ties``: ``"include"`` | ``"exclude"``, how a tie on the qualify or
    standby line is banded (module docstring), default ``"include"``.
    """

    scale: str | tuple[int, ...] = "papa"
    machines_per_player: int = 6
    jokers_per_player: int = 1
    qualify: int = 32
    standby: int = 6
    cut_ties: CutTies = "include"

    def __post_init__(self) -> None:
        resolved = get_scale(self.scale)
        setting = scale_setting(resolved)
        object.__setattr__(self, "scale", setting if isinstance(setting, str) else tuple(setting))
        machines = whole_number("machines_per_player", self.machines_per_player, 1, 1000)
        object.__setattr__(self, "machines_per_player", machines)
        jokers = whole_number("jokers_per_player", self.jokers_per_player, 0, machines)
        object.__setattr__(self, "jokers_per_player", jokers)
        object.__setattr__(self, "qualify", whole_number("qualify", self.qualify, 0, 100_000))
        object.__setattr__(self, "standby", whole_number("standby", self.standby, 0, 100_000))
        object.__setattr__(self, "cut_ties", choice("cut_ties", self.cut_ties, get_args(CutTies)))

    @property
    def points_scale(self) -> Scale:
        """The ``Scale`` object that ``scale`` names. EPC 2009, EPC Qualifying."""
        return PRESETS[self.scale] if isinstance(self.scale, str) else Scale("custom", self.scale)


def cut_band(place: int, last_place: int, config: EpcConfig) -> str:
    """Band of a group of players tied at ``place`` covering places ``place .. last_place``
    (equal for an untied player): ``"qualified"`` for the top ``qualify``, ``"standby"`` for the
    next ``standby``, else ``"out"``. EPC 2009, EPC Qualifying ("The 32 highest ranked players
    then progress"; "Players ranked 33 - 38 ... stand-by"). With ``cut_ties="include"`` the shared
    place decides; with ``"exclude"`` the worst covered place does.
    """
    edge = place if config.cut_ties == "include" else last_place
    if edge <= config.qualify:
        return "qualified"
    if edge <= config.qualify + config.standby:
        return "standby"
    return "out"


class EpcQualifying:
    """The EPC qualifying format (EPC 2009, EPC Qualifying); the ``Format`` registered as
    ``"epc-qualifying"`` in ``scoring.FORMATS``. Stateless; every method is pure."""

    __slots__ = ()

    def __reduce__(self) -> str:
        """Pickled as the module's ``EPC_QUALIFYING``: a snapshot's state unpickles to the one format
        object, which views compare by identity (EPC 2009, EPC Qualifying)."""
        return "EPC_QUALIFYING"

    name: str = "epc-qualifying"
    title: str = "EPC qualifying"
    checks_entries_only: bool = True
    """``check_entry`` reads only who played which machine when, never a table or the standings
    (EPC 2009, EPC Qualifying), so a replay may record entries first and rank them once
    (``scoring.tournament.deferring``)."""

    def parse_settings(self, settings: Mapping[str, Any]) -> EpcConfig:
        """Settings mapping (JSON values, or text from the CLI) -> ``EpcConfig``; missing keys take
        the defaults. Raises SettingsError for an unknown key or a bad value.
        EPC 2009, EPC Qualifying."""
        check_known(self.title, settings, EpcConfig.__dataclass_fields__)
        return EpcConfig(**settings)

    def settings_dict(self, config: EpcConfig) -> dict[str, Any]:
        """``EpcConfig`` -> JSON-safe settings; round-trips through ``parse_settings``.
        EPC 2009, EPC Qualifying."""
        return {
            "scale": config.scale if isinstance(config.scale, str) else list(config.scale),
            "machines_per_player": config.machines_per_player,
            "jokers_per_player": config.jokers_per_player,
            "qualify": config.qualify,
            "standby": config.standby,
            "cut_ties": config.cut_ties,
        }

    def check_entry(self, config: EpcConfig, tournament: Tournament, entry: Entry) -> None:
        """Raise if the rules forbid ``entry`` now (EPC 2009, EPC Qualifying: "Each of the six
        machines may only be played once per contestant (with the exception of the Joker Game)";
        "Each player may only play one Joker Game").

        A first score on a machine is a regular game: TooManyMachines if the player already has
        ``machines_per_player`` machines. A second score on a machine is the joker game:
        MachineAlreadyPlayed if jokers are off or the joker was already played on this machine;
        JokerAlreadyUsed if the player's jokers went on other machines.
        """
        counts = _machines_played(tournament, entry.player)
        who, machines = f"Player {entry.player}", tournament.machines
        here = machines[entry.machine].name
        if entry.machine not in counts:
            if len(counts) >= config.machines_per_player:
                names = ", ".join(machines[m].name for m in counts)
                raise TooManyMachines(
                    f"{who} has already played {len(counts)} machines ({names}), the most "
                    f"allowed, so cannot play {here} as well."
                )
            return
        if config.jokers_per_player == 0:
            raise MachineAlreadyPlayed(
                f"{who} has already played {here}, and this tournament has no joker games."
            )
        if counts[entry.machine] > 1:
            raise MachineAlreadyPlayed(
                f"{who} has already played {here} and used their joker game on it."
            )
        jokers = [machines[m].name for m, n in counts.items() if n > 1]
        if len(jokers) >= config.jokers_per_player:
            used = (
                f"their joker game on {jokers[0]}"
                if len(jokers) == 1
                else f"all {len(jokers)} of their joker games (on {', '.join(jokers)})"
            )
            raise JokerAlreadyUsed(f"{who} has already played {here} and used {used}.")

    def rank_machine(
        self, config: EpcConfig, players: Mapping[str, Player], entries: tuple[Entry, ...]
    ) -> MachineTable:
        """Every entry on one machine, in the order played -> its ranked table (EPC 2009, EPC
        Qualifying). Each player's counting score is their best (a joker game counts only if
        higher); ``joker`` marks a player who used their joker here. Places are 1, 2, 2, 4; tied
        scores both get the points of the place they share. ``players`` is not needed here.
        """
        best: dict[str, int] = {}
        games: dict[str, int] = {}
        for entry in entries:
            best[entry.player] = max(entry.score, best.get(entry.player, entry.score))
            games[entry.player] = games.get(entry.player, 0) + 1
        scale = config.points_scale
        # Best score first; equal scores in player-number order (a stable sort keeps it).
        order = sorted(best, key=player_key)
        order.sort(key=best.__getitem__, reverse=True)
        rows: list[MachineRow] = []
        place, last, points = 0, -1, ZERO
        for at, player in enumerate(order, start=1):
            score = best[player]
            if score != last:  # a new place; tied scores share the better one and its points
                place, last, points = at, score, whole_points(scale.points(at))
            rows.append(MachineRow(player, score, place, points, 0, games[player] > 1))
        return MachineTable(machine=entries[0].machine if entries else "", rows=tuple(rows))

    def standings(
        self,
        config: EpcConfig,
        players: Mapping[str, Player],
        tables: Mapping[str, MachineTable],
    ) -> Standings:
        """Machine tables -> overall standings of every registered player (EPC 2009, EPC
        Qualifying: "A contestant's qualifying score is the sum of all their ranking points";
        "Any unplayed games will score zero"). ``total`` is the ranking points; places 1, 2, 2, 4
        by total; ``band`` per ``cut_band``; ``played`` counts machines with a score. A player
        with no scores has total 0 and shares the last place.
        """
        totals, played = tally(players, tables.values())
        rows = tuple(
            StandingRow(
                player=player,
                place=group.place,
                total=totals[player],
                played=played[player],
                band=cut_band(group.place, group.last_place, config),
            )
            for group in rank(totals, value=totals.__getitem__, order=player_key)
            for player in group.items
        )
        return Standings(rows=rows)

    def restand(
        self,
        config: EpcConfig,
        players: Mapping[str, Player],
        standings: Standings,
        updates: Mapping[str, tuple[Fraction, int]],
    ) -> Standings:
        """``standings`` with the players of ``updates`` (player -> (total, played), from
        ``scoring.restand.machine_updates`` or a new player at (0, 0)) moved and re-placed, equal
        to ``standings`` of the changed tables (EPC 2009, EPC Qualifying: "Contestants are then
        ordered according to their total ranking points"; bands per ``cut_band``). Every
        registered player is ranked, so ``players`` is not read."""
        return restand(standings, updates, lambda place, last: cut_band(place, last, config))


def _machines_played(tournament: Tournament, player: str) -> dict[str, int]:
    """Machine id -> number of games ``player`` has recorded there, in the order first played."""
    index = played_index(tournament)
    if index is not None:
        mine = index.get(player, {})
        return {m: mine[m][1] for m in sorted(mine, key=lambda m: mine[m][0])}
    firsts: list[tuple[int, str]] = []
    counts: dict[str, int] = {}
    for machine, entries in tournament.entries.items():
        for entry in entries:
            if entry.player == player:
                if machine not in counts:
                    firsts.append((entry.seq, machine))
                counts[machine] = counts.get(machine, 0) + 1
    return {machine: counts[machine] for _, machine in sorted(firsts)}


def cut_standings(
    config: EpcConfig, standings: Standings, order: Sequence[str] = ()
) -> tuple[Standings, CutTie | None]:
    """The standings as the board shows them, and the tie at the cut that awaits a play-off (or
    None). EPC 2009, EPC Qualifying: "The 32 highest ranked players then progress", so with
    ``cut_ties="include"`` a tie the qualify line runs through (three players 31st= for two
    places) is not three qualifiers: until the TD's play-off ``order`` (the main tournament's
    ``playoffs["qualifying"]``) ranks them all, each is band ``"tie"``
    (``scoring.cut_tie.settle_cut``); then the first of them take the places left and the rest
    the band of the place after the line. With ``"exclude"`` the tie has already dropped whole.
    """
    if config.cut_ties != "include":
        return standings, None
    outside = cut_band(config.qualify + 1, config.qualify + 1, config)
    return settle_cut(standings, config.qualify, order, "qualified", outside)


EPC_QUALIFYING = EpcQualifying()
"""The EPC 2009 qualifying format (stateless)."""


CHOICES: Mapping[str, tuple[Choice, ...]] = MappingProxyType(
    {
        "scale": SCALE_CHOICES,
        "cut_ties": described(
            CutTies,
            {
                "include": "players tied at the cut share the better place and all go through",
                "exclude": "a tie that does not fit inside the cut drops whole below it",
            },
        ),
    }
)
"""The settings of ``EpcConfig`` that take one of a fixed set, with each value's meaning (EPC 2009,
EPC Qualifying; the module docstring gives the readings)."""
