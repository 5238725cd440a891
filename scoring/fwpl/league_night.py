"""A league night's entries, each a pure function: a ``League`` and one entry in, the new
``League`` out, or the error that refuses the entry. None changes its input.

An entry for a group's game is found first (``next_game_at``: tonight's week, the group, its next
game; ``group_at`` for a week already played), then applied at that place, so a caller can read
the rest of its entry in between and every refusal keeps its turn: the place's before the rest.

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
- 7.3: a machine on which play cannot continue is declared dead in one entry: it is unplayable
  for the rest of the night, and the game is replayed at once on the machine the LO names (every
  player, or with ``dead_machine: keep_finished`` those whose score is not in yet); the scores
  entered on the dead machine are kept as voided;
- 3.3 and 4.3: a night closes once every group has played its games; the match bonus is then
  final and the next week's ladder follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.errors import EntryNotAllowed, UnknownMachine, UnknownPlayer
from scoring.fwpl.entry import (
    EntryNumber,
    GameEntry,
    LineEntry,
    choose,
    game_lines,
    picker,
    score_game,
    score_line,
    settle,
)
from scoring.fwpl.errors import MachineNotAllowed, NotInGroup
from scoring.fwpl.flow import first_machines
from scoring.fwpl.games import serious_penalty_game
from scoring.fwpl.ladder import split_groups
from scoring.fwpl.league import Group, League, Night, Slot, result, with_group


@dataclass(frozen=True)
class GroupAt:
    """A group of a night as an entry names it (FWPL 4.2): the ``night`` and the group's
    ``index`` in it (0-based), as ``group_at`` or ``next_game_at`` found them in a league."""

    night: Night
    index: int

    @property
    def group(self) -> Group:
        """The group's match so far (FWPL 4.2)."""
        return self.night.groups[self.index]

    def where(self, game_no: int) -> str:
        """Game ``game_no`` of this group in a steward's words, e.g. "group 2, game 3 of week
        4" (FWPL 4: a match of four games)."""
        return f"group {self.index + 1}, game {game_no} of week {self.night.week}"

    def others(self) -> list[Slot]:
        """The other groups' open games tonight (FWPL 5: machines in use or awaited)."""
        return [g.open for i, g in enumerate(self.night.groups) if i != self.index]


@dataclass(frozen=True)
class GameAt(GroupAt):
    """A group's next game tonight as an entry names it (FWPL 4, 4.2): ``number`` is the game
    the group is on."""

    number: int


def _open_night(league: League, week: EntryNumber) -> Night:
    night = league.night
    if night is None:
        raise EntryNotAllowed("No league night is being played now; the TD starts one first.")
    if week is not None and week != night.week:
        raise EntryNotAllowed(f"Week {week} is not being played now; week {night.week} is.")
    return night


def _group(night: Night, number: EntryNumber) -> GroupAt:
    if not isinstance(number, int) or not 1 <= number <= len(night.groups):
        raise NotInGroup(f"Week {night.week} has groups 1 to {len(night.groups)}, not {number}.")
    return GroupAt(night, number - 1)


def _next_game(league: League, at: GroupAt, game_no: EntryNumber) -> GameAt:
    games = league.config.games_per_match
    group, night = at.group, at.night
    if len(group.games) >= games:
        raise EntryNotAllowed(
            f"Group {at.index + 1} has played all {games} games of week {night.week}."
        )
    expected = len(group.games) + 1
    if game_no != expected:
        raise EntryNotAllowed(
            f"Group {at.index + 1} is on game {expected} of week {night.week}, not game "
            f"{game_no}; a game already played is changed with a correction."
        )
    return GameAt(night, at.index, expected)


def _played(at: GroupAt, game_no: EntryNumber) -> int:
    if not isinstance(game_no, int) or not 1 <= game_no <= len(at.group.games):
        raise EntryNotAllowed(
            f"Group {at.index + 1} has not played game {game_no} in week {at.night.week}."
        )
    return game_no


def _previous_picker(league: League, group: Group) -> str | None:
    if not group.games:
        return None
    return picker(result(group.match(), league.config).games[-1])


def _with_group(league: League, at: GroupAt, group: Group) -> League:
    return league.with_night(with_group(at.night, at.index, group))


def _finish(league: League, at: GameAt, slot: Slot, seq: int) -> League:
    """Score ``slot`` as the group's next game: once every player has a line it is played, at
    version ``seq``."""
    group = at.group
    if len(slot.lines) < len(group.players):
        return _with_group(league, at, replace(group, open=slot))
    score_game(slot, group.players, league.config, at.where(at.number))
    done = replace(group, games=(*group.games, replace(slot, version=seq)), open=Slot())
    return _with_group(league, at, done)


