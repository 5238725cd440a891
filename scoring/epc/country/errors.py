"""Country Competition errors, under the ``scoring.errors`` classes so ``display/errors.py`` maps
them to the same HTTP status as their parents::

    UnknownPlayer                                                                     -> 404
    ├── UnknownTeam       no team with that id (code ``unknown_team``)
    └── UnknownFixture    no match with that fixture id (code ``unknown_fixture``)
    EntryNotAllowed                                                                   -> 409
    └── StageClosed       a record for a stage that is not the one on (EPC 2009, EPC Country
                          Competition: the groups and the 4-ball game, then the final)

``StageClosed`` keeps its parent's code, ``entry_not_allowed``: clients read that code, and the
class only names the refusal for the engine's callers and tests.
"""

from __future__ import annotations

from scoring.errors import EntryNotAllowed, UnknownPlayer


class UnknownTeam(UnknownPlayer):
    """No team with that id in this competition (404, like an unknown player). EPC 2009, EPC
    Country Competition (the registered teams, reserves included)."""

    code = "unknown_team"


class UnknownFixture(UnknownPlayer):
    """No match with that fixture id (404, like an unknown player). EPC 2009, EPC Country
    Competition (the group matches of the draw, then the final's)."""

    code = "unknown_fixture"


class StageClosed(EntryNotAllowed):
    """A record that belongs to a stage other than the one on: a team, a group match or a 4-ball
    game once the final has started, a final's record before it or after it is complete. EPC
    2009, EPC Country Competition ("When all games have been played ... the final rankings will
    be declared"; the final starts from zero)."""
