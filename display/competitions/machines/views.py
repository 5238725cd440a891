"""View documents of the hall: the ``queues`` view and the status part of ``machines``.

``queues``: machine id -> ::

    {"status": "out_of_order",                 # absent: in service
     "note": "left flipper weak",              # with a status, when given
     "up": {"player": "17", "state": "playing", "since": "<ISO time>"},   # absent: nobody up
     "waiting": {"23": {"pos": 1, "wait": 480}, "5": {"pos": 2, "paused": true, "note": "ruling"}},
     "count": 2,                               # players waiting (paused ones too)
     "game": 480,                              # estimated seconds per game
     "timed": 5,                               # timed games behind the estimate (absent: none)
     "wait": 960}                              # estimated seconds for a player joining now

``wait`` of a waiting player is the estimated seconds until they are called, counting one game
for the player up and one per player not paused ahead (``display.competitions.machines.queue.waits``); a client
may take the time the player up has already played off it (``up.since``). A machine not in
service has no ``wait``. No nulls: an absent key means none (``views.compact``).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain, compress
from operator import is_not

from display.competitions.docs import compact
from display.competitions.machines import queue as hall_queue
from display.competitions.machines.state import HallTournament
from display.live import mergepatch
from display.types import Doc
from scoring.cut_tie import CutTie
from scoring.epc.qualifying import EPC_QUALIFYING, cut_standings
from scoring.model import MachineRow, MachineTable, StandingRow, Standings
from scoring.rounding import points_json as number
from scoring.tournament import Tournament


def machine_status(tournament: HallTournament, machine: str) -> Doc:
    """The hall keys of one ``machines`` entry: ``status``, ``note``, ``replacement`` and
    ``owed`` (players owed a game on the replacement) for a machine not in service; ``replaces``
    and ``owed`` on the machine that replaced another. Empty for a plain machine in service."""
    hall = tournament.hall
    info = hall.status(machine)
    out: Doc = {}
    if info.status != "in_service":
        out = compact(
            {
                "status": info.status,
                "note": info.note,
                "replacement": info.replacement,
                "owed": list(info.owed) or None,
            }
        )
    for old, other in hall.machines.items():
        if other.replacement == machine:
            out["replaces"] = old
            if other.owed:
                out["owed"] = list(other.owed)
    return out


def queues_view(tournament: HallTournament) -> Doc:
    """``queues``: every machine's queue (module docstring)."""
    return {machine: queue_doc(tournament, machine) for machine in tournament.machines}


def queue_doc(tournament: HallTournament, machine: str) -> Doc:
    """One machine's entry of the ``queues`` view."""
    hall = tournament.hall
    info, queue, settings = hall.status(machine), hall.queue(machine), hall.settings
    in_service = info.status == "in_service"
    recent = queue.lengths[-settings.recent_games :]
    game = hall_queue.game_seconds(queue.lengths, settings.recent_games, settings.game_minutes)
    waits = hall_queue.waits(queue, game) if in_service else {}
    up = queue.up
    return compact(
        {
            "status": None if in_service else info.status,
            "note": None if in_service else info.note,
            "up": (
                compact(
                    {
                        "player": up.player,
                        "state": "playing" if up.started else "called",
                        "since": up.started or up.called,
                    }
                )
                if up is not None
                else None
            ),
            "waiting": {
                w.player: compact(
                    {
                        "pos": pos,
                        "wait": waits.get(w.player),
                        "paused": w.paused or None,
                        "note": w.note if w.paused else None,
                    }
                )
                for pos, w in enumerate(queue.waiting, start=1)
            },
            "count": len(queue.waiting),
            "game": game,
            "timed": len(recent) or None,
            "wait": hall_queue.wait_to_join(queue, game) if in_service else None,
        }
    )


