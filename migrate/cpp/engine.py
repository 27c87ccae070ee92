"""The built-in C++ engine: run the C++ rules over one file and apply the fixes the policy allows."""
from __future__ import annotations

from dataclasses import dataclass

from migrate.cpp import continuations, parse
from migrate.cpp.context import CppContext
from migrate.edits import apply_fixes, splice
from migrate.model import Applicability, Finding, RuleKind, Severity, Span
from migrate.options import Options
from migrate.packs import Packs

BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Translation:
    data: bytes
    findings: tuple[Finding, ...]  # every finding; applied fixes included


def allowed(finding: Finding, options: Options) -> bool:
    if finding.fix is None:
        return False
    if finding.fix.applicability is Applicability.SAFE:
        return True
    return finding.fix.applicability is Applicability.UNSAFE and options.unsafe_fixes


def input_finding(path: str, code: str, message: str, line: int = 1, column: int = 1,
                  severity: Severity = Severity.WARNING) -> Finding:
    return Finding(code, RuleKind.INPUT, severity, message, Span(path, 0, 0, line, column))


def translate(path: str, data: bytes, options: Options, packs: Packs, target: str, rules) -> Translation:
    bom = data.startswith(BOM)
    body = data[len(BOM):] if bom else data
    ctx = CppContext(path, body, options, packs, target)
    findings: list[Finding] = []
    for rule in rules:
        findings.extend(rule.check(ctx))
    chosen = [f for f in findings if allowed(f, options)]
    result = apply_fixes(body, chosen)
    output = result.data
    aligned = continuations.realign(body, list(result.edits))
    if aligned:
        output = splice(body, sorted([*result.edits, *aligned], key=lambda e: (e.start, e.end > e.start)))
    for f in result.conflicts:
        findings.append(input_finding(path, "INP007", f"{f.code} fix not applied: it overlaps another fix here; "
                                      "edit this place by hand", f.span.line, f.span.column))
    where = parse.error_lines(ctx.tree, limit=5) if "tree" in ctx.__dict__ else []
    if where:
        lines = ", ".join(f"{line}:{col}" for line, col in where)
        findings.append(input_finding(
            path, "INP001", f"tree-sitter could not parse this file cleanly (at {lines}); identifiers there were "
            "migrated token by token: review those lines", *where[0]))
    return Translation((BOM if bom else b"") + output, tuple(findings))
