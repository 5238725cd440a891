"""The UK Pinball Kids Tournament at EPC 2009: one machine, a high-score table, three trophies.

Rule text: EPC 2009 rules, "UK PINBALL KIDS TOURNAMENT". In short:

- one designated machine; any number of £1 entries per player, each one three-ball game;
- each score is recorded and "if it is high enough, displayed on the tournament monitor": the
  table shows each player's best score, best first;
- "At the close of the tournament each day, the three players with the highest scores will be
  awarded glass trophies": Saturday and Sunday are separate tournaments (one Backglass tournament
  each); ``KidsConfig.closed_after`` is the close, an input the TD sets, never read from a clock.

Choice the text leaves open: equal best scores at the trophy line, ``KidsConfig.ties``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Literal, get_args

from scoring.epc.errors import QualifyingClosed, WrongMachine
from scoring.errors import SettingsError
from scoring.model import Entry, MachineRow, MachineTable, Player, StandingRow, Standings
from scoring.ranking import player_key, rank
from scoring.settings import Choice, check_known, choice, described, whole_number
from scoring.tournament import Tournament

KidsTies = Literal["share", "earlier"]


def closing(name: str, value: object) -> int | None:
    """The close as a setting: None (still open) or the log version it fell at, so that scores
    recorded up to it still count when the log is replayed and later ones are refused; JSON null
    or a whole number, or CLI text ("" or "none" for open). EPC 2009, UK Pinball Kids Tournament;
    EPC Classic Tournament. Raises SettingsError."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    return whole_number(name, value, 0, 2**63 - 1)


def in_play(name: str, value: object) -> tuple[tuple[str, str], ...]:
    """The games in play at the close as a setting: a JSON list of ``[player, machine]`` pairs.
    EPC 2009, UK Pinball Kids Tournament; EPC Classic Tournament. Raises SettingsError."""
    if value is None or value == "":
        return ()
    if not isinstance(value, list | tuple) or not all(
        isinstance(g, list | tuple) and len(g) == 2 and all(isinstance(x, str) for x in g)
        for g in value
    ):
        raise SettingsError(f"Setting {name} is a list of [player, machine] pairs.")
    return tuple((str(g[0]), str(g[1])) for g in value)


def check_open(
    closed_after: int | None,
    entry: Entry,
    what: str,
    playing: tuple[tuple[str, str], ...] = (),
    tournament: Tournament | None = None,
) -> None:
    """Raise QualifyingClosed if ``entry`` was recorded after the close (EPC 2009, UK Pinball Kids
    Tournament; EPC Classic Tournament: "The qualifying round ends at 3pm promptly"), unless it
    is the one score of a game in ``playing`` at the close (player, machine): a game started
    before the close counts (docs/rules.md)."""
    if closed_after is None or entry.seq <= closed_after:
        return
    if (entry.player, entry.machine) in playing and tournament is not None:
        after = tournament.entries.get(entry.machine, ())
        if not any(e.player == entry.player and e.seq > closed_after for e in after):
            return
    raise QualifyingClosed(f"{what} has closed; no more scores are recorded.")


def high_score_table(entries: tuple[Entry, ...], earlier_first: bool) -> MachineTable:
    """Each player's best score on one machine, best first; equal scores listed in the order they
    were recorded, sharing the place unless ``earlier_first`` (then the earlier ranks higher, as
    on a machine's own high-score table). No points. EPC 2009, UK Pinball Kids Tournament ("if it
    is high enough, displayed on the tournament monitor"); EPC Classic Tournament."""
    best: dict[str, int] = {}
    when: dict[str, int] = {}
    for entry in entries:
        if entry.player not in best or entry.score > best[entry.player]:
            best[entry.player], when[entry.player] = entry.score, entry.seq
    rows = tuple(
        MachineRow(p, best[p], g.place + (i if earlier_first else 0), None)
        for g in rank(best, value=best.__getitem__, order=lambda p: (when[p],))
        for i, p in enumerate(g.items)
    )
    return MachineTable(machine=entries[0].machine if entries else "", rows=rows)


@dataclass(frozen=True, slots=True)
class KidsConfig:
    """Settings of one day's kids tournament (EPC 2009, UK Pinball Kids Tournament). Raises
    SettingsError.

    ``trophies``: trophy places, default 3 ("the three players with the highest scores").
    ``ties``: equal best scores: ``"share"`` (default) they share the place, and every player
    placed within the trophy places gets one (so a tie for 3rd gives four trophies): the text
    rewards "the highest scores" and equal scores are equally high; ``"earlier"`` the score
    recorded first ranks first, as on a machine's own high-score table, so exactly three.
    ``closed_after``: None while the day's tournament runs; at the close, the log version it fell
    at (``closing``): later scores are refused and the trophies are final. ``in_play_at_close``:
    the (player, machine) games started before the close, whose one score still counts.
    """

    trophies: int = 3
    ties: KidsTies = "share"
    closed_after: int | None = None
    in_play_at_close: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "trophies", whole_number("trophies", self.trophies, 1, 100))
        object.__setattr__(self, "ties", choice("ties", self.ties, get_args(KidsTies)))
        object.__setattr__(self, "closed_after", closing("closed_after", self.closed_after))
        playing = in_play("in_play_at_close", self.in_play_at_close)
        object.__setattr__(self, "in_play_at_close", playing)