def tournament_view(meta: Mapping[str, str], tournament: Tournament) -> Doc:
    """``tournament``: id, name (``meta``: the tournament's), format, title, settings, cut (or
    None), and ``hall``: the hall settings (``display.competitions.machines.state.HallSettings``)
    when the tournament has a hall."""
    settings = tournament.format.settings_dict(tournament.config)
    qualify, standby = settings.get("qualify"), settings.get("standby")
    cut = {"qualify": qualify, "standby": standby} if qualify is not None else None
    hall = tournament.hall if isinstance(tournament, HallTournament) else None
    return compact(
        {
            "id": meta["id"],
            "name": meta["name"],
            "format": tournament.format.name,
            "title": tournament.format.title,
            "settings": compact(settings),
            "cut": cut,
            "hall": hall.settings.as_dict() if hall is not None else None,
        }
    )


def machines_view(tournament: Tournament) -> Doc:
    """``machines``: machine id -> name, display order (order added, from 1), ``digits`` its
    display shows when it declares them (a score may then roll over, ``scoring.rollover``) and,
    for a machine not in service, its hall status (``machine_status``)."""
    hall = tournament.hall if isinstance(tournament, HallTournament) else None
    return {
        mid: {
            "name": machine.name,
            "order": order,
            **({"digits": hall.digits[mid]} if hall is not None and mid in hall.digits else {}),
            **(machine_status(tournament, mid) if isinstance(tournament, HallTournament) else {}),
        }
        for order, (mid, machine) in enumerate(tournament.machines.items(), start=1)
    }


def players_view(tournament: Tournament) -> Doc:
    """``players``: player number -> name, guest flag, ``tag`` (a city or nickname) when
    registered with one, and ``withdrawn`` (the reason, "" for none given) only for a withdrawn
    player. A number joined into another (``players_merged``) stays
    as ``{"name", "merged_into"}``; the number it joined lists it under ``merged``: ``{"<number>":
    {"name", "reason", "clashes": {"<machine>": {"kept": score, "dropped": [scores]}}}}``, the
    machines both numbers played, for the TD to check (``scoring.merge``)."""
    hall = tournament.hall if isinstance(tournament, HallTournament) else None
    withdrawn = hall.withdrawn if hall is not None else {}
    merged = hall.merged if hall is not None else {}
    tags = hall.tags if hall is not None else {}
    doc: Doc = {
        number_: compact(
            {
                "name": player.name,
                "guest": player.guest,
                "tag": tags.get(number_),
                "withdrawn": withdrawn.get(number_),
            }
        )
        for number_, player in tournament.players.items()
    }
    for source, note in merged.items():
        doc[source] = {"name": note.name, "merged_into": note.into}
        if note.into in doc:
            clashes = {
                c.machine: {"kept": c.kept.score, "dropped": [e.score for e in c.dropped]}
                for c in note.clashes
            }
            joined = compact({"name": note.name, "reason": note.reason, "clashes": clashes or None})
            doc[note.into].setdefault("merged", {})[source] = joined
    return doc


def machine_view(tournament: Tournament, machine_id: str) -> Doc:
    """``machine/<id>``: how many have played it, the latest score, and every row.

    Row keys ``place``/``points`` are absent for an unranked row; ``bonus``/``joker`` only when set;
    ``corrected`` when a TD corrected one of the player's scores here; ``wiped`` (without a place
    or points) when a fault rule wiped the player's scores here (EPC 2009, EPC Classic
    Tournament: a replaced machine's scores "will be wiped").
    """
    table: MachineTable = tournament.tables[machine_id]
    fixed, wiped = _marks(tournament, machine_id)
    rows = {row.player: machine_row_doc(row, fixed, wiped) for row in table.rows}
    return _machine_doc(tournament, machine_id, rows)


def _machine_doc(tournament: Tournament, machine_id: str, rows: Doc) -> Doc:
    """``machine/<id>`` around its ``rows``: how many have played it and the latest score."""
    entries = tournament.entries[machine_id]
    latest = entries[-1] if entries else None
    return compact(
        {
            "played": len(tournament.tables[machine_id].rows),
            "latest": (
                {"player": latest.player, "score": latest.score, "seq": latest.seq}
                if latest is not None
                else None
            ),
            "rows": rows,
        }
    )


def _marks(tournament: Tournament, machine_id: str) -> tuple[set[str], set[str]]:
    """The players with a corrected score on the machine, and those whose scores were wiped."""
    hall = tournament.hall if isinstance(tournament, HallTournament) else None
    if hall is None:
        return set(), set()
    entries = tournament.entries[machine_id]
    fixed = {e.player for e in entries if e.seq in hall.corrected}
    wiped = {e.player for e in entries if e.seq in hall.wiped}
    return fixed, wiped


