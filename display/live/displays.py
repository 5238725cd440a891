"""The hall displays connected to this server process, by tournament: what the TD's desk lists.

A display page names itself when it opens its websocket (``/ws/{id}?display=<name>&views=a,b&
profile=p``, static/display.js); ``live/ws.py`` notes it here when it joins and forgets it when
its connection is gone. Per process: with several server processes (workers) sharing one Redis,
each lists the displays connected to it, and the desk shows the ones of the process that served
it. What a display is *told* to show is not kept here but in the log (``display_assigned``,
``live/shared.py``), so every process's displays follow it.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

from display.live.shared import NAME
from display.types import Doc

MAX_FIELD = 200
"""Longest views or profile text kept from a display's URL (characters); the rest is cut."""


@dataclass(frozen=True)
class Connected:
    """One connected display: its ``name``, the ``views`` and ``profile`` its URL asked for (empty
    when none), when it connected (``since``, Unix seconds) and its client ``address``."""

    name: str
    views: tuple[str, ...]
    profile: str
    since: float
    address: str

    def doc(self) -> Doc:
        """JSON-ready: ``{name, views, profile?, since, address}``."""
        out: Doc = {"name": self.name, "views": list(self.views), "since": self.since}
        if self.profile:
            out["profile"] = self.profile
        out["address"] = self.address
        return out


@dataclass
class Displays:
    """Connected displays by tournament id and connection number. Single-threaded (the loop's)."""

    connected: dict[str, dict[int, Connected]] = field(default_factory=dict)
    numbers: itertools.count[int] = field(default_factory=itertools.count)

    def add(self, tournament: str, name: str, views: str, profile: str, address: str) -> int | None:
        """Note a display of ``tournament`` (``views`` comma-separated, as in its URL); returns
        the number to ``remove`` it by, or None for a name that is not a display name
        (``shared.NAME``: 1-32 letters, digits, '_', '.', '-'), which is not listed."""
        if not NAME.match(name):
            return None
        number = next(self.numbers)
        shown = tuple(v for v in views[:MAX_FIELD].split(",") if v)
        chosen = profile[:MAX_FIELD] if NAME.match(profile) else ""
        entry = Connected(name, shown, chosen, time.time(), address)
        self.connected.setdefault(tournament, {})[number] = entry
        return number

    def remove(self, tournament: str, number: int) -> None:
        """Forget connection ``number`` (idempotent)."""
        entries = self.connected.get(tournament)
        if entries is not None:
            entries.pop(number, None)
            if not entries:
                del self.connected[tournament]

    def listing(self, tournament: str) -> list[Connected]:
        """The displays of ``tournament`` connected now, by name then since."""
        entries = self.connected.get(tournament, {}).values()
        return sorted(entries, key=lambda c: (c.name, c.since))
