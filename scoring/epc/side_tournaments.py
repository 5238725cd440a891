"""The EPC 2009 side tournaments past their qualifying: the close of the EPC Classic and of a UK
Pinball Kids Tournament, the Classic's machine faults, and its semi-finals and final.

Rule text: EPC 2009 rules, "EPC CLASSIC TOURNAMENT" and "UK PINBALL KIDS TOURNAMENT". Both run
their qualifying as "epc-classic" and "epc-kids" of ``scoring.FORMATS``; ``SideTournament`` adds
what follows it. Each step takes the state and its inputs, already parsed
(``display.competitions.epc_main.boards`` refuses a missing field or a value of the wrong type),
and returns the new state or a verdict, or raises what the rules refuse: ``StageNotReady`` for a
step out of order or too early.

Readings Backglass takes where the text is silent (docs/rules.md, "EPC Classic Tournament"):

- the TD closes qualifying once (3pm for the Classic, the end of the day for the kids); the
  Classic's stages run in order (``CLASSIC_STAGES``), the semi-finals only after the close;
- a machine fault is decided once, while qualifying runs;
- once the semi-finals start the qualifying places are final: they are frozen in the state of the
  record that starts them (``closed_places``), and no setting, correction, void or machine change
  may change them until the TD reopens qualifying (``reopen_classic``, while no semi-final score
  is recorded);
- the TD may tie a semi-final or the final to one machine, among those the rules allow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from scoring.epc.classic import (
    ClassicConfig,
    ClassicPlace,
    FaultDecision,
    classic_final,
    classic_qualifiers,
    classic_semifinals,
)
from scoring.epc.errors import StageNotReady, UnresolvedTie
from scoring.epc.finals import Game, GameResult, play_game
from scoring.epc.stage_edits import StageEdits, find_stage_entry, without
from scoring.epc.stages import compose_playoffs
from scoring.errors import (
    EntryNotAllowed,
    MachineAlreadyPlayed,
    SettingsError,
    UnknownEntry,
    UnknownMachine,
    UnknownPlayer,
)
from scoring.model import Entry
from scoring.tournament import Tournament

CLASSIC_STAGES = ("qualifying", "semifinal", "final", "complete")
"""The Classic's stages in the order they run (EPC 2009, EPC Classic Tournament)."""

SEMIS = ("1", "2")
"""The Classic semi-finals by key: 1 (the holders of machines 1-4), 2 (of machines 5-8)."""

CLASSIC_PLAYOFF_TIES = (*SEMIS, "final")
"""The Classic games whose equal scores a play-off order may settle."""


@dataclass(frozen=True)
class SideTournament:
    """A Classic or Kids tournament: the qualifying ``Tournament`` plus (Classic) its stages
    (EPC 2009, EPC Classic Tournament; EPC 2009, UK Pinball Kids Tournament).

    ``stage``: one of ``CLASSIC_STAGES`` (a kids tournament stays at ``"qualifying"``).
    ``faults``: machine -> (action, free-game players) as decided (``FaultDecision``).
    ``games``: game key (``SEMIS``, ``"final"``) -> its entries in the order recorded.
    ``playoffs``: game key -> the TD's play-off order. ``game_machines``: game key -> the machine
    the TD named for it. ``closed_places``: the qualifying places as the record that started the
    semi-finals found them; None before. ``edits``: corrections and voids of the Classic's games.
    """

    tournament: Tournament
    stage: str = "qualifying"
    faults: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    games: Mapping[str, tuple[Entry, ...]] = field(default_factory=dict)
    playoffs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    game_machines: Mapping[str, str] = field(default_factory=dict)
    closed_places: tuple[ClassicPlace, ...] | None = None
    edits: StageEdits = field(default_factory=StageEdits)

    def stage_entry(self, seq: object) -> tuple[Entry, int] | None:
        """The Classic semi-final or final score record ``seq`` stands for and its version, or
        None (EPC 2009, EPC Classic Tournament). Raises UnknownEntry for a voided one."""
        found = find_stage_entry(self.games, self.edits, seq)
        return None if found is None else (found[1], self.edits.version(found[1].seq))

    @property
    def classic(self) -> bool:
        """An EPC Classic (EPC 2009, EPC Classic Tournament), not a kids tournament."""
        return self.tournament.format.name == "epc-classic"

    @property
    def closed(self) -> bool:
        """Qualifying has closed (EPC 2009, EPC Classic Tournament: "ends at 3pm promptly"; UK
        Pinball Kids Tournament: "At the close of the tournament each day")."""
        return self.tournament.config.closed_after is not None

    @cached_property
    def places(self) -> tuple[ClassicPlace, ...]:
        """The Classic's qualifying place of each machine, as frozen when the semi-finals
        started (EPC 2009, EPC Classic Tournament; ``classic_qualifiers``)."""
        return self.closed_places or self.qualifying_places

    @cached_property
    def qualifying_places(self) -> tuple[ClassicPlace, ...]:
        """The places the qualifying tables give now (EPC 2009, EPC Classic Tournament)."""
        return classic_qualifiers(self.tournament.config, self.tournament.tables)

    @cached_property
    def stage_games(self) -> dict[str, Game]:
        """Classic semi-finals once started, and the final once both are decided (EPC 2009, EPC
        Classic Tournament)."""
        if CLASSIC_STAGES.index(self.stage) < 1:
            return {}
        out = dict(zip(SEMIS, classic_semifinals(self.places), strict=True))
        if CLASSIC_STAGES.index(self.stage) >= 2:
            first, second = self._result(out, "1"), self._result(out, "2")
            if first is not None and second is not None:
                out["final"] = classic_final(first, second)
        return out

    def scores(self, key: str) -> dict[str, int]:
        """Player -> score recorded so far in game ``key`` (EPC 2009, EPC Classic Tournament)."""
        return {e.player: e.score for e in self.games.get(key, ())}

    def result(self, key: str) -> GameResult | None:
        """Game ``key``'s result once every player has a score and any tie that matters is
        settled by a play-off; else None (EPC 2009, EPC Classic Tournament)."""
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
        """Players of game ``key`` tied where the order matters and awaiting the TD's play-off
        (EPC 2009, EPC Classic Tournament)."""
        game, scores = self.stage_games.get(key), self.scores(key)
        if game is None or len(scores) < len(game.players) or self.result(key) is not None:
            return ()
        values = list(scores.values())
        return tuple(p for p in game.players if values.count(scores[p]) > 1)


