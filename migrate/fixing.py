"""Run rules over one file and apply the fixes the applicability policy allows (any file kind)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from migrate.context import FileContext
from migrate.edits import Applied, apply_fixes, splice
from migrate.model import Applicability, Edit, Finding, RuleKind, Severity, Span
from migrate.options import Options


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


def run_rules(ctx: FileContext, rules, *, what: str = "what could be read there was migrated: review those lines",
              extra_edits: Callable[[bytes, Applied], list[Edit]] | None = None) -> Translation:
    """Every rule's findings; the allowed fixes applied (overlaps reported as INP007); parse problems
    reported as INP001. `extra_edits` may add layout edits computed from the applied ones."""
    findings: list[Finding] = []
    where = ctx.parse_errors() if getattr(ctx, "all_or_nothing", False) else []
    if where:
        # Python and deployment files: a half-understood file is not edited at all.
        lines = ", ".join(f"{line}:{col}" for line, col in where)
        findings.append(input_finding(ctx.path, "INP001", f"{ctx.parser} could not parse this file (at {lines}): "
                                      "copied unchanged; fix the syntax and run again", *where[0]))
        return Translation(ctx.data, tuple(findings))
    for rule in rules:
        findings.extend(rule.check(ctx))
    result = apply_fixes(ctx.data, [f for f in findings if allowed(f, ctx.options)])
    output = result.data
    extra = extra_edits(ctx.data, result) if extra_edits else []
    if extra:
        output = splice(ctx.data, sorted([*result.edits, *extra], key=lambda e: (e.start, e.end > e.start)))
    for f in result.conflicts:
        findings.append(input_finding(ctx.path, "INP007", f"{f.code} fix not applied: it overlaps another fix here; "
                                      "edit this place by hand", f.span.line, f.span.column))
    where = ctx.parse_errors()  # after the rules: a C++ file is parsed only when a rule needed its tree
    if where:
        lines = ", ".join(f"{line}:{col}" for line, col in where)
        findings.append(input_finding(
            ctx.path, "INP001", f"{ctx.parser} could not parse this file cleanly (at {lines}); {what}", *where[0]))
    return Translation(output, tuple(findings))
