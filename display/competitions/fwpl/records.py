"""Each FWPL record read into the rule engine's inputs and handed to it (the record table is in
``display/competitions/fwpl/kind.py``).

A handler takes the league, the record's seq and the record, and returns the new league; the
rules and their refusals are ``scoring.fwpl``'s (``league``, ``league_night``, ``bracket``).
This module only reads fields: a required one missing is a KeyError, a list that is not one a
TypeError (a record this server cannot apply; the API's schemas never send one). Identifiers are
read as text, as the API sends them; numbers and scores go to the rules as given, which refuse
a value that is not the right number. Each field is read after the rule checks that came before
it when the rules lived here (the engine finds a group's game, a match, before it is entered;
``check_*`` functions refuse a step whatever its fields), so a record is refused for the same
reason, with the same words, as before. One exception: a game's ``playoff`` order is read with
the rest of the game, so one that is not a list (never sent by the API) makes the record
unreadable even where a rule would have refused it first.
"""

from __future__ import annotations

from collections.abc import Callable

from display.competitions.fwpl.state import parse_settings, settings_of
from display.types import FormatSettings, Record, Registration
from scoring.fwpl import bracket, league_night, playoff_edits
from scoring.fwpl import league as season
from scoring.fwpl.entry import GameEntry, LineEntry
from scoring.fwpl.ladder import LeaguePlayer
from scoring.fwpl.league import League
from scoring.fwpl.playoff_cut import Division

Handler = Callable[[League, int, Record], League]
"""``(league, seq, record) -> league``: one record type's handler."""


def _names(record: Record, key: str) -> tuple[str, ...]:
    """A list of player numbers as text; absent or null: none."""
    return tuple(map(str, record.get(key) or ()))


def _machine(record: Record) -> str | None:
    """The machine a game's record names, None when it names none (the one assigned or picked)."""
    machine = record.get("machine")
    return None if machine is None else str(machine)


def line_entry(record: Record) -> LineEntry:
    """One player's line from a record's fields: ``score`` (None: a forfeit), ``penalty``,
    ``late``, ``compensatory`` and ``subtract``. The values are the rules' to check."""
    return LineEntry(
        score=record.get("score"),
        penalty=record.get("penalty"),
        late=bool(record.get("late", False)),
        compensatory=record.get("compensatory"),
        subtract=record.get("subtract"),
    )


def game_entry(record: Record) -> GameEntry:
    """A whole game from a record: ``scores`` {player: score or None}, ``penalties`` {player:
    kind}, ``late`` [players], ``compensatory`` {player: {score, subtract}}, ``playoff`` [order].
    The values are the rules' to check (``scoring.fwpl.entry.game_lines``)."""
    return GameEntry(
        scores=record.get("scores") or {},
        penalties=record.get("penalties") or {},
        late=record.get("late") or (),
        compensatory=record.get("compensatory") or {},
        playoff=_names(record, "playoff"),
    )


def add_member(league: League, player: Registration) -> League:
    """``league_player_added`` / ``player_added``: ``player`` {number, name, ifpa_rank?,
    joined_week?, missed_countable?, guest?} (``scoring.fwpl.league.join``)."""
    number = str(player["number"])
    joined = season.joining_week(
        league, number, player.get("joined_week"), bool(player.get("guest"))
    )
    member = LeaguePlayer(
        number=number,
        name=str(player["name"]),
        ifpa_rank=player.get("ifpa_rank"),
        joined_week=joined,
        missed_countable=bool(player.get("missed_countable", True)),
    )
    return season.join(league, member)


def add_machine(league: League, machine: Registration) -> League:
    """``machine_added``: ``machine`` {id, name}."""
    mid = str(machine["id"])
    season.check_machine(league, mid)
    return season.add_machine(league, mid, str(machine["name"]))


