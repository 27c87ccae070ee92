"""Run rules over one file and apply the fixes the applicability policy allows (any file kind)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from migrate import suppress
from migrate.compose import Composition
from migrate.context import FileContext, Unread
from migrate.edits import Applied, apply_fixes, readable, splice
from migrate.model import Applicability, Edit, Finding, Fix, Outcome, RuleKind, Severity, Span
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


def _at(places: tuple[str, ...]) -> str:
    return "(at " + ", ".join(places) + ")"


def parse_problem(ctx: FileContext, where: list[tuple[int, int]], said: str, after: str) -> Finding:
    """INP001: the places ("line:column") the parser could not read are the finding's detail; its message is the
    parser's name, `said`, the places, then `after`."""
    places = tuple(f"{line}:{col}" for line, col in where)
    f = input_finding(ctx.path, "INP001", f"{ctx.parser} {said} {_at(places)}{after}", *where[0])
    return replace(f, detail=places)


def _left_unchanged(ctx: FileContext, part: Unread) -> Finding:
    """INP001 on a part of a file its parser could not read (a Dockerfile's instruction), at the part's start, with
    the places the parser failed as its detail; the rest of the file is migrated."""
    places = tuple(f"{line}:{col}" for line, col in part.places)
    f = input_finding(ctx.path, "INP001", f"{ctx.parser} could not parse this {part.what} {_at(places)}: left "
                      "unchanged, the rest of the file was migrated; review it by hand", part.line, part.column)
    return replace(f, detail=places)


def _copied_unchanged(ctx: FileContext, where: list[tuple[int, int]]) -> Finding:
    return parse_problem(ctx, where, "could not parse this file", ": copied unchanged; " + ctx.parse_advice())


def _to_fixed_point(ctx: FileContext, rules, findings: list[Finding], first: Applied, sups: list, held: set[int]):
    """Run the rules again on the output until it stops changing (at most 4 more passes): a fix that undoes a wrong
    port writes what other rules rewrite. Later findings and fixes are put back on the original's bytes
    (migrate/compose.py); a region changed by several passes is one edit, the fix of the last finding there."""
    composition = Composition()
    owners: list[Finding] = list(first.applied)
    composition.add([(e, i) for i, f in enumerate(owners) for e in f.fix.edits])
    seen = {(f.code, f.span.start, f.message) for f in findings}
    data, later_findings, conflicts, overlapped = first.data, [], list(first.conflicts), list(first.overlapped)
    for _ in range(4):
        again = type(ctx)(ctx.path, data, ctx.options, ctx.packs, ctx.target)
        if getattr(ctx, "all_or_nothing", False) and again.parse_errors():
            break  # a Python or deployment file is edited only while it parses; C++ is read token by token
        found = [f for rule in rules for f in rule.check(again) if not again.unreached(f.span.start)]
        result = apply_fixes(data, [f for f in found if allowed(f, ctx.options) and not suppress.covered(
            sups, f.code, ctx.span(composition.original(f.span.start), composition.original(f.span.start)).line)])
        applied = {id(f) for f in result.applied}
        edits = []
        for f in found:
            start, end = composition.original(f.span.start), composition.original(f.span.end)
            if id(f) not in applied and ((f.code, start, f.message) in seen or composition.changed(start)):
                continue  # said already, or about text an earlier fix wrote (the earlier finding says why)
            seen.add((f.code, start, f.message))
            moved = replace(f, span=ctx.span(start, max(start, end)), matched=readable(ctx.text(start, max(start, end))))
            if id(f) in applied:
                edits += [(e, len(owners)) for e in f.fix.edits]
                owners.append(moved)
            else:
                later_findings.append(replace(moved, fix=None) if f.fix else moved)
        conflicts += [replace(f, span=ctx.span(composition.original(f.span.start),
                                                composition.original(f.span.start))) for f in result.conflicts]
        overlapped += result.overlapped
        if not result.applied:
            break
        composition.add(edits)
        data = result.data
    owned: dict[int, list[Edit]] = {}
    final_edits = []
    for edit, by in composition.edits(data):
        owned.setdefault(max(by), []).append(edit)  # the last fix there wrote the final text
        final_edits.append(edit)
    fixed = {id(f): i for i, f in enumerate(owners)}
    out = []
    for f in [*findings, *owners[len(first.applied):]]:
        i = fixed.get(id(f))
        if i is not None:
            f = replace(f, fix=replace(f.fix, edits=tuple(owned.get(i, ()))))  # none left: a later fix rewrote it
        out.append(f)
    out += later_findings
    left_out = {id(f) for f in first.conflicts} | held
    applied = tuple(f for f in out if allowed(f, ctx.options) and id(f) not in left_out)
    return data, out, Applied(data, tuple(final_edits), applied, tuple(conflicts), tuple(overlapped))