def _replace_game(league: League, at: GroupAt, game_no: int, slot: Slot) -> League:
    group = at.group
    score_game(slot, group.players, league.config, at.where(game_no))
    games = list(group.games)
    games[game_no - 1] = slot
    return _with_group(league, at, replace(group, games=tuple(games)))


def next_night(league: League, week: EntryNumber) -> int:
    """The week of the night that may start now, which the entry names as ``week`` (FWPL 3.1:
    one night at a time, weeks in order; 2: up to the season's length). Raises EntryNotAllowed
    (the playoffs started, a night still open, another week, past the season's length)."""
    if league.playoffs is not None:
        raise EntryNotAllowed("The playoffs have started; the regular season is over.")
    if league.night is not None:
        raise EntryNotAllowed(f"Week {league.night.week} is still being played; close it first.")
    upcoming = league.upcoming
    if week != upcoming:
        raise EntryNotAllowed(f"The next league night is week {upcoming}, not {week}.")
    if upcoming > league.weeks:
        raise EntryNotAllowed(
            f"The season has {league.weeks} weeks (setting weeks); start the playoffs or "
            "lengthen the season."
        )
    return upcoming


def night_groups(
    league: League, week: int, absent: Sequence[str] = (), sizes: Sequence[int] | None = None
) -> tuple[tuple[str, ...], ...]:
    """The groups of night ``week`` (``next_night``): the ladder of the season so far without the
    announced ``absent`` players, cut top down (FWPL 3.1, 4.1-4.3) in the LO's ``sizes`` if given
    (4.1). Raises UnknownPlayer, NotInGroup (an absent player not on the ladder), and what
    ``split_groups`` raises."""
    ladder = league.standings().next_ladder
    for player in absent:
        if player not in league.players:
            raise UnknownPlayer(f"Player {player} is not a member of this league.")
        if player not in ladder:
            raise NotInGroup(f"Player {player} is not on the ladder for week {week}.")
    return split_groups(ladder, set(absent), league.config, sizes)


def start_night(
    league: League,
    seq: int,
    week: EntryNumber,
    seed: int,
    absent: Sequence[str],
    groups: Sequence[tuple[str, ...]],
) -> League:
    """Night ``week`` starts at entry ``seq`` with ``groups`` (as ``night_groups`` cut them,
    without the ``absent`` players, FWPL 3.1, 4.1-4.3), each group's first machine drawn with
    ``seed`` (5). Raises what ``next_night`` raises, UnknownMachine (no machines)."""
    number = next_night(league, week)
    first = first_machines(len(groups), list(league.machines), seed)
    night = Night(
        week=number,
        seed=seed,
        absent=tuple(absent),
        groups=tuple(
            Group(g, open=Slot(machine=m, chosen_at=seq))
            for g, m in zip(groups, first, strict=True)
        ),
    )
    return league.with_night(night)


def next_game_at(
    league: League, week: EntryNumber, group: EntryNumber, game_no: EntryNumber
) -> GameAt:
    """Game ``game_no`` of ``group`` (1-based) in ``week``, which must be tonight's (None:
    tonight's) and the group's next game (FWPL 3.1, 4, 4.2; a game already played is changed
    with a correction, 3). Raises EntryNotAllowed (no night, another week, the group's games
    all played, another game), NotInGroup (no such group)."""
    night = _open_night(league, week)
    return _next_game(league, _group(night, group), game_no)


def group_at(league: League, week: EntryNumber, group: EntryNumber) -> GroupAt:
    """``group`` (1-based) of ``week``, tonight's or one already played (FWPL 3, 8.x: a
    correction or a penalty). Raises EntryNotAllowed (no such week yet), NotInGroup."""
    if not isinstance(week, int) or not 1 <= week <= len(league.nights):
        raise EntryNotAllowed(f"There is no week {week} in this season yet.")
    return _group(league.nights[week - 1], group)


def check_plain_score(league: League) -> None:
    """Raise EntryNotAllowed in the playoffs, whose games are entered whole (FWPL 6.3: a match's
    game is scored among its players), so a single score without a game has nowhere to go."""
    if league.playoffs is not None:
        raise EntryNotAllowed("Playoff games are entered whole, on the league entry page.")