def change_settings(league: League, changes: FormatSettings) -> League:
    """``settings_changed``: ``changes`` by name over the settings in use (``parse_settings``
    refuses a bad name or value; ``scoring.fwpl.league.change_settings`` the changes the season
    no longer allows)."""
    config, playoff_config, weeks, _ = parse_settings({**settings_of(league), **changes})
    return season.change_settings(league, config, playoff_config, weeks)


def start_night(league: League, seq: int, record: Record) -> League:
    """``night_started``: week?, seed, absent [numbers]?, sizes [ints]?."""
    week = league_night.next_night(league, record.get("week", league.upcoming))
    absent = _names(record, "absent")
    groups = league_night.night_groups(league, week, absent, record.get("sizes"))
    return league_night.start_night(league, seq, week, int(record["seed"]), absent, groups)


def _next_game(league: League, record: Record) -> league_night.GameAt:
    return league_night.next_game_at(
        league, record.get("week"), record.get("group"), record.get("game_no")
    )


def pick_machine(league: League, seq: int, record: Record) -> League:
    """``machine_picked``: week, group, game_no, machine."""
    at = _next_game(league, record)
    return league_night.pick_machine(league, seq, at, str(record["machine"]))


def machine_died(league: League, seq: int, record: Record) -> League:
    """``machine_died``: week, group, game_no, machine (the game's, dead), replay_on (FWPL 7.3)."""
    at = _next_game(league, record)
    return league_night.machine_died(
        league, seq, at, str(record["machine"]), str(record["replay_on"])
    )


def reach_last_ball(league: League, seq: int, record: Record) -> League:
    """``last_ball_reached``: week, group, game_no."""
    return league_night.reach_last_ball(league, _next_game(league, record))


def record_game(league: League, seq: int, record: Record) -> League:
    """``game_recorded``: week, group, game_no, machine?, the whole game (``game_entry``)."""
    at = _next_game(league, record)
    return league_night.record_game(league, seq, at, _machine(record), game_entry(record))


def record_line(league: League, seq: int, record: Record) -> League:
    """``game_line_recorded``: player, week, group, game_no, machine?, the line
    (``line_entry``), playoff?."""
    player = str(record["player"])
    at = _next_game(league, record)
    return _line(league, seq, at, player, record)


def line_from_score(league: League, seq: int, record: Record) -> League:
    """A plain ``score_recorded`` (the generic steward page): player, machine, score, as one line
    of the next game of the player's group tonight (``league_night.next_game``)."""
    league_night.check_plain_score(league)
    player = str(record["player"])
    return _line(league, seq, league_night.next_game(league, player), player, record)


def _line(league: League, seq: int, at: league_night.GameAt, player: str, record: Record) -> League:
    return league_night.record_line(
        league, seq, at, _machine(record), player, line_entry(record), _names(record, "playoff")
    )


def _game_edit(record: Record) -> tuple[object, str | None, GameEntry]:
    """What a ``game_corrected`` says of the game, league night or playoff alike: its
    ``game_no`` (checked by the rule), the machine (None: the game's own) and the whole game
    (``game_entry``)."""
    machine = record.get("machine")
    return record.get("game_no"), str(machine) if machine else None, game_entry(record)


def correct_game(league: League, seq: int, record: Record) -> League:
    """``game_corrected``: week, group, game_no, machine? (empty: the game's own), the whole
    game (``game_entry``)."""
    at = league_night.group_at(league, record.get("week"), record.get("group"))
    return league_night.correct_game(league, seq, at, *_game_edit(record))


def record_penalty(league: League, seq: int, record: Record) -> League:
    """``penalty_recorded``: week, group, player, penalty, game_no?, playoff?."""
    at = league_night.group_at(league, record.get("week"), record.get("group"))
    return league_night.record_penalty(
        league,
        seq,
        at,
        str(record["player"]),
        record.get("penalty"),
        record.get("game_no"),
        _names(record, "playoff"),
    )


def third_offence(league: League, seq: int, record: Record) -> League:
    """``third_offence_recorded``: player."""
    return league_night.third_offence(league, str(record["player"]))


