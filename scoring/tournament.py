"""A tournament's state as one frozen value, and the generic incremental path over any format.

``record_entry`` re-ranks only the machine an entry touches; a format with a ``restand`` method
(``scoring.restand``: EPC qualifying, UKPL meeting) then moves only the players whose points on that machine
changed, any other re-derives the standings from the cached machine tables. ``rebuild`` computes
everything from scratch and is the reference the incremental path is tested against
(architecture principle 7).

Beside the format's own rules, every per-machine competition refuses a score on a machine that is
closed or replaced and any game of a withdrawn player (``check_takes_scores``,
``check_still_playing``). The machines' statuses and the withdrawn players are frozen data the
caller keeps beside the tournament (the hall) and passes in; how a machine's status changes is
``scoring.machine_faults``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from scoring.errors import (
    DuplicateRegistration,
    InvalidScore,
    MachineUnavailable,
    PlayerNotWithdrawn,
    PlayerWithdrawn,
    UnknownMachine,
    UnknownPlayer,
)
from scoring.model import (
    MAX_SCORE,
    Entry,
    Machine,
    MachineState,
    MachineTable,
    Player,
    Standings,
)
from scoring.restand import machine_updates, tables_updates

T = TypeVar("T", bound="Tournament")
RESTAND_SHARE = 0.5
"""``settled`` moves the standings on (``restand``) when at most this share of the players moved;
more, and deriving them again from every table costs less (a replay's catch-up)."""


class Format(Protocol):
    """What a format module provides. Each is a stateless object registered in ``scoring.FORMATS``.

    ``Config`` is the format's frozen settings dataclass; every resolved ambiguity is a named field.
    """

    name: str
    title: str

    def parse_settings(self, settings: Mapping[str, Any]) -> Any:
        """Settings (JSON-ish mapping; CLI strings accepted) -> frozen config.

        Raises SettingsError."""
        ...

    def settings_dict(self, config: Any) -> dict[str, Any]:
        """Frozen config -> JSON-safe mapping (round-trips through ``parse_settings``)."""
        ...

    def check_entry(self, config: Any, tournament: Tournament, entry: Entry) -> None:
        """Raise an ``EntryNotAllowed`` subclass if the rules forbid ``entry`` now."""
        ...

    def rank_machine(
        self, config: Any, players: Mapping[str, Player], entries: tuple[Entry, ...]
    ) -> MachineTable:
        """All entries on one machine (seq order) -> its ranked table."""
        ...

    def standings(
        self,
        config: Any,
        players: Mapping[str, Player],
        tables: Mapping[str, MachineTable],
    ) -> Standings:
        """Every machine table -> overall standings (every registered player appears)."""
        ...


Played = Mapping[str, Mapping[str, tuple[int, int]]]
"""Player -> machine -> (seq of their first entry there, how many entries they have there): who
played which machine when, the only thing a format with ``checks_entries_only`` asks of the entries
(EPC 2009, EPC Qualifying: "Each of the six machines may only be played once per contestant")."""


@dataclass(frozen=True, slots=True)
class Tournament:
    """Everything the rules need, as of one log version. Mappings are never mutated after creation.

    ``entries``: machine id -> that machine's entries in seq order. ``tables``: machine id -> table.

    ``deferred``: entries are recorded without ranking (a replay of many records, ``deferring``);
    then the ``unsettled`` machines' tables and the standings are stale until ``settled``.
    ``played``: the ``Played`` index of ``entries`` (the mapping it was built from, and the index),
    trusted only while that mapping *is* ``entries``: code that replaces the entries without
    keeping the index makes it stale by doing so, and readers fall back to the entries.
    """

    format: Format
    config: Any
    players: Mapping[str, Player]
    machines: Mapping[str, Machine]
    entries: Mapping[str, tuple[Entry, ...]]
    tables: Mapping[str, MachineTable]
    standings: Standings
    deferred: bool = False
    unsettled: frozenset[str] = frozenset()
    played: tuple[Mapping[str, tuple[Entry, ...]], Played] | None = field(
        default=None, compare=False, repr=False
    )


def new_tournament(fmt: Format, settings: Mapping[str, Any]) -> Tournament:
    """An empty tournament of ``fmt``. Raises SettingsError for a bad setting."""
    config = fmt.parse_settings(settings)
    entries: dict[str, tuple[Entry, ...]] = {}
    standings = fmt.standings(config, {}, {})
    return Tournament(fmt, config, {}, {}, entries, {}, standings, played=(entries, {}))


def add_player(tournament: Tournament, player: Player) -> Tournament:
    """Register ``player``. Raises DuplicateRegistration if the number is taken."""
    if player.number in tournament.players:
        raise DuplicateRegistration(f"Player number {player.number} is already registered.")
    players = {**tournament.players, player.number: player}
    entered = replace(tournament, players=players)
    restand = getattr(tournament.format, "restand", None)
    if restand is None:
        return _with_standings(entered)
    update = {player.number: (Fraction(0), 0)}
    return replace(
        entered, standings=restand(entered.config, players, tournament.standings, update)
    )


def add_machine(tournament: Tournament, machine: Machine) -> Tournament:
    """Add ``machine`` with an empty table. Raises DuplicateRegistration if the id is taken."""
    if machine.id in tournament.machines:
        raise DuplicateRegistration(f"Machine {machine.id} already exists.")
    entries = {**tournament.entries, machine.id: ()}
    index = played_index(tournament)
    return replace(
        tournament,
        machines={**tournament.machines, machine.id: machine},
        entries=entries,
        tables={**tournament.tables, machine.id: _rank(tournament, machine.id, ())},
        played=None if index is None else (entries, index),
    )


def check_score(score: object) -> int:
    """Return ``score`` if it is a whole number in 0 .. 2**53-1, else raise InvalidScore."""
    if isinstance(score, bool) or not isinstance(score, int):
        raise InvalidScore(f"A score must be a whole number, not {score!r}.")
    if score < 0:
        raise InvalidScore(f"A score cannot be negative ({score}).")
    if score > MAX_SCORE:
        raise InvalidScore(
            f"Score {score} is too large to show exactly; the largest is {MAX_SCORE}."
        )
    return score


def check_entry(tournament: Tournament, entry: Entry) -> None:
    """Raise the ScoringError that ``record_entry`` would raise for ``entry``, without recording
    it."""
    check_score(entry.score)
    if entry.player not in tournament.players:
        raise UnknownPlayer(f"No player number {entry.player} is registered in this tournament.")
    if entry.machine not in tournament.machines:
        raise UnknownMachine(f"There is no machine {entry.machine} in this tournament.")
    tournament.format.check_entry(tournament.config, tournament, entry)


def record_entry(tournament: Tournament, entry: Entry) -> Tournament:
    """Record ``entry``: re-rank its machine only, then re-derive the standings.

    Raises InvalidScore, UnknownPlayer, UnknownMachine or an EntryNotAllowed subclass.
    """
    check_entry(tournament, entry)
    return with_machine_entries(
        tournament, entry.machine, (*tournament.entries[entry.machine], entry)
    )


def with_machine_entries(tournament: T, machine: str, entries: tuple[Entry, ...]) -> T:
    """``tournament`` with ``machine``'s entries (seq order) replaced by ``entries``: that
    machine re-ranked, every other table kept, the standings re-derived (moved on by the format's
    ``restand`` when it has one, ``scoring.restand``). Checks nothing: the caller has checked
    the entries against the rules (``record_entry``; ``scoring.corrections`` for a score
    corrected in place or voided). Equal to ``rebuild`` of the same entries.

    A ``deferred`` tournament only records the entries and marks ``machine`` unsettled: ``settled``
    ranks it later, once for all the entries recorded meanwhile."""
    all_entries = {**tournament.entries, machine: entries}
    index = played_index(tournament)
    if index is not None:
        index = _reindexed(index, tournament.entries[machine], entries, machine)
    played = None if index is None else (all_entries, index)
    if tournament.deferred:
        unsettled = tournament.unsettled | {machine}
        return replace(tournament, entries=all_entries, unsettled=unsettled, played=played)
    table = _rank(tournament, machine, entries)
    changed = replace(
        tournament,
        entries=all_entries,
        tables={**tournament.tables, machine: table},
        played=played,
    )
    restand = getattr(tournament.format, "restand", None)
    if restand is None:
        return _with_standings(changed)
    # Only the players whose points on this machine changed move (``scoring.restand``).
    before = tournament.tables[machine]
    update = machine_updates(tournament.standings, tournament.players, before, table)
    standings = restand(tournament.config, tournament.players, tournament.standings, update)
    return replace(changed, standings=standings)


def deferring(tournament: T) -> T:
    """``tournament`` recording entries without ranking them (``with_machine_entries``) until
    ``settled``, when its format allows: one whose ``check_entry`` reads only who played which
    machine when (``checks_entries_only``, EPC 2009, EPC Qualifying), never a table or the
    standings, so a deferred tournament accepts and refuses exactly what a settled one would.
    Any other format's tournament comes back as it is."""
    if tournament.deferred or not getattr(tournament.format, "checks_entries_only", False):
        return tournament
    return replace(tournament, deferred=True)


def settled(tournament: T, restand_share: float = RESTAND_SHARE) -> T:
    """``tournament`` no longer deferred: every unsettled machine ranked and the standings derived
    from every table, equal to ``rebuild`` of the same entries. A tournament that was not
    deferred comes back as it is.

    A deferred tournament's standings are still those of its tables before the deferral (only
    entries were recorded meanwhile; ``add_player`` moves the standings on even then), so with
    a format that has ``restand`` and at most ``restand_share`` of the players moved, the
    standings are moved on by the changes of the unsettled tables (``scoring.restand.
    tables_updates``); else derived again from every table (the format's ``standings``)."""
    if not tournament.deferred:
        return tournament
    if not tournament.unsettled:
        return replace(tournament, deferred=False)
    tables = dict(tournament.tables)
    changes = []
    for machine in tournament.unsettled:
        table = _rank(tournament, machine, tournament.entries[machine])
        changes.append((tables[machine], table))
        tables[machine] = table
    fmt, standings = tournament.format, None
    restand = getattr(fmt, "restand", None)
    if restand is not None:
        # A few pushes deferred together (a group commit): move on only the players they moved.
        updates = tables_updates(tournament.standings, tournament.players, changes)
        if len(updates) <= len(tournament.standings.rows) * restand_share:
            standings = restand(
                tournament.config, tournament.players, tournament.standings, updates
            )
    if standings is None:
        standings = fmt.standings(tournament.config, tournament.players, tables)
    return replace(
        tournament, tables=tables, standings=standings, deferred=False, unsettled=frozenset()
    )


def played_index(tournament: Tournament) -> Played | None:
    """The ``Played`` index of ``tournament``'s entries, or None when it has none that is current
    (``Tournament.played``). EPC 2009, EPC Qualifying ("Each of the six machines may only be played
    once per contestant")."""
    kept = tournament.played
    return kept[1] if kept is not None and kept[0] is tournament.entries else None


def _reindexed(
    index: Played, before: tuple[Entry, ...], after: tuple[Entry, ...], machine: str
) -> Played:
    # Only players with an entry on ``machine`` before or after can change, and only there; a
    # score added at the end (``record_entry``) or corrected in place changes one player or none.
    if len(after) == len(before) and all(
        a.seq == b.seq and a.player == b.player for a, b in zip(after, before, strict=True)
    ):
        return index
    if len(after) == len(before) + 1 and after[:-1] == before:
        player = after[-1].player
        now = {player: _one_more(index.get(player, {}).get(machine), after[-1])}
    else:
        was, now = _games(before), _games(after)
        now = {p: now.get(p, (0, 0)) for p in was.keys() | now.keys() if was.get(p) != now.get(p)}
    changed = dict(index)
    for player, (first, count) in now.items():
        mine = {m: games for m, games in index.get(player, {}).items() if m != machine}
        if count:
            mine[machine] = (first, count)
        changed[player] = mine
    return changed


def _games(entries: tuple[Entry, ...]) -> dict[str, tuple[int, int]]:
    # player -> (seq of their first entry, their entries) among ``entries``
    games: dict[str, tuple[int, int]] = {}
    for entry in entries:
        games[entry.player] = _one_more(games.get(entry.player), entry)
    return games


def _one_more(games: tuple[int, int] | None, entry: Entry) -> tuple[int, int]:
    # (seq of the first entry, entries) of a player on a machine, with ``entry`` played after
    return (entry.seq, 1) if games is None else (games[0], games[1] + 1)


def player_label(tournament: Tournament, player: str) -> str:
    """How a message names ``player``: "Ann Example (17)" when registered, else "Player 17"."""
    found = tournament.players.get(player)
    return f"{found.name} ({player})" if found else f"Player {player}"


def machine_name(tournament: Tournament, machine: str) -> str:
    """How a message names ``machine``: its title, else "machine 7"."""
    found = tournament.machines.get(machine)
    return found.name if found else f"machine {machine}"


def unavailable(
    tournament: Tournament, statuses: Mapping[str, MachineState], machine: str
) -> str | None:
    """Why ``machine`` takes no scores and no queue now, or None when it is in service.
    ``statuses``: machine id -> its status (absent: in service). A closed machine is "closed to
    further qualification" (EPC 2009, EPC Classic Tournament); a replaced one's games are played
    on the new machine (UKPL 6A); one out of order waits for its repair (UKPL 6A, "if the machine
    can be repaired")."""
    status = statuses.get(machine) or MachineState()
    name = machine_name(tournament, machine)
    note = f" ({status.note})" if status.note else ""
    if status.status == "out_of_order":
        return f"{name} is out of order{note}; its queue waits until it is back in service."
    if status.status == "closed":
        return f"{name} is closed{note}; it takes no more scores."
    if status.status == "replaced":
        replacement = machine_name(tournament, status.replacement or "")
        return f"{name} was replaced by {replacement}{note}."
    return None


def check_in_service(
    tournament: Tournament, statuses: Mapping[str, MachineState], machine: str
) -> None:
    """Raise MachineUnavailable (``unavailable`` says why) unless ``machine`` is in service: a
    player is queued for, called to or started on a machine in service only. EPC 2009, EPC
    Classic Tournament; UKPL 6A."""
    why = unavailable(tournament, statuses, machine)
    if why is not None:
        raise MachineUnavailable(why)


def check_takes_scores(
    tournament: Tournament, statuses: Mapping[str, MachineState], machine: str
) -> None:
    """Raise MachineUnavailable if ``machine`` is closed or replaced: it takes no more scores (EPC
    2009, EPC Classic Tournament, "closed to further qualification"; UKPL 6A, its games are
    "replayed on the new game"). A machine out of order still takes the score of a game played
    on it."""
    status = statuses.get(machine) or MachineState()
    if status.status in ("closed", "replaced"):
        check_in_service(tournament, statuses, machine)


def check_still_playing(tournament: Tournament, withdrawn: Collection[str], player: str) -> None:
    """Raise PlayerWithdrawn if ``player`` is one of ``withdrawn``: a withdrawn player plays no
    more games, and their games so far stand (EPC 2009, EPC Qualifying, "Any unplayed games will
    score zero"; UKPL 3B)."""
    if player in withdrawn:
        raise PlayerWithdrawn(
            f"{player_label(tournament, player)} has withdrawn from the tournament."
        )


def withdraw(
    tournament: Tournament, withdrawn: Mapping[str, str], player: str, reason: str
) -> dict[str, str]:
    """``withdrawn`` (player -> the reason given) with ``player`` withdrawn for ``reason``; their
    scores stand (EPC 2009, EPC Qualifying, "Any unplayed games will score zero"). Raises
    PlayerWithdrawn if they have withdrawn already."""
    if player in withdrawn:
        raise PlayerWithdrawn(f"{player_label(tournament, player)} has already withdrawn.")
    return {**withdrawn, player: reason}


def reinstate(tournament: Tournament, withdrawn: Mapping[str, str], player: str) -> dict[str, str]:
    """``withdrawn`` without ``player``: the TD's record that undoes a withdrawal (a player
    withdrawn in error, or back after all); they may queue and score again, and their scores
    stood throughout (EPC 2009, EPC Qualifying). Raises PlayerNotWithdrawn if they are not
    withdrawn."""
    if player not in withdrawn:
        raise PlayerNotWithdrawn(f"{player_label(tournament, player)} has not withdrawn.")
    return {p: r for p, r in withdrawn.items() if p != player}


def rebuild(
    fmt: Format,
    settings: Mapping[str, Any],
    players: Iterable[Player],
    machines: Iterable[Machine],
    entries: Iterable[Entry],
) -> Tournament:
    """The reference: every table and the standings computed from scratch, no incremental path.

    Entries are checked in seq order against the rules exactly as ``record_entry`` would.
    """
    tournament = new_tournament(fmt, settings)
    config = tournament.config
    player_map = {p.number: p for p in players}
    machine_map = {m.id: m for m in machines}
    by_machine: dict[str, tuple[Entry, ...]] = {m: () for m in machine_map}
    index: dict[str, dict[str, tuple[int, int]]] = {}
    # One staging tournament over ``by_machine`` and its index, which grow as entries are checked:
    # each check sees exactly the entries before it, without a copy of every machine's entries
    # per entry.
    staging = replace(
        tournament,
        players=player_map,
        machines=machine_map,
        entries=by_machine,
        played=(by_machine, index),
    )
    for entry in sorted(entries, key=lambda e: e.seq):
        check_entry(staging, entry)
        by_machine[entry.machine] = (*by_machine[entry.machine], entry)
        mine = index.setdefault(entry.player, {})
        mine[entry.machine] = _one_more(mine.get(entry.machine), entry)
    tables = {m: _rank(staging, m, by_machine[m]) for m in machine_map}
    final = dict(by_machine)
    return replace(
        staging,
        entries=final,
        tables=tables,
        standings=fmt.standings(config, player_map, tables),
        played=(final, index),
    )


def _rank(tournament: Tournament, machine: str, entries: tuple[Entry, ...]) -> MachineTable:
    # A format sees only the entries; an empty table cannot know its machine id, so set it here.
    fmt, config = tournament.format, tournament.config
    table = fmt.rank_machine(config, tournament.players, entries)
    return table if table.machine == machine else replace(table, machine=machine)


def _with_standings(tournament: T) -> T:
    fmt = tournament.format
    standings = fmt.standings(tournament.config, tournament.players, tournament.tables)
    return replace(tournament, standings=standings)
