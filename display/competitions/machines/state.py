"""The hall beside a per-machine tournament: queues, machine status, withdrawn players, and which
records corrected, voided or wiped which entries. Frozen data only; the operations are in
``display/competitions/machines/queue.py`` and ``display/competitions/machines/records.py``.

``HallTournament`` *is* a ``scoring.tournament.Tournament`` with one more field, so every scoring
function (``record_entry``, ``check_entry``, the standings) takes it as it is and ``replace`` keeps
the hall; kinds that wrap the ``machines`` kind read ``.standings``, ``.players``… as before.

Hall settings live under the key ``"hall"`` of a tournament's settings (``tournament_created`` and
``settings_changed``), apart from the format's own settings; every choice is a field here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Literal, get_args

from immutables import Map

from display.types import FormatSettings
from scoring.errors import EntryNotAllowed, SettingsError
from scoring.merge import Clash

# A machine's status is the rules' (``scoring.machine_faults`` changes it); the hall keeps it.
from scoring.model import STATUSES as STATUSES
from scoring.model import MachineState as MachineState
from scoring.model import Status as Status
from scoring.settings import check_known, choice, whole_number
from scoring.tournament import Tournament

SkipTo = Literal["back", "out"]
KEEP_LENGTHS = 50
"""Game lengths kept per machine (the estimate uses the last ``recent_games`` of them)."""


class QueueRefused(EntryNotAllowed):
    """A queue action the queue's state does not allow now (409). The queues are the hall's, not
    the rules' (docs/rules.md: the hall "is about running the room"), so this stays here."""

    code = "queue_refused"


