"""`hipmigrate check` (the CI gate) and `hipmigrate suggest` (HIP versions of a branch's added hunks).

check exits 0 when no CUDA-only construct is left (on the lines added since --base, when given), 1 when one is,
2 on a usage error. suggest exits 0 once its output is written (the gate is check's job), 2 on a usage error.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from migrate.check import baseline as baseline_file
from migrate import config as project_config
from migrate import errors
from migrate.commands import guard
from migrate.commands.shared import jobs_option, suppressions_option
from migrate.commands.output import emit, output_format, put
from migrate.check.runner import Settings, check as run_check

SUGGEST_FORMATS = ("patch", "github", "rdjson")


def _shared(f):
    options = [
        click.argument("paths", nargs=-1, type=click.Path(path_type=Path)),
        click.option("--select", multiple=True, metavar="CODES", help="Only these codes or prefixes (repeatable, comma-separated)."),
        click.option("--ignore", multiple=True, metavar="CODES", help="Leave out these codes or prefixes."),
        click.option("--min-severity", type=click.Choice(["info", "warning", "error"]), default=None,
                     help="Hazards (and Python/deployment findings without a fix) below this do not count [warning]."),
        click.option("--hip-version", default=None, metavar="X.Y", help="HIP version to check against."),
        click.option("--exclude", multiple=True, metavar="PATTERN", help="gitignore-style pattern to leave out."),
        click.option("--no-cache", is_flag=True, help="Run every rule again; neither read nor write the cache."),
        click.option("--cache-dir", type=click.Path(path_type=Path), default=None,
                     help="Cache folder [.hipmigrate/cache in the repository's top folder]."),
        jobs_option("Worker processes for cache misses"),
        suppressions_option,
        click.option("--output", "-o", "output", type=click.Path(path_type=Path), default=None,
                     help="Write the report to this file instead of standard output."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _settings(paths, **kw) -> Settings:
    start = Path(paths[0]) if paths else Path(".")
    config = project_config.load(start if start.exists() else Path("."))
    return Settings.resolve(config, paths=paths, **kw)


@click.command()
@_shared
@click.option("--base", default=None, metavar="REF", help="Only lines added since the merge base of REF and HEAD.")
@click.option("--baseline", type=click.Path(path_type=Path), default=None, help="Ignore the findings recorded in FILE.")
@click.option("--write-baseline", type=click.Path(path_type=Path), default=None,
              help="Record the current findings in FILE and exit 0.")
@output_format("check")
@guard.guarded
def check(paths, output_format: str, output: Path | None, write_baseline: Path | None, **kw) -> None:
    """Exit 1 if CUDA-only code is left in PATHS (default: .): CUDA API names or headers, unsupported identifiers,
    hazards at or above --min-severity, CUDA-only Python and deployment settings."""
    if write_baseline is not None:
        kw["baseline"] = None
    settings = _settings(paths, **kw)
    if write_baseline is not None:
        settings = replace(settings, baseline=None)  # [tool.hipmigrate] may name one: not when writing it
    result = run_check(settings)
    if write_baseline is not None:
        baseline_file.write(write_baseline, result.findings)
        click.echo(f"hipmigrate check: {len(result.findings)} finding(s) recorded in {write_baseline}", err=True)
        sys.exit(0)
    emit("check", output_format, result, output=output)
    sys.exit(errors.exit_status(result.notes, result.failed))


@click.command()
@_shared
@click.option("--base", required=True, metavar="REF", help="Suggest for the lines added since the merge base of REF and HEAD.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes graded unsafe.")
@click.option("--output-format", type=click.Choice(SUGGEST_FORMATS), default="patch", show_default=True,
              help="A unified patch, a GitHub pull-request review (JSON), or rdjson for reviewdog.")
@guard.guarded
def suggest(paths, output_format: str, output: Path | None, **kw) -> None:
    """The HIP version of each hunk added since --base: as a patch, a GitHub review or rdjson. Only added lines
    are touched."""
    from migrate.check import suggest as suggest_module

    settings = _settings(paths, **kw)
    result = run_check(settings, keep_results=True)
    found = suggest_module.suggestions(result, settings)
    if output_format == "patch":
        data = suggest_module.patch(found)
        put(data, output)
    elif output_format == "github":
        put(suggest_module.render_review(found), output)
    else:
        put(suggest_module.render_rdjson(found), output)
    sys.exit(0)
