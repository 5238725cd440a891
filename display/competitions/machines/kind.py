"""The ``machines`` kind: per-machine formats (``scoring.FORMATS``: EPC qualifying, UKPL meeting,
EPC Classic, Kids), where every entry is one score by one player on one machine, and the hall
around them: queues, machine status, corrections and voids.

The state is a ``display.competitions.machines.state.HallTournament``: the scoring ``Tournament`` with its ``hall``.
Every record carries ``by`` and ``at`` (``display.http.endpoint.stamp``); the queues take their times from
``at``, so replaying the log gives the same queues and estimates.

| record                 | fields                                          | views touched               |
|------------------------|-------------------------------------------------|-----------------------------|
| tournament_created     | name, format, settings (``hall``: hall settings)| every view                  |
| player_added           | player {number, name, guest, tag?}              | players, standings          |
| machine_added          | machine {id, name, digits?} (digits: roll-over) | machines, machine/<id>,     |
|                        |                                                 | standings, queues           |
| score_recorded         | player, machine, score, displayed?, rollovers?  | machine/<machine>,          |
|                        |  (ends the player's game there, calls the next; | standings, queues           |
|                        |  score = displayed + rollovers x 10^digits)     |                             |
| settings_changed       | settings {name: value, …, hall: {…}}            | every view (a full rebuild) |
| queue_joined           | machine, player                                 | queues                      |
| queue_called           | machine, player (the next one not paused)       | queues                      |
| game_started           | machine, player, started_at (TD, optional)      | queues                      |
| queue_skipped          | machine, player, to ("back" or "out")           | queues                      |
| queue_paused           | machine, player, note                           | queues                      |
| queue_resumed          | machine, player                                 | queues                      |
| queue_moved            | machine, player, position (1 = next)            | queues                      |
| queue_left             | machine, player, note                           | queues                      |
| machine_status_changed | machine, status (in_service, out_of_order,      | machines, queues, standings,|
|                        | closed, replaced), note, replacement            | machine/<id>, <replacement> |
| score_corrected        | corrects (seq), score, reason, player, machine  | machine/<both>, standings   |
| score_voided           | voids (seq), reason                             | machine/<machine>, standings|
| player_withdrawn       | player, reason                                  | players, queues             |
| player_reinstated      | player, reason (undoes the withdrawal)          | players, queues             |
| players_merged         | player, into, reason (a duplicate registration  | every view                  |
|                        | joined into another number, ``scoring.merge``)  |                             |

A machine closed or replaced refuses scores; the competition's own rule says what becomes of the
scores it has (``scoring.machine_faults``). Corrections and voids name the ``score_recorded``
record (or a later correction of it); the original stays in the log (``scoring.corrections``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from display.competitions.base import EVERY_VIEW
from display.competitions.machines import queue as q
from display.competitions.machines import views
from display.competitions.machines.records import HANDLERS, frozen, prune, with_hall
from display.competitions.machines.state import Hall, HallSettings, HallTournament
from display.types import Doc, FormatSettings, Record, Touched
from scoring import FORMATS
from scoring.errors import AboveMaximum, InvalidScore
from scoring.model import Entry, Machine, Player
from scoring.rollover import check_digits, true_score
from scoring.tournament import (
    Tournament,
    add_machine,
    add_player,
    check_still_playing,
    check_takes_scores,
    deferring,
    new_tournament,
    rebuild,
    record_entry,
    settled,
)


def as_hall(state: Tournament) -> HallTournament:
    """A state this kind can run: a HallTournament as it is, a bare Tournament with an empty
    hall (a kind that wraps this one may hold either)."""
    return state if isinstance(state, HallTournament) else HallTournament.of(state, Hall())


def kept(state: Tournament) -> HallTournament:
    """A scoring function's result on a HallTournament: ``replace`` kept the hall."""
    assert isinstance(state, HallTournament)
    return state


def split_settings(settings: FormatSettings | None) -> tuple[FormatSettings, object]:
    """A tournament's settings -> (the format's, the hall's as given or None: ``HallSettings``
    reads them)."""
    mine = dict(settings or {})
    return mine, mine.pop("hall", None)