def next_game(league: League, player: str) -> GameAt:
    """The next game of ``player``'s group tonight (FWPL 4.2), where a single score without a
    game lands. Raises what ``check_plain_score`` raises, EntryNotAllowed (no night; the group's
    games all played), UnknownPlayer, NotInGroup (in no group tonight)."""
    check_plain_score(league)
    night = _open_night(league, None)
    for index, group in enumerate(night.groups):
        if player in group.players:
            return _next_game(league, GroupAt(night, index), len(group.games) + 1)
    if player not in league.players:
        raise UnknownPlayer(f"Player {player} is not a member of this league.")
    raise NotInGroup(f"Player {player} is not in any group of week {night.week}.")


def check_playable(league: League, night: Night, machine: str) -> None:
    """Raise MachineNotAllowed if ``machine`` was declared unplayable tonight (FWPL 7.3: "for the
    rest of the meet"), UnknownMachine if it is not one of the league's."""
    if machine not in league.machines:
        raise UnknownMachine(f"Machine {machine} is not one of this league's machines.")
    if machine in night.unplayable:
        raise MachineNotAllowed(
            f"{league.machines[machine]} was declared unplayable tonight (FWPL 7.3); "
            "choose another machine."
        )


def machine_died(league: League, seq: int, at: GameAt, machine: str, replay_on: str) -> League:
    """Play cannot continue on ``machine``, the machine of the game ``at`` (``next_game_at``),
    at entry ``seq`` (FWPL 7.3): it is "declared unplayable for the rest of the meet", and "the
    entire game is replayed immediately on a machine designated by the LO", ``replay_on``. The
    scores entered so far are kept as voided (``Slot.voided``); with ``dead_machine:
    keep_finished`` (the IFPA/PAPA reading) they stay and only the players without a score
    replay. The replay is entered as any game (whole or one line at a time). Raises
    MachineNotAllowed (no machine chosen yet, another machine, ``replay_on`` the dead machine or
    another unplayable one), UnknownMachine."""
    group, night, where = at.group, at.night, at.where(at.number)
    slot = group.open
    if slot.machine is None:
        raise MachineNotAllowed(f"Nobody has picked the machine for {where} yet.")
    if machine != slot.machine:
        raise MachineNotAllowed(
            f"{where} is being played on {league.machines.get(slot.machine, slot.machine)}, "
            f"not {league.machines.get(machine, machine)}."
        )
    dead = replace(night, unplayable=night.unplayable | {machine})
    check_playable(league, dead, replay_on)
    keep = league.config.dead_machine == "keep_finished"
    replay = replace(
        slot,
        machine=replay_on,
        chosen_at=seq,
        last_ball=False,
        lines=slot.lines if keep else (),
        playoff=slot.playoff if keep else (),
        dead=(*slot.dead, machine),
        voided=slot.voided if keep else (*slot.voided, *slot.lines),
    )
    at = GameAt(dead, at.index, at.number)
    return _with_group(league, at, replace(group, open=replay))


def pick_machine(league: League, seq: int, at: GameAt, machine: str) -> League:
    """``machine`` picked at entry ``seq`` for the game ``at`` (``next_game_at``): by the last
    placed player of the previous game (FWPL 5), or a replacement for an unplayable machine
    (5.1); not one declared unplayable tonight (7.3). Raises what ``entry.choose`` and
    ``check_playable`` raise."""
    group = at.group
    if machine in league.machines:
        check_playable(league, at.night, machine)
    who = _previous_picker(league, group) if group.games else group.open.picked_by
    slot = choose(league, group.open, machine, group.games, at.others(), seq, who,
                  at.where(at.number), at.night.unplayable)  # fmt: skip
    return _with_group(league, at, replace(group, open=slot))


def reach_last_ball(league: League, at: GameAt) -> League:
    """The game ``at`` (``next_game_at``) is on ball 3, so another group may pick its machine
    (FWPL 5). Raises EntryNotAllowed (no machine picked yet)."""
    group = at.group
    if group.open.machine is None:
        raise EntryNotAllowed(f"Group {at.index + 1} has not picked its next machine yet.")
    return _with_group(league, at, replace(group, open=replace(group.open, last_ball=True)))


def record_game(
    league: League, seq: int, at: GameAt, machine: str | None, entry: GameEntry
) -> League:
    """The whole game ``at`` (``next_game_at``) at entry ``seq``, every player's score or
    forfeit (FWPL 3.2, 2.4, 7.3, 8.x), on the machine assigned or picked for it (``machine``
    None: that one; naming one when none was picked is the pick, 5). Replaces lines entered one
    by one for that game. Raises NotInGroup, MachineNotAllowed, UnknownMachine, InvalidScore,
    PlayoffNeeded (equal scores without the one-ball play-off order, 3.2)."""
    group = at.group
    if group.open.machine is None and machine is not None and machine in league.machines:
        check_playable(league, at.night, machine)
    slot = replace(group.open, lines=())
    slot = settle(league, slot, machine, group.games, at.others(), seq,
                  _previous_picker(league, group), at.where(at.number),
                  at.night.unplayable)  # fmt: skip
    lines = game_lines(entry, group.players, f"group {at.index + 1}")
    return _finish(league, at, replace(slot, lines=lines, playoff=entry.playoff), seq)