# ---- the close and the settings after it ----


def check_may_close(state: SideTournament) -> None:
    """Raise StageNotReady if qualifying has already closed: it closes once (EPC 2009, EPC
    Classic Tournament: "The qualifying round ends at 3pm promptly"; UK Pinball Kids Tournament:
    "At the close of the tournament each day")."""
    if state.closed:
        raise StageNotReady("Qualifying has already closed.")


def check_places_kept(before: SideTournament, after: SideTournament) -> None:
    """Raise StageNotReady if ``after`` (``before`` under changed settings) moves a Classic
    qualifying place once the semi-finals have started: their players are playing (EPC 2009, EPC
    Classic Tournament: "The top players on machines 1, 2, 3 & 4 will play their semi-final")."""
    if before.stage != "qualifying" and after.qualifying_places != before.places:
        raise StageNotReady("The Classic semi-finals have started: reopen qualifying first.")


# ---- machine faults ----


def check_fault_allowed(state: SideTournament, machine: str) -> None:
    """Raise StageNotReady if ``machine`` is already out of qualifying after a fault, or
    qualifying has closed: a fault is decided once, while scores are still being recorded
    (EPC 2009, EPC Classic Tournament: "closed to further qualification")."""
    config: ClassicConfig = state.tournament.config
    if config.fault_on(machine) is not None or state.closed:
        raise StageNotReady(f"Machine {machine} is already out of qualifying, or it closed.")


def with_fault(state: SideTournament, machine: str, decision: FaultDecision) -> SideTournament:
    """``state`` remembering what the fault on ``machine`` decided, for the board: its action and
    the players owed a free game (EPC 2009, EPC Classic Tournament: "those players will be given a
    free game on the replacement machine")."""
    return replace(state, faults={**state.faults, machine: (decision.action, decision.free_games)})


# ---- the Classic's semi-finals and final ----


def check_classic_stage_may_start(state: SideTournament, target: object) -> None:
    """Raise StageNotReady unless ``target`` (as recorded) is the Classic's next stage and may start: the
    semi-finals once qualifying has closed, the final once both semi-finals are decided, the end
    once the final is (EPC 2009, EPC Classic Tournament: "The top two players from each
    semi-final will go forward to the four-player final game")."""
    at = CLASSIC_STAGES.index(state.stage)
    want = CLASSIC_STAGES[at + 1] if at + 1 < len(CLASSIC_STAGES) else None
    if want is None or target != want:  # nothing follows "complete", not even a missing stage
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


def start_classic_stage(
    state: SideTournament, target: str, machines: Mapping[str, str]
) -> SideTournament:
    """Start the Classic's stage ``target``, each game key of ``machines`` on that machine id
    (EPC 2009, EPC Classic Tournament: "The top players on machines 1, 2, 3 & 4 will play their
    semi-final on one of machines 5-8"; "The machines will be chosen by the organisers").

    Raises what ``check_classic_stage_may_start`` raises; SettingsError for a key that is no game
    of the stage; EntryNotAllowed for a machine the rules do not allow for that game;
    UnknownMachine for an id the tournament does not have.
    """
    check_classic_stage_may_start(state, target)
    frozen = state.places if target == "semifinal" else state.closed_places
    new = replace(state, stage=target, closed_places=frozen)
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


