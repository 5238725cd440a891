"""League-night records applied to a ``League`` (FWPL 2.3-2.5, 3.1-3.3, 4.1-4.3, 5, 7.3, 8.x).

Each function takes the league, the record's seq and the record, and returns the new league or
raises the ``ScoringError`` that refuses it; none changes its input. The record table is in
``display/competitions/fwpl/kind.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from display.competitions.fwpl.entries import choose, full_lines, line, picker, score_game, settle
from display.competitions.fwpl.state import Group, League, Night, Slot, result, with_group
from scoring.errors import EntryNotAllowed, UnknownMachine, UnknownPlayer
from scoring.fwpl import (
    NotInGroup,
    first_machines,
    serious_penalty_game,
    split_groups,
)

Record = Mapping[str, Any]


def _open_night(league: League, week: Any) -> Night:
    night = league.night
    if night is None:
        raise EntryNotAllowed("No league night is being played now; the TD starts one first.")
    if week is not None and week != night.week:
        raise EntryNotAllowed(f"Week {week} is not being played now; week {night.week} is.")
    return night


def _night(league: League, week: Any) -> Night:
    if not isinstance(week, int) or not 1 <= week <= len(league.nights):
        raise EntryNotAllowed(f"There is no week {week} in this season yet.")
    return league.nights[week - 1]


def _group(night: Night, number: Any) -> tuple[int, Group]:
    if not isinstance(number, int) or not 1 <= number <= len(night.groups):
        raise NotInGroup(f"Week {night.week} has groups 1 to {len(night.groups)}, not {number}.")
    return number - 1, night.groups[number - 1]


def _where(night: Night, index: int, game_no: int) -> str:
    return f"group {index + 1}, game {game_no} of week {night.week}"


def _others(night: Night, index: int) -> list[Slot]:
    return [g.open for i, g in enumerate(night.groups) if i != index]


def _check_game_no(league: League, night: Night, index: int, group: Group, game_no: Any) -> int:
    games = league.config.games_per_match
    if len(group.games) >= games:
        raise EntryNotAllowed(
            f"Group {index + 1} has played all {games} games of week {night.week}."
        )
    expected = len(group.games) + 1
    if game_no != expected:
        raise EntryNotAllowed(
            f"Group {index + 1} is on game {expected} of week {night.week}, not game {game_no}; "
            "a game already played is changed with a correction."
        )
    return expected


def _previous_picker(league: League, group: Group) -> str | None:
    if not group.games:
        return None
    return picker(result(group.match(), league.config).games[-1])


def _finish(league: League, night: Night, index: int, group: Group, slot: Slot, seq: int) -> League:
    """Score ``slot`` as the group's next game: once every player has a line it is played, at
    version ``seq``."""
    if len(slot.lines) < len(group.players):
        return league.with_night(with_group(night, index, replace(group, open=slot)))
    score_game(slot, group.players, league.config, _where(night, index, len(group.games) + 1))
    done = replace(group, games=(*group.games, replace(slot, version=seq)), open=Slot())
    return league.with_night(with_group(night, index, done))


def start_night(league: League, seq: int, record: Record) -> League:
    """``night_started``: the groups from the ladder (FWPL 3.1, 4.1-4.3) without the announced
    ``absent`` players, optional LO ``sizes`` (4.1), each group's first machine drawn with
    ``seed`` (5)."""
    if league.playoffs is not None:
        raise EntryNotAllowed("The playoffs have started; the regular season is over.")
    if league.night is not None:
        raise EntryNotAllowed(f"Week {league.night.week} is still being played; close it first.")
    week = len(league.nights) + 1
    if record.get("week", week) != week:
        raise EntryNotAllowed(f"The next league night is week {week}, not {record.get('week')}.")
    if week > league.weeks:
        raise EntryNotAllowed(
            f"The season has {league.weeks} weeks (setting weeks); start the playoffs or "
            "lengthen the season."
        )
    ladder = league.standings().next_ladder
    absent = tuple(str(p) for p in record.get("absent") or ())
    for player in absent:
        if player not in league.players:
            raise UnknownPlayer(f"Player {player} is not a member of this league.")
        if player not in ladder:
            raise NotInGroup(f"Player {player} is not on the ladder for week {week}.")
    groups = split_groups(ladder, set(absent), league.config, record.get("sizes"))
    first = first_machines(len(groups), list(league.machines), int(record["seed"]))
    night = Night(
        week=week,
        seed=int(record["seed"]),
        absent=absent,
        groups=tuple(
            Group(g, open=Slot(machine=m, chosen_at=seq))
            for g, m in zip(groups, first, strict=True)
        ),
    )
    return league.with_night(night)


def pick_machine(league: League, seq: int, record: Record) -> League:
    """``machine_picked``: the machine of a group's next game, chosen by the last placed player of
    the previous game (FWPL 5), or a replacement for an unplayable machine (5.1)."""
    night = _open_night(league, record.get("week"))
    index, group = _group(night, record.get("group"))
    game_no = _check_game_no(league, night, index, group, record.get("game_no"))
    who = _previous_picker(league, group) if group.games else group.open.picked_by
    slot = choose(
        league, group.open, str(record["machine"]), group.games, _others(night, index), seq, who,
        _where(night, index, game_no),
    )  # fmt: skip
    return league.with_night(with_group(night, index, replace(group, open=slot)))


def reach_last_ball(league: League, seq: int, record: Record) -> League:
    """``last_ball_reached``: the group's game is on ball 3, so another group may pick its machine
    (FWPL 5)."""
    night = _open_night(league, record.get("week"))
    index, group = _group(night, record.get("group"))
    _check_game_no(league, night, index, group, record.get("game_no"))
    if group.open.machine is None:
        raise EntryNotAllowed(f"Group {index + 1} has not picked its next machine yet.")
    slot = replace(group.open, last_ball=True)
    return league.with_night(with_group(night, index, replace(group, open=slot)))


def record_game(league: League, seq: int, record: Record) -> League:
    """``game_recorded``: a group's whole game, every player's score or forfeit (FWPL 3.2, 2.4,
    7.3, 8.x), on the machine assigned or picked for it (naming one when none was picked is the
    pick). Replaces scores entered one by one for that game."""
    night = _open_night(league, record.get("week"))
    index, group = _group(night, record.get("group"))
    game_no = _check_game_no(league, night, index, group, record.get("game_no"))
    where = _where(night, index, game_no)
    slot = replace(group.open, lines=())
    slot = settle(league, slot, record.get("machine"), group.games, _others(night, index), seq,
                  _previous_picker(league, group), where)  # fmt: skip
    lines = full_lines(record, group.players, f"group {index + 1}")
    slot = replace(slot, lines=lines, playoff=tuple(map(str, record.get("playoff") or ())))
    return _finish(league, night, index, group, slot, seq)


def record_line(league: League, seq: int, record: Record, player: str) -> League:
    """``game_line_recorded`` (and a plain ``score_recorded``): one player's score or forfeit in
    the group's next game; the game counts once every player has one (FWPL 3.2)."""
    night = _open_night(league, record.get("week"))
    index, group = _group(night, record.get("group"))
    game_no = _check_game_no(league, night, index, group, record.get("game_no"))
    where = _where(night, index, game_no)
    if player not in group.players:
        raise NotInGroup(f"Player {player} is not in group {index + 1}.")
    if group.open.line(player) is not None:
        raise NotInGroup(
            f"Player {player} already has a score in {where}; enter the whole game to replace it."
        )
    slot = settle(league, group.open, record.get("machine"), group.games, _others(night, index),
                  seq, _previous_picker(league, group), where)  # fmt: skip
    playoff = tuple(map(str, record.get("playoff") or ())) or slot.playoff
    slot = replace(slot, lines=(*slot.lines, line(player, record)), playoff=playoff)
    return _finish(league, night, index, group, slot, seq)