class MachinesKind:
    """Records of per-machine formats -> ``HallTournament`` -> views."""

    name = "machines"

    def create(self, record: Record) -> HallTournament:
        """``tournament_created`` -> the empty tournament and its hall. Raises SettingsError."""
        settings, hall = split_settings(record.get("settings"))
        tournament = new_tournament(FORMATS[record["format"]], settings)
        hall_settings = HallSettings() if hall is None else HallSettings().changed(hall)
        return HallTournament.of(tournament, Hall(settings=hall_settings))

    def defer(self, state: Tournament) -> HallTournament:
        """``state`` taking scores without ranking them until ``settle`` (a replay of many
        records: the rules still check each record, the tables and standings are worked out once
        for them all), where the format allows it (``scoring.tournament.deferring``)."""
        return deferring(as_hall(state))

    def settle(self, state: Tournament) -> HallTournament:
        """``state`` with every table and the standings current again (``scoring.tournament.
        settled``): what ``apply`` of each record one by one would have made."""
        return settled(as_hall(state))

    def apply(self, state: Tournament, seq: int, record: Record) -> tuple[HallTournament, Touched]:
        """``record`` applied at ``seq`` -> (new state, views touched) (module docstring's table).
        Raises the rules' ScoringError; ValueError for a record type this kind does not know.
        A deferred state (``defer``) takes the records of ``DEFERRABLE`` as they are; any other
        is applied to the state settled and leaves it deferred again."""
        hall_state, kind = as_hall(state), record["type"]
        if hall_state.deferred and kind not in DEFERRABLE:
            after, touched = self.apply(settled(hall_state), seq, record)
            return deferring(after), touched
        if kind == "player_added":
            p = record["player"]
            player = Player(str(p["number"]), str(p["name"]), bool(p.get("guest", False)))
            added = kept(add_player(hall_state, player))
            if p.get("tag"):  # a city or nickname, for the steward's lookup
                added = with_hall(added, tags={**added.hall.tags, player.number: str(p["tag"])})
            return added, {"players", "standings"}
        if kind == "machine_added":
            m = record["machine"]
            machine = Machine(str(m["id"]), str(m["name"]))
            touched = {"machines", f"machine/{machine.id}", "standings", "queues"}
            added = kept(add_machine(hall_state, machine))
            if m.get("digits") is not None:
                digits = {**added.hall.digits, machine.id: check_digits(m["digits"])}
                added = with_hall(added, digits=digits)
            return added, touched
        if kind == "score_recorded":
            return self.score(hall_state, seq, record)
        if kind == "settings_changed":
            return self.with_settings(hall_state, record["settings"], seq), {EVERY_VIEW}
        if kind in HANDLERS:
            return HANDLERS[kind](hall_state, seq, record)
        raise ValueError(f"unknown record type {kind!r}")

    def score(
        self, state: HallTournament, seq: int, record: Record
    ) -> tuple[HallTournament, Touched]:
        """Record a score: refused on a closed or replaced machine or for a withdrawn player
        (``scoring.tournament``), a steward's above the hall's ``max_score`` (AboveMaximum: the
        TD's), then by the format's rules; it ends the player's game there and calls the next
        player."""
        entry = Entry(seq, str(record["player"]), str(record["machine"]), record["score"])
        check_below_maximum(state, record)
        check_takes_scores(state, state.hall.machines, entry.machine)
        check_rollover(state, record)
        check_still_playing(state, state.hall.withdrawn, entry.player)
        recorded = kept(record_entry(state, entry))
        hall = recorded.hall
        queue = q.finish(
            hall.queue(entry.machine), entry.player, record.get("at"), frozen(hall, entry.machine)
        )
        # a score record stands for its own entry: ``origins`` holds corrections only
        recorded = with_hall(recorded, queues={**hall.queues, entry.machine: queue})
        return prune(recorded, seq), {f"machine/{entry.machine}", "standings", "queues"}

    def with_settings(
        self, state: Tournament, changes: FormatSettings, seq: int | None = None
    ) -> HallTournament:
        """The same tournament rebuilt from all its entries under changed settings (pure; raises
        SettingsError, or the rule error an existing entry now breaks). A ``hall`` key changes
        the hall settings only; queues keep only the players who may still play there."""
        hall_state = as_hall(state)
        mine, hall_changes = split_settings(changes)
        if hall_changes is not None:
            settings = hall_state.hall.settings.changed(hall_changes)
            hall_state = with_hall(hall_state, settings=settings)
        if not mine:
            return hall_state
        fmt = hall_state.format
        settings_now = {**fmt.settings_dict(hall_state.config), **mine}
        entries = [e for on_machine in hall_state.entries.values() for e in on_machine]
        rebuilt = rebuild(
            fmt, settings_now, hall_state.players.values(), hall_state.machines.values(), entries
        )
        fresh = replace(
            hall_state,
            config=rebuilt.config,
            entries=rebuilt.entries,
            tables=rebuilt.tables,
            standings=rebuilt.standings,
        )
        return fresh if seq is None else prune(fresh, seq)

    def view_names(self, state: Tournament) -> Iterable[str]:
        """Views tournament, machines, players, standings, queues, and ``machine/<id>`` for each."""
        yield from ("tournament", "machines", "players", "standings", "queues")
        yield from (f"machine/{m}" for m in state.machines)

    def view(self, state: Tournament, meta: Mapping[str, str], name: str) -> Doc | None:
        """View ``name`` of ``state`` (``meta``: the tournament's id and name), or None."""
        hall_state = as_hall(state)
        if name == "standings":
            return views.hall_standings_view(hall_state)
        if name == "players":
            return views.players_view(hall_state)
        if name == "machines":
            return views.machines_view(hall_state)
        if name == "tournament":
            return views.tournament_view(meta, hall_state)
        if name == "queues":
            return views.queues_view(hall_state)
        if name.startswith("machine/") and name.removeprefix("machine/") in hall_state.machines:
            return views.machine_view(hall_state, name.removeprefix("machine/"))
        return None

    def view_change(
        self, before: Tournament, after: Tournament, meta: Mapping[str, str], name: str, doc: Doc
    ) -> tuple[Doc, Doc | None] | None:
        """View ``name`` of ``after`` and its merge patch from ``doc`` (the view of ``before``),
        built from the keyed rows that changed (``views.hall_standings_change``,
        ``views.machine_change``, ``views.queues_change``), or None where this kind builds the
        whole view and the caller diffs it (``tournament``, ``machines``, ``players``)."""
        if name == "standings":
            return views.hall_standings_change(as_hall(before), as_hall(after), doc)
        if name == "queues":
            return views.queues_change(as_hall(before), as_hall(after), doc)
        if name.startswith("machine/"):
            return views.machine_change(before, after, name.removeprefix("machine/"), doc)
        return None