def reopen_classic(state: SideTournament, target: object) -> SideTournament:
    """The TD reopens ``target`` (as recorded), the Classic stage before the current one, while
    the current one has no score: qualifying (its places unfreeze; corrections and faults are
    taken again) or the semi-finals (the final's start is taken back). EPC 2009, EPC Classic
    Tournament (the stages run in order; docs/rules.md). Raises StageNotReady."""
    at = CLASSIC_STAGES.index(state.stage)
    want = CLASSIC_STAGES[at - 1] if state.stage != "qualifying" else None
    if want is None or target != want:
        raise StageNotReady(
            f"Only the Classic stage before the current one can be reopened ({want or 'none'}), "
            f"not {target!r}."
        )
    keys = {"semifinal": SEMIS, "final": ("final",)}.get(state.stage, ())
    played = sum(len(state.games.get(k, ())) for k in keys)
    if played:
        raise StageNotReady(
            f"The Classic {state.stage} has {played} score(s) recorded: void them before "
            f"reopening {want}."
        )
    return replace(
        state,
        stage=want,
        closed_places=None if want == "qualifying" else state.closed_places,
        playoffs={k: v for k, v in state.playoffs.items() if k not in keys},
        game_machines={k: v for k, v in state.game_machines.items() if k not in keys},
    )


def record_classic_playoff(state: SideTournament, tie: str, order: Sequence[str]) -> SideTournament:
    """The TD's order of the players tied in Classic game ``tie`` (``CLASSIC_PLAYOFF_TIES``),
    best first, after their play-off (EPC 2009, EPC Classic Tournament; Backglass: the Classic
    has no seeding to fall back on). A second record for other players of the game (a tie for
    3rd after one for 1st) adds to the first (``compose_playoffs``)."""
    merged = compose_playoffs(state.playoffs.get(tie, ()), order)
    return replace(state, playoffs={**state.playoffs, tie: merged})


def record_classic_game(state: SideTournament, entry: Entry) -> SideTournament:
    """A Classic semi-final or final score (EPC 2009, EPC Classic Tournament: "four-player
    semi-final games"; "the four-player final game"). ``entry``: a whole-number score.

    Raises StageNotReady once the Classic is over; UnknownMachine for an id the tournament does
    not have; UnknownPlayer for a player in no game of the stage; EntryNotAllowed for a machine
    the game is not played on; MachineAlreadyPlayed for a second score in a game.
    """
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
        raise MachineAlreadyPlayed(f"Player {entry.player} already has a score in the {game.name}.")
    return replace(state, games={**state.games, key: (*state.games.get(key, ()), entry)})


def correct_classic_game(
    state: SideTournament,
    seq: int,
    target: object,
    score: int,
    player: str | None = None,
    machine: str | None = None,
) -> SideTournament:
    """The TD's correction at ``seq`` of the Classic game score that record ``target`` names
    (EPC 2009, EPC Classic Tournament; EPC Qualifying: "The contestant should verify the score").
    Who goes to the final is recomputed while the semi-finals run. Raises UnknownEntry;
    StageNotReady once a later stage has started; what ``record_classic_game`` raises."""
    key, entry = _classic_score(state, target)
    fixed = Entry(entry.seq, player or entry.player, machine or entry.machine, score)
    nxt = _replayed(state, key, without(state.games, key, entry.seq, fixed))
    return replace(nxt, edits=state.edits.corrected(seq, entry.seq))


def void_classic_game(state: SideTournament, seq: int, target: object) -> SideTournament:
    """The TD's void at ``seq`` of the Classic game score ``target`` names: never played
    (EPC 2009, EPC Classic Tournament). Raises what ``correct_classic_game`` raises."""
    key, entry = _classic_score(state, target)
    nxt = _replayed(state, key, without(state.games, key, entry.seq, None))
    return replace(nxt, edits=state.edits.void(seq, entry.seq))


def _classic_score(state: SideTournament, target: object) -> tuple[str, Entry]:
    found = find_stage_entry(state.games, state.edits, target)
    if found is None:
        raise UnknownEntry(f"Record {target} is not a recorded Classic game score.")
    stage = "semifinal" if found[0] in SEMIS else "final"
    if state.stage != stage:
        later = "The Classic final has started" if state.stage == "final" else "The Classic is over"
        name = "semi-finals" if stage == "semifinal" else "final"
        raise StageNotReady(f"{later}: reopen the {name} first.")
    return found


def _replayed(state: SideTournament, key: str, entries: tuple[Entry, ...]) -> SideTournament:
    nxt = replace(state, games={**state.games, key: ()})
    for entry in entries:
        nxt = record_classic_game(nxt, entry)
    return nxt