def machine_row_doc(row: MachineRow, fixed: set[str], wiped: set[str]) -> Doc:
    """One row of ``machine/<id>`` (``machine_view``): ``fixed`` and ``wiped`` are the machine's
    players with a corrected score and with their scores wiped."""
    gone = row.player in wiped
    return compact(
        {
            "score": row.score,
            "place": None if gone else row.place,
            "points": None if gone else number(row.points),
            "wiped": gone or None,
            "bonus": row.bonus or None,
            "joker": row.joker or None,
            "corrected": (row.player in fixed) or None,
        }
    )


def machine_change(
    before: Tournament, after: Tournament, machine_id: str, document: Doc
) -> tuple[Doc, Doc | None] | None:
    """``machine_view`` of ``after`` and its merge patch from ``document`` (that view of
    ``before``): a row's document is built again only where its row or its player's corrected or
    wiped mark changed, and the patch comes from those rows (a new score on a machine moves
    the rows below it, not the ones above). None: build it whole."""
    if machine_id not in before.tables or machine_id not in after.tables:
        return None
    rows_doc = document.get("rows")
    was = {row.player: row for row in before.tables[machine_id].rows}
    if not isinstance(rows_doc, dict) or rows_doc.keys() != was.keys():
        return None
    new_rows = after.tables[machine_id].rows
    old_fixed, old_wiped = _marks(before, machine_id)
    fixed, wiped = _marks(after, machine_id)
    rows: Doc = {}
    patch: Doc = {player: None for player in was.keys() - {row.player for row in new_rows}}
    for row in new_rows:
        player = row.player
        old = rows_doc.get(player)
        if (
            old is not None
            and was.get(player) == row
            and (player in fixed) == (player in old_fixed)
            and (player in wiped) == (player in old_wiped)
        ):
            rows[player] = old
            continue
        rows[player] = fresh = machine_row_doc(row, fixed, wiped)
        changed = fresh if old is None else mergepatch.diff(old, fresh)
        if changed is not None:
            patch[player] = changed
    doc = _machine_doc(after, machine_id, rows)
    head = mergepatch.diff(
        {k: v for k, v in document.items() if k != "rows"},
        {k: v for k, v in doc.items() if k != "rows"},
    )
    if patch:
        head = {**(head or {}), "rows": patch}
    return doc, head


def queues_change(
    before: HallTournament, after: HallTournament, document: Doc
) -> tuple[Doc, Doc | None] | None:
    """``queues_view`` of ``after`` and its merge patch from ``document`` (that view of
    ``before``): a machine's entry is built again only when its queue or its status changed.
    The hall's mappings are never mutated, so an unchanged queue is the same object. None: build
    it whole (a machine added, or the hall's settings changed: every estimate may move)."""
    old_hall, hall = before.hall, after.hall
    if hall.settings != old_hall.settings or after.machines.keys() != document.keys():
        return None
    if hall.queues is old_hall.queues and hall.machines is old_hall.machines:
        return document, None
    doc, patch = dict(document), {}
    for machine in after.machines:
        if hall.queues.get(machine) is old_hall.queues.get(machine) and hall.machines.get(
            machine
        ) is old_hall.machines.get(machine):
            continue
        doc[machine] = fresh = queue_doc(after, machine)
        changed = mergepatch.diff(document[machine], fresh)
        if changed is not None:
            patch[machine] = changed
    return doc, (patch or None)


def cut_tie_doc(tie: CutTie) -> Doc:
    """``standings.cut_tie``: ``{"line", "places", "players": [..], "note"}``, the tie at the cut
    awaiting the TD's play-off (``scoring.cut_tie``; EPC 2009, EPC Qualifying)."""
    return {"line": tie.line, "places": tie.places, "players": list(tie.players), "note": tie.note}


