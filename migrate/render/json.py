"""JSON output of scan, run and diff (schema: docs/json.md, version 1)."""
from __future__ import annotations

import json

from migrate import effort as effort_model
from migrate.cpp import ptx
from migrate.model import Applicability, Finding, MigrationResult, RuleKind, Severity
from migrate.stages.report import summarize

SCHEMA_VERSION = 1


def finding_order(f: Finding) -> tuple:
    """The order of the findings in the document."""
    return (f.span.path, f.span.line, f.span.column, f.code)


# enum attributes are slow to read, and a large run writes tens of thousands of findings
_NAMES = {**{s: s.label for s in Severity}, **{k: k.value for k in RuleKind}, **{a: a.value for a in Applicability}}


def finding_dict(f: Finding, offsets: bool = False) -> dict:
    """`offsets`: also the byte range (`start`, `end`) and what became of the fix (`outcome`, and `overlaps`: the
    code of the fix it overlapped), which run.json keeps for the report."""
    span = f.span
    out = {
        "path": span.path, "line": span.line, "column": span.column, "code": f.code,
        "severity": _NAMES[f.severity], "kind": _NAMES[f.kind], "message": f.message, "fingerprint": f.fingerprint,
    }
    if f.family:
        out["family"] = f.family
    if f.fix is not None:
        out["fix"] = {
            "title": f.fix.title, "applicability": _NAMES[f.fix.applicability],
            "edits": [{"start": e.start, "end": e.end, "text": e.text} for e in f.fix.edits],
        }
    if offsets:
        out["start"], out["end"] = span.start, span.end
        if f.fix is not None and f.fix.outcome is not None:
            out["fix"]["outcome"] = f.fix.outcome.value
            if f.fix.overlaps:
                out["fix"]["overlaps"] = f.fix.overlaps
    return out


def effort_row(f: effort_model.FileEffort) -> dict:
    out = {"path": f.path} if f.path else {}
    out.update({"lines": f.lines, "lines_changed": f.lines_changed, "changed_fraction": round(f.changed_fraction, 4),
                "hazards_fixed": f.hazards_fixed, "hazards_to_review": f.hazards_to_review,
                "review_weight": f.review_weight, "class": f.effort})
    return out


def effort_dict(e: effort_model.Effort) -> dict:
    return {"class": e.effort, "unsafe_fixes": e.unsafe_fixes,
            "weights": {s.label: w for s, w in effort_model.WEIGHTS.items() if w},
            "total": effort_row(e.total), "files": [effort_row(f) for f in e.files]}


def asm_list(result: MigrationResult) -> list[dict]:
    return [{"path": s.path, "line": s.line, "column": s.column, "instructions": list(s.instructions),
             "suggestions": [{"ptx": item, "hip": hip or None} for item, hip in s.suggestions]}
            for s in ptx.listing(result.findings)]


def render(result: MigrationResult, command: str, unsafe_fixes: bool = False) -> str:
    return json.dumps(document(result, command, unsafe_fixes), indent=2, sort_keys=False) + "\n"


def document(result: MigrationResult, command: str, unsafe_fixes: bool = False, offsets: bool = False) -> dict:
    """The JSON document of docs/json.md, as Python objects (`offsets`: see finding_dict)."""
    s = summarize(result)
    doc = {
        "schema": SCHEMA_VERSION,
        "command": command,
        "source": result.source,
        "destination": result.destination,
        "engine": {"name": s.engine, "version": s.engine_version},
        "hip_version": s.hip_version,
        "summary": {
            "files": s.files_total, "files_changed": s.files_changed, "files_skipped": s.files_skipped,
            "lines": s.lines, "conversions": s.conversions, "unsupported": len(s.unsupported),
            "by_code": s.by_code,
        },
        "files": [{"path": r.path, "status": r.status.value} for r in result.files],
        "findings": [finding_dict(f, offsets) for f in sorted(result.findings, key=finding_order)],
    }
    if command == "scan":
        doc["effort"] = effort_dict(effort_model.estimate(result, unsafe_fixes))
        doc["inline_asm"] = asm_list(result)
    return doc
