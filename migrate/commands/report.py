"""`hipmigrate report DST`: options onto migrate.api.report, output by one renderer per format.

Exit status: 0 the report was written; 2 usage error (DST has no .hipmigrate/ state, a --bench file is missing
or not a results file), or a state file could not be read (truncated, not JSON, another schema): the report of
what could be read is still written, and each such file is named on stderr."""
from __future__ import annotations

import io
import sys
from pathlib import Path

import click
from migrate.render.console import new_console

from migrate import api
from migrate.bench import stats
from migrate.bench.config import BenchError
from migrate.commands import guard
from migrate.stages.scan import UsageError

FORMATS = ("text", "html", "md", "json", "sarif")
err = new_console(stderr=True)


def render(report, fmt: str, to_file: bool) -> str | None:
    """The document as text, or None for `text` on standard output (printed by rich directly)."""
    if fmt == "json":
        from migrate.report import document
        return document.render(report)
    if fmt == "sarif":
        from migrate.report import sarif_log
        return sarif_log.render(report)
    if fmt == "md":
        from migrate.render import markdown
        return markdown.render(report)
    if fmt == "html":
        from migrate.render import html
        return html.render(report)
    from migrate.render import report_text
    if not to_file:
        console = new_console()
        report_text.render(report, console if console.is_terminal else new_console(width=160))
        return None
    console = new_console(record=True, width=160, color_system=None, file=io.StringIO())
    report_text.render(report, console)
    return console.export_text()


@click.command()
@click.argument("dst", type=click.Path(path_type=Path))
@click.option("--output-format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text (terminal), html (one self-contained page), md (a pull-request comment), json, sarif.")
@click.option("--output", "-o", "output", type=click.Path(path_type=Path), default=None,
              help="Write the report to FILE instead of standard output.")
@click.option("--bench", nargs=2, type=click.Path(path_type=Path), default=None, metavar="BASE.json CAND.json",
              help="Add the comparison of two results files of `hipmigrate bench`.")
@click.option("--threshold", type=float, default=stats.THRESHOLD, show_default=True,
              help="Relative change that counts in the comparison (as for `hipmigrate compare`).")
@guard.guarded(UsageError, BenchError)
def report(dst: Path, output_format: str, output: Path | None, bench: tuple[Path, Path] | None,
           threshold: float) -> None:
    """Report on the migrated tree DST: the migration, its build and its benchmarks, from what `run`, `build`
    and `bench` left in DST/.hipmigrate/ (plus --bench BASE CAND)."""
    result = api.report(dst, tuple(bench) if bench else None, threshold)
    text = render(result, output_format, output is not None)
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
        err.print(f"report: {output}", markup=False, highlight=False)
    elif text is not None:
        click.echo(text, nl=False)
    for problem in result.problems:
        err.print(f"hipmigrate: error: {problem}", markup=False, highlight=False)
    sys.exit(2 if result.problems else 0)
