"""The EPC main tournament's stage records, read and handed to the rules (pure).

Each handler reads its record's fields (refusing one that is missing, of the wrong type or names
no machine or player of the tournament) and calls ``scoring.epc.main_tournament``, which decides
whether the rules allow the step now and returns the new ``MainTournament``. Where the rules
refuse a step whatever its fields (out of order, too early), that check runs before the fields
are read, so a record is refused for the same reason as before the rules moved to ``scoring/``.
The record table is in ``display.competitions.epc_main.kind``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from display.competitions.machines.kind import as_hall
from display.types import Record
from scoring.epc.main_tournament import (
    GAME_KEYS,
    PLAYOFF_TIES,
    STAGES,
    MainTournament,
    check_pairs_may_change,
    check_registration_open,
    check_stage_may_start,
    complete,
    correct_stage_game,
    default_quarterfinal_machines,
    record_game,
    record_playoff,
    register,
    reopen,
    reseed,
    set_pairs,
    start_finals,
    start_quarterfinals,
    start_round,
    start_semifinals,
    void_stage_game,
)
from scoring.errors import SettingsError, UnknownMachine, UnknownPlayer
from scoring.model import Entry
from scoring.tournament import check_score

Pairs = tuple[tuple[int, int], ...]


def advance(state: MainTournament, record: Record) -> MainTournament:
    """``stage_advanced``: ``stage`` (one of ``STAGES`` after qualifying), with ``machines`` (a
    list of ids for the quarter-finals, ``{game key: id}`` for the semi-finals and finals),
    ``pairs`` (the quarter-finals' ``[[seed, seed], ...]``) and ``override`` (start the
    quarter-finals although qualifying games are in progress), all optional."""
    target = record.get("stage")
    if target not in STAGES[1:]:
        raise SettingsError(f"Stage must be one of {', '.join(STAGES[1:])}, not {target!r}.")
    check_stage_may_start(state, target)
    if target == "quarterfinal":
        machines = record.get("machines") or list(default_quarterfinal_machines(state))
        if not isinstance(machines, list) or not all(isinstance(m, str) for m in machines):
            raise SettingsError("The quarter-final machines are a list of machine ids.")
        for machine in machines:
            _known_machine(state, machine)
        return start_quarterfinals(
            state,
            machines,
            _pairs(record.get("pairs")),
            open_games(state),
            record.get("override") is True,
        )
    if target == "semifinal":
        return start_semifinals(state, _game_machines(state, record, "semifinal"))
    if target == "final":
        return start_finals(state, _game_machines(state, record, "final"))
    return complete(state)


def open_games(state: MainTournament) -> tuple[tuple[str, str], ...]:
    """(player, machine name) of every qualifying game started on a machine and not yet scored
    (the hall's queues: a player up whose game has started)."""
    hall = as_hall(state.qualifying).hall
    return tuple(
        (queue.up.player, state.qualifying.machines[machine].name)
        for machine, queue in hall.queues.items()
        if queue.up is not None and queue.up.started is not None
    )


def _known_machine(state: MainTournament, machine: str) -> None:
    if machine not in state.qualifying.machines:
        raise UnknownMachine(f"There is no machine {machine} in this tournament.")


def _pairs(raw: object) -> Pairs | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(s, int) for s in p) for p in raw
    ):
        raise SettingsError("Pairs are a list of [seed, seed] pairs, e.g. [[1, 16], [2, 15]].")
    return tuple((p[0], p[1]) for p in raw)


def _game_machines(state: MainTournament, record: Record, stage: str) -> dict[str, str]:
    raw = record.get("machines") or {}
    if not isinstance(raw, dict) or not set(raw) <= set(GAME_KEYS[stage]):
        raise SettingsError(
            f"Machines for the {stage} games are given by game: {', '.join(GAME_KEYS[stage])}."
        )
    for machine in raw.values():
        _known_machine(state, machine)
    return raw


