"""``backglass standings``: standings from a CSV, offline, no server or Redis.

Each competition that has an offline form declares it per format (``Competition.offline``): an
``OfflineFormat`` (``display/cli/formats.py``) saying what it reads (``--scores FILE.csv``, or
``--results DIR_OR_CSV`` repeatable) and how it turns that into CSV.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import click

from display import competitions
from display.cli.formats import OfflineFormat, parse_settings


@cache
def offline_formats() -> dict[str, OfflineFormat]:
    """Every format with an offline form, by name (from the competitions' declarations)."""
    return {
        fmt: competitions.load(path)
        for competition in competitions.registered()
        for fmt, path in competition.offline.items()
    }


class _Help(click.Command):
    """Appends each offline format's paragraph to the command's help."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_help_text(ctx, formatter)
        with formatter.indentation():
            for name, fmt in sorted(offline_formats().items()):
                formatter.write_paragraph()
                formatter.write_text(name)
                for line in fmt.help.splitlines():  # as written: the columns line up
                    formatter.write(f"{'':{formatter.current_indent + 2}}{line}\n")


@click.command("standings", cls=_Help)
@click.option(
    "--format",
    "format_name",
    required=True,
    type=click.Choice(sorted(offline_formats())),
    help="Tournament format.",
)
@click.option(
    "--scores",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="CSV of scores in the order played (the per-machine formats).",
)
@click.option(
    "--results",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    metavar="DIR_OR_CSV",
    help="Published meeting results (a season); repeat for more.",
)
@click.option(
    "--set",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A format setting, e.g. ties=low or bonus=gte (UKPL), scale=linear (EPC), "
    "qualifiers=8 or counted=3 (UKPL season).",
)
def standings(
    format_name: str, scores: Path | None, results: tuple[Path, ...], options: tuple[str, ...]
) -> None:
    """Print standings as CSV from a CSV of scores in the order played, or a season table from
    published meeting results. A blank score is no entry. A bad row stops with its line number
    and exit code 2. The formats:"""
    fmt = offline_formats()[format_name]
    settings = parse_settings(options)
    if fmt.reads == "results":
        if scores is not None or not results:
            raise click.UsageError(
                f"--format {format_name} reads --results DIR_OR_CSV, not --scores."
            )
        click.echo(fmt.run(results, settings), nl=False)
        return
    if scores is None or results:
        raise click.UsageError(f"--format {format_name} reads --scores FILE.csv.")
    click.echo(fmt.run((scores,), settings), nl=False)
