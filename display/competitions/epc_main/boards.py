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

``qualifying_closed`` sets ``closed_after`` to the version just before it, so every score
recorded before it counts and none after. ``machine_fault`` decides with
``scoring.epc.classic.machine_fault`` from the scores recorded so far (closed, or replaced by
``replacement``, wiping its scores, those players owed a free game). ``stage_advanced`` to the
Classic semi-finals takes ``machines: {"1": id, "2": id}`` (optional; semi-final 1, of machines
1-4's qualifiers, must be on one of machines 5-8 and vice versa).

Views: ``classic`` ``{"closed", "stage", "places": {slot: {"machine", "player", "score",
"runner_up", "second", "lead"}}, "faults": {machine: {"action", "replacement", "free_games"}}}``;
``classic/games`` ``{"games": {key: {"name", "order", "machine", "machines", "decided", "tie",
"players": {player: {"choice", "score", "place"}}}}}``. The Kids board is drawn from
``standings`` (place, best score as ``total``, ``band`` "leading"/"trophy").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from display.competitions.base import EVERY_VIEW
from display.competitions.docs import compact
from display.competitions.machines.kind import HALL_RECORDS, MACHINES
from scoring import EPC_CLASSIC
from scoring.epc.classic import (
    ClassicConfig,
    after_fault,
    classic_final,
    classic_qualifiers,
    classic_semifinals,
    machine_fault,
)
from scoring.epc.classic_board import place_leads
from scoring.epc.errors import UnresolvedTie
from scoring.epc.finals import Game, GameResult, play_game
from scoring.errors import (
    EntryNotAllowed,
    MachineAlreadyPlayed,
    SettingsError,
    UnknownMachine,
    UnknownPlayer,
)
from scoring.model import Entry, Machine
from scoring.rounding import points_json
from scoring.tournament import Tournament, add_machine, check_score

FORMATS = ("epc-classic", "epc-kids")
STAGES = ("qualifying", "semifinal", "final", "complete")
SEMIS = ("1", "2")


class StageNotReady(EntryNotAllowed):
    """A Classic stage record the rules do not allow yet (EPC 2009, EPC Classic Tournament)."""

    code = "stage_not_ready"


@dataclass(frozen=True)
class BoardState:
    """A Classic or Kids tournament: the qualifying ``Tournament`` plus (Classic) its stages.
    ``faults``: machine -> (action, free-game players) as decided. ``games``: game key ->
    entries."""

    tournament: Tournament
    stage: str = "qualifying"
    faults: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    games: Mapping[str, tuple[Entry, ...]] = field(default_factory=dict)
    playoffs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    game_machines: Mapping[str, str] = field(default_factory=dict)

    @property
    def classic(self) -> bool:
        return self.tournament.format.name == "epc-classic"

    @property
    def closed(self) -> bool:
        return self.tournament.config.closed_after is not None

    @cached_property
    def places(self) -> tuple[Any, ...]:
        return classic_qualifiers(self.tournament.config, self.tournament.tables)

    @cached_property
    def stage_games(self) -> dict[str, Game]:
        """Classic semi-finals once started, and the final once both are decided."""
        if STAGES.index(self.stage) < 1:
            return {}
        out = dict(zip(SEMIS, classic_semifinals(self.places), strict=True))
        if STAGES.index(self.stage) >= 2:
            first, second = self._result(out, "1"), self._result(out, "2")
            if first is not None and second is not None:
                out["final"] = classic_final(first, second)
        return out

    def scores(self, key: str) -> dict[str, int]:
        return {e.player: e.score for e in self.games.get(key, ())}

    def result(self, key: str) -> GameResult | None:
        return self._result(self.stage_games, key)

    def _result(self, games: Mapping[str, Game], key: str) -> GameResult | None:
        game, scores = games.get(key), self.scores(key)
        if game is None or len(scores) < len(game.players):
            return None
        try:
            return play_game(game, scores, "playoff", self.playoffs.get(key, ()))
        except UnresolvedTie:
            return None

    def tie(self, key: str) -> tuple[str, ...]:
        game, scores = self.stage_games.get(key), self.scores(key)
        if game is None or len(scores) < len(game.players) or self.result(key) is not None:
            return ()
        values = list(scores.values())
        return tuple(p for p in game.players if values.count(scores[p]) > 1)


class BoardsKind:
    """ "epc-classic" and "epc-kids": the machines kind's records plus the close, faults and the
    Classic's games (EPC 2009, EPC Classic Tournament; UK Pinball Kids Tournament)."""

    name = "epc_boards"

    def create(self, record: dict[str, Any]) -> BoardState:
        return BoardState(MACHINES.create(record))

    def apply(self, state: BoardState, seq: int, record: dict[str, Any]) -> tuple[Any, set[str]]:
        kind = record["type"]
        if kind == "qualifying_closed":
            if state.closed:
                raise StageNotReady("Qualifying has already closed.")
            return self._settings(state, {"closed_after": seq - 1}), {EVERY_VIEW}
        if kind == "settings_changed":
            return self._settings(state, record["settings"]), {EVERY_VIEW}
        if kind in ("machine_fault", "stage_advanced", "playoff_recorded") and not state.classic:
            raise SettingsError(f"The kids tournament has no record {kind!r}.")
        if kind == "machine_fault":
            return self._fault(state, seq, record), {EVERY_VIEW}
        if kind == "stage_advanced":
            return self._advance(state, record), {EVERY_VIEW}
        if kind == "playoff_recorded":
            return self._playoff(state, record), {EVERY_VIEW}
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
        tournament, touched = MACHINES.apply(state.tournament, seq, record)
        extra = {"classic"} if state.classic else set()
        return replace(state, tournament=tournament), touched | extra

    def _settings(self, state: BoardState, changes: dict[str, Any]) -> BoardState:
        new = replace(state, tournament=MACHINES.with_settings(state.tournament, changes))
        if state.stage != "qualifying" and new.places != state.places:
            raise StageNotReady("The Classic semi-finals have started: the places are final.")
        return new

    def _fault(self, state: BoardState, seq: int, record: dict[str, Any]) -> BoardState:
        machine = str(record.get("machine"))
        tournament = state.tournament
        if machine not in tournament.machines:
            raise UnknownMachine(f"There is no machine {machine} in this tournament.")
        config: ClassicConfig = tournament.config
        if config.fault_on(machine) is not None or state.closed:
            raise StageNotReady(f"Machine {machine} is already out of qualifying, or it closed.")
        replacement = record.get("replacement") or None
        if replacement is not None and replacement not in tournament.machines:
            name = record.get("replacement_name")
            if not name:
                raise UnknownMachine(f"Name the replacement machine {replacement}.")
            tournament = add_machine(tournament, Machine(str(replacement), str(name)))
            state = replace(state, tournament=tournament)
        decision = machine_fault(
            config, tournament.entries[machine], bool(record.get("repairable")), bool(replacement)
        )
        changed = after_fault(config, machine, decision, seq, replacement)
        new = self._settings(state, {"faults": faults_setting(changed)})
        return replace(
            new, faults={**state.faults, machine: (decision.action, decision.free_games)}
        )

    def _advance(self, state: BoardState, record: dict[str, Any]) -> BoardState:
        target = record.get("stage")
        at = STAGES.index(state.stage)
        want = STAGES[at + 1] if at + 1 < len(STAGES) else None
        if target != want:
            raise StageNotReady(f"The next Classic stage is {want or 'none'}, not {target!r}.")
        if target == "semifinal" and not state.closed:
            raise StageNotReady("Close Classic qualifying before the semi-finals start.")
        needed = SEMIS if target == "final" else ("final",) if target == "complete" else ()
        for key in needed:
            if state.result(key) is None:
                tied = state.tie(key)
                raise StageNotReady(
                    f"Classic game {key} is not decided: "
                    + (f"players {', '.join(tied)} tied; record their play-off." if tied else "")
                    + ("" if tied else "not every score is in.")
                )
        new = replace(state, stage=target)
        machines = record.get("machines") or {}
        if not isinstance(machines, dict):
            raise SettingsError("Machines for the Classic games are given by game key.")
        for key, machine in machines.items():
            game = new.stage_games.get(key)
            if game is None:
                raise SettingsError(f"There is no Classic game {key!r} at this stage.")
            if game.machines and machine not in game.machines:
                raise EntryNotAllowed(
                    f"The {game.name} is played on one of machines {', '.join(game.machines)}."
                )
            if machine not in state.tournament.machines:
                raise UnknownMachine(f"There is no machine {machine} in this tournament.")
        return replace(new, game_machines={**state.game_machines, **machines})

    def _playoff(self, state: BoardState, record: dict[str, Any]) -> BoardState:
        tie, order = record.get("tie"), record.get("order")
        if tie not in (*SEMIS, "final"):
            raise SettingsError(f"A Classic play-off is for game 1, 2 or final, not {tie!r}.")
        if not isinstance(order, list) or not all(isinstance(p, str) for p in order):
            raise SettingsError("A play-off order is a list of player numbers, best first.")
        return replace(state, playoffs={**state.playoffs, str(tie): tuple(order)})

    def _game(self, state: BoardState, seq: int, record: dict[str, Any]) -> BoardState:
        entry = Entry(
            seq, str(record["player"]), str(record["machine"]), check_score(record["score"])
        )
        if state.stage == "complete":
            raise StageNotReady("The Classic is over: no more scores are recorded.")
        if entry.machine not in state.tournament.machines:
            raise UnknownMachine(f"There is no machine {entry.machine} in this tournament.")
        current = SEMIS if state.stage == "semifinal" else ("final",)
        games = state.stage_games
        key = next((k for k in current if k in games and entry.player in games[k].players), None)
        if key is None:
            raise UnknownPlayer(f"Player {entry.player} is not in a Classic {state.stage} game.")
        game = state.stage_games[key]
        allowed = (state.game_machines[key],) if key in state.game_machines else game.machines
        if allowed and entry.machine not in allowed:
            raise EntryNotAllowed(f"The {game.name} is played on machine {' or '.join(allowed)}.")
        if entry.player in state.scores(key):
            raise MachineAlreadyPlayed(
                f"Player {entry.player} already has a score in the {game.name}."
            )
        return replace(state, games={**state.games, key: (*state.games.get(key, ()), entry)})

    def view_names(self, state: BoardState) -> Iterable[str]:
        yield from MACHINES.view_names(state.tournament)
        if state.classic:
            yield "classic"
            if state.stage != "qualifying":
                yield "classic/games"

    def view(self, state: BoardState, meta: dict[str, Any], name: str) -> dict[str, Any] | None:
        if name == "classic" and state.classic:
            return classic_view(state)
        if name == "classic/games" and state.classic:
            return classic_games_view(state)
        doc = MACHINES.view(state.tournament, meta, name)
        if name == "tournament" and doc is not None:
            return {**doc, "closed": state.closed}
        return doc


def faults_setting(config: ClassicConfig) -> list[dict[str, Any]]:
    """The ``faults`` setting of ``config`` as JSON."""
    return EPC_CLASSIC.settings_dict(config)["faults"]  # type: ignore[no-any-return]


def classic_view(state: BoardState) -> dict[str, Any]:
    """``classic``: who holds each machine and by how much, and the faults."""
    config: ClassicConfig = state.tournament.config
    leads = {lead.slot: lead for lead in place_leads(config, state.tournament.tables, state.places)}
    places = {}
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
    faults = {}
    for fault in config.faults:
        action, free = state.faults.get(fault.machine, ("close", ()))
        faults[fault.machine] = compact(
            {"action": action, "replacement": fault.replacement, "free_games": list(free) or None}
        )
    return compact(
        {
            "closed": state.closed,
            "stage": state.stage,
            "lead": config.lead,
            "places": places,
            "faults": faults or None,
            "epc_players": list(config.epc_players) or None,
        }
    )


def classic_games_view(state: BoardState) -> dict[str, Any]:
    """``classic/games``: the semi-finals and final with their players and results."""
    out: dict[str, Any] = {}
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
