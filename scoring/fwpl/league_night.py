"""A league night's entries, each a pure function: a ``League`` and one entry in, the new
``League`` out, or the error that refuses the entry. None changes its input.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. In short:

- 3.1, 4.1-4.3 and 5: a night starts from the ladder of the season so far, without the announced
  absences, cut into groups; each group's first machine is drawn at random (a ``seed`` the
  caller draws and records, so a replay draws the same); one night is played at a time, weeks
  in order, up to the season's length (FWPL 2);
- 5 and 5.1: the last placed player of the previous game picks the next machine (``flow``);
  a group on ball 3 frees its machine for the others;
- 3.2, 2.4, 7.3 and 8.x: a game is entered whole or one line at a time, game by game in order
  (a game already played is changed with a correction, 3); it counts once every player of the
  group has a line;
- 8.1-8.7: a penalty falls on a played game's line; without a game, a serious penalty falls on
  the game where the player has the most league points (8.5); the LO may rule an automatic
  third offence (8.5);
- 3.3 and 4.3: a night closes once every group has played its games; the match bonus is then
  final and the next week's ladder follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scoring.errors import EntryNotAllowed, UnknownMachine, UnknownPlayer
from scoring.fwpl.entry import (
    GameEntry,
    LineEntry,
    choose,
    game_lines,
    picker,
    score_game,
    score_line,
    settle,
)
from scoring.fwpl.errors import NotInGroup
from scoring.fwpl.flow import first_machines
from scoring.fwpl.games import serious_penalty_game
from scoring.fwpl.ladder import split_groups
from scoring.fwpl.league import Group, League, Night, Slot, result, with_group


def _open_night(league: League, week: int | None) -> Night:
    night = league.night
    if night is None:
        raise EntryNotAllowed("No league night is being played now; the TD starts one first.")
    if week is not None and week != night.week:
        raise EntryNotAllowed(f"Week {week} is not being played now; week {night.week} is.")
    return night


def _night(league: League, week: int) -> Night:
    if not 1 <= week <= len(league.nights):
        raise EntryNotAllowed(f"There is no week {week} in this season yet.")
    return league.nights[week - 1]


def _group(night: Night, number: int) -> tuple[int, Group]:
    if not 1 <= number <= len(night.groups):
        raise NotInGroup(f"Week {night.week} has groups 1 to {len(night.groups)}, not {number}.")
    return number - 1, night.groups[number - 1]


def _where(night: Night, index: int, game_no: int) -> str:
    return f"group {index + 1}, game {game_no} of week {night.week}"


def _others(night: Night, index: int) -> list[Slot]:
    return [g.open for i, g in enumerate(night.groups) if i != index]


def _check_game_no(league: League, night: Night, index: int, group: Group, game_no: int) -> int:
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


def _played(night: Night, index: int, group: Group, game_no: int) -> Slot:
    if not 1 <= game_no <= len(group.games):
        raise EntryNotAllowed(
            f"Group {index + 1} has not played game {game_no} in week {night.week}."
        )
    return group.games[game_no - 1]


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


def _replace_game(
    league: League, night: Night, index: int, group: Group, game_no: int, slot: Slot
) -> League:
    score_game(slot, group.players, league.config, _where(night, index, game_no))
    games = list(group.games)
    games[game_no - 1] = slot
    return league.with_night(with_group(night, index, replace(group, games=tuple(games))))


def start_night(
    league: League,
    seq: int,
    seed: int,
    week: int | None = None,
    absent: Sequence[str] = (),
    sizes: Sequence[int] | None = None,
) -> League:
    """The next night starts at entry ``seq`` (FWPL 3.1, 4.1-4.3, 5): the groups cut from the
    ladder without the announced ``absent`` players, in the LO's ``sizes`` if given (4.1), each
    group's first machine drawn with ``seed`` (5). ``week``, if given, must be the next week.
    Raises EntryNotAllowed (playoffs started, a night still open, not the next week, past the
    season's length), UnknownPlayer, NotInGroup (an absent player not on the ladder), and what
    ``split_groups`` and ``first_machines`` raise."""
    if league.playoffs is not None:
        raise EntryNotAllowed("The playoffs have started; the regular season is over.")
    if league.night is not None:
        raise EntryNotAllowed(f"Week {league.night.week} is still being played; close it first.")
    upcoming = len(league.nights) + 1
    if week is not None and week != upcoming:
        raise EntryNotAllowed(f"The next league night is week {upcoming}, not {week}.")
    if upcoming > league.weeks:
        raise EntryNotAllowed(
            f"The season has {league.weeks} weeks (setting weeks); start the playoffs or "
            "lengthen the season."
        )
    ladder = league.standings().next_ladder
    for player in absent:
        if player not in league.players:
            raise UnknownPlayer(f"Player {player} is not a member of this league.")
        if player not in ladder:
            raise NotInGroup(f"Player {player} is not on the ladder for week {upcoming}.")
    groups = split_groups(ladder, set(absent), league.config, sizes)
    first = first_machines(len(groups), list(league.machines), seed)
    night = Night(
        week=upcoming,
        seed=seed,
        absent=tuple(absent),
        groups=tuple(
            Group(g, open=Slot(machine=m, chosen_at=seq))
            for g, m in zip(groups, first, strict=True)
        ),
    )
    return league.with_night(night)


def pick_machine(
    league: League, seq: int, week: int | None, group: int, game_no: int, machine: str
) -> League:
    """``machine`` picked at entry ``seq`` for game ``game_no`` of ``group`` (1-based) tonight
    (``week``: tonight's, or None): by the last placed player of the previous game (FWPL 5), or
    a replacement for an unplayable machine (5.1). Raises EntryNotAllowed (no night, another
    week, not the group's next game), NotInGroup (no such group), and what ``entry.choose``
    raises."""
    night = _open_night(league, week)
    index, current = _group(night, group)
    number = _check_game_no(league, night, index, current, game_no)
    who = _previous_picker(league, current) if current.games else current.open.picked_by
    slot = choose(
        league, current.open, machine, current.games, _others(night, index), seq, who,
        _where(night, index, number),
    )  # fmt: skip
    return league.with_night(with_group(night, index, replace(current, open=slot)))


def reach_last_ball(league: League, week: int | None, group: int, game_no: int) -> League:
    """``group``'s game ``game_no`` tonight is on ball 3, so another group may pick its machine
    (FWPL 5). Raises EntryNotAllowed (as ``pick_machine``, or no machine picked yet),
    NotInGroup."""
    night = _open_night(league, week)
    index, current = _group(night, group)
    _check_game_no(league, night, index, current, game_no)
    if current.open.machine is None:
        raise EntryNotAllowed(f"Group {index + 1} has not picked its next machine yet.")
    slot = replace(current.open, last_ball=True)
    return league.with_night(with_group(night, index, replace(current, open=slot)))


def record_game(
    league: League,
    seq: int,
    week: int | None,
    group: int,
    game_no: int,
    machine: str | None,
    entry: GameEntry,
) -> League:
    """A group's whole game at entry ``seq``, every player's score or forfeit (FWPL 3.2, 2.4,
    7.3, 8.x), on the machine assigned or picked for it (``machine`` None: that one; naming one
    when none was picked is the pick, 5). Replaces lines entered one by one for that game.
    Raises EntryNotAllowed, NotInGroup, MachineNotAllowed, UnknownMachine, InvalidScore,
    PlayoffNeeded (equal scores without the one-ball play-off order, 3.2)."""
    night = _open_night(league, week)
    index, current = _group(night, group)
    number = _check_game_no(league, night, index, current, game_no)
    where = _where(night, index, number)
    slot = replace(current.open, lines=())
    slot = settle(league, slot, machine, current.games, _others(night, index), seq,
                  _previous_picker(league, current), where)  # fmt: skip
    lines = game_lines(entry, current.players, f"group {index + 1}")
    slot = replace(slot, lines=lines, playoff=entry.playoff)
    return _finish(league, night, index, current, slot, seq)


def record_line(
    league: League,
    seq: int,
    week: int | None,
    group: int,
    game_no: int,
    machine: str | None,
    player: str,
    line: LineEntry,
    playoff: tuple[str, ...] = (),
) -> League:
    """One ``player``'s score or forfeit in ``group``'s next game at entry ``seq`` (FWPL 3.2,
    2.3, 2.4, 7.3, 8.x); the game counts once every player has one. ``playoff``: the one-ball
    play-off order (3.2), kept from an earlier line when empty. Raises as ``record_game``, and
    NotInGroup for a player outside the group or with a line already."""
    night = _open_night(league, week)
    index, current = _group(night, group)
    number = _check_game_no(league, night, index, current, game_no)
    where = _where(night, index, number)
    if player not in current.players:
        raise NotInGroup(f"Player {player} is not in group {index + 1}.")
    if current.open.line(player) is not None:
        raise NotInGroup(
            f"Player {player} already has a score in {where}; enter the whole game to replace it."
        )
    slot = settle(league, current.open, machine, current.games, _others(night, index),
                  seq, _previous_picker(league, current), where)  # fmt: skip
    slot = replace(
        slot, lines=(*slot.lines, score_line(player, line)), playoff=playoff or slot.playoff
    )
    return _finish(league, night, index, current, slot, seq)


def next_game(league: League, player: str) -> tuple[int, int, int]:
    """(week, group number, game number) of ``player``'s group's next game tonight (FWPL 4.2),
    where a single score without a game lands. Raises EntryNotAllowed (the playoffs, whose games
    are entered whole, FWPL 6.3; no night), UnknownPlayer, NotInGroup (in no group tonight)."""
    if league.playoffs is not None:
        raise EntryNotAllowed("Playoff games are entered whole, on the league entry page.")
    night = _open_night(league, None)
    for number, group in enumerate(night.groups, start=1):
        if player in group.players:
            return night.week, number, len(group.games) + 1
    if player not in league.players:
        raise UnknownPlayer(f"Player {player} is not a member of this league.")
    raise NotInGroup(f"Player {player} is not in any group of week {night.week}.")


def correct_game(
    league: League,
    seq: int,
    week: int,
    group: int,
    game_no: int,
    machine: str | None,
    entry: GameEntry,
) -> League:
    """A played game's lines replaced at entry ``seq``, every player agreeing (FWPL 3); the
    machine stays unless ``machine`` names another. Raises EntryNotAllowed (no such week or game
    played), NotInGroup, UnknownMachine, and what ``game_lines`` and scoring raise."""
    night = _night(league, week)
    index, current = _group(night, group)
    old = _played(night, index, current, game_no)
    chosen = str(machine or old.machine)
    if chosen not in league.machines:
        raise UnknownMachine(f"Machine {chosen} is not one of this league's machines.")
    lines = game_lines(entry, current.players, f"group {index + 1}")
    slot = replace(old, machine=chosen, lines=lines, playoff=entry.playoff, version=seq)
    return _replace_game(league, night, index, current, game_no, slot)


def record_penalty(
    league: League,
    seq: int,
    week: int,
    group: int,
    player: str,
    penalty: str | None,
    game_no: int | None = None,
    playoff: tuple[str, ...] = (),
) -> League:
    """A penalty on ``player``'s line of a played game at entry ``seq`` (FWPL 8.1
    ``extra_ball``, 8.7 ``deathsave``, 8.2-8.5 ``serious``). Without ``game_no`` a serious
    penalty falls on the game of the match where the player has the most league points, the
    last of equals (8.5: no game in progress). ``playoff``: a new one-ball play-off order the
    penalty makes necessary (3.2). Raises EntryNotAllowed (no such week or game, no score to
    penalise, a game left out for a lesser penalty), NotInGroup, InvalidScore."""
    night = _night(league, week)
    index, current = _group(night, group)
    if player not in current.players:
        raise NotInGroup(f"Player {player} is not in group {index + 1} of week {night.week}.")
    if game_no is None:
        if penalty != "serious":
            raise EntryNotAllowed("Only a serious penalty (FWPL 8.5) may leave out the game.")
        scored = result(current.match(), league.config).games
        game_no = serious_penalty_game(scored, player) + 1
    slot = _played(night, index, current, game_no)
    old = slot.line(player)
    if old is None or old.score is None:
        raise EntryNotAllowed(f"Player {player} has no score in game {game_no} to penalise.")
    new = score_line(player, LineEntry(old.score, penalty, old.late, old.compensatory,
                                       old.subtract))  # fmt: skip
    lines = tuple(new if x.player == player else x for x in slot.lines)
    slot = replace(slot, lines=lines, playoff=playoff or slot.playoff, version=seq)
    return _replace_game(league, night, index, current, game_no, slot)


def third_offence(league: League, player: str) -> League:
    """The LO rules an automatic third offence for ``player`` (FWPL 8.5: violence, vandalism):
    the season is forfeited and the player's scores wiped, from the latest week. Raises
    UnknownPlayer, EntryNotAllowed (before week 1)."""
    if player not in league.players:
        raise UnknownPlayer(f"Player {player} is not a member of this league.")
    if not league.nights:
        raise EntryNotAllowed("The season has not started; a third offence falls on a week.")
    night = league.nights[-1]
    return league.with_night(replace(night, third_offence=night.third_offence | {player}))


def close_night(league: League, week: int | None) -> League:
    """Tonight's night (``week``, or None) closes: every group has played its games; the
    night's match bonus is final and the next week's ladder follows (FWPL 3.3, 4.3). Raises
    EntryNotAllowed (no night, another week, a group with games to play)."""
    night = _open_night(league, week)
    games = league.config.games_per_match
    for number, group in enumerate(night.groups, start=1):
        if len(group.games) < games:
            raise EntryNotAllowed(
                f"Group {number} has played {len(group.games)} of {games} games; enter the rest "
                "(a game nobody could play is entered as forfeits)."
            )
    return league.with_night(replace(night, closed=True))
