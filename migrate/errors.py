"""The errors every layer raises and the exit status of each kind, which the CLI's one guard
(migrate/commands/guard.py) and the commands apply (docs/commands.md, "Exit status").

- a usage error (bad arguments, a bad tree, a broken pack, a missing engine or benchmark file): `UsageError` and
  its subclasses, raised anywhere; exit status USAGE (2) with the message, which says what to do;
- an input that needs attention (a file skipped, not parsed cleanly, not UTF-8, ...): not an exception but an input
  finding (`INPxxx`) on that file, the rest of the tree still migrated; exit status INPUT (1);
- the output cannot be written (a full disk, no permission, a read-only file system, a busy or missing folder):
  `OutputError`, one line naming the path and what the system said, after the partial output is removed; exit
  status OUTPUT (3);
- an internal error (a bug in hipmigrate): in one file, INP008 on that file (migrate/internal.py); outside the files,
  any other exception, its traceback and where it was raised; exit status INTERNAL (2).
"""
from __future__ import annotations

import errno
import os

DONE = 0
INPUT = 1
USAGE = 2
INTERNAL = 2
OUTPUT = 3


class UsageError(Exception):
    """Bad arguments or a bad tree: exit status 2, with a message that says what to do."""

    status = USAGE


class OutputError(UsageError):
    """The output could not be written: exit status 3, with the path, the system's reason and what was left."""

    status = OUTPUT


def output_error(exc: OSError, path, state: str) -> OutputError:
    """An OSError met writing `path` as one line: `cannot write PATH: No space left on device (ENOSPC); STATE`."""
    name = errno.errorcode.get(exc.errno or 0, "")
    reason = f"{os.strerror(exc.errno)} ({name})" if exc.errno else str(exc)
    return OutputError(f"cannot write {path}: {reason}; {state}")


def exit_status(findings, attention: bool) -> int:
    """INTERNAL when a file met a bug (INP008 among `findings`), INPUT when something needs attention, else DONE."""
    from migrate import internal

    if internal.failed(findings):
        return INTERNAL
    return INPUT if attention else DONE
