"""Options shared by the commands that migrate or check: --jobs, the same for every command that runs work in
parallel (run, scan, diff, build, check), and --no-suppressions (run, scan, diff, check)."""
from __future__ import annotations

import click


def jobs_option(what: str):
    """`what`: what runs in parallel. None given means migrate.options.default_jobs()."""
    return click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None,
                        help=f"{what} (default: one per CPU this process may use).")


suppressions_option = click.option(
    "--no-suppressions", is_flag=True,
    help="Ignore `hipmigrate: ignore[...]` comments: report and fix what they cover.")
