"""Which entries the EPC 2009 country competition accepts, and when: machines, teams, reserve
replacements, match games, 4-ball games, penalties, play-offs, voids and the stages.

Rule text: EPC 2009 rules, "EPC COUNTRY COMPETITION 2009 RULES" (cited "EPC 2009, EPC Country
Competition"). Each function takes what the competition holds so far as frozen data (teams and
machines by id, the draw, a match's recorded games and penalties, the stage on) with the entry as
given, and returns the entry the rules accept (or the new mapping of teams or machines). The
checks run in a fixed order and the first one broken raises:

- StageClosed (409): the entry belongs to a stage that is not on;
- EntryNotAllowed (409): a rule below; DuplicateRegistration (409): a machine, team or seed taken;
- UnknownTeam, UnknownMachine, UnknownPlayer (404): an id the entry names that the competition
  does not have (looked up here, between the rules, so the first problem is the one reported).

Scores are checked where they are ranked (``game_result``, the tables); a caller re-derives the
tables with the accepted entry, so a score the tables refuse refuses the entry too.

Readings Backglass takes where the text is silent (docs/rules.md, "EPC 2009", Country):

- A record belongs to a stage: teams, replacements, group matches and 4-ball games to qualifying,
  the final's matches to the final; each is refused once its stage is over ("When all games have
  been played ... the final rankings will be declared"), so the final never moves under results.
- A team registers ``team_players`` (4) differently named players: "1 ball per player" in the
  4-ball game and "8 balls total" in a two-team play-off make a team four.
- A match's two machines are played "simultaneously": nobody plays both, each machine is recorded
  once, and a match decided by a penalty takes no scores.
- A reserve replaces a team that has no result recorded yet.
- A play-off game comes once every match of its stage has a result (a tie before that is not
  final); the final starts once every group match has a result and the tie for sixth is settled.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from scoring.epc.country import Fixture, final_group
from scoring.epc.country.errors import StageClosed, UnknownTeam
from scoring.epc.country.match import game_result
from scoring.epc.country.model import (
    CountryConfig,
    CountryMachine,
    FourBallGame,
    GameScore,
    Group,
    MatchGame,
    Penalty,
    Playoff,
    Replacement,
    SlamTilt,
    Stage,
    Team,
)
from scoring.epc.country.tables import Finalist, FinalTable, QualifyingTable, finalists
from scoring.errors import DuplicateRegistration, EntryNotAllowed, UnknownMachine, UnknownPlayer


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    """One line of a match game as entered (EPC 2009, EPC Country Competition: "two players from
    each team playing a four player, three ball game"): ``team`` the id as given (``match_game``
    looks it up), ``player`` a name of that team's or "" when not given, ``score`` as given
    (``game_result`` checks it)."""

    team: object
    player: str
    score: int


def stage_of(fixture: Fixture) -> Stage:
    """The stage a fixture belongs to: "final" for the final's group (``final_group``, named
    "Final"), else "qualifying". EPC 2009, EPC Country Competition."""
    return "final" if fixture.group == final_group(()).name else "qualifying"


def require_stage(now: Stage, stage: Stage, what: str) -> None:
    """Refuse an entry of ``stage`` while the stage ``now`` is another one: StageClosed
    "``what``, and the final is on." (or "qualifying is on", "the competition is complete").
    EPC 2009, EPC Country Competition: qualifying, then the final, then the final rankings."""
    if now != stage:
        words = {"qualifying": "qualifying is on", "final": "the final is on"}
        raise StageClosed(f"{what}, and {words.get(now, 'the competition is complete')}.")


def team_of(teams: Mapping[str, Team], team_id: object) -> Team:
    """The team ``team_id`` (looked up as a string) of ``teams``; UnknownTeam if there is none.
    EPC 2009, EPC Country Competition (the registered teams)."""
    found = teams.get(str(team_id))
    if found is None:
        raise UnknownTeam(f"There is no team {team_id!r} in this competition.")
    return found


def machine_of(
    machines: Mapping[str, CountryMachine], machine_id: object, four_ball: bool
) -> CountryMachine:
    """The machine ``machine_id`` of ``machines`` for a 4-ball game or play-off (``four_ball``)
    or for a match (not ``four_ball``). Raises UnknownMachine if there is none, EntryNotAllowed
    if it is of the other kind. EPC 2009, EPC Country Competition: "all machines will be set on 3
    ball play (except the two 4 ball machines)"."""
    machine = machines.get(str(machine_id))
    if machine is None:
        raise UnknownMachine(f"There is no machine {machine_id!r} in this competition.")
    if machine.four_ball != four_ball:
        need = "one of the 4-ball machines" if four_ball else "a 3-ball match machine"
        raise EntryNotAllowed(f"{machine.name} is not {need}.")
    return machine


