"""Writing records every kind shares (``display.desk_records``), which the kinds never see.

``display.api.write`` itself (architecture principle 2): it validates these records with
``desk_records`` instead of the tournament's kind.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from display.api import write


async def write_shared(
    request: Request, tournament: str, records: list[dict[str, Any]]
) -> tuple[int, bool]:
    """Validate and append shared ``records``; returns (version of the last, replayed?).

    Raises SettingsError (422) for a bad record, ApiError 404 for an unknown tournament."""
    return await write(request, tournament, records)
