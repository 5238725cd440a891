"""The EPC main tournament's state after each record: qualifying plus every stage after it (pure).

``MainState`` holds the qualifying ``Tournament`` (run exactly as "epc-qualifying") and the stage
records applied since qualifying closed. Everything the stages decide (seeding, line-up, draw,
quarter-final table, semi-final and final results, placings) is computed by ``scoring.epc.stages``,
``scoring.epc.quarterfinal`` and ``scoring.epc.finals``; this module only keeps the inputs and
refuses records the rules do not allow now (a ``ScoringError``, which the API answers with a 4xx).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from scoring.epc.errors import UnresolvedTie
from scoring.epc.finals import Game, GameResult, Placing, final_placings, finals_games, play_game
from scoring.epc.finals import semifinal_games as _semifinal_games
from scoring.epc.quarterfinal import Draw, QuarterFinal, quarterfinal, quarterfinal_draw
from scoring.epc.stages import (
    EpcStagesConfig,
    Lineup,
    Registrations,
    Seeding,
    parse_stage_settings,
    seeding,
    substitute,
)
from scoring.errors import (
    EntryNotAllowed,
    MachineAlreadyPlayed,
    SettingsError,
    UnknownMachine,
    UnknownPlayer,
)
from scoring.model import Entry
from scoring.tournament import Tournament, check_score

STAGES = ("qualifying", "quarterfinal", "semifinal", "final", "complete")
"""In the order the weekend runs them (EPC 2009: "four rounds")."""

STAGE_SETTINGS = {
    "replaced_rank": "replaced_rank",
    "vacancies": "vacancies",
    "absent_standby": "absent_standby",
    "pairing": "pairing",
    "quarterfinal_ties": "cut_ties",
    "place_ties": "place_ties",
    "game_ties": "game_ties",
}
"""Tournament setting -> ``EpcStagesConfig`` field. ``quarterfinal_ties`` is renamed because the
qualifying already has a ``cut_ties`` setting; ``qualify``, ``standby`` and ``scale`` of the
qualifying are also the stages' ``quarterfinalists``, ``standby`` and ``scale``."""

GAME_KEYS = {"semifinal": ("A", "B"), "final": ("playoff", "final")}
"""The games of a stage by key: semi-final groups A and B; the 5th-8th play-off and grand final."""


class StageNotReady(EntryNotAllowed):
    """A stage record that the rules do not allow yet (EPC 2009: the stages run in order)."""

    code = "stage_not_ready"


def stages_config(settings: Mapping[str, Any], qualifying: Mapping[str, Any]) -> EpcStagesConfig:
    """The stages' config from the stage settings and the qualifying's own settings. Raises
    SettingsError (EPC 2009, EPC Quarter-Finals)."""
    chosen = {STAGE_SETTINGS[k]: v for k, v in settings.items()}
    try:
        return parse_stage_settings(
            {
                **chosen,
                "quarterfinalists": qualifying["qualify"],
                "standby": qualifying["standby"],
                "scale": qualifying["scale"],
            }
        )
    except SettingsError as exc:
        raise SettingsError(exc.message.replace("quarterfinalists", "qualify")) from None


