"""JSON output of scan, run and diff (schema: docs/json.md, version 1)."""
from __future__ import annotations

import json

from migrate.model import Finding, MigrationResult
from migrate.stages.report import summarize

SCHEMA_VERSION = 1


def finding_dict(f: Finding) -> dict:
    out = {
        "path": f.span.path, "line": f.span.line, "column": f.span.column, "code": f.code,
        "severity": f.severity.label, "kind": f.kind.value, "message": f.message, "fingerprint": f.fingerprint,
    }
    if f.family:
        out["family"] = f.family
    if f.fix is not None:
        out["fix"] = {
            "title": f.fix.title, "applicability": f.fix.applicability.value,
            "edits": [{"start": e.start, "end": e.end, "text": e.text} for e in f.fix.edits],
        }
    return out


def render(result: MigrationResult, command: str) -> str:
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
        "findings": [finding_dict(f) for f in sorted(result.findings, key=lambda f: (f.span.path, f.span.line,
                                                                                      f.span.column, f.code))],
    }
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"
