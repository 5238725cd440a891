"""The EPC 2009 Classic Tournament: a best-score table per machine, one qualifier per machine, two
four-player semi-finals and a four-player final.

Rule text: EPC 2009 rules, "EPC CLASSIC TOURNAMENT". In short:

- eight pre-DMD machines; any number of paid games on any machine; on each machine a player's
  best score counts; qualifying "ends at 3pm promptly": ``ClassicConfig.closed_after``, an input
  the TD sets (never read from a clock), after which scores are refused;
- at the close the top score on each machine qualifies its player; a player top on more than one
  machine keeps the one where they are furthest ahead of the second best, and each other machine
  goes to its next best scorer; a player still in the EPC (its 8 semi-finalists,
  ``ClassicConfig.epc_players``) cannot take a place: it goes to the next best scorer not in it;
- a machine that cannot be repaired closes with its scores standing if 10 or more players' scores
  are recorded; with fewer it may be replaced, its scores wiped and those players given a free
  game on the replacement (``machine_fault``, ``after_fault``);
- the qualifiers from machines 1-4 play a semi-final on one of machines 5-8, those from 5-8 on
  one of 1-4; the top two of each play the final.

Choices the text leaves open (docs/rules.md, "EPC 2009", Classic), each a field of
``ClassicConfig`` (its docstring gives the reasons): ``lead`` ("how far ahead": difference or
ratio), ``already_qualified`` (a player who inherits a machine while already top on another),
``fault_count`` ("10 or more players' scores": distinct players or recorded scores).
Fixed here, as nothing in the text suggests otherwise:

- equal scores share a place in a machine's table; for the qualifying place the score recorded
  first ranks first, as a machine's own high-score table keeps the earlier of two equal scores;
- a player equally far ahead on two machines keeps the earlier one in machine order;
- EPC players are left out before the places are given, so leads are measured against players
  who can take the place ("the next highest scorer not still playing in the EPC");
- equal scores in a semi-final or the final go to a play-off between the tied players: the
  Classic has no seeding to fall back on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, get_args

from scoring.epc.errors import MachineClosed
from scoring.epc.finals import Game, GameResult
from scoring.epc.kids import check_open, closing, high_score_table, in_play
from scoring.errors import SettingsError
from scoring.model import Entry, MachineTable, Player, StandingRow, Standings
from scoring.ranking import player_key
from scoring.settings import Choice, check_known, choice, described, whole_number
from scoring.tournament import Tournament

Lead = Literal["difference", "ratio"]
AlreadyQualified = Literal["pass-on", "choose"]
FaultCount = Literal["players", "scores"]
FaultAction = Literal["continue", "close", "replace"]


@dataclass(frozen=True, slots=True)
class Fault:
    """A machine taken out of qualifying after a fault (EPC 2009, EPC Classic Tournament: "closed
    to further qualification"; "be replaced with another"). ``machine``: its id. ``after``: the log
    version of the decision; later scores on it are refused. ``replacement``: the machine that
    replaces it, taking its place in the machine order, its own scores wiped; None when it closed
    and its scores stand."""

    machine: str
    after: int
    replacement: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "after", whole_number("after", self.after, 0, 2**63 - 1))
        if self.replacement is not None and not isinstance(self.replacement, str):
            raise SettingsError(f"A replacement machine is an id, not {self.replacement!r}.")


@dataclass(frozen=True, slots=True)
class ClassicConfig:
    """Settings of the Classic (EPC 2009, EPC Classic Tournament). Raises SettingsError.

    ``lead`` ("their best score (calculated by how far ahead they are of the second best player)
    will determine their qualifying machine"): ``"difference"`` (default) score minus the second
    best's, the plain sense of "how far ahead"; ``"ratio"`` score divided by it, which does not
    favour machines that score high (e.g. an EM in thousands against a 1980s solid-state game).

    ``already_qualified`` (a player given a machine by "the second best scorer from their other
    machine will become the qualifying player" while already top on another): ``"pass-on"``
    (default) they keep the machine they topped and it passes to the next scorer without a place;
    ``"choose"`` they are then first on two machines and choose again by lead, like the player
    who passed it on. Pass on, because the lead rule is stated for a player who "comes first"; an
    heir was second on the inherited machine, and the outright first place is the stronger claim.

    ``fault_count`` ("10 or more players' scores have been recorded on that machine"):
    ``"players"`` (default) distinct players with a score, as "players' scores" reads and since a
    wipe costs each of those players, however many games they played; ``"scores"`` every recorded
    score. ``fault_minimum``: that 10.

    ``closed_after``: None while qualifying runs; at the 3pm close, the log version it fell at
    (``scoring.epc.kids.closing``): later scores are refused and the places are final.
    ``faults``: machines taken out after a fault (``Fault``, ``after_fault``). ``epc_players``:
    players still in the EPC ("one of the 8 players who make it into the EPC semi-finals").
    ``machine_order``: the machines 1-8 by id; empty for the ids in natural order ("9" before
    "10"). ``in_play_at_close``: the (player, machine) games started before the close, whose one
    score still counts (``scoring.epc.kids.check_open``).
    """

    lead: Lead = "difference"
    already_qualified: AlreadyQualified = "pass-on"
    fault_count: FaultCount = "players"
    fault_minimum: int = 10
    closed_after: int | None = None
    faults: tuple[Fault, ...] = ()
    epc_players: tuple[str, ...] = ()
    machine_order: tuple[str, ...] = ()
    in_play_at_close: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        fields = {
            "lead": choice("lead", self.lead, get_args(Lead)),
            "already_qualified": choice(
                "already_qualified", self.already_qualified, get_args(AlreadyQualified)
            ),
            "fault_count": choice("fault_count", self.fault_count, get_args(FaultCount)),
            "fault_minimum": whole_number("fault_minimum", self.fault_minimum, 1, 10_000),
            "closed_after": closing("closed_after", self.closed_after),
            "faults": _faults(self.faults),
            "epc_players": names("epc_players", self.epc_players),
            "machine_order": names("machine_order", self.machine_order),
            "in_play_at_close": in_play("in_play_at_close", self.in_play_at_close),
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def fault_on(self, machine: str) -> Fault | None:
        """The fault that took ``machine`` out, or None. EPC 2009, EPC Classic Tournament."""
        return next((f for f in self.faults if f.machine == machine), None)


def names(name: str, value: object) -> tuple[str, ...]:
    """Player numbers or machine ids from a JSON list or CLI text "1,2,3". EPC 2009, EPC Classic
    Tournament. Raises SettingsError."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, Iterable) or not all(isinstance(i, str) for i in items):
        raise SettingsError(f"Setting {name} must be a list of numbers or ids, not {value!r}.")
    return tuple(i.strip() for i in items if i.strip())


def _faults(value: object) -> tuple[Fault, ...]:
    # Fault objects, JSON [{"machine": "3", "after": 57, "replacement": "9"}], or CLI "3:57:9,2:60".
    if isinstance(value, str):
        keys = ("machine", "after", "replacement")
        value = [dict(zip(keys, part.split(":"), strict=False)) for part in value.split(",")]
    if not isinstance(value, Iterable):
        raise SettingsError(f"Setting faults must be a list of machine faults, not {value!r}.")
    return tuple(item if isinstance(item, Fault) else _fault(item) for item in value)


def _fault(item: object) -> Fault:
    if not isinstance(item, Mapping) or not isinstance(item.get("machine"), str):
        raise SettingsError(
            f"A fault needs a machine, a log version and a replacement, not {item!r}."
        )
    after = whole_number("after", item.get("after"), 0, 2**63 - 1)
    return Fault(item["machine"].strip(), after, item.get("replacement") or None)


@dataclass(frozen=True, slots=True)
class ClassicPlace:
    """One machine's qualifying place (EPC 2009, EPC Classic Tournament): ``slot`` 1-8 in machine
    order, the ``machine`` id (a replacement stands in its faulty machine's slot), the ``player``
    who holds it and their ``score``; None when nobody eligible has a score there."""

    slot: int
    machine: str
    player: str | None
    score: int | None


def machine_slots(config: ClassicConfig, machines: Iterable[str]) -> tuple[str, ...]:
    """Machine ids in Classic machine order 1-8, each replaced machine swapped for its replacement
    (EPC 2009, EPC Classic Tournament: "machines 1, 2, 3 & 4"; "be replaced with another")."""
    swap = {f.machine: f.replacement for f in config.faults if f.replacement}
    stand_ins = set(swap.values())
    base = config.machine_order or tuple(
        sorted((m for m in machines if m not in stand_ins), key=player_key)
    )
    slots: list[str] = []
    for machine in base:
        for _ in range(len(swap)):
            machine = swap.get(machine, machine)
        slots.append(machine)
    return tuple(slots)


def classic_qualifiers(
    config: ClassicConfig, tables: Mapping[str, MachineTable]
) -> tuple[ClassicPlace, ...]:
    """The qualifier of each machine, in machine order (EPC 2009, EPC Classic Tournament: "the
    player with the highest score on each machine will then play in one of two four-player
    semi-final games"; "If a player comes first on more than one machine, their best score
    (calculated by how far ahead they are of the second best player) will determine their
    qualifying machine, the second best scorer from their other machine will become the
    qualifying player"; "their Classic Tournament place will be forfeit and given to the next
    highest scorer not still playing in the EPC").

    ``tables``: machine id -> its table as ``EPC_CLASSIC.rank_machine`` builds it (best first,
    equal scores earlier first). Provisional until ``config.closed_after`` is set.
    """
    slots = machine_slots(config, tables)
    left_out = set(config.epc_players)
    ranked = {
        m: [(r.player, r.score) for r in tables[m].rows if r.player not in left_out]
        if m in tables
        else []
        for m in slots
    }
    holders: dict[str, str] = {}
    open_slots = list(slots)
    while True:
        tops = {m: top for m in open_slots if (top := _first(ranked[m], holders.values()))}
        if not tops:
            break
        firsts: dict[str, list[str]] = {}
        for machine, (player, _) in tops.items():
            firsts.setdefault(player, []).append(machine)
        several = {p: ms for p, ms in firsts.items() if len(ms) > 1}
        settle = several if several and config.already_qualified == "choose" else firsts
        keeps = {
            p: max(ms, key=lambda m: _lead(ranked[m], p, holders.values(), config.lead))
            for p, ms in settle.items()
        }
        for player, machine in keeps.items():
            holders[machine] = player
            open_slots.remove(machine)
    best = {m: dict(ranked[m]) for m in slots}
    return tuple(
        ClassicPlace(i, m, holders.get(m), best[m].get(holders[m]) if m in holders else None)
        for i, m in enumerate(slots, start=1)
    )


def _first(ranked: Sequence[tuple[str, int]], taken: Iterable[str]) -> tuple[str, int] | None:
    busy = set(taken)
    return next(((p, s) for p, s in ranked if p not in busy), None)


def _lead(
    ranked: Sequence[tuple[str, int]], player: str, taken: Iterable[str], lead: Lead
) -> tuple[int, Fraction]:
    # How far ``player`` is ahead of the next scorer still without a place: (0, value), or
    # (1, score) when nobody is behind (an unbounded lead, ahead of any bounded one).
    busy = {*taken, player}
    score = dict(ranked)[player]
    second = next((s for p, s in ranked if p not in busy), None)
    if second is None or (lead == "ratio" and second == 0):
        return (1, Fraction(score))
    return (0, Fraction(score - second) if lead == "difference" else Fraction(score, second))


@dataclass(frozen=True, slots=True)
class FaultDecision:
    """What happens to a faulty machine (EPC 2009, EPC Classic Tournament). ``action``:
    ``"continue"`` (repaired, scores valid), ``"close"`` (scores stand, no more scores) or
    ``"replace"`` (scores wiped). ``counted``: the players or scores counted against the minimum.
    ``free_games``: players owed a free game on the replacement, in the order they first played."""

    action: FaultAction
    counted: int
    free_games: tuple[str, ...] = ()


def machine_fault(
    config: ClassicConfig, entries: Sequence[Entry], repairable: bool, replacement: bool
) -> FaultDecision:
    """Decide a machine fault (EPC 2009, EPC Classic Tournament: "If this is possible, all existing
    scores will be valid"; "10 or more players' scores ... closed to further qualification but all
    scores will stand"; "If fewer than 10 player's scores have been recorded, the machine may - if
    a suitable replacement can be found - be replaced ... All recorded scores on the faulty
    machine will be wiped but those players will be given a free game on the replacement machine.
    If no suitable replacement can be found, the faulty machine will be closed").

    ``entries``: every score recorded on the machine. ``repairable``, ``replacement``: the
    organisers' findings ("The tournament organisers will determine").
    """
    players = tuple(dict.fromkeys(e.player for e in sorted(entries, key=lambda e: e.seq)))
    counted = len(players) if config.fault_count == "players" else len(entries)
    if repairable:
        return FaultDecision("continue", counted)
    if counted >= config.fault_minimum or not replacement:
        return FaultDecision("close", counted)
    return FaultDecision("replace", counted, players)


def after_fault(
    config: ClassicConfig,
    machine: str,
    decision: FaultDecision,
    after: int,
    replacement: str | None = None,
) -> ClassicConfig:
    """``config`` with ``decision`` applied to ``machine`` at log version ``after`` (EPC 2009, EPC
    Classic Tournament): closed, or replaced by the machine id ``replacement``; unchanged when
    repaired. Raises SettingsError for a replacement without an id."""
    if decision.action == "continue":
        return config
    if decision.action == "replace" and not replacement:
        raise SettingsError(f"Machine {machine} is to be replaced; name its replacement.")
    stand_in = replacement if decision.action == "replace" else None
    return replace(config, faults=(*config.faults, Fault(machine, after, stand_in)))


def classic_semifinals(places: Sequence[ClassicPlace]) -> tuple[Game, Game]:
    """The two semi-finals (EPC 2009, EPC Classic Tournament: "The top players on machines 1, 2, 3
    & 4 will play their semi-final on one of machines 5-8. The top players on machines 5, 6, 7 & 8
    will play their semi-final on one of machines 1-4"). Players in machine order; ``machines``
    lists where each may be played ("The machines will be chosen by the organisers")."""
    half = len(places) // 2
    first, second = places[:half], places[half:]

    def game(name: str, players: Sequence[ClassicPlace], on: Sequence[ClassicPlace]) -> Game:
        who = tuple(p.player for p in players if p.player is not None)
        return Game(name, who, cuts=(2,), machines=tuple(p.machine for p in on))

    return game("Classic semi-final 1", first, second), game("Classic semi-final 2", second, first)


def classic_final(semi_1: GameResult, semi_2: GameResult) -> Game:
    """The final (EPC 2009, EPC Classic Tournament: "The top two players from each semi-final will
    go forward to the four-player final game to determine the winner"). Play it with
    ``scoring.epc.finals.play_game(game, scores, "playoff", playoff)``."""
    players = (*semi_1.order[:2], *semi_2.order[:2])
    return Game("Classic final", players, cuts=tuple(range(1, len(players))))


class EpcClassic:
    """The Classic qualifying as a ``Format``, registered as ``"epc-classic"`` (EPC 2009, EPC
    Classic Tournament). Stateless; every method is pure."""

    __slots__ = ()

    def __reduce__(self) -> str:
        """Pickled as the module's ``EPC_CLASSIC``: a snapshot's state unpickles to the one format
        object, which views compare by identity (EPC 2009, EPC Classic Tournament)."""
        return "EPC_CLASSIC"

    name: str = "epc-classic"
    title: str = "EPC Classic"

    def parse_settings(self, settings: Mapping[str, Any]) -> ClassicConfig:
        """Settings (JSON or CLI text) -> ``ClassicConfig``. Raises SettingsError. EPC 2009, EPC
        Classic Tournament."""
        check_known(self.title, settings, ClassicConfig.__dataclass_fields__)
        return ClassicConfig(**settings)

    def settings_dict(self, config: ClassicConfig) -> dict[str, Any]:
        """``ClassicConfig`` -> JSON-safe settings; round-trips. EPC 2009, EPC Classic Tournament."""
        out: dict[str, Any] = {n: getattr(config, n) for n in ClassicConfig.__dataclass_fields__}
        for name in ("epc_players", "machine_order"):
            out[name] = list(out[name])
        out["in_play_at_close"] = [list(g) for g in config.in_play_at_close]
        out["faults"] = [
            {"machine": f.machine, "after": f.after, "replacement": f.replacement}
            for f in config.faults
        ]
        return out

    def check_entry(self, config: ClassicConfig, tournament: Tournament, entry: Entry) -> None:
        """Refuse a score after the close or on a closed or replaced machine (EPC 2009, EPC
        Classic Tournament: "The qualifying round ends at 3pm promptly"; "closed to further
        qualification"). Any number of games per player is allowed ("as often as you wish")."""
        check_open(
            config.closed_after, entry, "Classic qualifying", config.in_play_at_close, tournament
        )
        fault = config.fault_on(entry.machine)
        if fault is None or entry.seq <= fault.after:
            return
        name = tournament.machines[entry.machine].name
        if fault.replacement is None:
            raise MachineClosed(f"{name} is closed after a fault; its scores stand.")
        raise MachineClosed(f"{name} was replaced by machine {fault.replacement}.")

    def rank_machine(
        self, config: ClassicConfig, players: Mapping[str, Player], entries: tuple[Entry, ...]
    ) -> MachineTable:
        """One machine's high-score table: each player's best score, best first (EPC 2009, EPC
        Classic Tournament: "You may play any or all games as often as you wish"). Equal scores
        share the place, the one recorded first listed first. No points (``points`` None)."""
        return high_score_table(entries, earlier_first=False)

    def standings(
        self,
        config: ClassicConfig,
        players: Mapping[str, Player],
        tables: Mapping[str, MachineTable],
    ) -> Standings:
        """Every player, holders of a qualifying place first in machine order (EPC 2009, EPC
        Classic Tournament). The Classic has no overall order: ``place`` None, ``total`` 0;
        ``band`` ``"qualified"`` once closed (``"leading"`` before) for a place holder, else None;
        ``played`` counts machines with a score (a replaced machine's wiped scores do not count).
        ``classic_qualifiers`` gives the machine of each."""
        places = classic_qualifiers(config, tables)
        held = [p.player for p in places if p.player is not None and p.player in players]
        counted = set(machine_slots(config, tables))
        played = dict.fromkeys(players, 0)
        for machine, table in tables.items():
            for row in table.rows:
                if machine in counted and row.player in played:
                    played[row.player] += 1
        band = "leading" if config.closed_after is None else "qualified"
        others = sorted((p for p in players if p not in held), key=player_key)
        return Standings(
            rows=tuple(
                StandingRow(p, None, Fraction(0), played[p], band if p in held else None)
                for p in (*held, *others)
            )
        )


EPC_CLASSIC = EpcClassic()
"""The EPC 2009 Classic qualifying format (stateless)."""


CHOICES: Mapping[str, tuple[Choice, ...]] = MappingProxyType(
    {
        "lead": described(
            Lead,
            {
                "difference": "how far ahead: score minus the second best",
                "ratio": "how far ahead: score divided by the second best",
            },
        ),
        "already_qualified": described(
            AlreadyQualified,
            {
                "pass-on": "a player already first elsewhere passes the machine on",
                "choose": "a player first on two machines chooses again by lead",
            },
        ),
        "fault_count": described(
            FaultCount,
            {
                "players": "count the players with a score on the machine",
                "scores": "count every score recorded on the machine",
            },
        ),
    }
)
"""The settings of ``ClassicConfig`` that take one of a fixed set, with each value's meaning (EPC
2009, EPC Classic Tournament; the class docstring gives the readings)."""
