"""`hipmigrate suggest --base REF`: the HIP version of each hunk a branch adds, touching only added lines.

For every file with added lines, the fixes the migration would apply (safe ones; unsafe ones too with
--unsafe-fixes) whose edits lie wholly inside one run of added lines are applied to that run alone. Each block of
changed lines in such a run gives one suggestion: those lines and their HIP version. Findings
on added lines that fail the gate and have no such fix become comments without a suggestion. Lines the branch
did not add are never touched, even when they hold CUDA code too.

Three outputs: a unified patch (`git apply` at the repository's top), a GitHub pull-request review (the JSON body
of `POST /repos/{owner}/{repo}/pulls/{number}/reviews`, with ```suggestion blocks), and rdjson for reviewdog. Paths
are relative to the repository's top folder, as pull requests name files.
"""
from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass, replace

from migrate.check import gitdiff
from migrate.check.gate import blocks
from migrate.check.result import CheckResult
from migrate.check.runner import Settings
from migrate.check.selection import Selection
from migrate.edits import apply_fixes
from migrate.fixing import allowed
from migrate.model import Finding
from migrate.options import Options
from migrate.render import rdjson
from migrate.pathnames import prefixed


@dataclass(frozen=True)
class Suggestion:
    path: str  # relative to the repository's top folder
    start_line: int  # first and last line replaced (1-based, in the branch's file)
    end_line: int
    old: bytes  # those lines, newlines included
    new: bytes  # their HIP version
    findings: tuple[Finding, ...]  # whose fixes made it


@dataclass(frozen=True)
class Manual:
    path: str
    line: int
    findings: tuple[Finding, ...]  # fail the gate, no fix that touches only added lines


@dataclass(frozen=True)
class Suggestions:
    base: str
    merge_base: str
    suggestions: tuple[Suggestion, ...]
    manual: tuple[Manual, ...]
    files: dict[str, tuple[bytes, bytes]]  # path -> (branch's bytes, with every suggestion applied)


def _line_starts(data: bytes) -> list[int]:
    return [0] + [m.end() for m in re.finditer(b"\n", data)]


def _inside(f: Finding, lo: int, hi: int, eof: bool) -> bool:
    for e in f.fix.edits:
        if e.start < lo or e.end > hi:
            return False
        if e.start == e.end == hi and not eof:
            return False  # an insertion at the start of the next, not added, line
    return True


