"""A FileResult as plain tuples, for the trip from a worker process back to the parent; a finding's tuple is also
what the check cache stores (as a JSON list).

Pickling the dataclasses themselves made the parent spend 0.65 s re-creating 30,000 findings of a
100,000-line run (frozen slotted dataclasses and enums unpickle slowly), while the workers sat idle;
plain tuples and dict lookups for the enums take about a third of that.
"""
from __future__ import annotations

from migrate.model import Applicability, Edit, FileResult, FileStatus, Finding, Fix, Outcome, RuleKind, Severity, Span

_KINDS = {k.value: k for k in RuleKind}
_SEVERITIES = {int(s): s for s in Severity}
_APPLICABILITY = {a.value: a for a in Applicability}
_STATUS = {s.value: s for s in FileStatus}
_OUTCOMES = {o.value: o for o in Outcome}


def finding_fields(f: Finding) -> tuple:
    s, fix = f.span, f.fix
    packed_fix = None if fix is None else (fix.title, [(e.start, e.end, e.text) for e in fix.edits],
                                           fix.applicability.value, fix.outcome and fix.outcome.value, fix.overlaps)
    return (f.code, f.kind.value, int(f.severity), f.message, s.path, s.start, s.end, s.line, s.column,
            packed_fix, f.family, f.matched, list(f.detail))


def finding_from_fields(t) -> Finding:
    code, kind, severity, message, path, start, end, line, column, packed_fix, family, matched, detail = t
    fix = None
    if packed_fix is not None:
        title, edits, applicability, outcome, overlaps = packed_fix
        fix = Fix(title, tuple([Edit(*e) for e in edits]), _APPLICABILITY[applicability],
                  outcome and _OUTCOMES[outcome], overlaps)
    return Finding(code, _KINDS[kind], _SEVERITIES[severity], message, Span(path, start, end, line, column), fix,
                   family, matched, tuple(detail))


def pack(r: FileResult) -> tuple:
    return (r.path, r.status.value, [finding_fields(f) for f in r.findings], r.old, r.new, r.lines,
            [finding_fields(f) for f in r.suppressed], [finding_fields(f) for f in r.unused])


def unpack(t: tuple) -> FileResult:
    path, status, findings, old, new, lines, suppressed, unused = t
    found = tuple([finding_from_fields(f) for f in findings])
    set_apart, idle = (tuple([finding_from_fields(f) for f in group]) for group in (suppressed, unused))
    return FileResult(path, _STATUS[status], found, old, new, lines, set_apart, idle)