def teams_in_draw(draw: Sequence[Group] | None) -> tuple[str, ...]:
    """Team ids of the draw, group by group (empty before the draw is made). EPC 2009, EPC
    Country Competition ("Teams will be divided into 5 groups of 4 teams")."""
    return tuple(t for g in draw or () for t in g.teams)


def drawn_team(teams: Mapping[str, Team], draw: Sequence[Group] | None, team_id: object) -> Team:
    """The team ``team_id`` if it plays in ``draw`` (None: not made yet). Raises UnknownTeam,
    or EntryNotAllowed for a team outside the draw (a reserve, or a team a reserve replaced).
    EPC 2009, EPC Country Competition, Registration."""
    team = team_of(teams, team_id)
    _require_drawn(team, draw)
    return team


def add_machine(
    machines: Mapping[str, CountryMachine], machine: CountryMachine
) -> Mapping[str, CountryMachine]:
    """``machines`` with ``machine`` added; DuplicateRegistration for an id already there. EPC
    2009, EPC Country Competition (the match machines and "two identical machines" for the 4-ball
    game, each entered once)."""
    if machine.id in machines:
        raise DuplicateRegistration(f"There is already a machine {machine.id}.")
    return {**machines, machine.id: machine}


def add_team(
    config: CountryConfig,
    team_players: int,
    now: Stage,
    teams: Mapping[str, Team],
    *,
    team_id: str,
    name: str,
    seed: object,
    players: tuple[str, ...],
    reserve: bool,
) -> Mapping[str, Team]:
    """``teams`` with a new team added (EPC 2009, EPC Country Competition: "Teams will be divided
    into 5 groups of 4 teams" by seed; "the following teams have been placed on the reserve list").

    ``seed``: 1 .. ``config.seeds`` (20), each once, or None for a ``reserve`` team. ``players``:
    exactly ``team_players`` names, all different (empty names do not count). Raises StageClosed
    once the final has started, DuplicateRegistration for a team id or seed already taken,
    EntryNotAllowed for a seed on a reserve (or none on a seeded team), a seed that is not a whole
    number in range, or the wrong players.
    """
    require_stage(now, "qualifying", "Teams are registered before the final")
    if team_id in teams:
        raise DuplicateRegistration(f"There is already a team {team_id} ({teams[team_id].name}).")
    if reserve != (seed is None):
        raise EntryNotAllowed("A reserve team has no seed; every other team has one.")
    checked = None if seed is None else _seed(config, teams, seed)
    names = [p for p in players if p]
    if len(names) != team_players or len(set(names)) != len(names):
        raise EntryNotAllowed(
            f"A team registers {team_players} players with different names; {name} has "
            f"{', '.join(players) or 'none'}."
        )
    return {**teams, team_id: Team(team_id, name, checked, players)}