def locate(league: League, player: str) -> tuple[int, int]:
    """(week, group number) of ``player`` in tonight's night. Raises EntryNotAllowed, NotInGroup."""
    night = _open_night(league, None)
    for number, group in enumerate(night.groups, start=1):
        if player in group.players:
            return night.week, number
    if player not in league.players:
        raise UnknownPlayer(f"Player {player} is not a member of this league.")
    raise NotInGroup(f"Player {player} is not in any group of week {night.week}.")


def correct_game(league: League, seq: int, record: Record) -> League:
    """``game_corrected``: a played game's scores replaced, every player agreeing (FWPL 3); the
    machine stays unless the record names another."""
    night = _night(league, record.get("week"))
    index, group = _group(night, record.get("group"))
    game_no = record.get("game_no")
    if not isinstance(game_no, int) or not 1 <= game_no <= len(group.games):
        raise EntryNotAllowed(
            f"Group {index + 1} has not played game {game_no} in week {night.week}."
        )
    old = group.games[game_no - 1]
    machine = str(record.get("machine") or old.machine)
    if machine not in league.machines:
        raise UnknownMachine(f"Machine {machine} is not one of this league's machines.")
    lines = full_lines(record, group.players, f"group {index + 1}")
    playoff = tuple(map(str, record.get("playoff") or ()))
    slot = replace(old, machine=machine, lines=lines, playoff=playoff, version=seq)
    score_game(slot, group.players, league.config, _where(night, index, game_no))
    games = list(group.games)
    games[game_no - 1] = slot
    return league.with_night(with_group(night, index, replace(group, games=tuple(games))))


