"""A UKPL meeting's state and its transitions (pure): every game as recorded, the decisions taken
on the day, the season's other meetings, and the counting meeting they give.

The counting meeting is the ``machines`` kind's ``HallTournament`` (players, machines, one
counting score per player and machine, standings, and the hall: queues, machine status,
corrections). Games and decisions are kept here as recorded; ``settle`` recomputes the counting
scores from them (``scoring.ukpl.games.counting``) and keeps the hall as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from display.competitions.machines.kind import MACHINES
from display.competitions.machines.state import HallTournament
from display.competitions.ukpl import records as rec
from display.types import FormatSettings, Record
from scoring.corrections import find_entry, without_entries
from scoring.errors import EntryNotAllowed, UnknownPlayer
from scoring.model import Entry, Machine, Player
from scoring.tournament import rebuild
from scoring.ukpl.adjust import Applied, Penalty, Substitute
from scoring.ukpl.games import (
    Decision,
    check_decision,
    check_game,
    check_one_game,
    correct_game,
    counting,
    pending_faults,
    removed_machines,
    without_decision,
)
from scoring.ukpl.region import SeasonMeet, bans_at, is_guest, reclassified
from scoring.ukpl.season import Meet, meet_from_standings

Note = tuple[Record, Record | None]
"""An adjustment as recorded, and the record that withdrew it (or None)."""


@dataclass(frozen=True, slots=True)
class Registration:
    """A player as registered: name, the guest mark as given, and region (UKPL 1C); ``ruled``:
    the TD's last ``player_reclassified`` (True a guest, False a region player), which wins over
    the mark and the region (UKPL 3C), None when there is none."""

    name: str
    marked: bool
    region: str | None
    ruled: bool | None = None

    def guest(self, meeting_region: str | None) -> bool:
        """Whether the player plays for fun at a meeting of ``meeting_region`` (UKPL 1C, 3C)."""
        if self.ruled is not None:
            return self.ruled
        return is_guest(self.marked, self.region, meeting_region)


@dataclass(frozen=True, slots=True)
class Outside:
    """A meeting of the season from outside this meeting's games: a results import (``source``:
    seq, by, at) or another meeting on this server (``source``: tournament, version; ``payload``:
    the summary as linked, compared to decide whether to link again)."""

    meet: SeasonMeet
    names: Mapping[str, str]
    source: Mapping[str, str | int]
    payload: Mapping[str, object] = field(default_factory=dict)

    @property
    def version(self) -> int:
        """The version of the other meeting that was linked (a linked meeting's ``source``)."""
        return int(self.source["version"])


@dataclass(frozen=True, slots=True)
class UkplState:
    """One meeting as of a log version. ``meeting``: the counting meeting (the machines kind's
    views show it); ``settings``: the meeting format's; ``notes``: every adjustment by seq;
    ``groups``: multiplayer games by seq; ``linked``: other meetings by tournament id;
    ``imported``: results imports by meeting id."""

    meeting: HallTournament
    settings: FormatSettings
    options: rec.Options
    registered: Mapping[str, Registration] = field(default_factory=dict)
    machines: Mapping[str, Machine] = field(default_factory=dict)
    games: tuple[Entry, ...] = ()
    decisions: tuple[Decision, ...] = ()
    notes: Mapping[int, Note] = field(default_factory=dict)
    groups: Mapping[int, Record] = field(default_factory=dict)
    imported: Mapping[str, Outside] = field(default_factory=dict)
    linked: Mapping[str, Outside] = field(default_factory=dict)
    effects: tuple[Applied, ...] = ()
    pending: frozenset[int] = frozenset()
    banned: Mapping[str, Penalty] = field(default_factory=dict)

    def players(self) -> dict[str, Player]:
        """Registered players with the guest flag in force (UKPL 1C, 3C)."""
        region = self.options.region
        return {n: Player(n, r.name, r.guest(region)) for n, r in self.registered.items()}

    def field(self) -> tuple[int, int]:
        """(region players, guests) registered at this meeting (UKPL 1C, 3C), for its header."""
        players = self.players().values()
        guests = sum(1 for p in players if p.guest)
        return len(players) - guests, guests

    def machine_names(self) -> dict[str, str]:
        """Machine names by id, every machine of the meeting."""
        return {m.id: m.name for m in self.machines.values()}

    def own_penalties(self, meet: str) -> tuple[Penalty, ...]:
        """Penalties given at this meeting, as given at meeting ``meet`` (UKPL 7A)."""
        return tuple(
            replace(d.record, meet=meet) for d in self.decisions if isinstance(d.record, Penalty)
        )

    def season_meets(self, meet: str) -> list[SeasonMeet]:
        """Every meeting of the season this state knows, this one as ``meet`` first; a meeting
        id given twice keeps this meeting, then a linked one, then an import (UKPL 3E)."""
        own = meet_from_standings(meet, self.meeting.standings, self.meeting.players)
        found = {
            meet: SeasonMeet(
                own, self.options.held, self.own_penalties(meet), self.options.season_config
            )
        }
        for outside in (*self.linked.values(), *self.imported.values()):
            found.setdefault(outside.meet.id, outside.meet)
        return list(found.values())

    def season_penalties(self) -> list[Penalty]:
        """Every penalty of the season known here (UKPL 7A escalation)."""
        own = list(self.own_penalties(rec.OWN))
        return own + [p for o in self.linked.values() for p in o.meet.penalties]


def settle(state: UkplState) -> UkplState:
    """The counting meeting recomputed from every game and decision (UKPL 2E, 2F, 6A, 6C, 7A,
    7C, 7D, via ``scoring.ukpl.games.counting``), with the bans of the season's other meetings;
    the hall is kept. Raises the rule error a game or decision now breaks (the record is then
    refused)."""
    season = {rec.OWN: SeasonMeet(Meet(rec.OWN), state.options.held, state.own_penalties(rec.OWN))}
    for o in (*state.linked.values(), *state.imported.values()):
        if o.meet.id != state.options.meet:
            season.setdefault(o.meet.id, o.meet)
    banned = bans_at(list(season.values()), rec.OWN)
    adjusted = counting(state.games, state.decisions, state.options.adjust, set(banned))
    fresh = rebuild(
        state.meeting.format,
        state.settings,
        state.players().values(),
        state.machines.values(),
        adjusted.entries,
    )
    meeting = replace(
        state.meeting,
        config=fresh.config,
        players=fresh.players,
        entries=fresh.entries,
        tables=fresh.tables,
        standings=fresh.standings,
    )
    pending = pending_faults(state.games, state.decisions)
    return replace(state, meeting=meeting, effects=adjusted.log, pending=pending, banned=banned)


def reclassify(state: UkplState, record: Record) -> UkplState:
    """A ``player_reclassified`` record (``player``, ``guest``: true or false, ``reason``): the
    player is a guest or a region player from now on, whatever their registration said, and the
    meeting's machine points are recomputed with the new N (UKPL rules 1C, 3B, 3C; via
    ``scoring.ukpl.region.reclassified``). Raises UnknownPlayer for no such player,
    EntryNotAllowed when they already are what the record says."""
    number = str(record["player"])
    registration = state.registered.get(number)
    if registration is None:
        raise UnknownPlayer(f"There is no player {number} at this meeting.")
    now = registration.guest(state.options.region)
    ruled = reclassified(number, registration.name, now, bool(record["guest"]))
    registered = {**state.registered, number: replace(registration, ruled=ruled)}
    return settle(replace(state, registered=registered))


def add_games(
    state: UkplState, seq: int, entries: list[Entry], record: Record
) -> tuple[UkplState, bool]:
    """Record games (one, or a multiplayer game's): checked by the UKPL rules
    (``scoring.ukpl.games.check_game``) and by the hall (machine status, withdrawn players,
    queues). Returns (state, whether every view must be rebuilt). Raises the rule error."""
    why = {p: _ban_text(penalty) for p, penalty in state.banned.items()}
    games = state.games
    for entry in entries:
        check_game(entry, games, state.decisions, state.registered, state.machine_names(), why)
        games = (*games, entry)
    mentioned = {getattr(d.record, "player", None) for d in state.decisions}
    plain = not any(e.player in mentioned for e in entries)
    meeting = state.meeting
    for entry in entries:
        one = {**record, "type": "score_recorded", "player": entry.player, "score": entry.score}
        if plain:  # nothing adjusts these games: the machines kind's incremental path
            meeting, _ = MACHINES.apply(meeting, seq, one)
            continue
        # the hall's bookkeeping for the game (queues, machine status), scores settled below
        earlier = {
            e.seq for e in meeting.entries.get(entry.machine, ()) if e.player == entry.player
        }
        hall = MACHINES.apply(without_entries(meeting, earlier), seq, one)[0].hall
        meeting = replace(meeting, hall=hall)
    state = replace(state, meeting=meeting, games=games)
    return (state, False) if plain else (settle(state), True)


def decide(state: UkplState, seq: int, record: Record) -> UkplState:
    """Record an adjustment (UKPL 2E, 6A, 6C, 7A, 7C, 7D): checked by
    ``scoring.ukpl.games.check_decision`` (7A escalation per the ``escalation`` setting), then
    the meeting is settled. Raises the rule error."""
    decided = Decision(seq, rec.decision(record))
    check_decision(
        decided,
        state.games,
        state.decisions,
        state.registered,
        state.machine_names(),
        state.season_penalties(),
        state.options.escalate,
    )
    notes = {**state.notes, seq: (record, None)}
    return settle(replace(state, decisions=(*state.decisions, decided), notes=notes))


def substituted(state: UkplState, seq: int, record: Record) -> UkplState:
    """A machine replaced through the hall (``machine_status_changed`` "replaced", already
    applied to the hall): UKPL 6A, its games are replayed on the substitute. Kept as a
    substitution decision with who and why (the record's ``note``)."""
    who = {"by": str(record.get("by", "")), "reason": str(record.get("note") or "")}
    machine, substitute = str(record["machine"]), str(record["replacement"])
    decided = Decision(seq, Substitute(machine=machine, substitute=substitute, **who))
    note = {
        "type": "machine_substituted",
        "machine": machine,
        "substitute": substitute,
        "at": record.get("at", ""),
        **who,
    }
    notes = {**state.notes, seq: (note, None)}
    return settle(replace(state, decisions=(*state.decisions, decided), notes=notes))


def adjustment_version(state: UkplState, seq: int) -> int | None:
    """An adjustment's version, named by a withdrawal's ``If-Match``: the seq of the record that
    withdrew it, else its own seq (nothing else changes one); None for no adjustment ``seq``."""
    if seq not in state.notes:
        return None
    withdrawn = state.notes[seq][1]
    return int(withdrawn.get("seq", seq)) if withdrawn is not None else seq


def withdraw(state: UkplState, record: Record) -> UkplState:
    """Withdraw an adjustment: the meeting as if it had not been decided (the records stay).
    Raises EntryNotAllowed for an unknown or withdrawn one, a replaced machine (it stays out),
    or the rule error the meeting then breaks (e.g. two games left on a machine)."""
    seq = int(record["adjustment"])
    if seq not in state.notes:
        raise EntryNotAllowed(f"There is no adjustment {seq} to withdraw.")
    original, withdrawn = state.notes[seq]
    if withdrawn is not None:
        raise EntryNotAllowed(f"Adjustment {seq} was already withdrawn.")
    decisions = without_decision(state.decisions, seq)
    notes = {**state.notes, seq: (original, record)}
    return settle(replace(state, decisions=decisions, notes=notes))


def corrected(
    state: UkplState, before: HallTournament, after: HallTournament, seq: int
) -> UkplState:
    """A ``score_corrected`` or ``score_voided`` record (``seq``) the hall applied (``before`` ->
    ``after``): the game it names changes in the games as recorded, then the meeting is settled
    (an adjustment of that game applies to the corrected score). Raises EntryNotAllowed for a
    multiplayer game, or the rule error the corrected game breaks."""
    origin = after.hall.origins.get(seq) or next(
        o for o, by in after.hall.voided.items() if by == seq
    )
    check_one_game(origin, state.groups, "corrected")
    was = find_entry(before, origin)
    fixed = find_entry(after, origin)
    games = correct_game(
        state.games,
        state.decisions,
        origin,
        was,
        fixed,
        state.registered,
        state.machine_names(),
    )
    return settle(replace(state, meeting=after, games=games))


def _ban_text(penalty: Penalty) -> str:
    when = "for this meeting" if penalty.level == "ban_next" else "for the season"
    return f"banned {when} at meeting {penalty.meet} ({penalty.reason})"


def substitutes(state: UkplState) -> dict[str, str]:
    """Machines taken out (UKPL 6A) -> their substitute."""
    return removed_machines(state.decisions)