def replace_team(
    config: CountryConfig,
    now: Stage,
    draw: Sequence[Group] | None,
    teams: Mapping[str, Team],
    withdrawn: object,
    reserve: object,
    with_results: Collection[str],
    by: str,
    reason: str,
) -> Replacement:
    """A reserve team takes the seed of team ``withdrawn`` (EPC 2009, EPC Country Competition,
    Registration: "the team will be disqualified and where possible replaced by a reserve team").

    Only in qualifying, once the draw is made (before that the reserve takes the free seed), and
    only for a team with no result recorded (``with_results``: ids of the teams with a match game,
    a 4-ball game or a penalty). Raises StageClosed, EntryNotAllowed, UnknownTeam. ``groups``
    checks the reserve once the caller re-derives the draw.
    """
    require_stage(now, "qualifying", "Teams are replaced before the final")
    if draw is None:
        raise EntryNotAllowed(
            f"Replace a team once the draw has all {config.seeds} seeded teams; until then "
            "give the reserve team the free seed."
        )
    out, into = team_of(teams, withdrawn), team_of(teams, reserve)
    if out.id in with_results:
        raise EntryNotAllowed(
            f"{out.name} has results recorded; a reserve team replaces a team that has not "
            "played (void its results first)."
        )
    return Replacement(out.id, into.id, by, reason)


def match_game(
    config: CountryConfig,
    now: Stage,
    fixture: Fixture,
    teams: Mapping[str, Team],
    machines: Mapping[str, CountryMachine],
    recorded: Sequence[MatchGame],
    penalties: Sequence[Penalty],
    machine: object,
    scores: Sequence[ScoreEntry],
) -> MatchGame:
    """One machine of match ``fixture`` (EPC 2009, EPC Country Competition: "two teams play each
    other on two machines, with two players from each team playing a four player, three ball
    game"; "Two members from each team will again play in matches on two machines
    simultaneously").

    ``recorded``: the match's games so far; ``penalties``: those recorded for it. Refused (in this
    order): a match of a stage not on (StageClosed); a match a penalty decided; a third machine; an
    unknown machine (UnknownMachine) or a 4-ball one; a machine already recorded for the match;
    per score, an unknown team (UnknownTeam), a team not in the match, a player not of the team
    (UnknownPlayer); not four scores two a team, or a bad score (``game_result``); a player on
    both machines or twice on one.
    """
    stage = stage_of(fixture)
    where = f"{fixture.home} v {fixture.away}"
    require_stage(now, stage, f"{where} is a {stage} match")
    if penalties:
        raise EntryNotAllowed(
            f"{where} was decided by a penalty; void the penalty to enter scores."
        )
    if len(recorded) == 2:
        raise EntryNotAllowed(f"{where} already has both machines' games; void one to correct it.")
    on = machine_of(machines, machine, four_ball=False)
    if any(g.machine == on.id for g in recorded):
        raise EntryNotAllowed(f"{where} already has a game on {on.name}.")
    game = MatchGame(on.id, tuple(_match_score(teams, fixture, s) for s in scores))
    game_result(config, game, (fixture.home, fixture.away))  # four scores, two a team
    playing = [s.player for s in game.scores if s.player]
    before = {s.player for g in recorded for s in g.scores if s.player}
    again = sorted({p for p in playing if playing.count(p) > 1} | (set(playing) & before))
    if again:
        raise EntryNotAllowed(
            f"{', '.join(again)} cannot play twice in {where}: two different players of each team "
            "play on each machine, both machines at once."
        )
    return game


def four_ball_game(
    now: Stage,
    teams: Mapping[str, Team],
    machines: Mapping[str, CountryMachine],
    draw: Sequence[Group] | None,
    team: object,
    machine: object,
    score: int,
) -> FourBallGame:
    """Team ``team``'s 4-ball game (EPC 2009, EPC Country Competition, "The 4 ball game": part of
    qualifying, on one of "two identical machines"). Raises StageClosed after qualifying,
    UnknownTeam, EntryNotAllowed for a team outside the draw or a match machine, UnknownMachine.
    The score, and a second game, are refused by ``four_ball_table``."""
    require_stage(now, "qualifying", "The 4-ball game is part of qualifying")
    player = drawn_team(teams, draw, team)
    return FourBallGame(player.id, machine_of(machines, machine, four_ball=True).id, score)


