"""The ``epc_country`` kind: the EPC 2009 Country Competition (format ``"epc-country"``) live.

Rules: EPC 2009 rules, "EPC COUNTRY COMPETITION 2009 RULES", computed by
``scoring.epc.country`` (its ``CountryConfig`` fields are this format's settings, plus
``team_players``, 4). 20 seeded teams in 5 groups play 3 matches each (two machines, two players of
each team on each, places 9/5/2/0) and one 4-ball game (17, 14, 12 … 1 for 1st-13th); the six best
totals play a round-robin final. Records (each also carries ``by`` and ``at``):

| record              | fields                                                   | views touched    |
|---------------------|----------------------------------------------------------|------------------|
| tournament_created  | name, format "epc-country", settings                     | every view       |
| settings_changed    | settings {name: value}: every record replayed under them | every view       |
| machine_added       | machine {id, name, four_ball?}                           | machines, 4-ball |
| team_added          | team {id, name, seed?, players [names]}, reserve         | teams, tables    |
| team_replaced       | withdrawn, reserve (team ids), reason                    | teams, tables    |
| match_game_recorded | fixture, machine, scores [{team, player?, score} x 4]    | fixtures, tables |
| four_ball_recorded  | team, machine (a 4-ball one), score                      | four_ball, tables|
| late_recorded       | fixture, team, minutes (more than 5), reason             | fixtures, tables |
| slam_tilt_recorded  | team, fixture? (absent: the 4-ball game), reason         | fixtures, tables |
| playoff_recorded    | stage ("qualifying"/"final"), scores [{team, score}], machine? | playoffs, tables |
| stage_advanced      | stage "final" (finalists [ids], checked on replay) or "complete" | every view |
| record_voided       | voids (the seq of a game, 4-ball game, penalty or play-off; `seq` in older logs), reason | its tables |
| stage_reopened      | stage (the one before the current), reason               | every view       |

"tables" = ``country/groups``, ``country/fixtures``, ``country/four_ball``, ``country/playoffs``
(``country/final`` instead of groups from the final on). View shapes: ``display.competitions.epc_country.views``.

The rules each record is held to (``scoring.epc.country.entries``): a team has ``team_players`` (4)
distinctly named players; seeds are 1..20, once each; the draw (and the fixtures, ids ``A-1-1`` …
``E-3-2``, ``final-1-1`` … ``final-5-3``) exists once all 20 seeds are registered; a reserve
replaces a team that has no results. A match has two machines, neither a 4-ball machine, with four
scores each, two from each team, by four different players; a third machine, or scores for a match
decided by a penalty, are refused. The 4-ball game is on a ``four_ball`` machine, once per team. A
late arrival counts only after 5 minutes. Play-offs are recorded once every match of their stage has
a result and must be between exactly the teams of a tie that needs one. The final starts when every
group match has a result and the tie for sixth is settled; qualifying records are refused from then
on. Corrections are ``record_voided`` followed by the right record; once the final has started a
qualifying record is refused ("The final has started: reopen qualifying first.") until the TD's
``stage_reopened`` takes the final's start back, while the final has no result recorded (as in
the EPC main event; the finalists are drawn again when the final starts again).

Choices the rule text leaves open, made here (the scoring ones are ``CountryConfig`` settings):

- ``team_players`` (setting, 4): "1 ball per player" in the 4-ball game and "8 balls total" in a
  two-team play-off make a team four players; a team registers exactly that many.
- Which machines are the 4-ball ones: a flag on the machine (``four_ball``), as the text names "two
  identical machines" apart from the 3-ball match machines; each kind of game is refused on the
  other kind of machine.
- A match's two machines are played "simultaneously", so nobody plays both; one machine is recorded
  at a time (a breakdown's substitute is simply the second machine), and the match counts once
  both are in.
- "When all games have been played ... the final rankings will be declared": the final cannot start
  while a group match has no result (a no-show is a ``late_recorded``; both teams late gives 0-0);
  4-ball games not played by then score zero, as the text says.
- The finalists are written into ``stage_advanced``; replaying the log under other settings that
  would change them is refused, so the final's field never moves under its results.
- A play-off game is accepted only once its stage's matches all have results (a tie earlier is not
  final), and a penalty or a correction is the TD's; scores (matches, 4-ball, play-offs) are any
  steward's.

HTTP API (JSON; TD = TD token, steward = steward or TD token; ``Idempotency-Key`` honoured; answers
201 ``{"version": n, ...}``; refusals 4xx ``{"error", "message"}``), under ``/api/t/{tid}/country``:

- ``POST /teams`` TD: ``{"id": "BE1", "name": "Belgium 1", "seed": 1, "players": ["A", "B", "C",
  "D"]}`` (no ``seed``: a reserve team), or ``{"teams": [...]}`` (all or nothing).
- ``POST /machines`` TD: ``{"machines": [{"id": "mm", "name": "Medieval Madness"}, {"id": "4b1",
  "name": "Twilight Zone", "four_ball": true}]}``. (``POST /api/t/{tid}/machines`` works too, with
  no 4-ball flag.)
- ``POST /replacements`` TD: ``{"withdrawn": "UK2", "reserve": "BE3", "reason": "flight"}``.
- ``POST /games`` steward: ``{"fixture": "A-1-1", "games": [{"machine": "mm", "scores": [{"team":
  "BE1", "player": "A", "score": 1200000}, … 4]}, {…second machine…}]}``: one or both machines.
- ``POST /four-ball`` steward: ``{"team": "BE1", "machine": "4b1", "score": 5400000}``.
- ``POST /penalties`` TD: ``{"type": "late", "fixture": "A-1-1", "team": "BE1", "minutes": 7,
  "reason": "…"}``; ``{"type": "slam_tilt", "fixture": "A-1-1" (or none: the 4-ball game), "team",
  "reason"}``.
- ``POST /playoffs`` steward: ``{"scores": [{"team": "BE1", "score": 1}, {"team": "NL1", "score":
  2}], "machine": "4b1"}`` (``stage`` defaults to the stage on).
- ``POST /stage`` TD: ``{"stage": "final"}`` then ``{"stage": "complete"}``.
- ``POST /reopen`` TD: ``{"stage": "qualifying", "reason": "…"}`` (or ``"final"`` once complete).
- ``POST /void`` TD: ``{"seq": 57, "reason": "wrong machine"}`` with ``If-Match: "57"`` (a standing
  record's version is its seq; 428 without it, 412 once voided; seqs are in the fixture and 4-ball
  views, and in ``GET /api/t/{tid}/log``).

Pages: ``/t/{tid}/team-entry`` (stewards and the TD: match games, 4-ball games, play-offs; the TD
also machines, teams, reserve replacements, penalties, voids and advancing the stage) and ``/t/{tid}/country`` (phones: groups, matches,
4-ball board, final). Hall display views: ``country_groups``, ``four_ball``, ``country_final``.
A driver (the weekend demo) reads fixture ids and the players from ``GET /api/t/{tid}/views``
(``country/fixtures``, ``teams``) after registering 20 seeded teams.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from display.competitions.epc_country import views
from display.competitions.epc_country.records import apply
from display.competitions.epc_country.state import CountryState, derive, parse_settings
from display.types import Doc, Record, Touched

FORMAT = "epc-country"


class CountryKind:
    """Records of the Country Competition -> ``CountryState`` -> views."""

    name = "epc_country"

    def create(self, record: Record) -> CountryState:
        """``tournament_created`` -> the state before any team or machine. Raises SettingsError."""
        config, team_players = parse_settings(record.get("settings") or {})
        return derive(CountryState(config, team_players))

    def apply(self, state: CountryState, seq: int, record: Record) -> tuple[CountryState, Touched]:
        """``record`` applied at ``seq`` (``records.apply``): ScoringError when the rules refuse
        it, ValueError for a record type this kind does not know."""
        return apply(state, seq, record)

    def view_names(self, state: CountryState) -> Iterable[str]:
        """Every view of the state; ``country/final`` once the final has started."""
        yield from ("tournament", "machines", "teams", *views.COUNTRY_VIEWS)
        if state.derived.final is not None:
            yield "country/final"

    def view(self, state: CountryState, meta: Mapping[str, object], name: str) -> Doc | None:
        """View ``name`` of the state (shapes: ``views``), None for a view it does not have;
        ``meta``: the tournament's id and name."""
        builders = {
            "machines": views.machines_view,
            "teams": views.teams_view,
            "country/groups": views.groups_view,
            "country/fixtures": views.fixtures_view,
            "country/four_ball": views.four_ball_view,
            "country/final": views.final_view,
            "country/playoffs": views.playoffs_view,
        }
        if name == "tournament":
            return views.tournament_view(meta, state)
        build = builders.get(name)
        return build(state) if build is not None else None


KIND = CountryKind()
