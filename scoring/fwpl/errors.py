"""FWPL errors, under ``scoring.errors.EntryNotAllowed`` (so ``display/`` maps them to 409)::

EntryNotAllowed
├── PlayoffNeeded         equal scores or totals that only a recorded play-off can order
│                         (FWPL 3.2 one-ball play-off, 6.1 cut, 6.5 playoff ties)
├── SeasonForfeited       a score for a player who is out of the season (FWPL 2.5, 8.5)
├── GroupingNotPossible   players that cannot be split into groups of three and four (FWPL 4.1)
├── MachineNotAllowed     a machine the group may not choose now (FWPL 5, 6.4)
└── NotInGroup            a score for someone outside the group, twice, or for a missing player
                          (FWPL 4.2, 6.6)
"""

from __future__ import annotations

from scoring.errors import EntryNotAllowed


class PlayoffNeeded(EntryNotAllowed):
    """Equal scores or totals need a recorded play-off result before points can be given.
    FWPL 3.2 ("resolved by a one-ball playoff"), 6.1 and 6.5."""

    code = "playoff_needed"


class SeasonForfeited(EntryNotAllowed):
    """The player forfeited the season and may not play until the next one. FWPL 2.5, 8.5."""

    code = "season_forfeited"


class GroupingNotPossible(EntryNotAllowed):
    """The present players cannot be split into groups of three and four. FWPL 4.1."""

    code = "grouping_not_possible"


class MachineNotAllowed(EntryNotAllowed):
    """The group may not choose this machine now. FWPL 5 and 6.4."""

    code = "machine_not_allowed"


class NotInGroup(EntryNotAllowed):
    """A score for a player outside the group, a second score, or one for a missing player.
    FWPL 4.2 and 6.6."""

    code = "not_in_group"