def four_ball_slam_tilt(
    now: Stage,
    draw: Sequence[Group] | None,
    team: Team,
    penalties: Iterable[Penalty],
    by: str,
    reason: str,
) -> SlamTilt:
    """A slam tilt that zeroes ``team``'s 4-ball game (EPC 2009, EPC Country Competition, Slam
    Tilts: "If this happens on the 4 ball game, the team score will be entered as zero").
    ``penalties``: those recorded for 4-ball games. Raises StageClosed after qualifying,
    EntryNotAllowed for a team outside the draw or one whose game is already zeroed."""
    require_stage(now, "qualifying", "The 4-ball game is part of qualifying")
    _require_drawn(team, draw)
    if any(isinstance(p, SlamTilt) and p.team == team.id for p in penalties):
        raise EntryNotAllowed(f"{team.name}'s 4-ball game is already entered as zero.")
    return SlamTilt(team.id, None, by, reason)


def disqualify(now: Stage, fixture: Fixture, team: Team, penalties: Iterable[Penalty]) -> str:
    """``team`` disqualified from match ``fixture``, for arriving late or a slam tilt from shaking:
    the opponent, who gets "the top 2 scores" (EPC 2009, EPC Country Competition, Timekeeping and
    Slam Tilts: "they will be disqualified from that match").

    ``penalties``: those already recorded for the match. Raises StageClosed for a match of a stage
    not on, EntryNotAllowed for a team not in the match or already disqualified from it. Whether
    a late arrival's minutes are more than ``late_minutes`` is ``match_result``'s (the tables
    refuse it).
    """
    stage = stage_of(fixture)
    where = f"{fixture.home} v {fixture.away}"
    require_stage(now, stage, f"{where} is a {stage} match")
    if team.id not in (fixture.home, fixture.away):
        raise EntryNotAllowed(f"{team.name} does not play in {where}.")
    if any(p.team == team.id for p in penalties):
        raise EntryNotAllowed(f"{team.name} is already disqualified from {where}.")
    return fixture.away if team.id == fixture.home else fixture.home


def playoff(
    now: Stage,
    stage: Stage,
    draw: Sequence[Group] | None,
    teams: Mapping[str, Team],
    unfinished: Sequence[str],
    scores: Sequence[tuple[object, int]],
) -> Playoff:
    """A play-off game of ``stage`` between tied teams, ``scores`` (team id as given, score)
    (EPC 2009, EPC Country Competition: the tie for sixth "a single game per team on one of the 4
    ball machines shall decide the position"; the final's ties "a 4 ball play off game").

    ``unfinished``: ids of the stage's matches without a result. Raises StageClosed for a stage
    not on, EntryNotAllowed while a match of the stage has no result (or the draw is not made) or
    for a qualifying team outside the draw, UnknownTeam. Whether the teams are those of a tie
    that needs the game is the tables' (``place_teams``).
    """
    require_stage(now, stage, f"This is a {stage} play-off")
    if draw is None or unfinished:
        raise EntryNotAllowed(
            f"Play-off games come once every {stage} match has a result; {len(unfinished)} still "
            "to play."
        )
    entered = []
    for team_id, score in scores:
        if stage == "qualifying":
            team = drawn_team(teams, draw, team_id)
        else:
            team = team_of(teams, team_id)
        entered.append((team.id, score))
    return Playoff(tuple(entered))


def start_final(
    now: Stage,
    table: QualifyingTable | None,
    unfinished: Sequence[str],
    named: Sequence[str] | None = None,
) -> tuple[Finalist, ...]:
    """The final's teams, best first, when the final starts (EPC 2009, EPC Country Competition:
    "The six teams with the highest ranking points will go on to the finals").

    ``table``: the qualifying table (None before the draw); ``unfinished``: ids of the group
    matches without a result, in fixture order; ``named``: the finalists the ``stage_advanced``
    record wrote, when it is replayed. Raises StageClosed once the final has started,
    EntryNotAllowed while a group match has no result, while the tie for sixth awaits a play-off
    (``finalists``), or when the field is no longer the one ``named`` (settings changed under it).
    """
    require_stage(now, "qualifying", "The final has already started")
    if table is None or unfinished:
        count = len(unfinished) if table is not None else "all"
        more = ", …" if len(unfinished) > 5 else ""
        raise EntryNotAllowed(
            f"The final starts when every group match has a result; {count} still to play "
            f"({', '.join(unfinished[:5])}{more})."
        )
    field = finalists(table)
    if named is not None and list(named) != [f.team for f in field]:
        raise EntryNotAllowed(
            f"The final's teams would now be {', '.join(f.team for f in field)}, not "
            f"{', '.join(named)} as when the stage was advanced."
        )
    return field


