"""The report model built once from the stages' results: a `Migration` from a MigrationResult (every summary
count, the sections, the effort estimate, the inline-assembly listing and the diffs), a `Build` from a
BuildResult. Renderers and the state under DST/.hipmigrate/ read what this makes; nothing downstream works a fact
out again."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from migrate import effort as effort_model
from migrate.cpp import ptx
from migrate.linediff import LineDiff
from migrate.model import BuildResult, MigrationResult, Severity
from migrate.report.model import Build, FileDiff, FileEntry, Migration, Stored, UnitRow, order
from migrate.stages.report import CONVERSION, HAZARD, NOTE, UNSUPPORTED, WARNING, section
from migrate.verify.diagnostics import error_key, first_error


def file_diffs(result: MigrationResult, with_diffs: bool) -> tuple[dict[str, int], tuple[FileDiff, ...]]:
    """The changed lines of every changed file by path, and with `with_diffs` their unified diffs, in the result's
    order. Each file's line diff is worked out once: kept as its opcodes (views of the file's two texts) for the
    unified diff, made when it is read, and else let go before the next."""
    changed: dict[str, int] = {}
    diffs: list[FileDiff] = []
    for r in result.files:
        if r.old is not None and r.new is not None and r.old != r.new:
            d = LineDiff(r.old, r.new)
            changed[r.path] = d.changed
            if with_diffs:
                diffs.append(FileDiff(r.path, diff=d))
    return changed, tuple(diffs)


def parts(every: Iterable[Stored]) -> tuple[Counter, Counter, dict[str, tuple[Stored, ...]]]:
    """The findings by code, the conversions by API family, and the findings of every other section in path, line,
    column and code order (a stable sort of the engine's order), in one reading of `every`. Conversions are only
    counted."""
    by_code: Counter = Counter()
    families: Counter = Counter()
    out: dict[str, list[Stored]] = {UNSUPPORTED: [], HAZARD: [], WARNING: [], NOTE: []}
    for s in every:
        by_code[s.finding.code] += 1
        if s.finding.code == "INP013":  # findings not listed (migrate/stages/rewrite.py: capped) are still counted
            code, more, family = s.finding.detail
            by_code[code] += int(more)
            if family:
                families[family] += int(more)
        where = section(s.finding)
        if where == CONVERSION:
            families[s.finding.family or "other"] += 1
        elif where is not None:
            out[where].append(s)
    return by_code, families, {where: tuple(sorted(found, key=order)) for where, found in out.items()}


def migration(result: MigrationResult, unsafe_fixes: bool = False, with_diffs: bool = False) -> Migration:
    """The model of one migration; `with_diffs` adds each changed file's unified diff (what `run` keeps)."""
    every = tuple(Stored.of(f) for r in result.files for f in r.findings)
    changed, diffs = file_diffs(result, with_diffs)
    return from_findings(
        every, source=result.source, destination=result.destination, engine=result.engine.name,
        engine_version=result.engine.version, hip_version=result.hip_version,
        files=tuple(FileEntry(r.path, r.status.value) for r in result.files), lines=sum(r.lines for r in result.files),
        estimate=effort_model.estimate(result, unsafe_fixes, changed), inline_asm=tuple(ptx.listing(result.findings)),
        diffs=diffs,
        suppressed=sum(len(r.suppressed) for r in result.files))


def from_findings(every: tuple[Stored, ...], **fields) -> Migration:
    """A Migration whose counts and sections are worked out from `every` (also what reading the state does)."""
    by_code, conversions, split = parts(every)
    return Migration(conversions=dict(sorted(conversions.items())), by_code=dict(sorted(by_code.items())),
                     unsupported=split[UNSUPPORTED], hazards=split[HAZARD], warnings=split[WARNING],
                     notes=split[NOTE], every=every, **fields)


def build(result: BuildResult) -> Build:
    """The model of one `hipmigrate build`: a row per compile, the findings, and the units each error met."""
    units, findings, met = [], [], {}
    for u in result.units:
        mine = [Stored.of(f) for f in u.findings]
        findings.extend(mine)
        for f in u.findings:
            if f.severity is Severity.ERROR:
                met.setdefault(error_key(f), []).append(u.path)
        errors = sum(1 for f in u.findings if f.severity is Severity.ERROR)
        first = first_error(u.findings) if u.status != "ok" else ""
        units.append(UnitRow(u.path, u.target, u.status, u.seconds, errors, len(mine) - errors, first))
    project = None
    if result.project is not None:
        p = result.project
        findings.extend(Stored.of(f) for f in p.findings)
        project = {"command": p.command, "status": p.status, "seconds": p.seconds, "output_tail": p.output_tail}
    return Build(tuple(result.targets), result.hipcc, result.hip_version, tuple(units), tuple(result.skipped),
                 project, tuple(findings), result.failed,
                 tuple((key, tuple(dict.fromkeys(paths))) for key, paths in met.items()))