class EpcKids:
    """The kids tournament as a ``Format``, registered as ``"epc-kids"`` (EPC 2009, UK Pinball Kids
    Tournament). Stateless; every method is pure."""

    __slots__ = ()

    def __reduce__(self) -> str:
        """Pickled as the module's ``EPC_KIDS``: a snapshot's state unpickles to the one format
        object, which views compare by identity (EPC 2009, UK Pinball Kids Tournament)."""
        return "EPC_KIDS"

    name: str = "epc-kids"
    title: str = "UK Pinball Kids Tournament"

    def parse_settings(self, settings: Mapping[str, Any]) -> KidsConfig:
        """Settings (JSON or CLI text) -> ``KidsConfig``. Raises SettingsError. EPC 2009, UK
        Pinball Kids Tournament."""
        check_known(self.title, settings, KidsConfig.__dataclass_fields__)
        return KidsConfig(**settings)

    def settings_dict(self, config: KidsConfig) -> dict[str, Any]:
        """``KidsConfig`` -> JSON-safe settings; round-trips. EPC 2009, UK Pinball Kids
        Tournament."""
        return {
            "trophies": config.trophies,
            "ties": config.ties,
            "closed_after": config.closed_after,
            "in_play_at_close": [list(g) for g in config.in_play_at_close],
        }

    def check_entry(self, config: KidsConfig, tournament: Tournament, entry: Entry) -> None:
        """Refuse a score after the close, or on a second machine (EPC 2009, UK Pinball Kids
        Tournament: "the designated UK Pinball Kids Tournament machine"; "At the close of the
        tournament each day"). Any number of entries per player ("as many entries as they
        wish")."""
        check_open(
            config.closed_after,
            entry,
            "Today's kids tournament",
            config.in_play_at_close,
            tournament,
        )
        used = [m for m, entries in tournament.entries.items() if entries]
        if used and entry.machine not in used:
            name = tournament.machines[used[0]].name
            raise WrongMachine(f"The kids tournament is played on {name} only.")

    def rank_machine(
        self, config: KidsConfig, players: Mapping[str, Player], entries: tuple[Entry, ...]
    ) -> MachineTable:
        """The high-score table: each player's best score, best first (EPC 2009, UK Pinball Kids
        Tournament: "their score will be recorded and if it is high enough, displayed"). Equal
        scores share the place (``ties="share"``) or the earlier ranks first (``"earlier"``); the
        earlier is listed first either way. No points (``points`` None)."""
        return high_score_table(entries, earlier_first=config.ties == "earlier")

    def standings(
        self, config: KidsConfig, players: Mapping[str, Player], tables: Mapping[str, MachineTable]
    ) -> Standings:
        """Every player by best score (EPC 2009, UK Pinball Kids Tournament: "the three players
        with the highest scores will be awarded glass trophies"). ``total`` is the best score;
        ``band`` ``"trophy"`` once closed (``"leading"`` before) for places within ``trophies``;
        a player with no score has place None, total 0."""
        rows = [r for table in tables.values() for r in table.rows if r.player in players]
        scored = {r.player for r in rows}
        band = "leading" if config.closed_after is None else "trophy"
        out = [
            StandingRow(
                r.player,
                r.place,
                Fraction(r.score),
                1,
                band if r.place is not None and r.place <= config.trophies else None,
            )
            for r in rows
        ]
        out.extend(
            StandingRow(p, None, Fraction(0), 0)
            for p in sorted(players, key=player_key)
            if p not in scored
        )
        return Standings(rows=tuple(out))


EPC_KIDS = EpcKids()
"""The UK Pinball Kids Tournament format (stateless); one tournament per day."""


CHOICES: Mapping[str, tuple[Choice, ...]] = MappingProxyType(
    {
        "ties": described(
            KidsTies,
            {
                "share": "equal scores share the place (a tie may give an extra trophy)",
                "earlier": "the score recorded first ranks first",
            },
        ),
    }
)
"""The settings of ``KidsConfig`` that take one of a fixed set, with each value's meaning (EPC 2009,
UK Pinball Kids Tournament; the class docstring gives the readings)."""