def pairs_set(state: MainTournament, record: Record) -> MainTournament:
    """``pairs_set``: ``pairs``, the TD's partners as ``[[seed, seed], ...]``."""
    check_pairs_may_change(state)
    return set_pairs(state, _pairs(record.get("pairs")))


def registered(state: MainTournament, record: Record) -> MainTournament:
    """``registered``: ``player`` re-registered for ``round`` (1 or 2); ``present`` false takes
    the mark back."""
    check_registration_open(state)
    rnd = record.get("round")
    if rnd not in (1, 2):
        raise SettingsError(f"Round must be 1 (group B) or 2 (group A), not {rnd!r}.")
    present = bool(record.get("present", True))
    return register(state, str(record.get("player")), rnd, present)


def round_started(state: MainTournament, record: Record) -> MainTournament:
    """``round_started``: ``round``, the quarter-final round whose deadline passed."""
    return start_round(state, record.get("round"))


def playoff_recorded(state: MainTournament, record: Record) -> MainTournament:
    """``playoff_recorded``: ``tie`` (one of ``PLAYOFF_TIES``) and ``order``, the tied players'
    numbers, best first."""
    tie, order = record.get("tie"), record.get("order")
    if tie not in PLAYOFF_TIES:
        raise SettingsError(f"A play-off is for one of {', '.join(PLAYOFF_TIES)}, not {tie!r}.")
    if not isinstance(order, list) or not order or not all(isinstance(p, str) for p in order):
        raise SettingsError("A play-off order is a list of player numbers, best first.")
    for player in order:
        if player not in state.qualifying.players:
            raise UnknownPlayer(f"No player number {player} is registered in this tournament.")
    return record_playoff(state, str(tie), order)


def score_recorded(state: MainTournament, seq: int, record: Record) -> MainTournament:
    """``score_recorded`` after qualifying: ``player``, ``machine`` and ``score`` of a stage
    game."""
    entry = Entry(seq, str(record["player"]), str(record["machine"]), check_score(record["score"]))
    _known_machine(state, entry.machine)
    if entry.player not in state.qualifying.players:
        raise UnknownPlayer(f"No player number {entry.player} is registered in this tournament.")
    return record_game(state, entry)


def stage_reopened(state: MainTournament, record: Record) -> MainTournament:
    """``stage_reopened``: ``stage``, the stage before the current one, and ``reason``."""
    return reopen(state, record.get("stage"))


def reseeded(state: MainTournament, record: Record) -> MainTournament:
    """``reseeded``: ``reason``; the seeding made again from the qualifying standings now."""
    return reseed(state)


STAGE_EDITS: Mapping[str, str] = {"score_corrected": "corrects", "score_voided": "voids"}
"""The hall's correction and void records by type -> the field naming the score; when that score
is a stage game, ``stage_edit`` applies them (else they are qualifying's)."""


def stage_edit(state: MainTournament, seq: int, record: Record) -> MainTournament:
    """``score_corrected`` (``corrects``, ``score``, ``player``?, ``machine``?) or
    ``score_voided`` (``voids``) of a stage game."""
    if record["type"] == "score_voided":
        return void_stage_game(state, seq, record.get("voids"))
    player, machine = record.get("player"), record.get("machine")
    if machine is not None:
        _known_machine(state, str(machine))
    if player is not None and str(player) not in state.qualifying.players:
        raise UnknownPlayer(f"No player number {player} is registered in this tournament.")
    return correct_stage_game(
        state,
        seq,
        record.get("corrects"),
        check_score(record.get("score")),
        str(player) if player is not None else None,
        str(machine) if machine is not None else None,
    )


STAGE_RECORDS: Mapping[str, Callable[[MainTournament, Record], MainTournament]] = {
    "stage_advanced": advance,
    "pairs_set": pairs_set,
    "registered": registered,
    "round_started": round_started,
    "playoff_recorded": playoff_recorded,
    "stage_reopened": stage_reopened,
    "reseeded": reseeded,
}
"""The stage records by type (each touches every view)."""