def _flag(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = value.strip().lower() if isinstance(value, str) else None
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    raise SettingsError(f"Setting hall.{name} must be true or false, not {value!r}.")


@dataclass(frozen=True, slots=True)
class HallSettings:
    """How the hall runs; each field a TD's choice (the issue leaves them open).

    ``players_may_queue``: players signed in with number and PIN may join and leave queues from
    their phones; default False (stewards run the queues). ``one_queue``: a player waits in (or
    plays at) one queue at a time, default True, as a player cannot be at two machines at once.
    ``skip_to``: a called player who does not come goes to the ``"back"`` of the queue (default:
    a no-show loses their turn, not their game) or ``"out"``. ``void_window_seconds``: how long a
    steward may void their own entry, default 120 (the player is still at the machine checking
    it: EPC 2009, EPC Qualifying, "The contestant should verify the score"). ``game_minutes``: the
    estimated game length before a machine has any timed game, default 8. ``recent_games``: the
    estimate is the median of this many latest timed games on the machine, default 9.
    ``max_score``: the highest score a steward may record; above it only the TD can (a typed
    extra digit or two is caught at the machine, not on the board), default 10^12, above the
    top scores of today's machines. The rulebooks set no maximum (EPC 2009, EPC Qualifying: "The
    contestant should verify the score"); 0 … 2^53-1 like a score.
    """

    players_may_queue: bool = False
    one_queue: bool = True
    skip_to: SkipTo = "back"
    void_window_seconds: int = 120
    game_minutes: int = 8
    recent_games: int = 9
    max_score: int = 10**12

    def __post_init__(self) -> None:
        values = {
            "players_may_queue": _flag("players_may_queue", self.players_may_queue),
            "one_queue": _flag("one_queue", self.one_queue),
            "skip_to": choice("hall.skip_to", self.skip_to, get_args(SkipTo)),
            "void_window_seconds": whole_number(
                "hall.void_window_seconds", self.void_window_seconds, 0, 24 * 3600
            ),
            "game_minutes": whole_number("hall.game_minutes", self.game_minutes, 1, 240),
            "recent_games": whole_number("hall.recent_games", self.recent_games, 1, KEEP_LENGTHS),
            "max_score": whole_number("hall.max_score", self.max_score, 0, 2**53 - 1),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def changed(self, raw: object) -> HallSettings:
        """These settings with ``raw`` (a mapping of names to values) applied. Raises
        SettingsError for an unknown name or a bad value."""
        if not isinstance(raw, Mapping):
            raise SettingsError(f"Setting hall must be a mapping of hall settings, not {raw!r}.")
        check_known("The hall", raw, self.as_dict())
        return HallSettings(**{**self.as_dict(), **raw})

    def as_dict(self) -> FormatSettings:
        """Every hall setting by name (the ``hall`` part of a tournament's settings)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player waiting in a queue. ``joined``: the ``at`` of their join. ``paused``: kept in
    place but passed over when the next player is called (a ruling, a break)."""

    player: str
    joined: str | None = None
    paused: bool = False
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Up:
    """The player called to a machine. ``started``: when their game started (None: called, not
    started yet); ``called``: when they were called."""

    player: str
    called: str | None = None
    started: str | None = None


@dataclass(frozen=True, slots=True)
class Queue:
    """One machine's queue: who is up, who waits (in order), recent game lengths in seconds."""

    up: Up | None = None
    waiting: tuple[Waiting, ...] = ()
    lengths: tuple[float, ...] = ()

    def position(self, player: str) -> int | None:
        """1-based place of ``player`` among the waiting, or None."""
        return next((i for i, w in enumerate(self.waiting, 1) if w.player == player), None)

    def holds(self, player: str) -> bool:
        """Whether ``player`` is up or waiting here."""
        return (self.up is not None and self.up.player == player) or self.position(
            player
        ) is not None


@dataclass(frozen=True, slots=True)
class MergeNote:
    """A player number joined into another (``players_merged``, ``scoring.merge``): the number
    it went ``into``, the record's ``seq``, who and why, the joined player's ``name``, and the
    ``clashes`` the TD checks (machines both numbers played)."""

    into: str
    seq: int
    name: str
    by: str
    reason: str
    clashes: tuple[Clash, ...] = ()


@dataclass(frozen=True, slots=True)
class Hall:
    """Everything the hall adds to a tournament. Mappings are never mutated after creation.

    ``queues``/``machines``: by machine id (every machine has both). ``withdrawn``: player ->
    reason. ``origins``: seq of a ``score_corrected`` record -> seq of the entry it stands for (a
    ``score_recorded`` record stands for its own entry). ``corrected``: entry seq -> seq of its
    latest correction. ``voided``, ``wiped``: entry seq -> seq of the record that voided or wiped
    it. ``digits``: machine id ->
    the digits its display shows, for machines that declare them (``scoring.rollover``).
    ``merged``: a player number joined into another -> its ``MergeNote``. ``tags``: player ->
    the city, club or nickname registered with them (``player_added``'s ``tag``), shown beside
    the name so two players of one name can be told apart. The four maps of seqs are persistent
    (``immutables.Map``): one more correction costs a step, not a copy of every one before it.
    """

    settings: HallSettings = field(default_factory=HallSettings)
    queues: Mapping[str, Queue] = field(default_factory=dict)
    machines: Mapping[str, MachineState] = field(default_factory=dict)
    withdrawn: Mapping[str, str] = field(default_factory=dict)
    origins: Map[int, int] = field(default_factory=Map)
    corrected: Map[int, int] = field(default_factory=Map)
    voided: Map[int, int] = field(default_factory=Map)
    wiped: Map[int, int] = field(default_factory=Map)
    digits: Mapping[str, int] = field(default_factory=dict)
    merged: Mapping[str, MergeNote] = field(default_factory=dict)
    tags: Mapping[str, str] = field(default_factory=dict)

    def status(self, machine: str) -> MachineState:
        """``machine``'s status; in service when none was recorded."""
        return self.machines.get(machine) or MachineState()

    def queue(self, machine: str) -> Queue:
        """``machine``'s queue; empty when none was recorded."""
        return self.queues.get(machine) or Queue()


@dataclass(frozen=True, slots=True)
class HallTournament(Tournament):
    """A per-machine tournament and its hall (module docstring)."""

    hall: Hall = field(default_factory=Hall)

    @classmethod
    def of(cls, tournament: Tournament, hall: Hall) -> HallTournament:
        """``tournament`` (any Tournament) with ``hall`` beside it."""
        values = {f.name: getattr(tournament, f.name) for f in fields(Tournament)}
        return cls(**values, hall=hall)