@dataclass(frozen=True)
class MainState:
    """The EPC main tournament at one log version. ``stage_settings``: the stage choices as set
    (keys of ``STAGE_SETTINGS``). ``playoffs``: the TD's play-off orders by tie
    (``"qualifying"``, ``"quarterfinal"``, ``"A"``, ``"B"``, ``"playoff"``, ``"final"``).
    ``registered``: round (1, 2) -> players who re-registered. ``round``: the quarter-final
    round started last (0: none). ``games``: stage games by key (``"qf"``, ``"A"`` …)."""

    qualifying: Tournament
    config: EpcStagesConfig
    stage_settings: Mapping[str, Any] = field(default_factory=dict)
    stage: str = "qualifying"
    playoffs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    qf_machines: tuple[str, ...] = ()
    pairs: tuple[tuple[int, int], ...] | None = None
    registered: Mapping[int, frozenset[str]] = field(default_factory=dict)
    round: int = 0
    games: Mapping[str, tuple[Entry, ...]] = field(default_factory=dict)
    game_machines: Mapping[str, str] = field(default_factory=dict)

    # ---- what the stages decide (computed once per state) ----

    @cached_property
    def seeding(self) -> Seeding | None:
        """Seeds 1-32 and stand-bys, fixed when the quarter-finals start (EPC 2009, EPC
        Qualifying)."""
        if self.stage == "qualifying":
            return None
        return seeding(self.qualifying.standings, self.config, self.playoffs.get("qualifying", ()))

    @cached_property
    def lineup(self) -> Lineup | None:
        """Who plays each seed. Before a round's deadline its qualifiers count as present (EPC
        2009, EPC Quarter-Finals: vacancies are known five minutes before the round)."""
        if self.seeding is None:
            return None
        first = self.registered.get(1, frozenset())
        second = self.registered.get(2, frozenset())
        final_a = self.round >= 2 or (self.round >= 1 and self.config.vacancies == "together")
        if not final_a:
            second = second | {q for q in self.seeding.qualifiers[: self.config.group_size]}
        if self.round < 1:
            first = first | set(self.seeding.qualifiers[self.config.group_size :])
        return substitute(self.seeding, Registrations.of(first, second), self.config)

    @cached_property
    def draw(self) -> Draw | None:
        """Partners and machines (EPC 2009, EPC Quarter-Finals)."""
        if self.lineup is None:
            return None
        return quarterfinal_draw(self.lineup, self.qf_machines, self.config, self.pairs)

    @cached_property
    def quarterfinal(self) -> QuarterFinal | None:
        """The quarter-final table from every game so far (EPC 2009, EPC Quarter-Finals)."""
        if self.draw is None:
            return None
        return quarterfinal(
            self.draw, self.games.get("qf", ()), self.config, self.playoffs.get("quarterfinal", ())
        )

    def at_least(self, stage: str) -> bool:
        """Whether the tournament has reached ``stage``."""
        return STAGES.index(self.stage) >= STAGES.index(stage)

    @cached_property
    def semifinal_games(self) -> dict[str, Game]:
        """Semi-final groups A and B once the semi-finals started (EPC 2009, EPC Semi-Finals)."""
        qf = self.quarterfinal
        if qf is None or not self.at_least("semifinal"):
            return {}
        return dict(zip(GAME_KEYS["semifinal"], _semifinal_games(qf), strict=True))

    @cached_property
    def final_games(self) -> dict[str, Game]:
        """The 5th-8th play-off and the grand final once the finals started (EPC 2009, EPC
        Finals)."""
        qf, semi_a, semi_b = self.quarterfinal, self.result("A"), self.result("B")
        if qf is None or semi_a is None or semi_b is None or not self.at_least("final"):
            return {}
        return dict(zip(GAME_KEYS["final"], finals_games(qf, semi_a, semi_b), strict=True))

    def game(self, key: str) -> Game | None:
        """The four-player game ``key`` (``"A"``, ``"B"``, ``"playoff"``, ``"final"``) or None."""
        if key in GAME_KEYS["semifinal"]:
            return self.semifinal_games.get(key)
        return self.final_games.get(key)

    def scores(self, key: str) -> dict[str, int]:
        """Player -> score recorded so far in game ``key``."""
        return {e.player: e.score for e in self.games.get(key, ())}

    def result(self, key: str) -> GameResult | None:
        """Game ``key``'s result once every player has a score and any tie that matters is
        settled; else None (EPC 2009, EPC Semi-Finals, EPC Finals)."""
        game, scores = self.game(key), self.scores(key)
        if game is None or len(scores) < len(game.players):
            return None
        try:
            return play_game(game, scores, self.config.game_ties, self.playoffs.get(key, ()))
        except UnresolvedTie:
            return None

    def tie(self, key: str) -> tuple[str, ...]:
        """Players of game ``key`` tied where the order matters and awaiting the TD's play-off."""
        game, scores = self.game(key), self.scores(key)
        if game is None or len(scores) < len(game.players) or self.result(key) is not None:
            return ()
        values = list(scores.values())
        return tuple(p for p in game.players if values.count(scores[p]) > 1)

    @cached_property
    def placings(self) -> tuple[Placing, ...] | None:
        """Every entrant's final place so far (EPC 2009, EPC Finals); None before round 1."""
        qf = self.quarterfinal
        if qf is None or self.round < 1:
            return None
        if qf.unresolved:
            return None
        return final_placings(qf, self.config, self.result("playoff"), self.result("final"))


# ---- records of the stages ----


def advance(state: MainState, record: Mapping[str, Any]) -> MainState:
    """``stage_advanced``: move to the next stage, after checking the current one is done."""
    target = record.get("stage")
    if target not in STAGES[1:]:
        raise SettingsError(f"Stage must be one of {', '.join(STAGES[1:])}, not {target!r}.")
    want = STAGES[STAGES.index(state.stage) + 1] if state.stage != "complete" else None
    if target != want:
        now = state.stage.replace("final", "finals") if state.stage == "final" else state.stage
        raise StageNotReady(
            f"The tournament is at the {now} stage; the next stage is {want or 'none'}, "
            f"not {target}."
        )
    if target == "quarterfinal":
        return _to_quarterfinal(state, record)
    if target == "semifinal":
        qf = state.quarterfinal
        assert qf is not None
        if state.round < 2 or not qf.complete:
            missing = _missing_games(state)
            raise StageNotReady(
                f"The quarter-finals are not finished: {missing} game(s) still to record"
                + ("" if state.round >= 2 else " and round 2 has not started")
                + "."
            )
        qf.semifinalists  # noqa: B018 - raises UnresolvedTie while the top 8 awaits a play-off
        return _with_machines(replace(state, stage="semifinal"), record, "semifinal")
    key_pair = GAME_KEYS["semifinal"] if target == "final" else GAME_KEYS["final"]
    _need_results(state, key_pair)
    nxt = replace(state, stage=target)
    return _with_machines(nxt, record, "final") if target == "final" else nxt


