"""What `hipmigrate check` prints: text, JSON, SARIF (its rules described from the code table that the command passes
in) and rdjson."""
from __future__ import annotations

import json
from collections import Counter

from migrate.check.result import CheckResult
from migrate.model import Applicability, Outcome
from migrate.render import rdjson as rdjson_render
from migrate.render import sarif as sarif_render
from migrate.render.json import finding_dict
from migrate.render.sarif_rules import rules_for
from migrate.pathnames import shown

SCHEMA_VERSION = 1


def text(result: CheckResult) -> str:
    lines = []
    for f in result.findings:
        lines.append(f"{shown(f.span.path)}:{f.span.line}:{f.span.column}: {f.code} [{f.severity.label}] {f.message}")
    for f in result.notes:
        lines.append(f"{shown(f.span.path)}:{f.span.line}:{f.span.column}: {f.code} [note] {f.message}")
    scope = f" on lines added since {result.changes.base} ({result.changes.merge_base[:12]})" if result.changes else ""
    extra = []
    if result.suppressed:
        extra.append(f"{result.suppressed} suppressed inline")
    if result.baselined:
        extra.append(f"{result.baselined} in the baseline")
    tail = f" ({', '.join(extra)})" if extra else ""
    if result.findings:
        files = len({f.span.path for f in result.findings})
        fixable = sum(1 for f in result.findings if f.fix is not None and f.fix.applied)
        unsafe = sum(1 for f in result.findings if f.fix is not None and f.fix.outcome is Outcome.SKIPPED
                     and f.fix.applicability is Applicability.UNSAFE)
        more = f", {unsafe} more with `--unsafe-fixes`" if unsafe else ""
        by_code = ", ".join(f"{c} {n}" for c, n in sorted(Counter(f.code for f in result.findings).items()))
        lines.append(f"hipmigrate check: {len(result.findings)} CUDA-only finding(s) in {files} file(s){scope}{tail}: "
                     f"{by_code}; {fixable} fixable by `hipmigrate run`{more} (target HIP {result.target})")
    else:
        lines.append(f"hipmigrate check: no CUDA-only code in {result.files} file(s){scope}{tail}")
    return "\n".join(lines) + "\n"


def as_dict(result: CheckResult) -> dict:
    findings = []
    for f in result.findings:
        findings.append(dict(finding_dict(f), blocking=True))
    for f in result.notes:
        findings.append(dict(finding_dict(f), blocking=False))
    doc = {
        "schema": SCHEMA_VERSION,
        "command": "check",
        "hip_version": result.target,
        "passed": not result.failed,
        "base": None,
        "summary": {"files": result.files, "lines": result.lines, "findings": len(result.findings),
                    "notes": len(result.notes), "suppressed": result.suppressed, "baselined": result.baselined,
                    "by_code": dict(sorted(Counter(f.code for f in result.findings).items()))},
        "cache": dict(result.stats.as_dict(), analysed=sorted(result.stats.analysed)),
        "findings": findings,
    }
    if result.changes:
        doc["base"] = {"ref": result.changes.base, "merge_base": result.changes.merge_base}
    return doc


def render_json(result: CheckResult) -> str:
    return json.dumps(as_dict(result), indent=2) + "\n"


def sarif(result: CheckResult, codes: dict) -> str:
    """What fails the gate as errors, the notes as notes; `codes` is the code table (migrate.codes)."""
    found = result.findings + result.notes
    levels = {i: "error" if i < len(result.findings) else "note" for i in range(len(found))}
    return sarif_render.render(found, rules_for({f.code for f in found}, codes), levels=levels)


def rdjson(result: CheckResult) -> str:
    """Notes at INFO; fixes as suggestions on the files' text."""
    severity = {id(f): "INFO" for f in result.notes}
    return rdjson_render.render(result.findings + result.notes, result.text_of, lambda f: severity.get(id(f)))
