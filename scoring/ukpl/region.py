"""A UKPL region's season put together from its meetings: who is a region player, the order the
meetings were held in, bans carried from one meeting to the next, and which meeting's settings
the table follows. The table itself is ``scoring.ukpl.season.season_table``.

Rule text: UKPL rules (UK Pinball League regional rules), sections 1B, 1C, 1E, 3C, 3E, 3F, 7A.

Choices the text leaves open (settings of the live meeting, documented in display/competitions/ukpl/kind.py):

- 1C/3C "players can register for one regional league only": a player registered in another
  region than the meeting's is a guest ("for fun"), as is one marked guest (e.g. not in the
  league); a player with no region given is a region player unless marked guest;
- region names are compared without case or surrounding spaces ("London and South East");
- meetings are ordered by the date held (ISO ``YYYY-MM-DD``; a meeting with no date, e.g. a
  results import without one, comes first), then by meeting id in natural order; the order only
  matters for bans (7A "a ban for the next meet") and the order of the results shown;
- a season's settings (best-k, qualifying places, ...) are those of its latest meeting that has
  them: the coordinator's latest word, and every meeting of the season shows the same table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.errors import DuplicateRegistration, EntryNotAllowed
from scoring.ranking import player_key
from scoring.ukpl.adjust import Penalty, banned
from scoring.ukpl.errors import OwnMeeting
from scoring.ukpl.season import Meet, SeasonConfig, SeasonTable, season_table


def same_region(a: str | None, b: str | None) -> bool:
    """Whether two region names are the same region (UKPL 1C): equal ignoring case and
    surrounding spaces; None (not given) matches nothing."""
    return a is not None and b is not None and a.strip().casefold() == b.strip().casefold()


def is_guest(marked: bool, player_region: str | None, meeting_region: str | None) -> bool:
    """A player plays "for fun" at a meeting, with no league points (UKPL 1C, 3C), when marked
    guest or registered in another region than the meeting's (both regions given)."""
    if marked:
        return True
    known = player_region is not None and meeting_region is not None
    return known and not same_region(player_region, meeting_region)


def reclassified(player: str, name: str, guest_now: bool, guest: bool) -> bool:
    """A TD's record making player ``player`` (``name``) a guest (``guest`` True) or a region
    player (False) at this meeting; returns ``guest``. UKPL 1C ("players can register for one
    regional league only") and UKPL 3C ("League points for players from other regions"): the
    registration read at sign-up can be wrong (a player moved region, or joined the league on
    the day), and the meeting's machine points follow the corrected field (3B: N is the number
    of competitors). Raises EntryNotAllowed when the player already is what the record says,
    so a second tap records nothing."""
    if guest_now == guest:
        what = "a guest" if guest else "a region player"
        raise EntryNotAllowed(f"{name} ({player}) is already {what} at this meeting.")
    return guest


@dataclass(frozen=True, slots=True)
class SeasonMeet:
    """One meeting of a region's season (UKPL 1B, 3E): its results, the date it was held
    (``YYYY-MM-DD``, "" unknown), the penalties given there (7A) and, for a meeting run on this
    server, its season settings (None for a results import)."""

    meet: Meet
    held: str = ""
    penalties: tuple[Penalty, ...] = ()
    config: SeasonConfig | None = None

    @property
    def id(self) -> str:
        """The meeting id (UKPL 3A: each meeting's results are published under one)."""
        return self.meet.id


def check_other_meeting(meet: str, own: str | None) -> None:
    """Raise OwnMeeting if results imported as meeting ``meet`` would be this meeting's own
    (``own``: its id, None when it has none set): a meeting's results are its scores (UKPL 3A,
    3E)."""
    if meet == (own or ""):
        raise OwnMeeting(f"Meeting {meet} is this meeting: its results are its scores.")


def held_order(meets: Iterable[SeasonMeet]) -> tuple[SeasonMeet, ...]:
    """Meetings in the order held: by date, undated first, then by id in natural order (UKPL 1B;
    module docstring). Raises DuplicateRegistration for a meeting id given twice."""
    ordered = sorted(meets, key=lambda m: (m.held, player_key(m.id)))
    ids = [m.id for m in ordered]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise DuplicateRegistration(f"Meeting {', '.join(twice)} is in this season twice.")
    return tuple(ordered)


def bans_at(meets: Sequence[SeasonMeet], meet: str) -> dict[str, Penalty]:
    """Players whose scores do not count at ``meet`` -> the penalty that bans them (UKPL 7A: "a
    ban for the next meet", "a ban for the season"), from the penalties of every meeting of
    ``meets``. Raises SettingsError if ``meet`` is not one of them."""
    ordered = held_order(meets)
    ids = [m.id for m in ordered]
    penalties = [p for m in ordered for p in m.penalties]
    out = banned(penalties, ids, meet)
    # the latest penalty that bans each player is the one shown
    return {p.player: p for p in penalties if p.player in out and banned([p], ids, meet)}


def season_settings(meets: Iterable[SeasonMeet]) -> SeasonConfig:
    """The settings of the latest meeting held that has them, else the defaults (UKPL 1G, 3E, 3F;
    module docstring)."""
    configs = [m.config for m in held_order(meets) if m.config is not None]
    return configs[-1] if configs else SeasonConfig()


def region_season(meets: Iterable[SeasonMeet]) -> tuple[SeasonTable, SeasonConfig]:
    """The region's season table from its meetings in the order held, and the settings used
    (UKPL 1C, 1E, 3C, 3E, 3F, 3G). Raises what ``season_table`` raises, and
    DuplicateRegistration for a meeting id given twice."""
    ordered = held_order(meets)
    config = season_settings(ordered)
    return season_table((m.meet for m in ordered), config), config
