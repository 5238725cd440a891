"""The ``epc_main`` kind: the EPC 2009 main tournament from qualifying to the last placing
(format ``"epc-main"``), and the EPC Classic with its semi-finals and final (``"epc-classic"``,
taken over from the machines kind, see ``display/competitions/epc_main/boards.py``).

Qualifying is exactly "epc-qualifying" (the machines kind's records and views, wrapped). When the
TD starts the quarter-finals qualifying closes, the seeding is fixed and every later score is a
stage game. Stage records (all TD-only through ``display/competitions/epc_main/routes.py``, except the
scores, which stewards push through ``POST /api/t/{t}/scores`` as in qualifying):

| record             | fields                                  | rule (EPC 2009)               | views touched        |
|--------------------|-----------------------------------------|-------------------------------|----------------------|
| tournament_created | name, format, settings                  |                               | every view           |
| player_added       | player {number, name}  (qualifying only)| Qualifying                    | players, standings   |
| machine_added      | machine {id, name}                      |                               | machines, machine/…  |
| score_recorded     | player, machine, score                  | Qualifying: a qualifying game | machine/<m>, standings|
|                    |                                         | Quarter-Finals: one QF game   | quarterfinal(/<m>), placings |
|                    |                                         | Semi-Finals, Finals: a score  | semifinal / finals, placings |
| settings_changed   | settings {name: value}                  |                               | every view           |
| qualifying_closed  | (none)                                  | Qualifying ends; games in play may finish | every view |
| stage_advanced     | stage, machines?, pairs?                | the stages run in order       | every view           |
| pairs_set          | pairs [[seed, seed], …]                 | Quarter-Finals "partner"      | every view           |
| registered         | player, round (1 or 2), present?        | Quarter-Finals "re-register"  | quarterfinal, stage  |
| round_started      | round (1 or 2)                          | Quarter-Finals 11am / 1pm     | every view           |
| playoff_recorded   | tie, order [players, best first]        | ties left to a play-off       | every view           |
| score_corrected    | corrects (a stage score's seq), score, reason, player?, machine? | a stage game put right | every view |
| score_voided       | voids (a stage score's seq), reason     | a stage game never played     | every view           |
| stage_reopened     | stage (the one before the current), reason | the stages run in order    | every view           |
| reseeded           | reason                                  | Qualifying: the seeding       | every view           |

``stage_advanced.stage`` is ``"quarterfinal"`` (``machines``: the 8 quarter-final machine ids,
default the first 8 added; ``pairs``: the TD's partners by seed, default ``pairing``),
``"semifinal"`` / ``"final"`` (``machines``: ``{"A": id, "B": id}`` / ``{"playoff": id,
"final": id}``, optional: when given, that game's scores must be on that machine) or
``"complete"``. ``playoff_recorded.tie``: ``"qualifying"`` (equal totals inside the 38 seeded
places), ``"quarterfinal"`` (the top 8 with ``quarterfinal_ties="playoff"``), ``"A"``, ``"B"``,
``"playoff"`` or ``"final"`` (equal scores in that game with ``game_ties="playoff"``).

Once qualifying has closed, a hall record (a correction, a void, a machine replaced) that would
change the qualifying standings is refused ("The quarter-finals have started: reopen qualifying
first."), or with ``late_corrections="keep-draw"`` accepted without touching the seeding, which
the ``stage_advanced`` record to the quarter-finals froze; only ``reseeded`` or
``stage_reopened`` change a running stage.

The rules of each step are ``scoring.epc.main_tournament``'s (``MainTournament`` is the state);
``display.competitions.epc_main.records`` reads the stage records' fields and calls them.

Settings: every "epc-qualifying" setting, plus the stage choices of ``scoring.epc.stages``
(``replaced_rank``, ``vacancies``, ``absent_standby``, ``pairing``, ``quarterfinal_ties`` for the
stages' ``cut_ties``, ``place_ties``, ``game_ties``); ``qualify``, ``standby`` and ``scale`` serve
both.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from display.competitions.base import EVERY_VIEW
from display.competitions.epc_main import boards as epc_boards
from display.competitions.epc_main import views as stage_views
from display.competitions.epc_main.records import (
    STAGE_EDITS,
    STAGE_RECORDS,
    score_recorded,
    stage_edit,
)
from display.competitions.machines.kind import HALL_RECORDS, MACHINES, as_hall
from display.competitions.machines.views import cut_tie_doc, standings_view
from display.types import Doc, FormatSettings, Record, Touched
from scoring import EPC_QUALIFYING
from scoring.cut_tie import CutTie
from scoring.epc.main_tournament import (
    STAGE_SETTINGS,
    MainTournament,
    check_may_reinstate,
    check_player_may_enter,
    check_qualifying_result_kept,
    check_qualifying_settings_may_change,
    check_score_after_close,
    close_qualifying,
    games_in_progress,
    new_main_tournament,
    split_settings,
    with_settings,
)
from scoring.epc.qualifying import cut_standings
from scoring.epc.side_tournaments import SideTournament
from scoring.errors import SettingsError
from scoring.model import Standings
from scoring.tournament import new_tournament

FORMAT = "epc-main"
TITLE = "EPC main tournament"

QUALIFYING_RECORDS = ("player_added", "machine_added", "score_recorded", "settings_changed")

EpcState = MainTournament | SideTournament
"""The state of an "epc-main" tournament, or of an "epc-classic" or "epc-kids" one."""


class EpcMainKind:
    """Records of "epc-main" -> ``MainTournament`` -> views; "epc-classic" and "epc-kids" go to
    ``epc_boards``."""

    name = "epc_main"

    def create(self, record: Record) -> EpcState:
        """``tournament_created`` -> an empty ``MainTournament`` ("epc-main") or
        ``SideTournament``. Raises SettingsError for a bad setting."""
        if record["format"] != FORMAT:
            return epc_boards.BOARDS.create(record)
        qualifying, stage = split_settings(record.get("settings") or {})
        return new_main_tournament(new_tournament(EPC_QUALIFYING, qualifying), stage)

    def apply(self, state: EpcState, seq: int, record: Record) -> tuple[EpcState, Touched]:
        """``record`` at version ``seq`` -> (new state, views touched). Raises the ScoringError
        the rules or the record's fields give (module docstring's table)."""
        if not isinstance(state, MainTournament):
            return epc_boards.BOARDS.apply(state, seq, record)
        kind = record["type"]
        if kind == "qualifying_closed":
            # the games in play may finish: "qualifying closed · 1 game in progress"
            playing = epc_boards.games_in_play(state.qualifying)
            return close_qualifying(state, seq, playing), {EVERY_VIEW}
        if kind in STAGE_RECORDS:
            return STAGE_RECORDS[kind](state, record), {EVERY_VIEW}
        if kind == "settings_changed":
            return self.with_settings(state, record["settings"]), {EVERY_VIEW}
        if kind == "score_recorded" and state.stage != "qualifying":
            new = score_recorded(state, seq, record)
            return new, self.touched_by_game(new, str(record["machine"]))
        if kind in STAGE_EDITS and state.stage_entry(record.get(STAGE_EDITS[kind])) is not None:
            return stage_edit(state, seq, record), {EVERY_VIEW}
        if kind == "player_added":
            check_player_may_enter(state)
        if kind == "score_recorded":
            check_score_after_close(state, str(record["player"]), str(record["machine"]))
        if kind not in QUALIFYING_RECORDS and kind not in HALL_RECORDS:
            raise SettingsError(f"The EPC main tournament has no record {kind!r}.")
        qualifying, touched = MACHINES.apply(state.qualifying, seq, record)
        check_qualifying_result_kept(state, qualifying)
        if kind == "player_reinstated":
            check_may_reinstate(state)
        if kind in ("player_withdrawn", "player_reinstated", "players_merged"):
            withdrawn = frozenset(as_hall(qualifying).hall.withdrawn)
            new = replace(state, qualifying=qualifying, withdrawn=withdrawn)
            return new, touched | ({EVERY_VIEW} if state.stage != "qualifying" else set())
        if "standings" in touched:  # a tie at the cut is in the stage's words too
            touched = {*touched, "stage"}
        if state.closed_after is not None:  # "N games in progress" on the board
            touched = {*touched, "tournament"}
        return replace(state, qualifying=qualifying), touched

    def touched_by_game(self, state: MainTournament, machine: str) -> Touched:
        """The views a stage game changes: its stage's, the placings and the stage summary."""
        if state.stage == "quarterfinal":
            return {"quarterfinal", f"quarterfinal/{machine}", "placings", "stage"}
        return {"semifinal", "finals", "placings", "stage"}

    def with_settings(self, state: MainTournament, changes: FormatSettings) -> MainTournament:
        """Changed settings; qualifying ones only while qualifying runs. Raises SettingsError, or
        the rule error a recorded game now breaks."""
        qualifying, stage = split_settings(changes)
        tournament = state.qualifying
        if qualifying:
            check_qualifying_settings_may_change(state, qualifying)
            tournament = MACHINES.with_settings(tournament, qualifying)
        return with_settings(state, tournament, stage)

    def view_names(self, state: EpcState) -> Iterable[str]:
        """The qualifying's views, ``stage``, and each stage's views once it has started."""
        if not isinstance(state, MainTournament):
            yield from epc_boards.BOARDS.view_names(state)
            return
        yield from MACHINES.view_names(state.qualifying)
        yield "stage"
        if state.at_least("quarterfinal"):
            yield from ("quarterfinal", "placings")
            yield from (f"quarterfinal/{m}" for m in state.qf_machines)
        if state.at_least("semifinal"):
            yield "semifinal"
        if state.at_least("final"):
            yield "finals"

    def view(self, state: EpcState, meta: Doc, name: str) -> Doc | None:
        """View ``name`` (shapes in ``display.competitions.epc_main.views``), or None."""
        if not isinstance(state, MainTournament):
            return epc_boards.BOARDS.view(state, meta, name)
        if name == "tournament":
            doc = MACHINES.view(state.qualifying, meta, name)
            assert doc is not None
            chosen = {k: getattr(state.config, f) for k, f in STAGE_SETTINGS.items()}
            settings = {**doc["settings"], **chosen}
            playing = games_in_progress(state)
            closed = {
                **({"closed": True} if state.closed_after is not None else {}),
                **({"in_progress": playing} if playing else {}),
            }
            return {**doc, "format": FORMAT, "title": TITLE, "settings": settings, **closed}
        if name == "standings":
            standings, tie = _cut(state)
            doc = standings_view(standings)
            return {**doc, "cut_tie": cut_tie_doc(tie)} if tie else doc
        if name == "stage":
            return stage_views.stage_view(state)
        if name == "quarterfinal":
            return stage_views.quarterfinal_view(state)
        if name.startswith("quarterfinal/"):
            return stage_views.quarterfinal_machine_view(state, name.removeprefix("quarterfinal/"))
        if name == "semifinal":
            return stage_views.games_view(state, "semifinal")
        if name == "finals":
            return stage_views.games_view(state, "final")
        if name == "placings":
            return stage_views.placings_view(state)
        return MACHINES.view(state.qualifying, meta, name)


def _cut(state: MainTournament) -> tuple[Standings, CutTie | None]:
    """The qualifying standings with a tie at the cut banded "tie" until the TD's qualifying
    play-off ranks it (EPC 2009, EPC Qualifying; ``scoring.epc.qualifying.cut_standings``)."""
    qualifying = as_hall(state.qualifying)
    return cut_standings(
        qualifying.config, qualifying.standings, state.playoffs.get("qualifying", ())
    )


KIND = EpcMainKind()
