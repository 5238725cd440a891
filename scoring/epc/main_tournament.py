"""The EPC 2009 main tournament from the first qualifying game to the last placing: its state and
the steps the TD and the stewards take through the stages.

Rule text: EPC 2009 rules, "EPC Qualifying", "EPC Quarter-Finals", "EPC Semi-Finals" and "EPC
Finals". ``MainTournament`` holds the qualifying ``Tournament`` (run exactly as "epc-qualifying")
and the stage inputs recorded since qualifying closed; everything the stages decide (seeding,
line-up, draw, quarter-final table, semi-final and final results, placings) is computed from them
by ``scoring.epc.stages``, ``scoring.epc.quarterfinal`` and ``scoring.epc.finals``. Each step below
takes the state and its inputs, already parsed (``display.competitions.epc_main.records`` refuses a
missing field, a value of the wrong type or an id that names nothing), and returns the new state,
or raises what the rules refuse: ``StageNotReady`` for a step out of order or too early.

Readings Backglass takes where the text is silent (docs/rules.md, "EPC main stages"):

- the stages run in order, one at a time (``STAGES``), each once the one before it is decided;
- starting the quarter-finals closes qualifying: no player enters after it, its settings and its
  play-off order are fixed, and the seeding is frozen in that record's state (``closed_standings``):
  no later record changes it but the TD's ``reseed``, and a correction that would change a
  qualifying result is refused (setting ``late_corrections``) until the TD reopens qualifying;
- the TD may reopen the stage before the current one (``reopen``) while the current one has no
  game recorded: a way back, never a silent redraw;
- the quarter-final machines default to the first ones added, one per pair of a group (at least
  three); a semi-final or final game may be tied to a machine when its stage starts;
- partners may be set until round 1 starts; a round's re-registration closes when that round starts
  (with ``vacancies="together"``, both close when round 1 starts).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any

from scoring.epc.errors import QualifyingClosed, StageNotReady, UnresolvedTie
from scoring.epc.finals import Game, GameResult, Placing, final_placings, finals_games, play_game
from scoring.epc.finals import semifinal_games as _semifinal_games
from scoring.epc.qualifying import EPC_QUALIFYING
from scoring.epc.quarterfinal import Draw, QuarterFinal, quarterfinal, quarterfinal_draw
from scoring.epc.stage_edits import StageEdits, find_stage_entry, without
from scoring.epc.stages import (
    EpcStagesConfig,
    Lineup,
    Registrations,
    Seeding,
    compose_playoffs,
    parse_stage_settings,
    seeding,
    substitute,
)
from scoring.errors import (
    EntryNotAllowed,
    MachineAlreadyPlayed,
    SettingsError,
    UnknownEntry,
    UnknownPlayer,
)
from scoring.model import Entry, Standings
from scoring.tournament import Tournament

STAGES = ("qualifying", "quarterfinal", "semifinal", "final", "complete")
"""In the order the weekend runs them (EPC 2009: "four rounds")."""

STAGE_SETTINGS: Mapping[str, str] = MappingProxyType(
    {
        "replaced_rank": "replaced_rank",
        "vacancies": "vacancies",
        "absent_standby": "absent_standby",
        "pairing": "pairing",
        "quarterfinal_ties": "cut_ties",
        "place_ties": "place_ties",
        "game_ties": "game_ties",
        "late_corrections": "late_corrections",
    }
)
"""Tournament setting -> ``EpcStagesConfig`` field. ``quarterfinal_ties`` is renamed because the
qualifying already has a ``cut_ties`` setting; ``qualify``, ``standby`` and ``scale`` of the
qualifying are also the stages' ``quarterfinalists``, ``standby`` and ``scale``."""

GAME_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"semifinal": ("A", "B"), "final": ("playoff", "final")}
)
"""The games of a stage by key: semi-final groups A and B; the 5th-8th play-off and grand final."""