def _blocks(old: bytes, new: bytes) -> list[tuple[int, int, int, int]]:
    """Changed line blocks (old start, old stop, new start, new stop), 0-based; a pure insertion takes a
    neighbouring line along, since a suggestion replaces lines; blocks that then touch are merged."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    out: list[list[int]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i1 == i2:
            if i1 > 0:
                i1, j1 = i1 - 1, j1 - 1
            else:
                i2, j2 = i2 + 1, j2 + 1
        if out and i1 < out[-1][1]:
            out[-1][1], out[-1][3] = max(out[-1][1], i2), max(out[-1][3], j2)
        else:
            out.append([i1, i2, j1, j2])
    return [tuple(x) for x in out]


def suggestions(result: CheckResult, settings: Settings) -> Suggestions:
    changes = result.changes
    assert changes is not None, "suggest needs --base"
    selection = Selection.of(settings.select, settings.ignore)
    options = Options(unsafe_fixes=settings.unsafe_fixes)
    out: list[Suggestion] = []
    manual: list[Manual] = []
    files: dict[str, tuple[bytes, bytes]] = {}
    for shown in sorted(result.results):
        r = result.results[shown]
        if r.old is None:
            continue
        data = r.old
        top_rel = os.path.relpath(os.path.realpath(result.cwd / shown), changes.top).replace(os.sep, "/")
        starts = _line_starts(data)
        last_line = len(starts) - (1 if starts[-1] == len(data) else 0)
        hunks = (gitdiff.Hunk(1, last_line),) if top_rel in changes.untracked else changes.hunks.get(top_rel, ())
        findings = [f for f in r.findings if selection.selected(f.code)]  # suppressed ones are set apart already
        fixable = [f for f in findings if allowed(f, options)]
        used: set[int] = set()
        edits_all: list[Finding] = []
        for h in hunks:
            lo = starts[h.start - 1] if h.start - 1 < len(starts) else len(data)
            hi = starts[h.end] if h.end < len(starts) else len(data)
            mine = [f for f in fixable if _inside(f, lo, hi, hi == len(data))]
            if not mine:
                continue
            shifted = [replace(f, fix=replace(f.fix, edits=tuple(replace(e, start=e.start - lo, end=e.end - lo)
                                                                  for e in f.fix.edits))) for f in mine]
            done = apply_fixes(data[lo:hi], shifted)
            if done.data == data[lo:hi]:
                continue
            taken = {id(x) for x in done.applied}
            made = tuple(f for f, s in zip(mine, shifted) if id(s) in taken)
            used.update(id(f) for f in made)
            edits_all.extend(made)
            a, b = data[lo:hi].splitlines(keepends=True), done.data.splitlines(keepends=True)
            for i1, i2, j1, j2 in _blocks(data[lo:hi], done.data):
                first, last = h.start + i1, h.start + i2 - 1
                why = tuple(f for f in made if first <= f.span.line <= last) or made
                out.append(Suggestion(top_rel, first, last, b"".join(a[i1:i2]), b"".join(b[j1:j2]), why))
        added = changes.lines(top_rel)
        rest: dict[int, list[Finding]] = {}
        for f in findings:
            if id(f) in used or not blocks(f, settings.min_severity):
                continue
            if added is gitdiff.ALL or f.span.line in added:
                rest.setdefault(f.span.line, []).append(f)
        manual.extend(Manual(top_rel, line, tuple(fs)) for line, fs in sorted(rest.items()))
        if edits_all:
            files[top_rel] = (data, apply_fixes(data, edits_all).data)
    return Suggestions(changes.base, changes.merge_base, tuple(out), tuple(manual), files)


# --------------------------------------------------------------------------- unified patch

def _range(start: int, stop: int) -> str:
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


def _lines(prefix: bytes, lines: list[bytes]) -> list[bytes]:
    out = []
    for line in lines:
        out.append(prefix + line)
        if not line.endswith(b"\n"):
            out.append(b"\n\\ No newline at end of file\n")
    return out


def file_patch(path: str, old: bytes, new: bytes, context: int = 3) -> bytes:
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    a_name, b_name = prefixed("a/", path), prefixed("b/", path)
    out = [f"diff --git {a_name} {b_name}\n--- {a_name}\n+++ {b_name}\n".encode("utf-8", "surrogateescape")]
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n".encode())
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                out.extend(_lines(b" ", a[x1:x2]))
                continue
            out.extend(_lines(b"-", a[x1:x2]))
            out.extend(_lines(b"+", b[y1:y2]))
    return b"".join(out)


def patch(s: Suggestions) -> bytes:
    return b"".join(file_patch(path, old, new) for path, (old, new) in sorted(s.files.items()) if old != new)


# --------------------------------------------------------------------------- GitHub review

def _fence(text: str) -> str:
    longest = max((len(m.group()) for m in re.finditer(r"`{3,}", text)), default=2)
    return "`" * (longest + 1)


def _listing(findings: tuple[Finding, ...]) -> str:
    return "\n".join(f"- `{f.code}` {f.message}" for f in findings)


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def review(s: Suggestions) -> dict:
    comments = []
    for x in s.suggestions:
        text = _decode(x.new)
        text = text[:-1] if text.endswith("\n") else text
        fence = _fence(text)
        body = (f"**hipmigrate**: the HIP version of {'this line' if x.start_line == x.end_line else 'these lines'}\n\n"
                f"{_listing(x.findings)}\n\n{fence}suggestion\n{text}\n{fence}")
        comment = {"path": x.path, "line": x.end_line, "side": "RIGHT", "body": body}
        if x.start_line != x.end_line:
            comment.update({"start_line": x.start_line, "start_side": "RIGHT"})
        comments.append(comment)
    for m in s.manual:
        comments.append({"path": m.path, "line": m.line, "side": "RIGHT",
                         "body": f"**hipmigrate**: CUDA-only, needs a change by hand\n\n{_listing(m.findings)}"})
    comments.sort(key=lambda c: (c["path"], c.get("start_line", c["line"]), c["line"]))
    files = len({x.path for x in s.suggestions} | {m.path for m in s.manual})
    if comments:
        body = (f"hipmigrate: {len(s.suggestions)} suggested change{'s' if len(s.suggestions) != 1 else ''} to HIP "
                f"and {sum(len(m.findings) for m in s.manual)} finding(s) to fix by hand, in {files} file(s), on the "
                f"lines this branch adds since {s.base} ({s.merge_base[:12]}).")
    else:
        body = f"hipmigrate: no CUDA-only code on the lines this branch adds since {s.base} ({s.merge_base[:12]})."
    return {"body": body, "event": "COMMENT", "comments": comments}


def render_review(s: Suggestions) -> str:
    return json.dumps(review(s), indent=2) + "\n"


# --------------------------------------------------------------------------- rdjson

def render_rdjson(s: Suggestions) -> str:
    diagnostics = []
    for x in s.suggestions:
        old_lines = x.old.splitlines(keepends=True)
        last = old_lines[-1] if old_lines else b""
        end_col = len(last.rstrip(b"\r\n")) + 1
        new = _decode(x.new)
        if x.old.endswith(b"\n") and new.endswith("\n"):
            new = new[:-1]  # the range ends before the last line's newline
        new = new[:-1] if new.endswith("\r") and x.old.endswith(b"\r\n") else new
        first = x.findings[0]
        diagnostics.append({
            "message": "; ".join(f"{f.code} {f.message}" for f in x.findings),
            "location": {"path": x.path, "range": {"start": {"line": x.start_line, "column": 1},
                                                    "end": {"line": x.end_line, "column": end_col}}},
            "severity": "ERROR", "code": {"value": first.code},
            "suggestions": [rdjson.Suggestion({"line": x.start_line, "column": 1},
                                              {"line": x.end_line, "column": end_col}, new).as_dict()],
        })
    for m in s.manual:
        for f in m.findings:
            diagnostics.append({"message": f.message, "severity": "ERROR", "code": {"value": f.code},
                                "location": {"path": m.path, "range": {"start": {"line": f.span.line,
                                                                                 "column": f.span.column}}}})
    return json.dumps(rdjson.document(diagnostics), indent=2) + "\n"
