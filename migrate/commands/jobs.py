"""--jobs, the same for every command that runs work in parallel (run, scan, diff, build, check)."""
from __future__ import annotations

import click


def jobs_option(what: str):
    """`what`: what runs in parallel. None given means migrate.options.default_jobs()."""
    return click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None,
                        help=f"{what} (default: one per CPU this process may use).")