def record_penalty(league: League, seq: int, record: Record) -> League:
    """``penalty_recorded``: a penalty on a played game's line (FWPL 8.1 ``extra_ball``, 8.7
    ``deathsave``, 8.2-8.5 ``serious``). Without ``game_no`` a serious penalty falls on the game
    of the match where the player has the most league points, the last of equals (8.5: no game
    in progress)."""
    night = _night(league, record.get("week"))
    index, group = _group(night, record.get("group"))
    player = str(record["player"])
    if player not in group.players:
        raise NotInGroup(f"Player {player} is not in group {index + 1} of week {night.week}.")
    kind = record.get("penalty")
    game_no = record.get("game_no")
    if game_no is None:
        if kind != "serious":
            raise EntryNotAllowed("Only a serious penalty (FWPL 8.5) may leave out the game.")
        scored = result(group.match(), league.config).games
        game_no = serious_penalty_game(scored, player) + 1
    if not isinstance(game_no, int) or not 1 <= game_no <= len(group.games):
        raise EntryNotAllowed(
            f"Group {index + 1} has not played game {game_no} in week {night.week}."
        )
    slot = group.games[game_no - 1]
    old = slot.line(player)
    if old is None or old.score is None:
        raise EntryNotAllowed(f"Player {player} has no score in game {game_no} to penalise.")
    new = line(player, {"score": old.score, "penalty": kind, "late": old.late,
                        "compensatory": old.compensatory, "subtract": old.subtract})  # fmt: skip
    playoff = tuple(map(str, record.get("playoff") or ())) or slot.playoff
    lines = tuple(new if x.player == player else x for x in slot.lines)
    slot = replace(slot, lines=lines, playoff=playoff, version=seq)
    score_game(slot, group.players, league.config, _where(night, index, game_no))
    games = list(group.games)
    games[game_no - 1] = slot
    return league.with_night(with_group(night, index, replace(group, games=tuple(games))))


def third_offence(league: League, seq: int, record: Record) -> League:
    """``third_offence_recorded``: the LO rules an automatic third offence (FWPL 8.5: violence,
    vandalism): the season is forfeited and the player's scores wiped, from this week."""
    player = str(record["player"])
    if player not in league.players:
        raise UnknownPlayer(f"Player {player} is not a member of this league.")
    if not league.nights:
        raise EntryNotAllowed("The season has not started; a third offence falls on a week.")
    night = league.nights[-1]
    return league.with_night(replace(night, third_offence=night.third_offence | {player}))


def close_night(league: League, seq: int, record: Record) -> League:
    """``night_closed``: every group has played its games; the night's match bonus is final and
    the next week's ladder follows (FWPL 3.3, 4.3)."""
    night = _open_night(league, record.get("week"))
    games = league.config.games_per_match
    for number, group in enumerate(night.groups, start=1):
        if len(group.games) < games:
            raise EntryNotAllowed(
                f"Group {number} has played {len(group.games)} of {games} games; enter the rest "
                "(a game nobody could play is entered as forfeits)."
            )
    return league.with_night(replace(night, closed=True))
