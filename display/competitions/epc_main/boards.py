"""The EPC Classic and the UK Pinball Kids Tournament live: their records and board views.

Both formats run their qualifying exactly as the machines kind does ("epc-classic", "epc-kids" of
``scoring.FORMATS``); this module wraps it (through ``display.competitions.epc_main.kind.KIND``, which takes
the two formats over) with the close, machine faults and the Classic's semi-finals and final.

| record             | fields                                  | rule (EPC 2009)                      | views touched      |
|--------------------|-----------------------------------------|--------------------------------------|--------------------|
| (machines kind's)  | player_added, machine_added, score_recorded, settings_changed | qualifying     | as machines + board|
| qualifying_closed  | —                                       | Classic "ends at 3pm promptly"; Kids "close of the tournament each day" | every view |
| machine_fault      | machine, repairable, replacement?, replacement_name? | Classic: 10 or more scores stand     | every view         |
| stage_advanced     | stage "semifinal", "final", "complete"; machines? | Classic semi-finals and final | every view       |
| score_recorded     | player, machine, score (after the close)| a Classic semi-final or final score  | classic/games      |
| playoff_recorded   | tie ("1", "2", "final"), order          | equal scores in a Classic game       | every view         |
| stage_reopened     | stage (the one before the current), reason | the Classic's stages run in order | every view         |
| score_corrected / score_voided | corrects / voids a Classic game score, reason | a game score put right | classic/games |

The rules of each step are ``scoring.epc.side_tournaments``'s (``SideTournament`` is the state);
this module reads the records' fields and calls them.

``qualifying_closed`` sets ``closed_after`` to the version just before it, so every score
recorded before it counts and none after. ``machine_fault`` decides with
``scoring.epc.classic.machine_fault`` from the scores recorded so far (closed, or replaced by
``replacement``, wiping its scores, those players owed a free game). The rule decides before any
replacement machine is added: with 10 or more players' scores the machine closes and the
replacement the TD named is not added at all. ``stage_advanced`` to the
Classic semi-finals takes ``machines: {"1": id, "2": id}`` (optional; semi-final 1, of machines
1-4's qualifiers, must be on one of machines 5-8 and vice versa).

Once the semi-finals have started, the qualifying places are those the ``stage_advanced`` record
found: a hall record (a correction, a void) that would move one is refused ("The Classic
semi-finals have started: reopen qualifying first.") until the TD's ``stage_reopened``.

Views: ``classic`` ``{"closed", "in_progress" (games started before the close, not yet
scored), "stage", "places": {slot: {"machine", "player", "score",
"runner_up", "second", "lead"}}, "faults": {machine: {"action", "replacement", "free_games"}}}``;
``classic/games`` ``{"games": {key: {"name", "order", "machine", "machines", "decided", "tie",
"players": {player: {"choice", "score", "place"}}}}}``. The Kids board is drawn from
``standings`` (place, best score as ``total``, ``band`` "leading"/"trophy").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from display.competitions.base import EVERY_VIEW
from display.competitions.docs import compact
from display.competitions.machines.kind import HALL_RECORDS, MACHINES, as_hall
from display.competitions.machines.records import take_out
from display.competitions.machines.state import HallTournament, MachineState
from display.types import Doc, FormatSettings, Record, Touched
from scoring import EPC_CLASSIC
from scoring.epc.classic import ClassicConfig, FaultDecision, after_fault, machine_fault
from scoring.epc.classic_board import place_leads
from scoring.epc.side_tournaments import (
    CLASSIC_PLAYOFF_TIES,
    SideTournament,
    check_classic_stage_may_start,
    check_fault_allowed,
    check_may_close,
    check_places_kept,
    correct_classic_game,
    record_classic_game,
    record_classic_playoff,
    reopen_classic,
    start_classic_stage,
    void_classic_game,
    with_fault,
)
from scoring.errors import SettingsError, UnknownMachine
from scoring.model import Entry, Machine
from scoring.rounding import points_json
from scoring.tournament import Tournament, add_machine, check_score

FORMATS = ("epc-classic", "epc-kids")
CLASSIC_ONLY = ("machine_fault", "stage_advanced", "playoff_recorded", "stage_reopened")


class BoardsKind:
    """ "epc-classic" and "epc-kids": the machines kind's records plus the close, faults and the
    Classic's games (EPC 2009, EPC Classic Tournament; UK Pinball Kids Tournament)."""

    name = "epc_boards"

    def create(self, record: Record) -> SideTournament:
        """``tournament_created`` -> the empty tournament. Raises SettingsError."""
        return SideTournament(MACHINES.create(record))

    def apply(
        self, state: SideTournament, seq: int, record: Record
    ) -> tuple[SideTournament, Touched]:
        """``record`` at version ``seq`` -> (new state, views touched). Raises the ScoringError
        the rules or the record's fields give (module docstring's table)."""
        kind = record["type"]
        if kind == "qualifying_closed":
            check_may_close(state)
            # the close falls just before its own record: every score recorded before it counts,
            # and so does the one score of each game started before it
            playing = [list(game) for game in games_in_play(state.tournament)]
            close = {"closed_after": seq - 1, "in_play_at_close": playing}
            return self._settings(state, close), {EVERY_VIEW}
        if kind == "settings_changed":
            return self._settings(state, record["settings"]), {EVERY_VIEW}
        if kind in CLASSIC_ONLY and not state.classic:
            raise SettingsError(f"The kids tournament has no record {kind!r}.")
        if kind == "machine_fault":
            return self._fault(state, seq, record), {EVERY_VIEW}
        if kind == "stage_advanced":
            return self._advance(state, record), {EVERY_VIEW}
        if kind == "playoff_recorded":
            return self._playoff(state, record), {EVERY_VIEW}
        if kind == "stage_reopened":
            return reopen_classic(state, record.get("stage")), {EVERY_VIEW}
        edit = {"score_corrected": "corrects", "score_voided": "voids"}.get(kind)
        if edit is not None and state.stage_entry(record.get(edit)) is not None:
            return self._edit(state, seq, record), {"classic/games"}
        if kind == "score_recorded" and state.stage != "qualifying":
            return self._game(state, seq, record), {"classic/games"}
        if kind not in ("player_added", "machine_added", "score_recorded", *HALL_RECORDS):
            raise SettingsError(f"This tournament has no record {kind!r}.")
        if (
            kind == "machine_status_changed"
            and state.classic
            and record.get("status")
            in (
                "closed",
                "replaced",
            )
        ):  # the Classic's own fault record applies its 10-score rule and feeds the board
            raise SettingsError("Close or replace a Classic machine with the machine-fault form.")
        if kind == "score_recorded" and state.classic:
            self._check_faulted(state, seq, record)
        tournament, touched = MACHINES.apply(state.tournament, seq, record)
        extra = {"classic"} if state.classic else set()
        if state.closed:  # a game started before the close may finish: "N games in progress"
            extra.add("tournament")
        new = replace(state, tournament=tournament)
        check_places_kept(state, new)
        return new, touched | extra

    def _settings(self, state: SideTournament, changes: FormatSettings) -> SideTournament:
        new = replace(state, tournament=MACHINES.with_settings(state.tournament, changes))
        check_places_kept(state, new)
        return new

    def _fault(self, state: SideTournament, seq: int, record: Record) -> SideTournament:
        """``machine_fault``: ``machine``, ``repairable``, and ``replacement`` (an id; a new one
        needs ``replacement_name``)."""
        machine = str(record.get("machine"))
        tournament = state.tournament
        if machine not in tournament.machines:
            raise UnknownMachine(f"There is no machine {machine} in this tournament.")
        check_fault_allowed(state, machine)
        config: ClassicConfig = tournament.config
        replacement = record.get("replacement") or None
        new_machine = replacement is not None and replacement not in tournament.machines
        name = record.get("replacement_name")
        if new_machine and not name:
            raise UnknownMachine(f"Name the replacement machine {replacement}.")
        # the rule decides first: a replacement machine exists only where it gives one
        decision = machine_fault(
            config, tournament.entries[machine], bool(record.get("repairable")), bool(replacement)
        )
        if decision.action != "replace":
            replacement = None
        elif new_machine:
            tournament = add_machine(tournament, Machine(str(replacement), str(name)))
            state = replace(state, tournament=tournament)
        changed = after_fault(config, machine, decision, seq, replacement)
        decided = with_fault(self._settings(state, faults_setting(changed)), machine, decision)
        return self._taken_out(decided, seq, record, machine, decision)

    def _check_faulted(self, state: SideTournament, seq: int, record: Record) -> None:
        """A score on a machine the Classic's fault rule closed or replaced gets the Classic's
        own refusal, which says which (EPC 2009, EPC Classic Tournament), before the hall's
        (the machine is closed or replaced there too, ``_taken_out``)."""
        machine = str(record.get("machine"))
        config: ClassicConfig = state.tournament.config
        fault = config.fault_on(machine)
        if fault is not None and seq > fault.after:
            entry = Entry(seq, str(record.get("player")), machine, 0)
            EPC_CLASSIC.check_entry(config, state.tournament, entry)

    def _taken_out(
        self,
        state: SideTournament,
        seq: int,
        record: Record,
        machine: str,
        decision: FaultDecision,
    ) -> SideTournament:
        """The hall's side of a Classic fault the rule decided (EPC 2009, EPC Classic
        Tournament): a closed or replaced machine shows as such, its queue moves to the
        replacement, and the scores the rule wipes are marked wiped (``take_out``)."""
        if decision.action == "continue" or not isinstance(state.tournament, HallTournament):
            return state
        replaced = decision.action == "replace"
        stand_in = str(record.get("replacement")) if replaced else None
        info = MachineState(
            "replaced" if replaced else "closed", None, stand_in, decision.free_games
        )
        wiped = [e.seq for e in state.tournament.entries[machine]] if replaced else []
        hall = take_out(state.tournament, seq, machine, info, wiped, record.get("at"))
        return replace(state, tournament=hall)

    def _advance(self, state: SideTournament, record: Record) -> SideTournament:
        """``stage_advanced``: ``stage``, and ``machines`` ``{game key: id}`` (optional)."""
        target = record.get("stage")
        check_classic_stage_may_start(state, target)
        machines = record.get("machines") or {}
        if not isinstance(machines, dict):
            raise SettingsError("Machines for the Classic games are given by game key.")
        return start_classic_stage(state, str(target), machines)

    def _playoff(self, state: SideTournament, record: Record) -> SideTournament:
        """``playoff_recorded``: ``tie`` (a Classic game key) and ``order``, best first."""
        tie, order = record.get("tie"), record.get("order")
        if tie not in CLASSIC_PLAYOFF_TIES:
            raise SettingsError(f"A Classic play-off is for game 1, 2 or final, not {tie!r}.")
        if not isinstance(order, list) or not all(isinstance(p, str) for p in order):
            raise SettingsError("A play-off order is a list of player numbers, best first.")
        return record_classic_playoff(state, str(tie), order)

    def _edit(self, state: SideTournament, seq: int, record: Record) -> SideTournament:
        """``score_corrected`` / ``score_voided`` of a Classic semi-final or final score."""
        if record["type"] == "score_voided":
            return void_classic_game(state, seq, record.get("voids"))
        player, machine = record.get("player"), record.get("machine")
        return correct_classic_game(
            state,
            seq,
            record.get("corrects"),
            check_score(record.get("score")),
            str(player) if player is not None else None,
            str(machine) if machine is not None else None,
        )

    def _game(self, state: SideTournament, seq: int, record: Record) -> SideTournament:
        """``score_recorded`` after the close: a Classic semi-final or final score."""
        entry = Entry(
            seq, str(record["player"]), str(record["machine"]), check_score(record["score"])
        )
        return record_classic_game(state, entry)

    def view_names(self, state: SideTournament) -> Iterable[str]:
        """The machines kind's views, and the Classic's ``classic`` and ``classic/games``."""
        yield from MACHINES.view_names(state.tournament)
        if state.classic:
            yield "classic"
            if state.stage != "qualifying":
                yield "classic/games"

    def view(self, state: SideTournament, meta: Doc, name: str) -> Doc | None:
        """View ``name`` (shapes in the module docstring), or None."""
        if name == "classic" and state.classic:
            return classic_view(state)
        if name == "classic/games" and state.classic:
            return classic_games_view(state)
        doc = MACHINES.view(state.tournament, meta, name)
        if name == "tournament" and doc is not None:
            playing = in_progress(state)
            return {**doc, "closed": state.closed, **({"in_progress": playing} if playing else {})}
        return doc