def close_night(league: League, seq: int, record: Record) -> League:
    """``night_closed``: week."""
    return league_night.close_night(league, record.get("week"))


def draw_tiebreak(league: League, seq: int, record: Record) -> League:
    """``tiebreak_drawn``: players, seed, reason?."""
    players = _names(record, "players")
    bracket.check_tiebreak(league, players)
    reason = str(record.get("reason") or "")
    return bracket.draw_tiebreak(league, players, int(record["seed"]), reason)


def start_playoffs(league: League, seq: int, record: Record) -> League:
    """``playoffs_started``: withdrawn [numbers]?, tiebreaks [[order]]?."""
    bracket.check_playoffs_may_start(league)
    withdrawn = _names(record, "withdrawn")
    bracket.check_members(league, withdrawn)
    tiebreaks = tuple(tuple(map(str, order)) for order in record.get("tiebreaks") or ())
    return bracket.start_playoffs(league, withdrawn, tiebreaks)


def _division(league: League, record: Record) -> Division:
    # Division names are letters (scoring.fwpl.playoff_cut.DIVISION_NAMES), so a missing or
    # non-text value, read as text, names none, and the rules answer "There is no division ...".
    return bracket.division(league, str(record.get("division")))


def _started(league: League, record: Record) -> bracket.MatchAt:
    found = _division(league, record)
    return bracket.started_match(league, found, _names(record, "players"))


def start_match(league: League, seq: int, record: Record) -> League:
    """``playoff_match_started``: division, players, seed, missing [numbers]?."""
    found = _division(league, record)
    match = bracket.match_to_start(league, found, _names(record, "players"))
    missing = _names(record, "missing")
    bracket.check_missing(match, missing)
    return bracket.start_playoff_match(league, seq, found, match, int(record["seed"]), missing)


def pick_playoff_machine(league: League, seq: int, record: Record) -> League:
    """``playoff_machine_picked``: division, players, game_no, machine."""
    at = bracket.next_playoff_game_at(_started(league, record), record.get("game_no"))
    return bracket.pick_playoff_machine(league, seq, at, str(record["machine"]))


def record_playoff_game(league: League, seq: int, record: Record) -> League:
    """``playoff_game_recorded``: division, players, game_no, machine?, the whole game
    (``game_entry``)."""
    at = bracket.next_playoff_game_at(_started(league, record), record.get("game_no"))
    return bracket.record_playoff_game(league, seq, at, _machine(record), game_entry(record))


def record_playoff_tiebreak(league: League, seq: int, record: Record) -> League:
    """``playoff_tiebreak_recorded``: division, players, order."""
    at = _started(league, record)
    bracket.tie_to_break(league, at)
    return bracket.record_playoff_tiebreak(league, at, _names(record, "order"))


def correct_playoff_game(league: League, seq: int, record: Record) -> League:
    """``game_corrected`` of a playoff game: division, players, game_no, machine? (empty: the
    game's own), the whole game (``game_entry``; FWPL 3, 6.3)."""
    at = _started(league, record)
    return playoff_edits.correct_playoff_game(league, seq, at, *_game_edit(record))


def void_playoff_game(league: League, seq: int, record: Record) -> League:
    """``playoff_game_voided``: division, players, game_no (FWPL 6.3, 6.4)."""
    at = _started(league, record)
    return playoff_edits.void_playoff_game(league, seq, at, record.get("game_no"))


def reopen_playoffs(league: League, seq: int, record: Record) -> League:
    """``playoffs_reopened``: with ``division`` and ``round``, that round's next round's start
    is taken back (``playoff_edits.reopen_round``); without, the playoffs' own start
    (``bracket.reopen_season``; FWPL 6.1, 6.2)."""
    if record.get("division") is None:
        return bracket.reopen_season(league)
    return playoff_edits.reopen_round(league, record.get("division"), record.get("round"))
