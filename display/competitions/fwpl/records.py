"""Each FWPL record read into the rule engine's inputs and handed to it (the record table is in
``display/competitions/fwpl/kind.py``).

A handler takes the league, the record's seq and the record, and returns the new league; the
rules and their refusals are ``scoring.fwpl``'s (``league``, ``league_night``, ``bracket``).
This module only reads fields: a required one missing is a KeyError, a number that is not a
whole number a ValueError (a record this server cannot apply; the API's schemas never send
one). Identifiers are read as text, as the API sends them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from display.competitions.fwpl.state import parse_settings, settings_of
from display.types import FormatSettings, Record
from scoring.fwpl import bracket, league_night
from scoring.fwpl import league as season
from scoring.fwpl.entry import Compensatory, GameEntry, LineEntry
from scoring.fwpl.league import League

Handler = Callable[[League, int, Record], League]
"""``(league, seq, record) -> league``: one record type's handler."""


def _whole(fields: Mapping[str, Any], key: str) -> int:
    value = fields.get(key)
    if not isinstance(value, int):
        raise ValueError(f"{key} must be a whole number, not {value!r}")
    return value


def _whole_or_none(fields: Mapping[str, Any], key: str) -> int | None:
    """``key`` as a whole number; None when absent or null (the rules then take their default)."""
    return None if fields.get(key) is None else _whole(fields, key)


def _wholes_or_none(fields: Mapping[str, Any], key: str) -> tuple[int, ...] | None:
    values = fields.get(key)
    if values is None:
        return None
    return tuple(_whole({key: value}, key) for value in values)


def _names(fields: Mapping[str, Any], key: str) -> tuple[str, ...]:
    """A list of player numbers (or machine ids) as text; absent or null: none."""
    return tuple(map(str, fields.get(key) or ()))


def _machine(record: Record) -> str | None:
    """The machine a game's record names, None when it names none (the one assigned or picked)."""
    machine = record.get("machine")
    return None if machine is None else str(machine)


def line_entry(fields: Mapping[str, Any]) -> LineEntry:
    """One player's line from a record's fields: ``score`` (None: a forfeit), ``penalty``,
    ``late``, ``compensatory`` and ``subtract``. The values are the rules' to check."""
    return LineEntry(
        score=fields.get("score"),
        penalty=fields.get("penalty"),
        late=bool(fields.get("late", False)),
        compensatory=fields.get("compensatory"),
        subtract=fields.get("subtract"),
    )


def game_entry(record: Record) -> GameEntry:
    """A whole game from a record: ``scores`` {player: score or None}, ``penalties`` {player:
    kind}, ``late`` [players], ``compensatory`` {player: {score, subtract}}, ``playoff`` [order].
    The values are the rules' to check."""
    extra: Mapping[str, Any] = record.get("compensatory") or {}
    return GameEntry(
        scores=record.get("scores") or {},
        penalties=record.get("penalties") or {},
        late=frozenset(record.get("late") or ()),
        compensatory={
            player: Compensatory((game or {}).get("score"), (game or {}).get("subtract"))
            for player, game in extra.items()
        },
        playoff=_names(record, "playoff"),
    )


def add_member(league: League, player: Mapping[str, Any]) -> League:
    """``league_player_added`` / ``player_added``: ``player`` {number, name, ifpa_rank?,
    joined_week?, missed_countable?, guest?} (``scoring.fwpl.league.join``)."""
    return season.join(
        league,
        str(player["number"]),
        str(player["name"]),
        ifpa_rank=_whole_or_none(player, "ifpa_rank"),
        joined_week=_whole_or_none(player, "joined_week"),
        missed_countable=bool(player.get("missed_countable", True)),
        guest=bool(player.get("guest")),
    )


def add_machine(league: League, machine: Mapping[str, Any]) -> League:
    """``machine_added``: ``machine`` {id, name}."""
    return season.add_machine(league, str(machine["id"]), str(machine["name"]))


def change_settings(league: League, changes: FormatSettings) -> League:
    """``settings_changed``: ``changes`` by name over the settings in use (``parse_settings``
    refuses a bad name or value; ``scoring.fwpl.league.change_settings`` the changes the season
    no longer allows)."""
    config, playoff_config, weeks, _ = parse_settings({**settings_of(league), **changes})
    return season.change_settings(league, config, playoff_config, weeks)


def start_night(league: League, seq: int, record: Record) -> League:
    """``night_started``: week?, seed, absent [numbers]?, sizes [ints]?."""
    return league_night.start_night(
        league,
        seq,
        int(record["seed"]),
        week=_whole(record, "week") if "week" in record else None,
        absent=_names(record, "absent"),
        sizes=_wholes_or_none(record, "sizes"),
    )


def pick_machine(league: League, seq: int, record: Record) -> League:
    """``machine_picked``: week, group, game_no, machine."""
    return league_night.pick_machine(
        league,
        seq,
        _whole_or_none(record, "week"),
        _whole(record, "group"),
        _whole(record, "game_no"),
        str(record["machine"]),
    )