def settle(findings: list[Finding], applied: set[int], result: Applied, held: set[int]) -> None:
    """Each fix with its outcome, in place: applied (`applied`: ids), suppressed (`held`), left out for overlapping
    the fix of `result.overlapped`, else skipped by the fix policy."""
    overlapped = {id(c): o.code for c, o in zip(result.conflicts, result.overlapped)}
    for i, f in enumerate(findings):
        if f.fix is not None:
            if id(f) in applied:
                findings[i] = with_outcome(f, Outcome.APPLIED)
            elif id(f) in held:
                findings[i] = with_outcome(f, Outcome.SUPPRESSED)
            elif id(f) in overlapped:
                findings[i] = with_outcome(f, Outcome.OVERLAPPED, overlapped[id(f)])
            else:
                findings[i] = with_outcome(f, Outcome.SKIPPED)


def with_outcome(f: Finding, outcome: Outcome, overlaps: str = "") -> Finding:
    """`f` with its fix's outcome (made directly: dataclasses.replace is three times slower). An error whose fix was
    applied is a warning from then on, in every format: the migrated text no longer stops the build there."""
    x = f.fix
    fix = Fix(x.title, x.edits, x.applicability, outcome, overlaps)
    severity = Severity.WARNING if outcome is Outcome.APPLIED and f.severity is Severity.ERROR else f.severity
    return Finding(f.code, f.kind, severity, f.message, f.span, fix, f.family, f.matched, f.detail)


def one_per_site(findings: list[Finding]) -> list[Finding]:
    """A rule's findings with the same code, line and message are one finding (two `/usr/local/cuda/lib64` on a
    Makefile line, one tile declared and made on one line): the first, carrying every edit of the others when all of
    them are fixes of the same kind. Counts, the effort estimate and `check` then see one site once. The edits of a
    site are gathered first and sorted once, so that a line with thousands of repeats stays linear."""
    out: list[Finding] = []
    first: dict[tuple, int] = {}
    more: dict[int, list[Edit]] = {}  # index in `out` -> the edits of its repeats
    for f in findings:
        key = (f.code, f.span.path, f.span.line, f.message)
        i = first.get(key)
        if i is None:
            first[key] = len(out)
            out.append(f)
            continue
        kept = out[i]
        if (kept.fix is None) != (f.fix is None) or (kept.fix and kept.fix.applicability != f.fix.applicability):
            out.append(f)  # one fixed and one not, or fixes of other grades: both stay
            continue
        if kept.fix is not None:
            more.setdefault(i, []).extend(f.fix.edits)
    for i, edits in more.items():
        kept = out[i]
        merged = tuple(sorted({*kept.fix.edits, *edits}, key=lambda e: (e.start, e.end)))
        out[i] = replace(kept, fix=replace(kept.fix, edits=merged))
    return out


def run_rules(ctx: FileContext, rules, *, what: str = "what could be read there was migrated: review those lines",
              extra_edits: Callable[[bytes, Applied], list[Edit]] | None = None) -> Translation:
    """Every rule's findings; the allowed fixes applied (overlaps reported as INP007) but those of findings an inline
    suppression covers; parse problems reported as INP001. `extra_edits` may add layout edits computed from the
    applied ones. The findings are all returned, each fix with its outcome; migrate/stages/rewrite.py sets the
    suppressed ones apart."""
    findings: list[Finding] = []
    where = ctx.parse_errors() if getattr(ctx, "all_or_nothing", False) else []
    if where:
        # Python and deployment files: a half-understood file is not edited at all.
        return Translation(ctx.data, (_copied_unchanged(ctx, where),))
    ctx.memo.setdefault("rules", frozenset(r.code for r in rules))  # rules that write text others must keep out of
    for rule in rules:
        findings.extend(one_per_site([f for f in rule.check(ctx) if not ctx.unreached(f.span.start)]))
    sups = suppress.of_file(ctx.path, getattr(ctx, "kind", "cpp"), ctx.data, ctx.options)
    held = {id(f) for f in suppress.apply(findings, sups).suppressed} if sups else set()
    result = apply_fixes(ctx.data, [f for f in findings if allowed(f, ctx.options) and id(f) not in held])
    output = result.data
    feeders = {r.code for r in rules if r.feeds_other_rules}
    if any(f.code in feeders for f in result.applied):
        output, findings, result = _to_fixed_point(ctx, rules, findings, result, sups, held)
    extra = extra_edits(ctx.data, result) if extra_edits else []
    if extra:
        output = splice(ctx.data, sorted([*result.edits, *extra], key=lambda e: (e.start, e.end > e.start)))
    applied = {id(f) for f in result.applied}
    settle(findings, applied, result, held)
    for f in result.conflicts:
        findings.append(input_finding(ctx.path, "INP007", f"{f.code} fix not applied: it overlaps another fix here; "
                                      "edit this place by hand", f.span.line, f.span.column))
    where = ctx.parse_errors()  # after the rules: a C++ file is parsed only when a rule needed its tree
    if where and getattr(ctx, "all_or_nothing", False):
        # a parser that a rule needed refused what a quicker check had accepted: still nothing is edited
        return Translation(ctx.data, (_copied_unchanged(ctx, where),))
    if where:
        findings.append(parse_problem(ctx, where, "could not parse this file cleanly", "; " + what))
    findings.extend(_left_unchanged(ctx, part) for part in ctx.unread())
    return Translation(output, tuple(findings))