def games_in_play(tournament: Tournament) -> tuple[tuple[str, str], ...]:
    """(player, machine id) of every game started on a machine (the hall's queue: the player up
    has started) and not yet scored."""
    hall = as_hall(tournament).hall
    return tuple(
        (queue.up.player, machine)
        for machine, queue in hall.queues.items()
        if queue.up is not None and queue.up.started is not None
    )


def in_progress(state: SideTournament) -> int:
    """How many games started before the close have no score yet (the board's "1 game in
    progress")."""
    config = state.tournament.config
    after = config.closed_after
    if after is None:
        return 0
    entries = state.tournament.entries
    return sum(
        1
        for player, machine in config.in_play_at_close
        if not any(e.player == player and e.seq > after for e in entries.get(machine, ()))
    )


def faults_setting(config: ClassicConfig) -> FormatSettings:
    """The settings change that records ``config``'s faults: ``{"faults": [{"machine", "after",
    "replacement"}, ...]}`` as ``EPC_CLASSIC`` reads them."""
    return {"faults": EPC_CLASSIC.settings_dict(config)["faults"]}


def classic_view(state: SideTournament) -> Doc:
    """``classic``: who holds each machine and by how much, and the faults."""
    config: ClassicConfig = state.tournament.config
    leads = {lead.slot: lead for lead in place_leads(config, state.tournament.tables, state.places)}
    places: Doc = {}
    for place in state.places:
        lead = leads[place.slot]
        places[str(place.slot)] = compact(
            {
                "machine": place.machine,
                "player": place.player,
                "score": place.score,
                "runner_up": lead.runner_up,
                "second": lead.second,
                "lead": points_json(lead.lead) if lead.lead is not None else None,
            }
        )
    faults: Doc = {}
    for fault in config.faults:
        action, free = state.faults.get(fault.machine, ("close", ()))
        faults[fault.machine] = compact(
            {"action": action, "replacement": fault.replacement, "free_games": list(free) or None}
        )
    return compact(
        {
            "closed": state.closed,
            "in_progress": in_progress(state) or None,
            "stage": state.stage,
            "lead": config.lead,
            "places": places,
            "faults": faults or None,
            "epc_players": list(config.epc_players) or None,
        }
    )


def classic_games_view(state: SideTournament) -> Doc:
    """``classic/games``: the semi-finals and final with their players and results."""
    out: Doc = {}
    for order, (key, game) in enumerate(state.stage_games.items(), start=1):
        scores, result = state.scores(key), state.result(key)
        places = dict(zip(result.order, result.places, strict=True)) if result else {}
        out[key] = compact(
            {
                "name": game.name,
                "order": order,
                "machine": state.game_machines.get(key),
                "machines": list(game.machines) or None,
                "decided": result is not None,
                "tie": list(state.tie(key)) or None,
                "players": {
                    p: compact({"choice": i, "score": scores.get(p), "place": places.get(p)})
                    for i, p in enumerate(game.players, start=1)
                },
            }
        )
    return {"games": out}


BOARDS = BoardsKind()
