"""The flow of an FWPL night as pure functions: first machines, who picks next, which machines
may be picked, play order, late arrivals. The playoffs reuse them (FWPL 6.4, "5.3").

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. In short:

- 5: each group's first game is assigned at random before the match (here: from a ``seed`` the
  caller draws and records, so a replay gives the same draw); for each later game "the fourth
  place player of the previous game" (the last placed, in a group of three) picks a machine that
  the group has not played that night and that is not in use by another group, unless that group
  is at ball 3; with none of those free, any machine; never one another group is waiting for;
- 5.2 (and the playoffs' "5.3"): the first game is played in seeding order, later games in the
  previous game's finishing order; a player joining late plays last in their first game and does
  not get the machine choice;
- 2.3: a late player may join the game in progress if the machine allows it and the group's last
  player has not started ball 1;
- 6.4: in the playoffs the loser of the previous game picks (``next_picker`` again);
- 6.1 and 6.5: tie-breakers are played on a random machine (``random_machine``).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Literal

from scoring.errors import UnknownMachine
from scoring.fwpl.errors import MachineNotAllowed, NotInGroup
from scoring.fwpl.games import GameResult

MachineState = Literal["open", "in_use", "last_ball"]
"""A machine's state when a group picks (FWPL 5): free, in use by another group, or in use by a
group that is on ball 3, its last ball."""


def first_machines(groups: int, machines: Sequence[str], seed: int) -> tuple[str, ...]:
    """The first machine of each of ``groups`` groups, top group first, drawn at random from
    ``machines`` with ``seed``. FWPL 5 ("the first game to be played for each group will be
    randomly assigned prior to start of the match"). Machines differ while there are enough;
    with more groups than machines the draw starts again over all machines (those groups wait).
    The same seed always gives the same draw. Raises UnknownMachine if ``machines`` is empty and
    ``groups`` > 0.
    """
    if groups and not machines:
        raise UnknownMachine("No machines to assign the first games to (FWPL 5).")
    draw = random.Random(seed)
    picked: list[str] = []
    while len(picked) < groups:
        picked.extend(draw.sample(list(machines), k=min(len(machines), groups - len(picked))))
    return tuple(picked)


def random_machine(machines: Sequence[str], seed: int) -> str:
    """A machine drawn at random with ``seed`` for a tie-breaker. FWPL 6.1 ("single ball play on
    a random machine") and 6.5 ("Machine selection for tiebreaker games will be random"). Raises
    UnknownMachine if ``machines`` is empty."""
    if not machines:
        raise UnknownMachine("No machines to draw a tie-breaker machine from (FWPL 6.5).")
    return random.Random(seed).choice(list(machines))


def allowed_machines(
    machines: Sequence[str],
    played: Collection[str],
    state: Mapping[str, MachineState],
    awaited: Collection[str] = frozenset(),
) -> tuple[str, ...]:
    """The machines a group may pick next, in ``machines`` order. FWPL 5 and 6.4.

    ``played``: machines this group has played tonight (never allowed while others remain:
    "Players cannot select a game that has already been played that night by the group").
    ``state``: machine -> ``MachineState`` (missing means ``"open"``). ``awaited``: machines
    another group is already waiting for ("Groups should not wait for a game that another group
    is already waiting on"). Allowed: the unplayed machines that are open or on their last ball
    and not awaited; if there are none, every unplayed machine not awaited ("any game may be
    chosen"); if all are awaited, every unplayed machine. Raises nothing.
    """
    unplayed = [m for m in machines if m not in played] or list(machines)
    not_awaited = [m for m in unplayed if m not in awaited]
    free = [m for m in not_awaited if state.get(m, "open") != "in_use"]
    return tuple(free or not_awaited or unplayed)


def check_pick(
    machine: str,
    machines: Sequence[str],
    played: Collection[str],
    state: Mapping[str, MachineState],
    awaited: Collection[str] = frozenset(),
) -> None:
    """Raise MachineNotAllowed if ``machine`` is not in ``allowed_machines`` (FWPL 5, 6.4), with
    the reason in a steward's words; UnknownMachine if it is not one of ``machines``."""
    if machine not in machines:
        raise UnknownMachine(f"Machine {machine} is not one of this league's machines.")
    allowed = allowed_machines(machines, played, state, awaited)
    if machine in allowed:
        return
    if machine in played:
        why = "the group has already played it tonight"
    elif machine in awaited:
        why = "another group is already waiting for it"
    else:
        why = "another group is playing it and is not on ball 3"
    raise MachineNotAllowed(
        f"{machine} cannot be picked: {why}. Allowed now: {', '.join(allowed)}."
    )


def next_picker(previous: GameResult) -> str:
    """Who picks the next machine: the last placed player of ``previous`` who did not join it
    late. FWPL 5 ("the fourth place player of the previous game will decide the next game"; in a
    group of three, the third), 5.2 (a late joiner is "not ... given machine selection"; the
    next-lowest picks) and 6.4 ("goes to the looser of the first game"). A player who forfeited
    ``previous`` has no place there and does not pick. Raises NotInGroup if nobody placed.
    """
    placed = [row for row in previous.rows if row.place is not None]
    if not placed:
        raise NotInGroup(f"Nobody has a score on {previous.machine}, so nobody picks next.")
    on_time = [row for row in placed if not row.late]
    return (on_time or placed)[-1].player


def play_order(
    group: Sequence[str],
    previous: GameResult | None = None,
    present: Collection[str] | None = None,
    late: Collection[str] = frozenset(),
) -> tuple[str, ...]:
    """Play order of the next game. FWPL 5.2 (and "5.3" in the playoffs): the first game
    (``previous`` None) in seeding order, ``group`` being the seeding; later games in the
    finishing order of ``previous``, players without a place there following in seeding order.
    ``present``: players at the machine (default all of ``group``); ``late``: players joining
    late, who play last in the first game they play. Raises NotInGroup for a ``late`` or
    ``present`` player outside ``group``.

    >>> play_order(["a", "b", "c", "d"], late={"b"})
    ('a', 'c', 'd', 'b')
    """
    outside = sorted({*late, *(present or ())} - set(group))
    if outside:
        raise NotInGroup(f"Player {outside[0]} is not in this group.")
    here = set(group if present is None else present)
    ahead = list(previous.order) if previous is not None else []
    ahead += [p for p in group if p not in ahead]
    on_time = [p for p in ahead if p in here and p not in late]
    return (*on_time, *(p for p in group if p in late and p in here))


def may_join_late(machine_allows: bool, last_player_started_ball_1: bool) -> bool:
    """Whether a player arriving after the group began may join the game in progress. FWPL 2.3:
    "if the machine permits it, and the last player of the group has not started ball 1".
    Otherwise the game is a forfeit for them (2.4)."""
    return machine_allows and not last_player_started_ball_1