def reach_last_ball(league: League, seq: int, record: Record) -> League:
    """``last_ball_reached``: week, group, game_no."""
    return league_night.reach_last_ball(
        league, _whole_or_none(record, "week"), _whole(record, "group"), _whole(record, "game_no")
    )


def record_game(league: League, seq: int, record: Record) -> League:
    """``game_recorded``: week, group, game_no, machine?, the whole game (``game_entry``)."""
    return league_night.record_game(
        league,
        seq,
        _whole_or_none(record, "week"),
        _whole(record, "group"),
        _whole(record, "game_no"),
        _machine(record),
        game_entry(record),
    )


def record_line(league: League, seq: int, record: Record) -> League:
    """``game_line_recorded``: week, group, game_no, machine?, player, the line
    (``line_entry``), playoff?."""
    return league_night.record_line(
        league,
        seq,
        _whole_or_none(record, "week"),
        _whole(record, "group"),
        _whole(record, "game_no"),
        _machine(record),
        str(record["player"]),
        line_entry(record),
        _names(record, "playoff"),
    )


def line_from_score(league: League, seq: int, record: Record) -> League:
    """A plain ``score_recorded`` (the generic steward page): player, machine, score, as one line
    of the next game of the player's group tonight (``league_night.next_game``)."""
    player = str(record["player"])
    week, group, game_no = league_night.next_game(league, player)
    return league_night.record_line(
        league,
        seq,
        week,
        group,
        game_no,
        _machine(record),
        player,
        line_entry(record),
        _names(record, "playoff"),
    )


def correct_game(league: League, seq: int, record: Record) -> League:
    """``game_corrected``: week, group, game_no, machine? (empty: the game's own), the whole
    game (``game_entry``)."""
    machine = record.get("machine")
    return league_night.correct_game(
        league,
        seq,
        _whole(record, "week"),
        _whole(record, "group"),
        _whole(record, "game_no"),
        str(machine) if machine else None,
        game_entry(record),
    )


def record_penalty(league: League, seq: int, record: Record) -> League:
    """``penalty_recorded``: week, group, player, penalty, game_no?, playoff?."""
    return league_night.record_penalty(
        league,
        seq,
        _whole(record, "week"),
        _whole(record, "group"),
        str(record["player"]),
        record.get("penalty"),
        _whole_or_none(record, "game_no"),
        _names(record, "playoff"),
    )


def third_offence(league: League, seq: int, record: Record) -> League:
    """``third_offence_recorded``: player."""
    return league_night.third_offence(league, str(record["player"]))


def close_night(league: League, seq: int, record: Record) -> League:
    """``night_closed``: week."""
    return league_night.close_night(league, _whole_or_none(record, "week"))


def draw_tiebreak(league: League, seq: int, record: Record) -> League:
    """``tiebreak_drawn``: players, seed, reason?."""
    return bracket.draw_tiebreak(
        league, _names(record, "players"), int(record["seed"]), str(record.get("reason") or "")
    )


def start_playoffs(league: League, seq: int, record: Record) -> League:
    """``playoffs_started``: withdrawn [numbers]?, tiebreaks [[order]]?."""
    tiebreaks = tuple(tuple(map(str, order)) for order in record.get("tiebreaks") or ())
    return bracket.start_playoffs(league, _names(record, "withdrawn"), tiebreaks)


def _division(record: Record) -> str:
    # Division names are letters (scoring.fwpl.playoff_cut.DIVISION_NAMES), so a missing or
    # non-text value, read as text, names none and the rules answer "There is no division ...".
    return str(record.get("division"))


def start_match(league: League, seq: int, record: Record) -> League:
    """``playoff_match_started``: division, players, seed, missing [numbers]?."""
    return bracket.start_playoff_match(
        league,
        seq,
        _division(record),
        _names(record, "players"),
        int(record["seed"]),
        _names(record, "missing"),
    )


def pick_playoff_machine(league: League, seq: int, record: Record) -> League:
    """``playoff_machine_picked``: division, players, game_no, machine."""
    return bracket.pick_playoff_machine(
        league,
        seq,
        _division(record),
        _names(record, "players"),
        _whole(record, "game_no"),
        str(record["machine"]),
    )


def record_playoff_game(league: League, seq: int, record: Record) -> League:
    """``playoff_game_recorded``: division, players, game_no, machine?, the whole game
    (``game_entry``)."""
    return bracket.record_playoff_game(
        league,
        seq,
        _division(record),
        _names(record, "players"),
        _whole(record, "game_no"),
        _machine(record),
        game_entry(record),
    )


def record_playoff_tiebreak(league: League, seq: int, record: Record) -> League:
    """``playoff_tiebreak_recorded``: division, players, order."""
    return bracket.record_playoff_tiebreak(
        league, _division(record), _names(record, "players"), _names(record, "order")
    )
