"""`hipmigrate report DST`: options onto migrate.api.report, output by the format table (migrate/formats).

Exit status: 0 the report was written; 2 usage error (DST has no .hipmigrate/ state, a --bench file is missing
or not a results file), or a state file could not be read (truncated, not JSON, another schema): the report of
what could be read is still written, and each such file is named on stderr."""
from __future__ import annotations

import sys
from pathlib import Path

import click
from migrate.render.console import new_console

from migrate import api
from migrate.bench import stats
from migrate.commands import guard
from migrate.commands.output import emit, output_format

err = new_console(stderr=True)


@click.command()
@click.argument("dst", type=click.Path(path_type=Path))
@output_format("report", help="text (terminal), html (one self-contained page), md (a pull-request comment), json, "
                             "sarif.")
@click.option("--output", "-o", "output", type=click.Path(path_type=Path), default=None,
              help="Write the report to FILE instead of standard output.")
@click.option("--bench", nargs=2, type=click.Path(path_type=Path), default=None, metavar="BASE.json CAND.json",
              help="Add the comparison of two results files of `hipmigrate bench`.")
@click.option("--threshold", type=float, default=stats.THRESHOLD, show_default=True,
              help="Relative change that counts in the comparison (as for `hipmigrate compare`).")
@guard.guarded
def report(dst: Path, output_format: str, output: Path | None, bench: tuple[Path, Path] | None,
           threshold: float) -> None:
    """Report on the migrated tree DST: the migration, its build and its benchmarks, from what `run`, `build`
    and `bench` left in DST/.hipmigrate/ (plus --bench BASE CAND)."""
    result = api.report(dst, tuple(bench) if bench else None, threshold)
    emit("report", output_format, result, output=output, plain_width=160)
    if output is not None:
        err.print(f"report: {output}", markup=False, highlight=False)
    for problem in result.problems:
        err.print(f"hipmigrate: error: {problem}", markup=False, highlight=False)
    sys.exit(2 if result.problems else 0)
