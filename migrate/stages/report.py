"""Stage 4, report: the summary of a migration that every renderer shows."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from migrate.model import FileStatus, Finding, MigrationResult, RuleKind, Severity

UNSUPPORTED_CODES = {"CPP006", "ENG001"}


@dataclass(frozen=True)
class Summary:
    engine: str
    engine_version: str
    hip_version: str
    files_total: int
    files_changed: int
    files_skipped: int
    lines: int
    conversions: dict[str, int]  # API family -> identifiers converted
    unsupported: tuple[Finding, ...]
    warnings: tuple[Finding, ...]  # everything else at warning or above, input problems included
    by_code: dict[str, int]
    notes: tuple[Finding, ...] = ()  # information with nothing to fix: what was kept and why (backend='nccl', ...)


def is_conversion(f: Finding) -> bool:
    return f.kind is RuleKind.MAPPING and f.fix is not None and f.code.startswith("MAP")


def summarize(result: MigrationResult) -> Summary:
    conversions: Counter[str] = Counter()
    by_code: Counter[str] = Counter()
    unsupported, warnings, notes = [], [], []
    for f in result.findings:
        by_code[f.code] += 1
        if is_conversion(f):
            conversions[f.family or "other"] += 1
        elif f.code in UNSUPPORTED_CODES:
            unsupported.append(f)
        elif f.severity >= Severity.WARNING or f.kind is RuleKind.INPUT:
            warnings.append(f)
        elif f.fix is None and f.kind in (RuleKind.PYTHON, RuleKind.BUILD):
            notes.append(f)
    return Summary(result.engine.name, result.engine.version, result.hip_version, len(result.files),
                   len(result.changed), sum(1 for r in result.files if r.status is FileStatus.SKIPPED),
                   sum(r.lines for r in result.files), dict(sorted(conversions.items())), tuple(unsupported),
                   tuple(warnings), dict(sorted(by_code.items())), tuple(notes))


def report(root, comparison=None, created: str | None = None):
    """The whole report of a migrated tree: what `run`, `build` and `bench` left in ROOT/.hipmigrate/, with
    `comparison` (a migrate.stages.bench.CompareResult) added; a migrate.report.model.Report."""
    from migrate.report.load import load

    return load(root, comparison, created)


def fixes_by_rule(result: MigrationResult, unsafe_fixes: bool = False) -> dict[str, int]:
    """Rule code -> fixes applied, for the rules other than the plain conversions (those are counted by API family):
    Python, deployment, build, C++ and hazard fixes, as each fix's outcome records (`unsafe_fixes` is unused)."""
    counts: Counter[str] = Counter()
    for f in result.findings:
        if f.kind not in (RuleKind.MAPPING, RuleKind.INPUT, RuleKind.ENGINE) and f.fix is not None and f.fix.applied:
            counts[f.code] += 1
    return dict(sorted(counts.items()))
