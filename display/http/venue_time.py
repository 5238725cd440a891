"""Venue time: a tournament's time zone, and times as people in the hall read them ("01:10 GMT").

A tournament's zone is an IANA name (``Europe/London``) given when it is created (the
``tournament_created`` record's ``time_zone``), else this server's own zone. Every page gets it in
its config (``time_zone``), and the browser shows times in it with the zone's short name, so a
phone set to another zone, a server in UTC and a venue on summer time all say the same "01:30 BST".
"""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def is_zone(name: object) -> bool:
    """Whether ``name`` is an IANA time zone this machine knows (``Europe/London``, ``UTC``)."""
    if not isinstance(name, str) or not name or name.startswith(("/", ".")) or ".." in name:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def check_zone(name: object) -> object:
    """A pydantic ``BeforeValidator``: ``name`` if it is a known zone (or not text, for the type's
    own error). Raises ValueError naming an example."""
    if isinstance(name, str) and not is_zone(name):
        raise ValueError(f"{name!r} is not a time zone: give its IANA name, e.g. Europe/London")
    return name


def server_zone() -> str:
    """This server's own zone: ``TZ``, else ``/etc/timezone``, else the zone ``/etc/localtime``
    links to, else ``UTC``."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    with contextlib.suppress(OSError):
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    with contextlib.suppress(OSError):
        candidates.append(str(Path("/etc/localtime").resolve()).partition("zoneinfo/")[2])
    return next((c for c in candidates if c and is_zone(c)), "UTC")


def zone_of(meta: dict[str, object]) -> str:
    """A tournament's zone from its meta (``LiveTournament.meta``), else the server's."""
    zone = meta.get("time_zone")
    return zone if isinstance(zone, str) and is_zone(zone) else server_zone()


def venue_time(moment: datetime, zone: str, with_date: bool = False) -> str:
    """``moment`` (aware) in ``zone`` as "01:10 GMT" (with ``with_date``: "1 Dec 2026 01:10 GMT")."""
    local = moment.astimezone(ZoneInfo(zone))
    text = local.strftime("%H:%M %Z")
    return (f"{local.day} {local.strftime('%b %Y')} " + text) if with_date else text
