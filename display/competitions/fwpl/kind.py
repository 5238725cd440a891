"""The ``fwpl`` kind: a Flip Well Pinball League season (format ``fwpl-league``), one tournament
per season: members, weekly league nights of groups playing four-game matches, the season table
and the ladder, then the playoffs. Rules: ``scoring.fwpl`` (FWPL sections cited per record); each
record's fields are read into the engine's inputs by ``records``, and the engine's entry
functions (``scoring.fwpl.league``, ``league_night``, ``bracket``) apply them or refuse them.

Randomness (the first machine of each group, a playoff match's first machine, a tie-breaker
machine) comes from a ``seed`` the API draws and stores in the record, so every replica draws the
same. Groups are cut from the ladder when the night starts (the record holds the choices: who is
absent, the LO's sizes); a score entry names week, group and game so a retry or a late phone can
never land on another game.

| record                     | fields                                                  | views touched                 |
|----------------------------|---------------------------------------------------------|-------------------------------|
| tournament_created         | name, format, settings (``state.parse_settings``)       | every view                    |
| league_player_added        | player {number, name, ifpa_rank?, joined_week?,         | players, season, standings    |
|                            | missed_countable?} (FWPL 2.4, 4.3)                      |                               |
| player_added               | player {number, name, guest: false} (the generic API)   | players, season, standings    |
| machine_added              | machine {id, name}                                      | machines, night/<week>        |
| night_started              | week, seed, absent [numbers], sizes? (3.1, 4.1-4.3, 5)  | night/<week>, season, …       |
| machine_picked             | week, group, game_no, machine, reason? (5, 5.1)         | night/<week>                  |
| last_ball_reached          | week, group, game_no (5: others may pick the machine)   | night/<week>                  |
| machine_died               | week, group, game_no, machine, replay_on, reason (7.3:  | night/<week>                  |
|                            | unplayable tonight, the game replayed on replay_on)     |                               |
| game_recorded              | week, group, game_no, machine, scores {number: score or | night/<week>, season,         |
|                            | null}, playoff [order]?, penalties {number: kind}?,     | standings                     |
|                            | late [numbers]?, compensatory {number: {score,          |                               |
|                            | subtract}}? (2.3, 2.4, 3.2, 7.3, 8.1, 8.2, 8.7)         |                               |
| game_line_recorded         | week, group, game_no, machine, player, score or null,   | night/<week>, season,         |
|                            | penalty?, late?, compensatory?, subtract?, playoff?     | standings                     |
| score_recorded             | player, machine, score (the generic steward page: one   | as game_line_recorded         |
|                            | line of the player's group's next game tonight)         |                               |
| game_corrected             | week, group, game_no, machine?, scores…, reason (3)     | night/<week>, season, …       |
|                            | or division, players, game_no, …: a playoff game (6.3)  | bracket                       |
| penalty_recorded           | week, group, player, penalty, game_no?, reason (8.x)    | night/<week>, season, …       |
| third_offence_recorded     | player, reason (8.5 automatic third offence)            | night/<week>, season, …       |
| night_closed               | week (all games played; 3.3 final)                      | night/<week>, season, …       |
| tiebreak_drawn             | players, seed, reason (6.1, 6.5 random machine)         | tiebreaks                     |
| playoffs_started           | withdrawn [numbers]?, tiebreaks [[order]]? (6.1, 6.2,   | bracket, season, tournament   |
|                            | 6.6)                                                    |                               |
| playoff_match_started      | division, players, seed, missing [numbers]? (6.4, 6.6)  | bracket                       |
| playoff_machine_picked     | division, players, game_no, machine (6.4)               | bracket                       |
| playoff_game_recorded      | division, players, game_no, machine, scores, playoff?   | bracket                       |
|                            | (6.3)                                                   |                               |
| playoff_tiebreak_recorded  | division, players, order (6.5)                          | bracket                       |
| playoff_game_voided        | division, players, game_no (the match's last), reason   | bracket                       |
|                            | (6.3, 6.4: played again on its machine)                 |                               |
| playoffs_reopened          | reason (no playoff match started; 6.1, 6.2); with       | every view                    |
|                            | division, round: the next round's start taken back      |                               |
|                            | while it has no game (6.3)                              |                               |
| settings_changed           | settings (before week 1 any; later only ``weeks`` and   | every view                    |
|                            | ``playoff_*`` until the playoffs start)                 |                               |

Once the playoffs have started, a correction or penalty that would change the season table the
divisions were drawn from is refused ("The playoffs have started: reopen the regular season
first."); ``playoffs_reopened`` takes the start back while no playoff match has started.
A playoff game is corrected or voided while the round after its match has not started, or when
the change keeps who plays in it; else it is refused ("Division A: the final has started: reopen
the semi-finals first.") until ``playoffs_reopened`` names the division and the round
(``scoring.fwpl.playoff_edits``).

Every record also carries ``by`` and ``at`` (``display.http.endpoint.stamp``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from display.competitions.base import EVERY_VIEW
from display.competitions.fwpl import records
from display.competitions.fwpl.bracket_view import bracket_view
from display.competitions.fwpl.night_view import night_view
from display.competitions.fwpl.state import new_league
from display.competitions.fwpl.views import (
    machines_view,
    players_view,
    season_view,
    standings_view,
    tiebreaks_view,
    tournament_view,
)
from display.types import Doc, Record, Touched
from scoring.fwpl import bracket
from scoring.fwpl.league import League

TABLE = {"season", "standings"}

NIGHT_RECORDS: Mapping[str, records.Handler] = {
    "machine_picked": records.pick_machine,
    "last_ball_reached": records.reach_last_ball,
    "machine_died": records.machine_died,
    "game_recorded": records.record_game,
    "game_corrected": records.correct_game,
    "penalty_recorded": records.record_penalty,
    "night_closed": records.close_night,
}
SEASON_CHANGES = ("game_corrected", "penalty_recorded", "third_offence_recorded")
"""Records that change a night already played: refused once the playoffs have started if the
season table they were drawn from would change (``bracket.check_season_kept``)."""

PLAYOFF_RECORDS: Mapping[str, records.Handler] = {
    "playoff_match_started": records.start_match,
    "playoff_machine_picked": records.pick_playoff_machine,
    "playoff_game_recorded": records.record_playoff_game,
    "playoff_tiebreak_recorded": records.record_playoff_tiebreak,
    "playoff_game_voided": records.void_playoff_game,
}


class FwplKind:
    """Records of an FWPL season -> ``League`` -> views (see the module docstring)."""

    name = "fwpl"

    def create(self, record: Record) -> League:
        """``tournament_created`` -> the empty season. Raises SettingsError."""
        return new_league(record.get("settings") or {})

    def apply(self, state: League, seq: int, record: Record) -> tuple[League, Touched]:
        """``record`` applied at ``seq`` -> (new league, views touched). Raises what the rules
        raise (``scoring.errors.ScoringError``), KeyError or ValueError for a record this kind
        cannot read."""
        new, touched = self._apply(state, seq, record)
        if record["type"] in SEASON_CHANGES:
            bracket.check_season_kept(state, new)
        # The season must still add up (e.g. a correction that forfeits a season that later
        # weeks played on, FWPL 2.5, 8.5): refuse the record rather than keep a state whose
        # views cannot be built. The table is memoised, so the views reuse it.
        new.standings()
        return new, touched

    def _apply(self, state: League, seq: int, record: Record) -> tuple[League, Touched]:
        kind = record["type"]
        week = f"night/{len(state.nights)}"
        if kind in ("league_player_added", "player_added"):
            return records.add_member(state, record["player"]), {"players", *TABLE}
        if kind == "machine_added":
            return records.add_machine(state, record["machine"]), {"machines", week}
        if kind == "settings_changed":
            return records.change_settings(state, record["settings"]), {EVERY_VIEW}
        if kind == "night_started":
            new = records.start_night(state, seq, record)
            return new, {f"night/{len(new.nights)}", "tournament", *TABLE}
        if kind == "score_recorded":
            return records.line_from_score(state, seq, record), {week, *TABLE}
        if kind == "game_line_recorded":
            return records.record_line(state, seq, record), {week, *TABLE}
        if kind == "game_corrected" and "division" in record:
            return records.correct_playoff_game(state, seq, record), {"bracket"}
        if kind in NIGHT_RECORDS:
            touched = {f"night/{record.get('week')}", *TABLE}
            if kind == "night_closed":
                touched.add("tournament")
            return NIGHT_RECORDS[kind](state, seq, record), touched
        if kind == "third_offence_recorded":
            return records.third_offence(state, seq, record), {week, *TABLE}
        if kind == "tiebreak_drawn":
            return records.draw_tiebreak(state, seq, record), {"tiebreaks"}
        if kind == "playoffs_started":
            return records.start_playoffs(state, seq, record), {"bracket", "tournament", *TABLE}
        if kind == "playoffs_reopened":
            return records.reopen_playoffs(state, seq, record), {EVERY_VIEW}
        if kind in PLAYOFF_RECORDS:
            return PLAYOFF_RECORDS[kind](state, seq, record), {"bracket"}
        raise ValueError(f"unknown record type {kind!r}")

    def view_names(self, state: League) -> Iterable[str]:
        """Every view of ``state``: the fixed ones, a night's per week played, the bracket once
        the playoffs start, the tie-breaker machines once one is drawn."""
        yield from ("tournament", "players", "machines", "standings", "season")
        yield from (f"night/{n.week}" for n in state.nights)
        if state.playoffs is not None:
            yield "bracket"
        if state.draws:
            yield "tiebreaks"

    def view(self, state: League, meta: Doc, name: str) -> Doc | None:
        """View ``name`` of ``state`` (``meta``: the tournament's id and name), or None."""
        simple: dict[str, Callable[[League], Doc | None]] = {
            "players": players_view,
            "machines": machines_view,
            "standings": standings_view,
            "season": season_view,
            "bracket": bracket_view,
            "tiebreaks": tiebreaks_view,
        }
        if name == "tournament":
            return tournament_view(meta, state)
        if name in simple:
            return simple[name](state)
        if name.startswith("night/") and name.removeprefix("night/").isdigit():
            return night_view(state, int(name.removeprefix("night/")))
        return None


KIND = FwplKind()