def hall_standings_view(hall: HallTournament) -> Doc:
    """``standings`` of the hall's own format: in EPC qualifying a tie the qualify line runs
    through is banded "tie" and said in ``cut_tie`` (EPC 2009, EPC Qualifying: "The 32 highest
    ranked players then progress"; ``scoring.epc.qualifying.cut_standings``). This format has no
    play-off record of its own, so the flag stays until a score breaks the tie: the play-off is
    the TD's, after qualifying."""
    if hall.format is not EPC_QUALIFYING:
        return standings_view(hall.standings)
    standings, tie = cut_standings(hall.config, hall.standings)
    doc = standings_view(standings)
    return {**doc, "cut_tie": cut_tie_doc(tie)} if tie else doc


def hall_standings_change(
    before: HallTournament, after: HallTournament, document: Doc
) -> tuple[Doc, Doc | None] | None:
    """``hall_standings_view`` of ``after`` and its merge patch from ``document`` (that view of
    ``before``), from the rows that changed (``standings_change``) and the tie at the cut (EPC
    2009, EPC Qualifying; ``scoring.epc.qualifying.cut_standings``). None: build it whole."""
    if after.format is not EPC_QUALIFYING or before.format is not EPC_QUALIFYING:
        return standings_change(before.standings, after.standings, document)
    if after.config != before.config:
        return None
    # The tie's rows are new objects on every call, so they are always diffed; the rest are the
    # standings' own rows.
    old, _ = cut_standings(before.config, before.standings)
    new, tie = cut_standings(after.config, after.standings)
    found = standings_change(old, new, {"rows": document["rows"]})
    if found is None:
        return None
    doc, patch = found
    was, now = document.get("cut_tie"), cut_tie_doc(tie) if tie else None
    if now is not None:
        doc["cut_tie"] = now
    if was != now:
        tie_patch = mergepatch.diff(was, now) if now is not None else None
        patch = {**(patch or {}), "cut_tie": tie_patch}
    return doc, patch


def standings_view(standings: Standings) -> Doc:
    """``standings``: player number -> place, total, machines played, band, league points."""
    return {"rows": {row.player: standing_doc(row) for row in standings.rows}}


def standing_doc(row: StandingRow) -> Doc:
    """One player's entry of the ``standings`` view (no nulls: an absent key is "none")."""
    doc: Doc = {} if row.place is None else {"place": row.place}
    doc["total"], doc["played"] = number(row.total), row.played
    if row.band is not None:
        doc["band"] = row.band
    if row.league_points is not None:
        doc["league_points"] = number(row.league_points)
    return doc


def standings_change(
    before: Standings, after: Standings, document: Doc
) -> tuple[Doc, Doc | None] | None:
    """The ``standings`` view of ``after`` and its merge patch from ``document`` (the view of
    ``before``), built from the rows that changed only: incremental standings
    (``scoring.restand``) keep every row they did not touch as the same object, so a row not
    among ``before``'s objects is one whose place, total or band moved. None when rows went away
    (the caller builds and diffs the whole view); the patch is None when nothing changed."""
    if after is before:
        return document, None
    if len(after.rows) < len(before.rows):
        return None
    # ``before`` holds its rows, so no new row can have the id of one of them. Rows at the same
    # position as before that are the same object (most of them) are passed over at C speed.
    known = set(map(id, before.rows))
    moved = compress(after.rows, map(is_not, after.rows, before.rows))
    rows: dict[str, Doc] = dict(document["rows"])
    patch: dict[str, Doc | None] = {}
    for row in chain(moved, after.rows[len(before.rows) :]):
        if id(row) in known:
            continue
        fresh, old = standing_doc(row), rows.get(row.player)
        if old is None:
            patch[row.player] = rows[row.player] = fresh
        elif (changed := standing_patch(old, fresh)) is not None:
            patch[row.player] = changed
            rows[row.player] = fresh
    return {"rows": rows}, ({"rows": patch} if patch else None)


STANDING_FIELDS = ("place", "total", "played", "band", "league_points")
"""Every key a ``standing_doc`` may hold."""


def standing_patch(old: Doc, new: Doc) -> Doc | None:
    """The merge patch from ``old`` to ``new``, two ``standing_doc``s: flat, so field by field
    (an absent field is None, and None in the patch deletes it); None when equal."""
    if old == new:
        return None
    return {key: new.get(key) for key in STANDING_FIELDS if old.get(key) != new.get(key)}
