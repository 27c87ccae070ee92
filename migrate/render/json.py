"""JSON output of scan, run and diff (schema: docs/json.md, version 1), from the report model's Migration."""
from __future__ import annotations

import json

from migrate import effort as effort_model
from migrate.model import Finding
from migrate.report import state
from migrate.report.model import Migration, order

SCHEMA_VERSION = 1


def finding_dict(f: Finding, fingerprint: str | None = None) -> dict:
    return state.finding_dict(f, fingerprint)


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


def asm_list(m: Migration) -> list[dict]:
    return [{"path": s.path, "line": s.line, "column": s.column, "instructions": list(s.instructions),
             "suggestions": [{"ptx": item, "hip": hip or None} for item, hip in s.suggestions]}
            for s in m.inline_asm]


def render(m: Migration, command: str) -> str:
    return json.dumps(document(m, command), indent=2, sort_keys=False) + "\n"


def document(m: Migration, command: str) -> dict:
    """The JSON document of docs/json.md, as Python objects."""
    doc = {
        "schema": SCHEMA_VERSION,
        "command": command,
        "source": m.source,
        "destination": m.destination,
        "engine": {"name": m.engine, "version": m.engine_version},
        "hip_version": m.hip_version,
        "summary": {
            "files": len(m.files), "files_changed": m.count("migrated"), "files_skipped": m.count("skipped"),
            "lines": m.lines, "conversions": m.conversions, "unsupported": len(m.unsupported),
            "by_code": m.by_code,
        },
        "files": [{"path": f.path, "status": f.status} for f in m.files],
        "findings": [finding_dict(s.finding, s.fingerprint) for s in sorted(m.every, key=order)],
    }
    if command == "scan":
        doc["effort"] = effort_dict(m.estimate)
        doc["inline_asm"] = asm_list(m)
    return doc