def _need_results(state: MainState, keys: tuple[str, ...]) -> None:
    names = {"A": "semi-final A", "B": "semi-final B", "playoff": "5th-8th play-off"}
    names["final"] = "grand final"
    for key in keys:
        if state.result(key) is None:
            tied = state.tie(key)
            why = (
                f"players {', '.join(tied)} are tied; record their play-off order"
                if tied
                else "not every score is in"
            )
            raise StageNotReady(f"The {names[key]} is not decided: {why}.")


def _to_quarterfinal(state: MainState, record: Mapping[str, Any]) -> MainState:
    known = list(state.qualifying.machines)
    machines = record.get("machines") or known[: max(3, state.config.group_size // 2)]
    if not isinstance(machines, list) or not all(isinstance(m, str) for m in machines):
        raise SettingsError("The quarter-final machines are a list of machine ids.")
    for machine in machines:
        if machine not in state.qualifying.machines:
            raise UnknownMachine(f"There is no machine {machine} in this tournament.")
    pairs = _pairs(record.get("pairs"))
    nxt = replace(state, stage="quarterfinal", qf_machines=tuple(machines), pairs=pairs)
    if nxt.seeding is not None and len(nxt.seeding.qualifiers) < state.config.quarterfinalists:
        raise StageNotReady(
            f"Only {len(nxt.seeding.qualifiers)} players have a qualifying place; the "
            f"quarter-finals need {state.config.quarterfinalists}."
        )
    nxt.draw  # noqa: B018 - raises SettingsError for bad machines or pairs
    return nxt


def _pairs(raw: object) -> tuple[tuple[int, int], ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(s, int) for s in p) for p in raw
    ):
        raise SettingsError("Pairs are a list of [seed, seed] pairs, e.g. [[1, 16], [2, 15]].")
    return tuple((p[0], p[1]) for p in raw)


def _with_machines(state: MainState, record: Mapping[str, Any], stage: str) -> MainState:
    raw = record.get("machines") or {}
    if not isinstance(raw, dict) or not set(raw) <= set(GAME_KEYS[stage]):
        raise SettingsError(
            f"Machines for the {stage} games are given by game: {', '.join(GAME_KEYS[stage])}."
        )
    for machine in raw.values():
        if machine not in state.qualifying.machines:
            raise UnknownMachine(f"There is no machine {machine} in this tournament.")
    return replace(state, game_machines={**state.game_machines, **raw})


def set_pairs(state: MainState, record: Mapping[str, Any]) -> MainState:
    """``pairs_set``: the TD's partners, before the first quarter-final round starts."""
    if state.stage != "quarterfinal" or state.round >= 1:
        raise StageNotReady("Partners are set after qualifying closes and before round 1 starts.")
    nxt = replace(state, pairs=_pairs(record.get("pairs")))
    nxt.draw  # noqa: B018 - raises SettingsError
    return nxt


def register(state: MainState, record: Mapping[str, Any]) -> MainState:
    """``registered``: a qualifier or stand-by re-registered at the desk for a round (or, with
    ``present`` false, the mark is taken back) before that round's deadline (EPC 2009, EPC
    Quarter-Finals: "re-register to confirm their attendance")."""
    player, rnd = str(record.get("player")), record.get("round")
    seeds = state.seeding
    if seeds is None or state.stage != "quarterfinal":
        raise StageNotReady("Re-registration opens when qualifying closes.")
    if rnd not in (1, 2):
        raise SettingsError(f"Round must be 1 (group B) or 2 (group A), not {rnd!r}.")
    closed = state.round >= rnd or (state.round >= 1 and state.config.vacancies == "together")
    if closed:
        raise StageNotReady(f"Re-registration for round {rnd} has closed: the round has started.")
    group = seeds.qualifiers[: state.config.group_size] if rnd == 2 else seeds.qualifiers
    group = group if rnd == 2 else seeds.qualifiers[state.config.group_size :]
    if player not in group and player not in seeds.standby:
        where = "a quarter-finalist of that round nor a stand-by"
        if player not in state.qualifying.players:
            raise UnknownPlayer(f"No player number {player} is registered in this tournament.")
        raise EntryNotAllowed(f"Player {player} is neither {where} (round {rnd}).")
    now = state.registered.get(rnd, frozenset())
    now = now | {player} if record.get("present", True) else now - {player}
    return replace(state, registered={**state.registered, rnd: now})


def start_round(state: MainState, record: Mapping[str, Any]) -> MainState:
    """``round_started``: the quarter-final round's deadline passed; vacancies are filled (EPC
    2009, EPC Quarter-Finals: group B "starting at 11am", group A "at 1pm")."""
    rnd = record.get("round")
    if state.stage != "quarterfinal" or rnd != state.round + 1 or rnd not in (1, 2):
        raise StageNotReady(
            f"The next quarter-final round to start is {state.round + 1}, not {rnd!r}."
            if state.stage == "quarterfinal" and state.round < 2
            else "No quarter-final round can start now."
        )
    return replace(state, round=rnd)


def record_playoff(state: MainState, record: Mapping[str, Any]) -> MainState:
    """``playoff_recorded``: the TD's order for tied players, best first (EPC 2009; ties the text
    leaves to a play-off: qualifying places, the quarter-final top 8, a semi-final or final)."""
    tie, order = record.get("tie"), record.get("order")
    allowed = ("qualifying", "quarterfinal", *GAME_KEYS["semifinal"], *GAME_KEYS["final"])
    if tie not in allowed:
        raise SettingsError(f"A play-off is for one of {', '.join(allowed)}, not {tie!r}.")
    if not isinstance(order, list) or not order or not all(isinstance(p, str) for p in order):
        raise SettingsError("A play-off order is a list of player numbers, best first.")
    for player in order:
        if player not in state.qualifying.players:
            raise UnknownPlayer(f"No player number {player} is registered in this tournament.")
    if tie == "qualifying" and state.stage != "qualifying":
        raise StageNotReady("The qualifying order is fixed once the quarter-finals start.")
    return replace(state, playoffs={**state.playoffs, str(tie): tuple(order)})


def record_game(state: MainState, seq: int, record: Mapping[str, Any]) -> MainState:
    """``score_recorded`` after qualifying: one quarter-final game, or a player's score in their
    semi-final or final game (EPC 2009, EPC Quarter-Finals, EPC Semi-Finals, EPC Finals)."""
    entry = Entry(seq, str(record["player"]), str(record["machine"]), check_score(record["score"]))
    if entry.machine not in state.qualifying.machines:
        raise UnknownMachine(f"There is no machine {entry.machine} in this tournament.")
    if entry.player not in state.qualifying.players:
        raise UnknownPlayer(f"No player number {entry.player} is registered in this tournament.")
    if state.stage == "quarterfinal":
        return _qf_game(state, entry)
    if state.stage in GAME_KEYS:
        return _stage_game(state, entry)
    raise StageNotReady("The EPC is over: no more scores are recorded.")


def _qf_game(state: MainState, entry: Entry) -> MainState:
    draw = state.draw
    assert draw is not None
    pair = draw.pair_of(entry.player)
    if pair is not None and (state.round < 1 or (pair.group == "A" and state.round < 2)):
        rnd = 1 if pair.group == "B" else 2
        raise StageNotReady(
            f"Player {entry.player} plays in quarter-final round {rnd}, which has not started."
        )
    games = (*state.games.get("qf", ()), entry)
    nxt = replace(state, games={**state.games, "qf": games})
    nxt.quarterfinal  # noqa: B018 - raises UnknownPlayer, NotAllocated, MachineAlreadyPlayed
    return nxt


def _stage_game(state: MainState, entry: Entry) -> MainState:
    keys = [k for k in GAME_KEYS[state.stage] if entry.player in _players(state, k)]
    if not keys:
        where = "semi-finals" if state.stage == "semifinal" else "finals"
        raise UnknownPlayer(f"Player {entry.player} is not playing in the {where}.")
    key = keys[0]
    game = state.game(key)
    assert game is not None
    machine = state.game_machines.get(key)
    if machine is not None and entry.machine != machine:
        name = state.qualifying.machines[machine].name
        raise EntryNotAllowed(f"The {game.name} is played on {name}, not {entry.machine}.")
    if entry.player in state.scores(key):
        raise MachineAlreadyPlayed(f"Player {entry.player} already has a score in the {game.name}.")
    return replace(state, games={**state.games, key: (*state.games.get(key, ()), entry)})


def _players(state: MainState, key: str) -> tuple[str, ...]:
    game = state.game(key)
    return game.players if game is not None else ()


def _missing_games(state: MainState) -> int:
    draw, qf = state.draw, state.quarterfinal
    assert draw is not None and qf is not None
    played: dict[tuple[str, str], int] = {}
    for e in state.games.get("qf", ()):
        played[e.player, e.machine] = played.get((e.player, e.machine), 0) + 1
    return sum(
        2 - played.get((p, m), 0)
        for pair in draw.pairs
        for p in pair.players
        if p is not None
        for m in pair.machines
    )
