"""INP012 (and INP004 for a file first read when copied): a file that vanished or changed while the run was in progress, found by the stage that meets it (the
read, the write, `--in-place`'s replacement), and the result with those findings on their files."""
from __future__ import annotations

from dataclasses import replace

from migrate.model import Finding, FileStatus, MigrationResult, RuleKind, Severity, Span

HOW = {"vanished": "vanished while the run was in progress (it was deleted or moved after the tree was listed)",
       "changed": "changed since it was read (edited while the run was in progress)"}


def vanished(rel: str, how: str, what: str) -> Finding:
    """INP012 on `rel`: `how` is "vanished" or "changed", `what` what became of it ("left out of the output")."""
    return Finding("INP012", RuleKind.INPUT, Severity.ERROR, f"{HOW[how]}: {what}; run again to migrate it",
                   Span(rel, 0, 0, 1, 1))


def unreadable(rel: str, exc: OSError) -> Finding:
    """INP004 on a file first read when it is copied (a file no rule reads), which could not be."""
    return Finding("INP004", RuleKind.INPUT, Severity.ERROR, f"cannot read: {exc.strerror or exc}: left out of the "
                   "output; fix its permissions and run again", Span(rel, 0, 0, 1, 1))


def with_findings(result: MigrationResult, late: dict[str, Finding]) -> MigrationResult:
    """`result` with each file of `late` skipped (nothing of it written) and its finding added."""
    if not late:
        return result
    files = tuple(replace(r, status=FileStatus.SKIPPED, new=None, findings=(*r.findings, late[r.path]))
                  if r.path in late else r for r in result.files)
    return replace(result, files=files)
