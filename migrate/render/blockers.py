"""What stops the migrated tree from building on the chosen HIP release and targets, grouped by cause, with the next
step for each: the first block `run`, `scan` and `diff` print, before the warnings and notes.

A blocker is an error-level finding: a hazard that will not build, an API the target lacks, a CUDA identifier left
unchanged because no HIP counterpart is known. What builds but computes wrong is a warning, and so is an error
whose fix was applied. They are grouped by rule code and, for the
unsupported identifiers, by API family; each group shows its count, its first place and what to do next. A group is
named by the code table (migrate.codes) that the command passes in: the rule's name, else the code's title.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from migrate.codes import rule_name
from migrate.model import Finding, Severity
from migrate.verify.diagnostics import TARGET, error_key
from migrate.stages.report import UNSUPPORTED_CODES
from migrate.pathnames import shown

# what to do next, by code; every other group: read the rule's page
NEXT = {
    "CPP005": "build with the HIP release the message names (--hip-version), or port the call",
    "CPP006": "port these calls by hand: no HIP counterpart is known (the message names each one)",
    "HAZ005": "replace the inline PTX with the HIP builtin `scan` lists, or guard it with __HIP_PLATFORM_AMD__",
    "HAZ016": "port to the library named in the message (MIOpen, rocWMMA, Composable Kernel, ...)",
    "INP001": "fix the syntax error at that line, or exclude the file (--exclude)",
    "INP002": "convert the file to UTF-8, then run again",
    "PRF002": "shrink the kernel's shared memory (tile) to the target's LDS, or split the work",
}


@dataclass(frozen=True)
class Blocker:
    code: str
    label: str  # what the group is: a family of unsupported identifiers, or the rule's title
    count: int
    first: Finding
    next_step: str


def is_blocker(f: Finding) -> bool:
    """One grading for every format: an error is what stops the build (identifiers with no HIP counterpart
    included); an applied fix has already made it a warning (migrate.fixing.with_outcome)."""
    return f.severity is Severity.ERROR


def blockers(findings, codes: dict) -> list[Blocker]:
    """The groups of blocking findings, largest first."""
    groups: OrderedDict[tuple[str, str], list[Finding]] = OrderedDict()
    for f in sorted(findings, key=lambda f: (f.span.path, f.span.line, f.span.column)):
        if not is_blocker(f):
            continue
        if f.code in UNSUPPORTED_CODES:
            label = f"unsupported API ({f.family or 'no HIP counterpart'})"
        else:
            label = rule_name(codes, f.code) or _title(codes, f.code)
        groups.setdefault((f.code, label), []).append(f)
    out = [Blocker(code, label, len(items), items[0], NEXT.get(code, f"read `hipmigrate rules {code}`"))
           for (code, label), items in groups.items()]
    return sorted(out, key=lambda b: (-b.count, b.code))


@dataclass(frozen=True)
class Row:
    """One line of a report's blockers: a group of the migration's, or one distinct compile error."""
    count: int
    code: str
    what: str
    first: str  # path:line[:column]
    next_step: str


def _title(codes: dict, code: str) -> str:
    """The title of a code no rule class defines (the kernel diff's PRF codes, the engine's)."""
    entry = codes.get(code)
    return entry.title if entry is not None else code


def report_rows(report, codes: dict) -> list[Row]:
    """The blockers of a migrate.report.model.Report: the migration's by cause, then each distinct compile error (a
    shared header's error once, with the compiles and units that met it), largest first."""
    rows = []
    if report.migration is not None:
        for g in blockers((s.finding for s in report.migration.findings), codes):
            f = g.first
            rows.append(Row(g.count, g.code, g.label, f"{shown(f.span.path)}:{f.span.line}:{f.span.column}", g.next_step))
    if report.kernels is not None:  # a kernel whose block cannot launch on a target (PRF002), from build --kernels
        for g in blockers(report.kernels.findings, codes):
            f = g.first
            rows.append(Row(g.count, g.code, g.label, f"{shown(f.span.path)}:{f.span.line}", g.next_step))
    if report.build is not None:
        groups: dict[tuple, list] = {}
        for stored in report.build.findings:
            f = stored.finding
            if f.severity is Severity.ERROR:
                groups.setdefault(error_key(f), []).append(f)
        units_of = dict(report.build.units_of)
        for key, same in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            code, path, line, _ = key
            units = units_of.get(key, ())
            where = f" in {len(units)} units: {', '.join(units)}" if len(units) > 1 else ""
            compiles = f" ({len(same)} compiles stop here{where})" if len(same) > 1 else ""
            rows.append(Row(len(same), code, TARGET.sub(": ", same[0].message, count=1), f"{shown(path)}:{line}",
                            f"fix this line{compiles}"))
    return rows
