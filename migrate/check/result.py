"""What `hipmigrate check` found (migrate.check.runner makes it): the model that its output is made from
(migrate.check.report, migrate.check.suggest), kept apart from the pipeline that makes it."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from migrate.check import gitdiff
from migrate.check.cache import Stats
from migrate.model import FileResult, Finding


@dataclass
class CheckResult:
    findings: list[Finding]  # what fails the gate, after every filter, sorted
    notes: list[Finding]  # reported, never failing: unused suppressions (CHK001), files not parsed (INP001)
    target: str
    files: int  # files checked
    lines: int
    stats: Stats
    changes: gitdiff.Changes | None = None
    suppressed: int = 0
    baselined: int = 0
    results: dict[str, FileResult] = field(default_factory=dict)  # display path -> the file's full result
    kinds: dict[str, str] = field(default_factory=dict)  # display path -> file kind
    cwd: Path = field(default_factory=Path.cwd)
    unsafe_fixes: bool = False  # the policy `hipmigrate run` would apply: fixes graded unsafe too

    @property
    def failed(self) -> bool:
        return bool(self.findings)

    def text_of(self, path: str) -> bytes | None:
        r = self.results.get(path)
        return r.old if r is not None else None