DEFERRABLE = frozenset(
    {
        "player_added",
        "machine_added",
        "score_recorded",
        "score_corrected",
        "score_voided",
        "queue_joined",
        "queue_called",
        "game_started",
        "queue_skipped",
        "queue_paused",
        "queue_resumed",
        "queue_moved",
        "queue_left",
    }
)
"""Records a deferred state takes without being settled first: they read who played which
machine when and the hall, never a table or the standings (a correction that moves a score
rebuilds everything, ``scoring.corrections``). Settings, machine status, withdrawals and merges
read or rebuild more, so they see a settled state."""

MACHINES = MachinesKind()

HALL_RECORDS = frozenset(HANDLERS)
"""The hall's record types (queues, machine status, corrections, voids, withdrawals): a kind that
wraps this one hands them to ``MACHINES.apply`` for its per-machine part, as the UKPL kind does."""


def check_rollover(state: HallTournament, record: Record) -> None:
    """A score entered as displayed with roll-overs (``displayed``, ``rollovers``): its ``score``
    must be the true score they give on the machine's display (``scoring.rollover.true_score``).
    Raises RolloverNotDeclared (the machine declares no digits), InvalidScore (a bad count, more
    digits than the display has, or a ``score`` that does not add up). A record without them, or
    for a machine not in the tournament (the rules refuse it next), passes."""
    if "rollovers" not in record and "displayed" not in record:
        return
    machine = state.machines.get(str(record["machine"]))
    if machine is None:
        return
    digits = state.hall.digits.get(machine.id)
    expected = true_score(record.get("displayed"), record.get("rollovers"), digits, machine.name)
    if record.get("score") != expected:
        raise InvalidScore(
            f"{record.get('displayed')!r} with {record.get('rollovers')!r} roll-overs on "
            f"{machine.name} is {expected:,}, not {record.get('score')!r}."
        )


def check_below_maximum(state: HallTournament, record: Record) -> None:
    """Raise AboveMaximum for a steward's score (``by`` "steward:…") above the hall's
    ``max_score``; the TD's scores, and anything not a whole number (the rules' to refuse), pass.
    The record says who recorded it, so a replay of the log decides the same."""
    score, ceiling = record.get("score"), state.hall.settings.max_score
    by = str(record.get("by", ""))
    if not by.startswith("steward:") or not isinstance(score, int) or isinstance(score, bool):
        return
    if score > ceiling:
        raise AboveMaximum(
            f"{score:,} is above this tournament's maximum score ({ceiling:,}): check it with "
            "the player; only the TD can record a score this high."
        )
