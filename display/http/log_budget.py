"""How much any one client can make the server log: a client that goes away, a malformed request
or a connection refused is worth a line, but not a line per request from a flood, which would fill
the disk that Redis's append-only file shares (docs/security.md "Connections").

``Budget.allow(address)`` grants each address ``lines`` log lines per ``seconds``; past that, one
line says its further lines are held back until the window ends. ``RepeatFilter`` does the same
for uvicorn's own warnings, which do not name the client: each distinct message at most ``lines``
times per window.
"""

from __future__ import annotations

import logging
import time


class Budget:
    """Log lines per client address: ``lines`` per ``seconds`` (a fixed window). At most
    ``addresses`` are remembered; past that the memory is cleared (a flood from many addresses
    then gets one window's lines each again, still bounded per window)."""

    def __init__(self, lines: int = 10, seconds: float = 60.0, addresses: int = 10_000) -> None:
        self.lines, self.seconds, self.addresses = lines, seconds, addresses
        self.windows: dict[str, tuple[float, int]] = {}

    def allow(self, address: str, log: logging.Logger) -> bool:
        """Whether a line about ``address`` may be logged now; the first one over the budget
        logs, on ``log``, that the rest are held back."""
        now = time.monotonic()
        start, used = self.windows.get(address, (now, 0))
        if now - start >= self.seconds:
            start, used = now, 0
        if len(self.windows) >= self.addresses and address not in self.windows:
            self.windows.clear()
        self.windows[address] = (start, used + 1)
        if used == self.lines:
            log.warning(
                "%s: more than %d log lines in %.0f s, the rest held back",
                address,
                self.lines,
                self.seconds,
            )
        return used < self.lines


class RepeatFilter(logging.Filter):
    """A logging filter: each distinct message (its format string) passes at most ``lines`` times
    per ``seconds``."""

    def __init__(self, lines: int = 10, seconds: float = 60.0) -> None:
        super().__init__()
        self.budget = Budget(lines, seconds, addresses=1_000)
        self.quiet = logging.getLogger("display.http.log_budget")

    def filter(self, record: logging.LogRecord) -> bool:
        """True to let ``record`` through."""
        return self.budget.allow(str(record.msg)[:200], self.quiet)


DISCONNECTS = Budget()
"""The budget of "client went away" lines (display/security.py)."""
