"""``backglass replay LOG.jsonl``: any tournament's views computed offline from its exported log.

The file is the desk's export (``GET /api/t/{id}/export/log.jsonl``: one record a line, with its
``seq`` and chain hash ``h``). Its records are applied in order exactly as a server's replica
applies them (``display.live.tournament.LiveTournament``), so the views printed are the views the
hall displays and phones showed at the last record, for every format, with no server or Redis.

Every record is first checked as a log import checks it (``display/desk/imports.py``): a line that
is not a record, a ``seq`` out of order, or a record the rules refuse stops the replay with the
line's number (exit code 2) and prints nothing else. A hash chain that does not check out
(``display/log/verify.py``) is reported on stderr, and the views are computed all the same: the
TD is checking the standings, ``backglass verify --file`` checks the chain.

Output (stdout):

- ``--format json`` (the default): every view by name, ``{"version": N, "views": {...}}``, the
  document ``GET /api/t/{id}/views`` answers; with ``--view NAME`` that view's document alone.
- ``--format csv``: without ``--view`` the results table of ``GET /api/t/{id}/export/results.csv``;
  with ``--view NAME`` one row per entry of the view's ``rows`` (or of the view itself when it
  has no ``rows``), the entry's key first, then each field (a nested value as JSON).

The tournament's id is not in its records (the server names a log by it); the views that show it
take it from ``--id``, by default the file's name without ``.log.jsonl``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import click
import orjson

from display.desk import imports
from display.desk.players import registrations
from display.errors import ApiError
from display.http.exports import results_table, to_csv
from display.live.tournament import LiveTournament
from display.log.store import Record as StoredRecord
from display.log.verify import verify_file_bytes
from display.types import Doc


def replayed(raw: bytes, tournament_id: str) -> tuple[LiveTournament, list[StoredRecord]]:
    """The tournament an exported log's bytes give, at its last record, and the records. Raises
    click.UsageError (exit 2) naming the first line refused (``imports.parse``/``check``)."""
    try:
        records = imports.parse(raw)
        imports.check(records)
    except ApiError as refused:
        raise click.UsageError(refused.message) from None
    stored = [StoredRecord(seq, record) for seq, record in enumerate(records, start=1)]
    live = LiveTournament(tournament_id, history_size=1)
    live.apply(stored)
    return live, stored


def view_csv(name: str, doc: Doc) -> str:
    """One view as CSV: a row per entry of its ``rows`` (else of the document), keyed by the
    entry's id, columns in the order fields first appear; a field that is not a scalar as JSON."""
    listed = doc.get("rows")
    rows: Mapping[str, object] = listed if isinstance(listed, Mapping) else doc
    columns: dict[str, None] = {}
    for entry in rows.values():
        if isinstance(entry, Mapping):
            columns.update(dict.fromkeys(entry))
    lines: list[list[object]] = []
    for key, entry in rows.items():
        fields = entry if isinstance(entry, Mapping) else {"value": entry}
        if not isinstance(entry, Mapping):
            columns.setdefault("value", None)
        lines.append([key, *(_scalar(fields.get(column)) for column in columns)])
    return to_csv([name.rpartition("/")[2] or name, *columns], lines)


def _scalar(value: object) -> object:
    if isinstance(value, dict | list):
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    if isinstance(value, bool):
        return "yes" if value else ""
    return value


def default_id(path: Path) -> str:
    """``epc.log.jsonl`` -> ``epc`` (the export's own name), else the name up to its first dot."""
    return path.name.removesuffix(".log.jsonl").partition(".")[0] or path.name


@click.command("replay")
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--view", "view_name", default=None, metavar="NAME", help="One view, e.g. standings.")
@click.option(
    "--format",
    "output",
    type=click.Choice(["json", "csv"]),
    default="json",
    show_default=True,
    help="json: the views as the server serves them; csv: the results, or the view's rows.",
)
@click.option("--id", "tournament_id", default=None, help="The tournament's id (views show it).")
def replay(log: Path, view_name: str | None, output: str, tournament_id: str | None) -> None:
    """Compute a tournament's views from its exported log (the desk's log.jsonl), offline.

    Any format: the records are applied as the server applies them. Without --view, json prints
    every view ({"version", "views"}), csv the results table (the desk's results.csv); with
    --view NAME that view alone. A record the rules refuse stops with its line (exit code 2).
    """
    raw = log.read_bytes()
    live, records = replayed(raw, tournament_id or default_id(log))
    chain = verify_file_bytes(raw, log.name)
    if chain.broken is not None:
        click.echo(f"warning: {log.name} fails its hash chain at seq {chain.broken.seq}: "
                   f"{chain.broken.why}", err=True)  # fmt: skip
    if view_name is not None and view_name not in live.views:
        names = ", ".join(sorted(live.views))
        raise click.UsageError(f"This tournament has no view {view_name!r}; it has: {names}.")
    if output == "json":
        doc = live.views[view_name] if view_name else {"version": live.version, "views": live.views}
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
    elif view_name is not None:
        click.echo(view_csv(view_name, live.views[view_name]), nl=False)
    else:
        header, rows = results_table(live.views, registrations(records))
        click.echo(to_csv(header, rows), nl=False)
