"""What every command does with errors and interrupts: a message on stderr and the exit status docs/commands.md lists.

2: a usage error (migrate.errors.UsageError: bad arguments, a bad tree, a broken pack, a missing engine), or an
internal error (a bug in hipmigrate: its traceback, then one line naming where it was raised). 3: the output could
not be written (migrate.errors.OutputError, a UsageError of its own status: one line). 128 + N: interrupted
by signal N (130 SIGINT, 143 SIGTERM), with what was left behind.
"""
from __future__ import annotations

import functools
import sys
import traceback

import click

from migrate import internal
from migrate.errors import INTERNAL, UsageError
from migrate.interrupt import Interrupted, as_exception


def _say(text: str) -> None:
    click.echo(f"hipmigrate: {text}", err=True)


def guarded(fn):
    """The one guard of every command: its body run with SIGINT/SIGTERM as Interrupted, a UsageError (any of
    migrate.errors' kinds: a broken pack, a missing engine, a bad benchmark file are UsageErrors too) mapped to its
    exit status with its message, and any other exception reported as an internal error (exit status 2)."""
    @functools.wraps(fn)
    def wrapper(*args, **kw):
        with as_exception():
            try:
                return fn(*args, **kw)
            except UsageError as exc:
                _say(f"error: {exc}")
                sys.exit(exc.status)
            except Interrupted as exc:
                notes = exc.notes or ["nothing was written"]
                _say(f"interrupted by {exc.name}: " + "; ".join(notes))
                sys.exit(exc.status)
            except Exception as exc:  # a bug: say where
                traceback.print_exc(file=sys.stderr)
                _say(f"internal error: {internal.summary(exc)} (at {internal.where(exc)}); please report it with "
                     "the command line")
                sys.exit(INTERNAL)
    return wrapper
