"""UKPL adjustments, machine faults and multiplayer games, applied to a meeting's games before the
meeting engine (``scoring.ukpl.meeting``) ranks them.

Rule text: UKPL rules (UK Pinball League regional rules), sections 2E, 2F, 6A, 6C, 7A, 7C, 7D. Every
adjustment is a frozen record naming the player and machine, who decided it (``by``) and why
(``reason``), so a table can show it. ``adjust`` takes a meeting's games as ``Entry`` values (a
player may have more than one game on a machine when a fault is recorded) and returns one counting
score per player and machine, ready for ``scoring.tournament.rebuild``, and a log of what changed.

Steps, in this order: banned players' games are dropped (7A); games on a removed machine are dropped,
to be replayed on its substitute (6A); fault records settle a player's games on one machine (6C:
``Replay`` discards the earliest game, ``OneBallAdded`` adds the first two); then scores change:
``Jackpot`` (2E), ``ExtraBall`` (7C), ``SlamTilt`` and ``Penalty`` "zero" (7D, 7A), last
``Penalty`` "disqualify" (7A), so a zero is never undone by a later step.

Choices made here (the rule text leaves them open; listed in docs/rules.md):

- 7C "80% of their total score" rounds *down* to a whole score (``score * 4 // 5``): a penalised
  score is never above 80%, so a penalty never rounds in the offender's favour. Scores are almost
  always multiples of 10, and 80% of a multiple of 5 is whole, so it rarely matters;
- a zero award (slam tilt, "award zero score") on a machine the player has no game on yet gives
  them a score of 0 there: "being awarded a score of zero" (7D) is a score, ranked last;
- 7A "disqualify the player from the meet, ie zero all scores on all machines": ``AdjustConfig``
  field ``disqualified`` = ``"zero"`` (default, the text's own definition: the player keeps 0 on
  every machine they played and still counts as a competitor) or ``"remove"`` (their games are
  dropped, as if they had not played);
- a ban "for the next meet" covers the next meeting held in the season; "for the season" every
  later meeting of the season (``banned``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, get_args

from scoring.errors import EntryNotAllowed, InvalidScore, MachineAlreadyPlayed, SettingsError
from scoring.model import Entry
from scoring.settings import Choice, choice, described
from scoring.tournament import check_score

PenaltyLevel = Literal["zero", "disqualify", "ban_next", "ban_season"]
"""UKPL 7A penalties, mildest first."""
Disqualified = Literal["zero", "remove"]

MULTIPLAYER_SIZES = range(2, 7)
"""UKPL 2F: "groups of between two and six players"."""


@dataclass(frozen=True, slots=True)
class AdjustConfig:
    """Settings for adjustments (UKPL 7A). ``disqualified``: ``"zero"`` | ``"remove"``, what a
    disqualification does to the player's games (module docstring), default ``"zero"`` (7A "ie zero
    all scores on all machines at the meet"). Raises SettingsError when invalid."""

    disqualified: Disqualified = "zero"

    def __post_init__(self) -> None:
        value = choice("disqualified", self.disqualified, get_args(Disqualified))
        object.__setattr__(self, "disqualified", value)


