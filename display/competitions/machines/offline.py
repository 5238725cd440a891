"""The per-machine formats offline (``backglass standings``): a CSV of scores in the order played
(``machine,player,score``, and ``guest`` where the format has guests) recorded through the rules
exactly as the live server would, and the EPC qualifying's standings printed as
``player,position,total_points,band``."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path

from display.cli.formats import InputError, OfflineFormat, rows, whole_number
from scoring import (
    FORMATS,
    Entry,
    Machine,
    Player,
    ScoringError,
    Tournament,
    add_machine,
    add_player,
    new_tournament,
    points_text,
    record_entry,
)

GUEST_YES = frozenset({"1", "yes", "y", "true"})
GUEST_NO = frozenset({"", "0", "no", "n", "false"})


def read_scores(
    format_name: str, path: Path, settings: dict[str, str], guests: bool = False
) -> Tournament:
    """The tournament a CSV of scores makes, recorded in file order (a player's second score on
    a machine is their joker game where the format has one; a blank score is no entry). With
    ``guests``, an optional ``guest`` column (0/1) marks players left out of the ranking. Raises
    InputError naming the line."""
    try:
        tournament = new_tournament(FORMATS[format_name], settings)
    except ScoringError as error:
        raise InputError(error.message) from None
    with path.open(newline="", encoding="utf-8-sig") as f:
        optional = ("guest",) if guests else ()
        return _record_all(tournament, rows(f, ("machine", "player", "score"), optional), guests)


def _record_all(
    tournament: Tournament, found: Iterable[tuple[int, dict[str, str]]], guests: bool
) -> Tournament:
    guest_on_line: dict[str, tuple[bool, int]] = {}
    for seq, (line, row) in enumerate(found, start=1):
        machine, player = row["machine"], row["player"]
        for column in ("machine", "player"):
            if not row[column]:
                raise InputError(f"line {line}: {column} is empty.")
        guest = guests and _guest(row.get("guest", ""), line)
        if player in guest_on_line and guest_on_line[player][0] != guest:
            first = guest_on_line[player][1]
            raise InputError(
                f"line {line}: player {player} has guest={int(guest)} here "
                f"but guest={int(not guest)} on line {first}."
            )
        try:
            if player not in tournament.players:
                guest_on_line[player] = (guest, line)
                tournament = add_player(tournament, Player(player, player, guest))
            if machine not in tournament.machines:
                tournament = add_machine(tournament, Machine(machine, machine))
            if row["score"]:  # a blank cell is no entry
                score = whole_number(row["score"], "score", line)
                tournament = record_entry(tournament, Entry(seq, player, machine, score))
        except ScoringError as error:
            raise InputError(f"line {line}: {error.message}") from None
    return tournament


def _guest(text: str, line: int) -> bool:
    if text.lower() not in GUEST_YES | GUEST_NO:
        raise InputError(f"line {line}: guest {text!r} is not 0 or 1.")
    return text.lower() in GUEST_YES


def epc_qualifying(paths: Sequence[Path], settings: dict[str, str]) -> str:
    """EPC 2009, EPC Qualifying, offline: ``player,position,total_points,band`` for each ranked
    player."""
    tournament = read_scores("epc-qualifying", paths[0], settings)
    out = io.StringIO()
    writer = csv.writer(out)  # RFC 4180 CRLF rows
    writer.writerow(("player", "position", "total_points", "band"))
    for row in tournament.standings.rows:
        if row.place is not None:
            writer.writerow((row.player, row.place, points_text(row.total), row.band))
    return out.getvalue()


EPC_QUALIFYING = OfflineFormat(
    "scores",
    "reads  machine,player,score (a second score on a machine is the joker game)\n"
    "prints player,position,total_points,band",
    epc_qualifying,
)
