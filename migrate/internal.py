"""Internal errors: an exception raised by hipmigrate's own code while it handled one file.

It is reported on that file (INP008, error) and the file is copied unchanged; it never aborts the other files, and
the command exits 2 at the end. A RecursionError is the input's fault (code nested hundreds of levels deep): INP010,
a warning, exit status 1. The place named is the deepest frame in hipmigrate's own code (a rule or an engine
module), which is also what the fuzzing harness groups crashes by (`signature`).
"""
from __future__ import annotations

import traceback
from pathlib import Path

from migrate.model import Finding, RuleKind, Severity, Span

CODE = "INP008"
TOO_DEEP = "INP010"  # a RecursionError: the input's nesting, not a bug of one rule
ROOT = Path(__file__).resolve().parent.parent  # holds migrate/ and rules/


def where(exc: BaseException) -> str:
    """"rules/cpp/x.py:47" of the deepest frame of `exc`'s traceback in hipmigrate's code, else of the deepest frame."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if _inside(f.filename)]
    frame = (ours or frames or [None])[-1]
    if frame is None:
        return "unknown place"
    name = frame.filename
    if _inside(name):
        name = Path(name).resolve().relative_to(ROOT).as_posix()
    return f"{name}:{frame.lineno}"


def _inside(filename: str) -> bool:
    try:
        Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return False
    return "site-packages" not in filename


def signature(exc: BaseException) -> str:
    """What groups the same defect: the exception's type and the place it was raised."""
    return f"{type(exc).__name__} at {where(exc)}"


def summary(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if len(text) > 300:
        text = text[:297] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def finding(path: str, exc: BaseException) -> Finding:
    if isinstance(exc, RecursionError):  # code nested hundreds of levels deep, which compilers refuse too
        message = (f"nested deeper than hipmigrate can follow (RecursionError at {where(exc)}): copied unchanged; "
                   "compilers limit nesting too (clang: 256 brackets, CPython: 200 parentheses)")
        return Finding(TOO_DEEP, RuleKind.INPUT, Severity.WARNING, message, Span(path, 0, 0, 1, 1),
                       matched=signature(exc))
    message = (f"internal error while migrating this file ({summary(exc)}, at {where(exc)}): copied unchanged, the "
               "other files were migrated; please report it with this file")
    return Finding(CODE, RuleKind.INPUT, Severity.ERROR, message, Span(path, 0, 0, 1, 1), matched=signature(exc))


def failed(findings) -> list[Finding]:
    """The internal errors among `findings`."""
    return [f for f in findings if f.code == CODE]