@dataclass(frozen=True, slots=True, kw_only=True)
class Jackpot:
    """A random jackpot fixed at a pre-agreed value (UKPL 2E): the recorded score minus the
    ``awarded`` jackpot values plus ``agreed`` for each of them."""

    player: str
    machine: str
    awarded: tuple[int, ...]
    agreed: int
    by: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtraBall:
    """An extra ball played by mistake (UKPL 7C). ``last_ball``: it happened on the last ball, the
    score becomes 80% (rounded down). ``kept_playing``: the player did not stop within 10 seconds
    of being told, the game scores zero. Neither: the next ball was lost, the score stands."""

    player: str
    machine: str
    last_ball: bool
    kept_playing: bool = False
    by: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SlamTilt:
    """A slam tilt: the game ends and scores zero (UKPL 7D)."""

    player: str
    machine: str
    by: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalty:
    """A conduct penalty given at meeting ``meet`` (UKPL 7A). ``level`` ``"zero"`` zeroes the score
    on ``machine``; ``"disqualify"`` the whole meet (``AdjustConfig.disqualified``); ``"ban_next"``
    and ``"ban_season"`` stop the player's scores counting at later meetings (``banned``)."""

    player: str
    level: PenaltyLevel
    meet: str
    machine: str | None = None
    by: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Replay:
    """A fault with a replay: the player's earliest game on ``machine`` is discarded and the replay
    counts (UKPL 6A; 6C option 2, "discarding the current game and replaying")."""

    player: str
    machine: str
    by: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class OneBallAdded:
    """A fault with loss of ball, option 1 (UKPL 6C): the completed game and one ball of a new game
    are the player's first two games on ``machine``; "the scores of the two games will then be
    added together"."""

    player: str
    machine: str
    by: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Substitute:
    """A machine removed during the meeting (UKPL 6A): every game on ``machine`` is discarded, "to
    be replayed on" ``substitute``."""

    machine: str
    substitute: str
    by: str
    reason: str


Record = Jackpot | ExtraBall | SlamTilt | Penalty | Replay | OneBallAdded | Substitute


@dataclass(frozen=True, slots=True)
class Applied:
    """One record's effect, for the log (UKPL 2E, 6A, 6C, 7A-7D): the score before and after (None:
    no game there / the game no longer counts)."""

    record: Record
    player: str
    machine: str
    before: int | None
    after: int | None


