"""The report as one JSON document: format "hipmigrate-report", version 1 (docs/report.md, checked against
docs/report.schema.json in the tests). The other renderers read the same `Report`, not this document."""
from __future__ import annotations

import json

from migrate import __version__
from migrate.render.bench import compare_dict
from migrate.effort import FileEffort
from migrate.report.model import BenchRun, Build, Migration, Report, Stored
from migrate.render import kernels_report

FORMAT = "hipmigrate-report"
VERSION = 1


def finding(s: Stored) -> dict:
    f = s.finding
    out = {"path": f.span.path, "line": f.span.line, "column": f.span.column, "code": f.code,
           "severity": f.severity.label, "kind": f.kind.value, "message": f.message, "fingerprint": s.fingerprint}
    if f.fix is not None:
        out["fix"] = {"title": f.fix.title, "applicability": f.fix.applicability.value}
    return out


def effort_row(r: FileEffort) -> dict:
    out = {"path": r.path} if r.path else {}
    out.update({"lines": r.lines, "lines_changed": r.lines_changed, "hazards_fixed": r.hazards_fixed,
                "hazards_to_review": r.hazards_to_review, "review_weight": r.review_weight, "class": r.effort})
    return out


def migration(m: Migration) -> dict:
    total = m.effort_total
    return {
        "source": m.source, "engine": {"name": m.engine, "version": m.engine_version}, "hip_version": m.hip_version,
        "summary": {"files": len(m.files), "files_changed": m.count("migrated"), "files_skipped": m.count("skipped"),
                    "lines": m.lines, "conversions": m.conversions_total, "unsupported": len(m.unsupported),
                    "hazards": len(m.hazards), "hazards_fixed": total.hazards_fixed if total else None,
                    "warnings": len(m.warnings), "notes": len(m.notes), "effort": m.effort_class},
        "conversions": m.conversions,
        "by_code": m.by_code,
        "files": [{"path": f.path, "status": f.status} for f in m.files],
        "unsupported": [finding(s) for s in m.unsupported],
        "hazards": [finding(s) for s in m.hazards],
        "warnings": [finding(s) for s in m.warnings],
        "notes": [finding(s) for s in m.notes],
        "effort": None if m.effort is None else {
            "class": m.effort_class, "unsafe_fixes": m.unsafe_fixes, "total": effort_row(m.effort[-1]),
            "files": [effort_row(r) for r in m.effort[:-1]]},
        "inline_asm": list(m.inline_asm),
        "diffs": [{"path": d.path, "added": d.added, "removed": d.removed, "diff": d.text} for d in m.diffs],
    }


def build(b: Build) -> dict:
    return {
        "targets": list(b.targets), "hipcc": b.hipcc, "hip_version": b.hip_version, "failed": b.failed,
        "summary": {"compiles": len(b.units), "ok": b.ok, "failed": len(b.units) - b.ok,
                    "units": len({u.path for u in b.units}), "skipped": len(b.skipped),
                    "errors": sum(u.errors for u in b.units), "warnings": sum(u.warnings for u in b.units)},
        "by_target": [{"target": t.target, "compiles": t.compiles, "ok": t.ok, "failed": t.failed,
                       "seconds": t.seconds} for t in b.by_target],
        "units": [{"path": u.path, "target": u.target, "status": u.status, "seconds": u.seconds, "errors": u.errors,
                   "warnings": u.warnings} for u in b.units],
        "skipped": list(b.skipped),
        "project": b.project,
        "findings": [finding(s) for s in b.findings],
    }


def bench_run(r: BenchRun) -> dict:
    return {"path": r.path, "created": r.created, "machine": r.machine,
            "benchmarks": [{"name": b.name, "status": b.status, "unit": b.unit, "higher_is_better": b.higher_is_better,
                            **b.summary.as_dict()} for b in r.benchmarks]}


def as_dict(report: Report) -> dict:
    return {
        "format": FORMAT, "version": VERSION, "created": report.created, "hipmigrate": __version__,
        "destination": report.destination, "problems": list(report.problems),
        "migration": migration(report.migration) if report.migration else None,
        "build": build(report.build) if report.build else None,
        "bench_runs": [bench_run(r) for r in report.bench_runs],
        "comparison": compare_dict(report.comparison) if report.comparison is not None else None,
        "kernels": kernels_report.json_dict(report.kernels, report.comparison) if report.kernels is not None else None,
    }


def render(report: Report) -> str:
    return json.dumps(as_dict(report), indent=2) + "\n"
