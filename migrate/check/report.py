"""What `hipmigrate check` prints as text and as JSON, and the rule descriptors its SARIF output names."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from migrate.check.runner import CheckResult
from migrate.suppress import UnusedSuppression
from migrate.model import Applicability, Outcome, RuleKind, Severity
from migrate.render.json import finding_dict

SCHEMA_VERSION = 1


def text(result: CheckResult) -> str:
    lines = []
    for f in result.findings:
        lines.append(f"{f.span.path}:{f.span.line}:{f.span.column}: {f.code} [{f.severity.label}] {f.message}")
    for f in result.notes:
        lines.append(f"{f.span.path}:{f.span.line}:{f.span.column}: {f.code} [note] {f.message}")
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


def sarif(result: CheckResult) -> str:
    """What fails the gate as errors, the notes as notes."""
    from migrate.render import sarif as sarif_render

    found = result.findings + result.notes
    levels = {i: "error" if i < len(result.findings) else "note" for i in range(len(found))}
    return sarif_render.render(found, rules_for({f.code for f in found}), levels=levels)


def rdjson(result: CheckResult) -> str:
    """Notes at INFO; fixes as suggestions on the files' text."""
    from migrate.render import rdjson as rdjson_render

    severity = {id(f): "INFO" for f in result.notes}
    return rdjson_render.render(result.findings + result.notes, result.text_of, lambda f: severity.get(id(f)))


@dataclass(frozen=True)
class PackRule:
    """A mapping pack, described for SARIF like a rule class."""

    code: str
    family: str
    title: str
    rows: int
    base_doc: str
    severity: Severity = Severity.INFO
    kind: RuleKind = RuleKind.MAPPING

    def name(self) -> str:
        return f"pack:{self.family}"

    def doc(self) -> str:
        return (f"A {self.title or self.family} name that the '{self.family}' mapping pack renames to HIP "
                f"({self.rows} names).\n\n{self.base_doc}")


def rules_for(codes: set[str]) -> list:
    """Descriptors for the codes named: the registry's rule classes, the packs (MAPxxx), CHK001."""
    out: list = [UnusedSuppression] if "CHK001" in codes else []
    wanted = codes - {"CHK001"}
    if not wanted:
        return out
    from migrate import api

    registry = api.registry()
    out.extend(r for r in registry.rules if r.code in wanted)
    missing = wanted - {r.code for r in out}
    if missing:
        packs = api.packs()
        base = registry.by_code("MAP000")
        for family, code in packs.families.items():
            if code in missing:
                rows = sum(1 for m in packs.names.values() if m.family == family)
                out.append(PackRule(code, family, "", rows, base.doc() if base else ""))
    return out