@dataclass(frozen=True, slots=True)
class Adjusted:
    """``adjust``'s result (UKPL 2E, 6A, 6C, 7A-7D): at most one entry per player and machine, in
    seq order; ``removed`` machines to leave out of the meeting; ``log`` in the order applied."""

    entries: tuple[Entry, ...]
    removed: frozenset[str]
    log: tuple[Applied, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class MultiplayerGame:
    """One game played by a group at once on ``machine`` (UKPL 2F): ``scores`` as (player number,
    score) in playing order."""

    machine: str
    scores: tuple[tuple[str, int], ...]


def jackpot_score(score: int, awarded: Sequence[int], agreed: int) -> int:
    """``score`` with every awarded jackpot replaced by the pre-agreed value (UKPL 2E). Raises
    InvalidScore when the jackpots exceed the score or the result is not a valid score.

    >>> jackpot_score(12_000_000, [8_000_000], 5_000_000)
    9000000
    """
    for value in (*awarded, agreed):
        check_score(value)
    base = score - sum(awarded)
    if base < 0:
        raise InvalidScore(
            f"The jackpots awarded ({sum(awarded):,}) are more than the whole score ({score:,})."
        )
    return check_score(base + agreed * len(awarded))


def extra_ball_score(score: int) -> int:
    """80% of ``score`` rounded down, for an extra ball played on the last ball (UKPL 7C).

    >>> extra_ball_score(1_234_567)
    987653
    """
    return score * 4 // 5


def banned(penalties: Iterable[Penalty], meets: Sequence[str], meet: str) -> frozenset[str]:
    """Players whose scores do not count at ``meet``: a ``"ban_next"`` given at the meeting just
    before it, or a ``"ban_season"`` given at any earlier meeting of ``meets`` (the season's
    meetings in the order held). UKPL 7A. Raises SettingsError for a meeting not in ``meets``."""
    order = {m: i for i, m in enumerate(meets)}
    at = _index(order, meet)
    out: set[str] = set()
    for penalty in penalties:
        given = _index(order, penalty.meet)
        if (penalty.level == "ban_next" and given + 1 == at) or (
            penalty.level == "ban_season" and given < at
        ):
            out.add(penalty.player)
    return frozenset(out)


def minimum_penalty(history: Iterable[Penalty], player: str) -> PenaltyLevel | None:
    """The mildest penalty ``player``'s next offence may get (UKPL 7A: after a penalty "the next
    level of penalty above will be imposed as a minimum"); None with no penalty yet (a warning is
    possible). The top level, a season ban, stays the minimum once given."""
    levels = get_args(PenaltyLevel)
    given = [levels.index(p.level) for p in history if p.player == player]
    return levels[min(max(given) + 1, len(levels) - 1)] if given else None


def check_multiplayer(game: MultiplayerGame) -> None:
    """Raise EntryNotAllowed unless ``game`` has 2-6 different players on a named machine (UKPL
    2F), InvalidScore for a score that is not a whole number in range."""
    if not game.machine:
        raise EntryNotAllowed("A multiplayer game needs the machine it was played on.")
    size = len(game.scores)
    if size not in MULTIPLAYER_SIZES:
        raise EntryNotAllowed(
            f"A multiplayer game has 2 to 6 players; this one on {game.machine} has {size}."
        )
    players = [player for player, _ in game.scores]
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise EntryNotAllowed(
            f"Player {', '.join(twice)} is entered twice in one game on {game.machine}."
        )
    for _, score in game.scores:
        check_score(score)


def multiplayer_entries(game: MultiplayerGame, first_seq: int) -> tuple[Entry, ...]:
    """``game``'s scores as entries with seq ``first_seq``, ``first_seq + 1``, ... in playing order,
    after ``check_multiplayer`` (UKPL 2F: the group's scores are entered together)."""
    check_multiplayer(game)
    return tuple(
        Entry(first_seq + i, player, game.machine, score)
        for i, (player, score) in enumerate(game.scores)
    )


def adjust(
    entries: Iterable[Entry],
    records: Iterable[Record],
    config: AdjustConfig = AdjustConfig(),
    banned_players: Collection[str] = frozenset(),
) -> Adjusted:
    """A meeting's games and this meeting's records -> one counting score per player and machine.
    UKPL 2E, 6A, 6C, 7A, 7C, 7D; steps and choices in the module docstring.

    ``banned_players`` (from ``banned``) have every game dropped. Raises MachineAlreadyPlayed when
    a player still has two games on a machine after the fault records, EntryNotAllowed when a
    record names a game that is not there, InvalidScore for a score out of range.
    """
    every = tuple(records)
    removed = _removed_machines(every)
    # Records about games that no longer count (a banned player, a removed machine) do nothing.
    live = tuple(
        r
        for r in every
        if not isinstance(r, Substitute)
        and r.player not in banned_players
        and getattr(r, "machine", None) not in removed
    )
    games: dict[tuple[str, str], list[Entry]] = {}
    for entry in sorted(entries, key=lambda e: e.seq):
        if entry.player not in banned_players and entry.machine not in removed:
            games.setdefault((entry.player, entry.machine), []).append(entry)
    log = [_fault(games, r) for r in live if isinstance(r, Replay | OneBallAdded)]
    scores = {key: _one_game(key, played) for key, played in games.items()}
    next_seq = max((e.seq for e in scores.values()), default=0) + 1
    for step in (_jackpot, _extra_ball, _zero, _disqualify):
        for applied in (a for r in live for a in step(scores, r, config)):
            log.append(applied)
            key = (applied.player, applied.machine)
            if applied.after is None:
                scores.pop(key, None)
            elif key in scores:
                scores[key] = Entry(scores[key].seq, *key, applied.after)
            else:  # a zero award where no game was recorded
                scores[key] = Entry(next_seq, *key, applied.after)
                next_seq += 1
    counting = tuple(sorted(scores.values(), key=lambda e: e.seq))
    return Adjusted(counting, removed, tuple(log))


def _removed_machines(records: tuple[Record, ...]) -> frozenset[str]:
    substitutes = [r for r in records if isinstance(r, Substitute)]
    removed = frozenset(r.machine for r in substitutes)
    for sub in substitutes:
        if sub.substitute in removed:
            raise SettingsError(
                f"{sub.machine} cannot be replaced by {sub.substitute}: it is removed too."
            )
    return removed


def _one_game(key: tuple[str, str], played: list[Entry]) -> Entry:
    if len(played) > 1:
        listed = ", ".join(f"{e.score:,}" for e in played)
        raise MachineAlreadyPlayed(
            f"Player {key[0]} has {len(played)} games on {key[1]} ({listed}); record a replay "
            "or a one-ball fault to say which counts."
        )
    return played[0]


def _index(order: dict[str, int], meet: str) -> int:
    if meet not in order:
        raise SettingsError(f"Meeting {meet} is not one of this season's meetings.")
    return order[meet]


def _game(scores: dict[tuple[str, str], Entry], record: Record, player: str, machine: str) -> int:
    if (player, machine) not in scores:
        name = type(record).__name__
        raise EntryNotAllowed(f"{name}: player {player} has no score on {machine} to adjust.")
    return scores[(player, machine)].score


def _fault(games: dict[tuple[str, str], list[Entry]], record: Replay | OneBallAdded) -> Applied:
    # UKPL 6C: a replay keeps the later game; option 1 adds the two games into the first one.
    key = (record.player, record.machine)
    played = games.get(key, [])
    if len(played) < 2:
        raise EntryNotAllowed(
            f"{type(record).__name__}: player {key[0]} needs two games on {key[1]}, "
            f"not {len(played)}."
        )
    first, second = played[0], played[1]
    if isinstance(record, Replay):
        games[key] = played[1:]
        return Applied(record, *key, first.score, second.score)
    total = check_score(first.score + second.score)
    games[key] = [Entry(first.seq, *key, total), *played[2:]]
    return Applied(record, *key, first.score, total)


def _jackpot(scores: dict[tuple[str, str], Entry], r: Record, _: AdjustConfig) -> list[Applied]:
    if not isinstance(r, Jackpot):
        return []
    before = _game(scores, r, r.player, r.machine)
    return [Applied(r, r.player, r.machine, before, jackpot_score(before, r.awarded, r.agreed))]


def _extra_ball(scores: dict[tuple[str, str], Entry], r: Record, _: AdjustConfig) -> list[Applied]:
    if not isinstance(r, ExtraBall):
        return []
    before = _game(scores, r, r.player, r.machine)
    after = 0 if r.kept_playing else extra_ball_score(before) if r.last_ball else before
    return [Applied(r, r.player, r.machine, before, after)]


def _zero(scores: dict[tuple[str, str], Entry], r: Record, _: AdjustConfig) -> list[Applied]:
    if isinstance(r, Penalty) and r.level == "zero" and r.machine is None:
        raise EntryNotAllowed(f"A zero-score penalty for {r.player} must name the machine.")
    if not (isinstance(r, SlamTilt) or (isinstance(r, Penalty) and r.level == "zero")):
        return []
    machine = r.machine or ""
    before = scores.get((r.player, machine))
    return [Applied(r, r.player, machine, None if before is None else before.score, 0)]


def _disqualify(
    scores: dict[tuple[str, str], Entry], r: Record, cfg: AdjustConfig
) -> list[Applied]:
    if not (isinstance(r, Penalty) and r.level == "disqualify"):
        return []
    after = 0 if cfg.disqualified == "zero" else None
    played = sorted((e for e in scores.values() if e.player == r.player), key=lambda e: e.seq)
    return [Applied(r, e.player, e.machine, e.score, after) for e in played]


CHOICES: Mapping[str, tuple[Choice, ...]] = MappingProxyType(
    {
        "disqualified": described(
            Disqualified,
            {
                "zero": "a disqualified player's scores become 0 on every machine",
                "remove": "a disqualified player's games are taken out",
            },
        ),
    }
)
"""The settings of ``AdjustConfig`` that take one of a fixed set, with each value's meaning (UKPL 7A;
the module docstring gives the readings)."""