def check_final_over(now: Stage, final: FinalTable | None, unfinished: Sequence[str]) -> None:
    """Refuse to complete the competition unless the final is on, every final match has a result
    (``unfinished``: those without) and no play-off is still needed (EPC 2009, EPC Country
    Competition, Final: "When all games have been played ... the final rankings will be
    declared"). Raises StageClosed, EntryNotAllowed."""
    require_stage(now, "final", "Only a final can be completed")
    if unfinished or final is None or final.playoffs_needed:
        need = f"{len(unfinished)} matches" if unfinished else "a play-off game"
        raise EntryNotAllowed(f"The final is not over: {need} still to play.")


def check_void(now: Stage, stage: Stage) -> None:
    """Refuse to void a record of ``stage`` (a game, 4-ball game, penalty or play-off) once that
    stage is over: StageClosed "The final has started: reopen qualifying first." (or "The
    competition is complete: reopen the final first."). EPC 2009, EPC Country Competition
    (Backglass's reading: the final's field and the final rankings never move under their
    results; the TD's ``reopen_stage`` is the one way back, as in the EPC main event)."""
    if now == stage:
        return
    if now == "final":
        raise StageClosed("The final has started: reopen qualifying first.")
    if now == "complete":
        raise StageClosed("The competition is complete: reopen the final first.")
    require_stage(now, stage, "That record belongs to a stage that is over")


REOPENS: Mapping[str, Stage] = MappingProxyType({"final": "qualifying", "complete": "final"})
"""The stage on -> the one before it, which the TD may reopen (read-only)."""


def reopen_stage(now: Stage, target: object, final_results: int) -> Stage:
    """The stage the TD reopens, ``target``, which must be the one before ``now``: qualifying
    while the final has no result recorded (``final_results``: its games, penalties and
    play-offs standing; the finalists are then drawn again when the final starts again), or the
    final once complete. EPC 2009, EPC Country Competition (the stages run in order; Backglass's
    reading, as the EPC main event's reopen). Raises EntryNotAllowed."""
    want = REOPENS.get(now)
    if want is None or target != want:
        raise EntryNotAllowed(
            f"Only the stage before the current one can be reopened ({want or 'none'}), "
            f"not {target!r}."
        )
    if want == "qualifying" and final_results:
        raise EntryNotAllowed(f"The final has {final_results} result(s) recorded: void them first.")
    return want


def _require_drawn(team: Team, draw: Sequence[Group] | None) -> None:
    if team.id not in teams_in_draw(draw):
        why = "the draw is not made yet" if draw is None else "it is not in the draw"
        raise EntryNotAllowed(f"{team.name} cannot play: {why}.")


def _seed(config: CountryConfig, teams: Mapping[str, Team], seed: object) -> int:
    """``seed`` if it is a whole number 1 .. ``config.seeds`` that no team holds yet."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 1 <= seed <= config.seeds:
        raise EntryNotAllowed(f"A seed is a whole number from 1 to {config.seeds}, not {seed!r}.")
    holder = next((t for t in teams.values() if t.seed == seed), None)
    if holder is not None:
        raise DuplicateRegistration(f"Seed {seed} is already {holder.name} ({holder.id}).")
    return seed


def _match_score(teams: Mapping[str, Team], fixture: Fixture, entry: ScoreEntry) -> GameScore:
    team = team_of(teams, entry.team)
    if team.id not in (fixture.home, fixture.away):
        raise EntryNotAllowed(f"{team.name} does not play in {fixture.home} v {fixture.away}.")
    if entry.player and entry.player not in team.players:
        players = ", ".join(team.players)
        raise UnknownPlayer(f"{entry.player} is not a player of {team.name} ({players}).")
    return GameScore(team.id, entry.score, entry.player)