def record_line(
    league: League,
    seq: int,
    at: GameAt,
    machine: str | None,
    player: str,
    line: LineEntry,
    playoff: tuple[str, ...] = (),
) -> League:
    """One ``player``'s score or forfeit in the game ``at`` (``next_game_at``, ``next_game``) at
    entry ``seq`` (FWPL 3.2, 2.3, 2.4, 7.3, 8.x); the game counts once every player has one.
    ``playoff``: the one-ball play-off order (3.2), kept from an earlier line when empty.
    Raises as ``record_game``, and NotInGroup for a player outside the group or with a line
    already."""
    group, where = at.group, at.where(at.number)
    if player not in group.players:
        raise NotInGroup(f"Player {player} is not in group {at.index + 1}.")
    if group.open.line(player) is not None:
        raise NotInGroup(
            f"Player {player} already has a score in {where}; enter the whole game to replace it."
        )
    if group.open.machine is None and machine is not None and machine in league.machines:
        check_playable(league, at.night, machine)
    slot = settle(league, group.open, machine, group.games, at.others(), seq,
                  _previous_picker(league, group), where, at.night.unplayable)  # fmt: skip
    slot = replace(
        slot, lines=(*slot.lines, score_line(player, line)), playoff=playoff or slot.playoff
    )
    return _finish(league, at, slot, seq)


def correct_game(
    league: League,
    seq: int,
    at: GroupAt,
    game_no: EntryNumber,
    machine: str | None,
    entry: GameEntry,
) -> League:
    """Game ``game_no`` the group ``at`` (``group_at``) played, its lines replaced at entry
    ``seq``, every player agreeing (FWPL 3); the machine stays unless ``machine`` names another.
    Raises EntryNotAllowed (no such game played), UnknownMachine, and what ``game_lines`` and
    scoring raise."""
    number = _played(at, game_no)
    old = at.group.games[number - 1]
    chosen = str(machine or old.machine)
    if chosen not in league.machines:
        raise UnknownMachine(f"Machine {chosen} is not one of this league's machines.")
    lines = game_lines(entry, at.group.players, f"group {at.index + 1}")
    slot = replace(old, machine=chosen, lines=lines, playoff=entry.playoff, version=seq)
    return _replace_game(league, at, number, slot)


def record_penalty(
    league: League,
    seq: int,
    at: GroupAt,
    player: str,
    penalty: str | None,
    game_no: EntryNumber = None,
    playoff: tuple[str, ...] = (),
) -> League:
    """A penalty on ``player``'s line of a game the group ``at`` (``group_at``) played, at entry
    ``seq`` (FWPL 8.1 ``extra_ball``, 8.7 ``deathsave``, 8.2-8.5 ``serious``). Without
    ``game_no`` a serious penalty falls on the game of the match where the player has the most
    league points, the last of equals (8.5: no game in progress). ``playoff``: a new one-ball
    play-off order the penalty makes necessary (3.2). Raises NotInGroup, EntryNotAllowed (a game
    left out for a lesser penalty, no such game, no score to penalise), InvalidScore."""
    group = at.group
    if player not in group.players:
        raise NotInGroup(f"Player {player} is not in group {at.index + 1} of week {at.night.week}.")
    if game_no is None:
        if penalty != "serious":
            raise EntryNotAllowed("Only a serious penalty (FWPL 8.5) may leave out the game.")
        scored = result(group.match(), league.config).games
        game_no = serious_penalty_game(scored, player) + 1
    number = _played(at, game_no)
    slot = group.games[number - 1]
    old = slot.line(player)
    if old is None or old.score is None:
        raise EntryNotAllowed(f"Player {player} has no score in game {number} to penalise.")
    new = score_line(player, LineEntry(old.score, penalty, old.late, old.compensatory,
                                       old.subtract))  # fmt: skip
    lines = tuple(new if x.player == player else x for x in slot.lines)
    slot = replace(slot, lines=lines, playoff=playoff or slot.playoff, version=seq)
    return _replace_game(league, at, number, slot)


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


def close_night(league: League, week: EntryNumber) -> League:
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