PLAYOFF_TIES = ("qualifying", "quarterfinal", *GAME_KEYS["semifinal"], *GAME_KEYS["final"])
"""What a play-off order may settle: equal qualifying totals inside the seeded places, the
quarter-final top 8, or equal scores in one of the four-player games."""

_GAME_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "A": "semi-final A",
        "B": "semi-final B",
        "playoff": "5th-8th play-off",
        "final": "grand final",
    }
)


def split_settings(settings: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A main tournament's settings -> (the qualifying's, the stages'): the stages' are the keys
    of ``STAGE_SETTINGS``. EPC 2009, EPC Qualifying; EPC Quarter-Finals."""
    stage = {k: v for k, v in settings.items() if k in STAGE_SETTINGS}
    return {k: v for k, v in settings.items() if k not in STAGE_SETTINGS}, stage


def stages_config(settings: Mapping[str, Any], qualifying: Mapping[str, Any]) -> EpcStagesConfig:
    """The stages' config from the stage settings (keys of ``STAGE_SETTINGS``) and the qualifying's
    own settings (``EPC_QUALIFYING.settings_dict``). Raises SettingsError, naming ``qualify`` where
    the stages call it ``quarterfinalists`` and ``quarterfinal_ties`` where they call it
    ``cut_ties`` (the TD's ``cut_ties`` is the qualifying's) (EPC 2009, EPC Quarter-Finals)."""
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
        message = exc.message.replace("quarterfinalists", "qualify")
        raise SettingsError(message.replace("cut_ties", "quarterfinal_ties")) from None


@dataclass(frozen=True)
class MainTournament:
    """The EPC main tournament at one log version (EPC 2009, EPC Qualifying to EPC Finals).

    ``qualifying``: the qualifying tournament. ``config``: the stages' settings;
    ``stage_settings``: the stage choices as set (keys of ``STAGE_SETTINGS``). ``stage``: one of
    ``STAGES``. ``playoffs``: the TD's play-off orders by tie (``PLAYOFF_TIES``).
    ``qf_machines``: the quarter-final machines in draw order. ``pairs``: the TD's partners by
    seed, or None for ``config.pairing``. ``registered``: round (1, 2) -> players who
    re-registered. ``round``: the quarter-final round started last (0: none). ``games``: stage
    games by key (``"qf"``, ``"A"``, ``"B"``, ``"playoff"``, ``"final"``). ``game_machines``: game
    key -> the machine it must be played on, where the TD named one. ``closed_standings``: the
    qualifying standings as the record that started the quarter-finals found them (or the TD's
    last ``reseed``), which the seeding is made from; None while qualifying runs. ``edits``: the
    corrections and voids of stage games (``scoring.epc.stage_edits``). ``withdrawn``: players
    withdrawn from the tournament, never present for a quarter-final round.
    """

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
    closed_standings: Standings | None = None
    edits: StageEdits = field(default_factory=StageEdits)
    withdrawn: frozenset[str] = frozenset()
    closed_after: int | None = None
    in_play_at_close: tuple[tuple[str, str], ...] = ()

    def stage_entry(self, seq: object) -> tuple[Entry, int] | None:
        """The stage score that record ``seq`` (a score or its correction) stands for and its
        version, or None when it is no stage score (EPC 2009, EPC Quarter-Finals to EPC Finals).
        Raises UnknownEntry for one that was voided."""
        found = find_stage_entry(self.games, self.edits, seq)
        return None if found is None else (found[1], self.edits.version(found[1].seq))

    # ---- what the stages decide (computed once per state) ----

    @cached_property
    def seeding(self) -> Seeding | None:
        """Seeds 1-32 and stand-bys, fixed when the quarter-finals start (EPC 2009, EPC
        Qualifying); None while qualifying runs."""
        if self.stage == "qualifying":
            return None
        standings = self.closed_standings or self.qualifying.standings
        return seeding(standings, self.config, self.playoffs.get("qualifying", ()))

    @cached_property
    def lineup(self) -> Lineup | None:
        """Who plays each seed. Before a round's deadline its qualifiers count as present
        (EPC 2009, EPC Quarter-Finals: vacancies are known five minutes before the round)."""
        if self.seeding is None:
            return None
        first = self.registered.get(1, frozenset())
        second = self.registered.get(2, frozenset())
        final_a = self.round >= 2 or (self.round >= 1 and self.config.vacancies == "together")
        if not final_a:
            second = second | {q for q in self.seeding.qualifiers[: self.config.group_size]}
        if self.round < 1:
            first = first | set(self.seeding.qualifiers[self.config.group_size :])
        # a withdrawn player is a vacancy at once: the stand-by rule counts it directly
        first, second = first - self.withdrawn, second - self.withdrawn
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
        """Whether the tournament has reached ``stage`` (EPC 2009, EPC Qualifying to EPC Finals,
        in the order of ``STAGES``)."""
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
        """The four-player game ``key`` (``"A"``, ``"B"``, ``"playoff"``, ``"final"``) or None
        (EPC 2009, EPC Semi-Finals, EPC Finals)."""
        if key in GAME_KEYS["semifinal"]:
            return self.semifinal_games.get(key)
        return self.final_games.get(key)

    def scores(self, key: str) -> dict[str, int]:
        """Player -> score recorded so far in game ``key`` (EPC 2009, EPC Semi-Finals, EPC
        Finals)."""
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
        """Players of game ``key`` tied where the order matters and awaiting the TD's play-off
        (EPC 2009, EPC Semi-Finals, EPC Finals)."""
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


def new_main_tournament(
    qualifying: Tournament, stage_settings: Mapping[str, Any]
) -> MainTournament:
    """A main tournament whose qualifying is ``qualifying`` (an "epc-qualifying" tournament) and
    whose stages follow ``stage_settings`` (keys of ``STAGE_SETTINGS``). Raises SettingsError
    (EPC 2009, EPC Qualifying; EPC Quarter-Finals)."""
    config = stages_config(stage_settings, EPC_QUALIFYING.settings_dict(qualifying.config))
    return MainTournament(qualifying, config, stage_settings)


# ---- qualifying closes when the quarter-finals start ----


def check_player_may_enter(state: MainTournament) -> None:
    """Raise StageNotReady once qualifying has closed: players enter the EPC through qualifying
    (EPC 2009, EPC Qualifying: "The 32 highest ranked players then progress")."""
    if state.stage != "qualifying" or state.closed_after is not None:
        raise StageNotReady("Qualifying has closed: no more players can enter the EPC.")


def check_may_reinstate(state: MainTournament) -> None:
    """Raise StageNotReady once a quarter-final round has started: a withdrawal counts as a
    vacancy at once and a stand-by may be playing the place, so it is undone (``reinstate``)
    only while qualifying runs or before round 1 (EPC 2009, EPC Quarter-Finals; docs/rules.md)."""
    if state.round > 0 or state.stage not in ("qualifying", "quarterfinal"):
        raise StageNotReady(
            "A quarter-final round has started: the stand-by keeps the place; "
            "the withdrawal can no longer be undone."
        )


def close_qualifying(
    state: MainTournament, seq: int, playing: Sequence[tuple[str, str]]
) -> MainTournament:
    """The TD's close of qualifying at log version ``seq``, before the quarter-finals start:
    every score recorded before it counts, and so does the one score of each game in
    ``playing`` ((player, machine id): started before the close), which may still finish; no
    other score or player is taken after it. EPC 2009, EPC Qualifying (the seeding is made when
    qualifying ends); docs/rules.md, "A game that started before the close counts". Raises
    StageNotReady once it has closed."""
    if state.stage != "qualifying" or state.closed_after is not None:
        raise StageNotReady("Qualifying has already closed.")
    return replace(state, closed_after=seq - 1, in_play_at_close=tuple(playing))


def check_score_after_close(state: MainTournament, player: str, machine: str) -> None:
    """Raise QualifyingClosed for a qualifying score after the close unless it is the one score
    of a game started before it (``close_qualifying``). EPC 2009, EPC Qualifying."""
    after = state.closed_after
    if after is None:
        return
    if (player, machine) in state.in_play_at_close and not any(
        e.player == player and e.seq > after for e in state.qualifying.entries.get(machine, ())
    ):
        return
    raise QualifyingClosed("Qualifying has closed; no more qualifying scores are recorded.")


def games_in_progress(state: MainTournament) -> int:
    """How many games started before the close still have no score (the board's "qualifying
    closed · 1 game in progress"); 0 before the close. EPC 2009, EPC Qualifying."""
    after = state.closed_after
    if after is None:
        return 0
    return sum(
        1
        for player, machine in state.in_play_at_close
        if not any(
            e.player == player and e.seq > after for e in state.qualifying.entries.get(machine, ())
        )
    )


def check_qualifying_settings_may_change(state: MainTournament, names: Iterable[str]) -> None:
    """Raise SettingsError once qualifying has closed: the qualifying settings ``names`` made the
    seeding, which is final then (EPC 2009, EPC Qualifying; EPC Quarter-Finals)."""
    if state.stage != "qualifying":
        raise SettingsError(
            f"Qualifying has closed; {', '.join(sorted(names))} can no longer change."
        )


def with_settings(
    state: MainTournament, qualifying: Tournament, stage_changes: Mapping[str, Any]
) -> MainTournament:
    """``state`` with ``qualifying`` (the qualifying rebuilt under its changed settings, or as it
    was) and the stage settings changed by ``stage_changes``. Raises SettingsError, or the rule
    error a recorded quarter-final game now breaks (EPC 2009, EPC Quarter-Finals)."""
    merged = {**state.stage_settings, **stage_changes}
    config = stages_config(merged, EPC_QUALIFYING.settings_dict(qualifying.config))
    new = replace(state, qualifying=qualifying, config=config, stage_settings=merged)
    new.quarterfinal  # noqa: B018 - every recorded game must still be allowed
    return new


# ---- the stages start in order ----


def next_stage(state: MainTournament) -> str | None:
    """The stage after the current one, None once complete (EPC 2009, EPC Qualifying to EPC
    Finals: the stages run in order)."""
    return STAGES[STAGES.index(state.stage) + 1] if state.stage != "complete" else None


def check_stage_may_start(state: MainTournament, target: str) -> None:
    """Raise unless ``target`` is the next stage and the current one is decided (EPC 2009, EPC
    Quarter-Finals: "The top ranked 8 players will move on to the semi-finals"; EPC Semi-Finals:
    "the top two highest scoring contestants from each group go on to the final"; EPC Finals).

    StageNotReady: ``target`` is not the next stage; the quarter-finals have a game to record or
    round 2 has not started; a semi-final, the 5th-8th play-off or the grand final has a score to
    record or a tie awaiting its play-off. UnresolvedTie: the quarter-final top 8 awaits its
    play-off. Whether enough players qualified is ``start_quarterfinals``' to say, with the
    draw.
    """
    want = next_stage(state)
    if target != want:
        now = state.stage.replace("final", "finals") if state.stage == "final" else state.stage
        raise StageNotReady(
            f"The tournament is at the {now} stage; the next stage is {want or 'none'}, "
            f"not {target}."
        )
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
    elif target in ("final", "complete"):
        _need_results(state, GAME_KEYS["semifinal"] if target == "final" else GAME_KEYS["final"])


def _need_results(state: MainTournament, keys: tuple[str, ...]) -> None:
    for key in keys:
        if state.result(key) is None:
            tied = state.tie(key)
            why = (
                f"players {', '.join(tied)} are tied; record their play-off order"
                if tied
                else "not every score is in"
            )
            raise StageNotReady(f"The {_GAME_NAMES[key]} is not decided: {why}.")


def _missing_games(state: MainTournament) -> int:
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


def default_quarterfinal_machines(state: MainTournament) -> tuple[str, ...]:
    """The quarter-final machines when the TD names none: the first added, one per pair of a
    group and at least three (EPC 2009, EPC Quarter-Finals: "on three allocated machines"; group
    A "on the same machines in the same way")."""
    return tuple(list(state.qualifying.machines)[: max(3, state.config.group_size // 2)])


def start_quarterfinals(
    state: MainTournament,
    machines: Sequence[str],
    pairs: tuple[tuple[int, int], ...] | None,
    open_games: Sequence[tuple[str, str]] = (),
    override: bool = False,
) -> MainTournament:
    """Close qualifying and start the quarter-finals on ``machines`` (ids of the tournament, in
    draw order) with the TD's ``pairs`` of seeds (None: ``config.pairing``). EPC 2009, EPC
    Qualifying ("Thirty-two players proceed"); EPC Quarter-Finals. ``open_games``: (player,
    machine name) of qualifying games started and not yet scored; they must be recorded first
    unless the TD ``override``s (their scores then cannot count: the seeding is made now).

    Raises what ``check_stage_may_start`` raises; StageNotReady for open games without
    ``override``; UnresolvedTie while equal qualifying totals
    inside the seeded places await a play-off; StageNotReady with fewer qualifiers than
    quarter-final places; SettingsError for machines or pairs the draw cannot use.
    """
    check_stage_may_start(state, "quarterfinal")
    if open_games and not override:
        games = ", ".join(f"player {p} on {m}" for p, m in open_games)
        raise StageNotReady(
            f"{len(open_games)} qualifying game(s) in progress: {games}. Record their scores "
            "first, or start the quarter-finals with override (those games will not count)."
        )
    nxt = replace(
        state,
        stage="quarterfinal",
        qf_machines=tuple(machines),
        pairs=pairs,
        closed_standings=state.qualifying.standings,
    )
    if nxt.seeding is not None and len(nxt.seeding.qualifiers) < state.config.quarterfinalists:
        raise StageNotReady(
            f"Only {len(nxt.seeding.qualifiers)} players have a qualifying place; the "
            f"quarter-finals need {state.config.quarterfinalists}."
        )
    nxt.draw  # noqa: B018 - raises SettingsError for bad machines or pairs
    return nxt


def start_semifinals(state: MainTournament, machines: Mapping[str, str]) -> MainTournament:
    """Start the semi-finals, each game (``"A"``, ``"B"``) in ``machines`` on that machine id
    (EPC 2009, EPC Semi-Finals: "Group A will consist of the 1st, 3rd, 5th and 7th highest ranked
    contestants from quarter-finals"). Raises what ``check_stage_may_start`` raises."""
    check_stage_may_start(state, "semifinal")
    return replace(state, stage="semifinal", game_machines={**state.game_machines, **machines})


def start_finals(state: MainTournament, machines: Mapping[str, str]) -> MainTournament:
    """Start the finals, each game (``"playoff"``, ``"final"``) in ``machines`` on that machine id
    (EPC 2009, EPC Finals: the 5th-8th play-off, then the grand final). Raises what
    ``check_stage_may_start`` raises."""
    check_stage_may_start(state, "final")
    return replace(state, stage="final", game_machines={**state.game_machines, **machines})


def complete(state: MainTournament) -> MainTournament:
    """End the EPC once both final games are decided (EPC 2009, EPC Finals: "The winner of the
    Grand Final will be the EPC 2009 Champion"). Raises what ``check_stage_may_start`` raises."""
    check_stage_may_start(state, "complete")
    return replace(state, stage="complete")


# ---- the quarter-finals: partners, re-registration, rounds ----


def check_pairs_may_change(state: MainTournament) -> None:
    """Raise StageNotReady unless the quarter-finals have started and round 1 has not (EPC 2009,
    EPC Quarter-Finals: "a pre-selected partner")."""
    if state.stage != "quarterfinal" or state.round >= 1:
        raise StageNotReady("Partners are set after qualifying closes and before round 1 starts.")


def set_pairs(state: MainTournament, pairs: tuple[tuple[int, int], ...] | None) -> MainTournament:
    """The TD's quarter-final partners by seed (None: back to ``config.pairing``). EPC 2009, EPC
    Quarter-Finals ("a pre-selected partner"). Raises StageNotReady (``check_pairs_may_change``),
    SettingsError for pairs the draw cannot use."""
    check_pairs_may_change(state)
    nxt = replace(state, pairs=pairs)
    nxt.draw  # noqa: B018 - raises SettingsError
    return nxt


def check_registration_open(state: MainTournament) -> None:
    """Raise StageNotReady unless the quarter-finals have started: re-registration is for a
    quarter-final round (EPC 2009, EPC Quarter-Finals: "re-register to confirm their
    attendance")."""
    if state.seeding is None or state.stage != "quarterfinal":
        raise StageNotReady("Re-registration opens when qualifying closes.")


def register(state: MainTournament, player: str, rnd: int, present: bool) -> MainTournament:
    """``player`` re-registered at the desk for round ``rnd`` (1: group B, 2: group A), or with
    ``present`` false the mark taken back, before that round's deadline (EPC 2009, EPC
    Quarter-Finals: "A player will be deemed unavailable if they have not re-registered at the
    tournament desk five minutes before the start of the round").

    Raises StageNotReady (``check_registration_open``, or the round has started; with
    ``vacancies="together"`` both rounds close when round 1 starts); UnknownPlayer for a number
    nobody has; EntryNotAllowed for a player who is neither a qualifier of that round nor a
    stand-by.
    """
    check_registration_open(state)
    seeds = state.seeding
    assert seeds is not None
    closed = state.round >= rnd or (state.round >= 1 and state.config.vacancies == "together")
    if closed:
        raise StageNotReady(f"Re-registration for round {rnd} has closed: the round has started.")
    size = state.config.group_size
    group = seeds.qualifiers[:size] if rnd == 2 else seeds.qualifiers[size:]
    if player in state.withdrawn and present:
        raise EntryNotAllowed(f"Player {player} has withdrawn and cannot be registered.")
    if player not in group and player not in seeds.standby:
        where = "a quarter-finalist of that round nor a stand-by"
        if player not in state.qualifying.players:
            raise UnknownPlayer(f"No player number {player} is registered in this tournament.")
        raise EntryNotAllowed(f"Player {player} is neither {where} (round {rnd}).")
    now = state.registered.get(rnd, frozenset())
    now = now | {player} if present else now - {player}
    return replace(state, registered={**state.registered, rnd: now})


def start_round(state: MainTournament, rnd: object) -> MainTournament:
    """Quarter-final round ``rnd`` (as recorded)'s deadline passed: its vacancies are filled and
    its games may be recorded (EPC 2009, EPC Quarter-Finals: group B "starting at 11am", group A
    "at 1pm"). Raises StageNotReady unless ``rnd`` is the next round of the quarter-finals."""
    if state.stage != "quarterfinal" or rnd != state.round + 1 or rnd not in (1, 2):
        raise StageNotReady(
            f"The next quarter-final round to start is {state.round + 1}, not {rnd!r}."
            if state.stage == "quarterfinal" and state.round < 2
            else "No quarter-final round can start now."
        )
    return replace(state, round=rnd)


# ---- play-offs and stage games ----


def record_playoff(state: MainTournament, tie: str, order: Sequence[str]) -> MainTournament:
    """The TD's order of the tied players after their play-off, best first, for ``tie`` (one of
    ``PLAYOFF_TIES``). EPC 2009, EPC Qualifying; EPC Quarter-Finals; EPC Semi-Finals; EPC Finals
    (the ties the text leaves to a play-off). Play-off records compose: a record for other
    players (a second tie, 3= after 6=) adds its order to the earlier ones, and one naming
    players already ordered orders them again (``compose_playoffs``). Raises StageNotReady for a
    qualifying order once the quarter-finals have started: the seeding is final then."""
    if tie == "qualifying" and state.stage != "qualifying":
        raise StageNotReady("The qualifying order is fixed once the quarter-finals start.")
    merged = compose_playoffs(state.playoffs.get(tie, ()), order)
    return replace(state, playoffs={**state.playoffs, tie: merged})


def record_game(state: MainTournament, entry: Entry) -> MainTournament:
    """A score after qualifying: one quarter-final game, or a player's score in their semi-final
    or final game (EPC 2009, EPC Quarter-Finals: "two two-player games ... on three allocated
    machines"; EPC Semi-Finals; EPC Finals). ``entry``: a whole-number score of a player and a
    machine of the tournament.

    Raises StageNotReady once the EPC is over or for a quarter-finalist whose round has not
    started; UnknownPlayer for a player not in the current stage; NotAllocated, a machine not
    their pair's; EntryNotAllowed, not the machine the TD named for the game;
    MachineAlreadyPlayed, a third quarter-final game on a machine or a second score in a game.
    """
    if state.stage == "quarterfinal":
        return _quarterfinal_game(state, entry)
    if state.stage in GAME_KEYS:
        return _stage_game(state, entry)
    raise StageNotReady("The EPC is over: no more scores are recorded.")


def _quarterfinal_game(state: MainTournament, entry: Entry) -> MainTournament:
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


def _stage_game(state: MainTournament, entry: Entry) -> MainTournament:
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


def _players(state: MainTournament, key: str) -> tuple[str, ...]:
    game = state.game(key)
    return game.players if game is not None else ()


# ---- once qualifying has closed: corrections, re-seeding, reopening ----

_STARTED: Mapping[str, str] = MappingProxyType(
    {
        "quarterfinal": "The quarter-finals have started",
        "semifinal": "The semi-finals have started",
        "final": "The finals have started",
        "complete": "The EPC is complete",
    }
)


def check_qualifying_result_kept(state: MainTournament, qualifying: Tournament) -> None:
    """Raise StageNotReady if ``qualifying`` (the qualifying after a hall record: a correction, a
    void, a machine replaced) has other standings than ``state``'s once qualifying has closed,
    unless ``late_corrections`` is ``"keep-draw"``. EPC 2009, EPC Qualifying ("The 32 highest
    ranked players then progress to the quarter-finals": the seeding is made at the close, and
    a running stage changes only by the TD's own record, docs/rules.md)."""
    if state.stage == "qualifying" or state.config.late_corrections == "keep-draw":
        return
    if qualifying.standings != state.qualifying.standings:
        raise StageNotReady(f"{_STARTED[state.stage]}: reopen qualifying first.")


def reseed(state: MainTournament) -> MainTournament:
    """The TD's re-seeding (EPC 2009, EPC Qualifying; EPC Quarter-Finals): the quarter-finals'
    seeding made again from the qualifying standings as they are now (after corrections accepted
    with ``late_corrections="keep-draw"``). Raises StageNotReady outside the quarter-finals;
    UnresolvedTie for equal totals the qualifying play-off order does not settle; the rule error
    a recorded quarter-final game breaks under the new draw."""
    if state.stage != "quarterfinal":
        raise StageNotReady("The seeding can be made again only while the quarter-finals run.")
    nxt = replace(state, closed_standings=state.qualifying.standings)
    nxt.quarterfinal  # noqa: B018 - every recorded game must fit the new draw
    return nxt


_BEFORE: Mapping[str, str] = MappingProxyType(
    {
        "quarterfinal": "qualifying",
        "semifinal": "quarterfinal",
        "final": "semifinal",
        "complete": "final",
    }
)


def reopen(state: MainTournament, target: object) -> MainTournament:
    """The TD reopens ``target`` (as recorded), the stage before the current one, while the
    current one has no game recorded: reopening qualifying undoes the close (the seeding, the
    draw, the re-registrations and rounds go; qualifying takes corrections and players again);
    reopening the quarter-finals or semi-finals takes back the next stage's start (its
    machines and play-off orders go), so the TD may correct the games that decided it. EPC 2009,
    EPC Qualifying to EPC Finals (the stages run in order; docs/rules.md, "Reopening a stage").

    Raises StageNotReady for another stage, or while the current stage has games recorded."""
    want = _BEFORE.get(state.stage)
    if want is None or target != want:
        raise StageNotReady(
            f"Only the stage before the current one can be reopened ({want or 'none'}), "
            f"not {target!r}."
        )
    keys = ("qf",) if state.stage == "quarterfinal" else GAME_KEYS.get(state.stage, ())
    played = sum(len(state.games.get(k, ())) for k in keys)
    if played:
        raise StageNotReady(
            f"{_STARTED[state.stage]} and {played} game(s) are recorded: void them before "
            f"reopening {want}."
        )
    if want == "qualifying":
        playoffs = {k: v for k, v in state.playoffs.items() if k == "qualifying"}
        return replace(
            state,
            stage="qualifying",
            qf_machines=(),
            pairs=None,
            registered={},
            round=0,
            playoffs=playoffs,
            closed_standings=None,
            closed_after=None,
            in_play_at_close=(),
        )
    dropped = GAME_KEYS.get(state.stage, ())
    return replace(
        state,
        stage=want,
        playoffs={k: v for k, v in state.playoffs.items() if k not in dropped},
        game_machines={k: v for k, v in state.game_machines.items() if k not in dropped},
    )


# ---- corrections and voids of stage games ----

_GAME_STAGE: Mapping[str, str] = MappingProxyType(
    {"qf": "quarterfinal", "A": "semifinal", "B": "semifinal", "playoff": "final", "final": "final"}
)
_STAGE_NAMES: Mapping[str, str] = MappingProxyType(
    {"quarterfinal": "quarter-finals", "semifinal": "semi-finals", "final": "finals"}
)


def correct_stage_game(
    state: MainTournament,
    seq: int,
    target: object,
    score: int,
    player: str | None = None,
    machine: str | None = None,
) -> MainTournament:
    """The TD's correction at ``seq`` of the stage score record ``target`` names: its ``score``,
    and ``player`` or ``machine`` where the wrong one was typed (EPC 2009, EPC Qualifying: "The
    contestant should verify the score", applied to every stage game; EPC Quarter-Finals to EPC
    Finals). Who goes through is recomputed from the corrected games while their stage runs.

    Raises UnknownEntry (no stage score, or voided); StageNotReady once a later stage has started
    ("The semi-finals have started: reopen the quarter-finals first."); what ``record_game``
    raises for the corrected score."""
    key, entry = _stage_score(state, target)
    fixed = Entry(entry.seq, player or entry.player, machine or entry.machine, score)
    nxt = _rebuilt(state, key, without(state.games, key, entry.seq, fixed))
    return replace(nxt, edits=state.edits.corrected(seq, entry.seq))


def void_stage_game(state: MainTournament, seq: int, target: object) -> MainTournament:
    """The TD's void at ``seq`` of the stage score record ``target`` names: the game counts as
    never played (EPC 2009, EPC Qualifying; EPC Quarter-Finals to EPC Finals). Raises what
    ``correct_stage_game`` raises."""
    key, entry = _stage_score(state, target)
    nxt = _rebuilt(state, key, without(state.games, key, entry.seq, None))
    return replace(nxt, edits=state.edits.void(seq, entry.seq))


def _stage_score(state: MainTournament, target: object) -> tuple[str, Entry]:
    found = find_stage_entry(state.games, state.edits, target)
    if found is None:
        raise UnknownEntry(f"Record {target} is not a recorded stage score.")
    stage = _GAME_STAGE[found[0]]
    if state.stage != stage:
        raise StageNotReady(f"{_STARTED[state.stage]}: reopen the {_STAGE_NAMES[stage]} first.")
    return found


def _rebuilt(state: MainTournament, key: str, entries: tuple[Entry, ...]) -> MainTournament:
    """``state`` with game ``key`` played again from ``entries``, each checked as when recorded."""
    nxt = replace(state, games={**state.games, key: ()})
    for entry in entries:
        nxt = record_game(nxt, entry)
    return nxt
