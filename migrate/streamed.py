"""The rules of a CMake file or Makefile run with every finding packed as its rule makes it.

A generated build file of 20 MB has a finding every 30-50 bytes; held as objects while the rules ran and the fixes were
applied (about 450 bytes a finding, held twice while settling), they took 24-35 times the file's size. Here each
finding goes into a `Packed` store (migrate/packed.py) as it comes, what applying fixes needs is kept in arrays of
offsets (`Fixes`), and the outcomes are written while the store is read once more into a second one. The findings,
their order, the fixes applied and the output are those of migrate.fixing.run_rules on objects (tests/test_streamed.py
runs both on the rule examples, the samples and generated files).
"""
from __future__ import annotations

import bisect
import heapq
import io
from array import array
from dataclasses import dataclass, replace

from migrate import suppress
from migrate.context import FileContext
from migrate.edits import Applied, _overlapping, encoded, splice
from migrate.fixing import Translation, allowed, input_finding, parse_problem, with_outcome
from migrate.model import Edit, Finding, Outcome
from migrate.packed import Packed, compact

RECENT = 256  # findings kept as objects after being packed: a repeated site is nearly always one of these


class Fixes:
    """The fixes to apply, in the order their findings were made: fix k belongs to finding `owner[k]`, its edits are
    k's range of the edit arrays (offsets of `size` bytes: 4 below 2 GB), and `first[k]` is where its first edit
    starts. Fixes that one finding took over from a repeat of it on the same line (migrate.fixing.one_per_site) are in
    `merged`."""

    def __init__(self, size: str):
        self.owner, self.code, self.begin, self.texts = array("i"), array("H"), array("i", [0]), array("i")
        self.first, self.starts, self.ends = array(size), array(size), array(size)
        self.strings: dict[str, int] = {}
        self.merged: dict[int, tuple[Edit, ...]] = {}  # by finding: every edit of the merged fix

    def add(self, g: int, f: Finding, code: int) -> None:
        self.owner.append(g)
        self.first.append(min(e.start for e in f.fix.edits))
        self.code.append(code)
        for e in f.fix.edits:
            self.starts.append(e.start)
            self.ends.append(e.end)
            self.texts.append(self.strings.setdefault(e.text, len(self.strings)))
        self.begin.append(len(self.starts))

    def __len__(self) -> int:
        return len(self.owner)

    def edits(self, k: int, text_of: list[str]) -> tuple[Edit, ...]:
        merged = self.merged.get(self.owner[k])
        if merged is not None:
            return merged
        return tuple(Edit(self.starts[i], self.ends[i], text_of[self.texts[i]])
                     for i in range(self.begin[k], self.begin[k + 1]))

    def merge(self, g: int, edits: tuple[Edit, ...]) -> None:
        """Finding g's fix is now `edits` (one_per_site's union of its repeats' edits)."""
        k = bisect.bisect_left(self.owner, g)
        if k < len(self.owner) and self.owner[k] == g:
            self.merged[g] = edits
            self.first[k] = min(e.start for e in edits)


class Sites:
    """Where one rule's sites were first found: a hash of (code, path, line, message) -> the finding. A rule's
    findings mostly come line by line, so the sites of the latest line are in a small dict and those of earlier lines
    in arrays; a finding on an earlier line makes them a dict (once), since it may repeat any of them."""

    def __init__(self):
        self.line, self.latest = 0, {}
        self.keys, self.found = array("q"), array("i")
        self.earlier: dict[int, int] | None = None

    def get(self, line: int, key: int) -> int | None:
        if line > self.line:
            for k, g in self.latest.items():
                self._earlier(k, g)
            self.line, self.latest = line, {}
            return None
        if line == self.line:
            return self.latest.get(key)
        if self.earlier is None:
            self.earlier = {}
            for k, g in zip(self.keys, self.found):
                self.earlier.setdefault(k, g)
            self.keys, self.found = array("q"), array("i")
        return self.earlier.get(key)

    def add(self, line: int, key: int, g: int) -> None:
        """Finding g is the first at its site (after `get` said so for `line`)."""
        if line == self.line:
            self.latest[key] = g
        else:
            self._earlier(key, g)

    def _earlier(self, key: int, g: int) -> None:
        if self.earlier is not None:
            self.earlier.setdefault(key, g)
        else:
            self.keys.append(key)
            self.found.append(g)


class Found:
    """A file's findings as its rules make them: packed, each rule's repeats on one line made one (one_per_site),
    the fixes to apply noted in `fixes` (those allowed and not suppressed)."""

    def __init__(self, ctx: FileContext, sups: list):
        self.ctx, self.sups = ctx, sups
        self.store = Packed()
        self.fixes = Fixes("i" if len(ctx.data) < 2**31 else "q")
        self.codes: dict[str, int] = {}
        self.held: set[int] = set()  # findings an inline suppression covers that have a fix
        self.has_fix = bytearray()  # by finding: 1 when it has a fix
        self.recent: list[tuple[int, Finding | None]] = [(-1, None)] * RECENT  # finding g at g % RECENT
        self.merged_into: dict[int, Finding] = {}  # findings that took over a repeat: the finding with every edit

    def rule(self, findings) -> None:
        """One rule's findings (a rule's repeats are made one; other rules' never)."""
        sites = Sites()
        for f in findings:
            if self.ctx.unreached(f.span.start):
                continue
            key = hash((f.code, f.span.path, f.span.line, f.message))
            g = sites.get(f.span.line, key)
            if g is not None:
                kept = self._finding(g)
                if (kept.code, kept.span.path, kept.span.line, kept.message) == (
                        f.code, f.span.path, f.span.line, f.message):
                    if not self._take_over(g, kept, f):
                        self._add(f)
                    continue
            sites.add(f.span.line, key, len(self.store))
            self._add(f)

    def _finding(self, g: int) -> Finding:
        if g in self.merged_into:
            return self.merged_into[g]
        at, f = self.recent[g % RECENT]
        return f if at == g else self.store[g]

    def _take_over(self, g: int, kept: Finding, f: Finding) -> bool:
        """Whether `kept` (finding g) takes `f` over: both without a fix, or both fixes of one grade."""
        if (kept.fix is None) != (f.fix is None) or (kept.fix and kept.fix.applicability != f.fix.applicability):
            return False
        if kept.fix is not None:
            edits = tuple(sorted({*kept.fix.edits, *f.fix.edits}, key=lambda e: (e.start, e.end)))
            self.merged_into[g] = replace(kept, fix=replace(kept.fix, edits=edits))
            self.fixes.merge(g, edits)
        return True

    def _add(self, f: Finding) -> None:
        g = len(self.store)
        self.store.add(f)
        self.has_fix.append(f.fix is not None)
        self.recent[g % RECENT] = (g, f)
        if f.fix is None:
            return
        if self.sups and suppress.covered(self.sups, f.code, f.span.line):
            self.held.add(g)
        elif allowed(f, self.ctx.options):
            self.fixes.add(g, f, self.codes.setdefault(f.code, len(self.codes)))


@dataclass
class Taken:
    """The outcome of applying the fixes: the output, which findings' fixes were applied, and the conflicts (a fix
    left out whole, with the finding whose fix it overlapped) in the order met."""
    data: bytes
    applied: bytearray  # by finding
    conflicts: list[tuple[int, str]]  # (finding, code of the finding whose fix it overlaps)
    edits: list[Edit] | None  # every edit applied, sorted: only when a hook needs them


def _in_order(first: array):
    """The fixes by where their first edit starts, in the order made among equals (fixes mostly come in order: the
    ascending runs are merged rather than all of them sorted)."""
    runs, start = [], 0
    for k in range(1, len(first) + 1):
        if k == len(first) or first[k] < first[k - 1]:
            runs.append(range(start, k))
            start = k
            if len(runs) > 64:
                return sorted(range(len(first)), key=first.__getitem__)
    return heapq.merge(*runs, key=first.__getitem__)


class Output:
    """The output written as the fixes are taken in order of place (migrate.edits.apply_fixes and splice, from
    arrays). An accepted edit that ends at or before where the next fix starts can clash with no later one (their
    edits all start there or after), so it is written out and let go: only edits that reach further are held."""

    def __init__(self, data: bytes, text_of: list[str], keep_edits: bool):
        self.data, self.view, self.text_of = data, memoryview(data), text_of
        self.out, self.pos, self.taken = io.BytesIO(), 0, 0
        self.live: list[tuple[int, int, int, int, int]] = []  # (start*2 + replaces, order taken, end, text, fix): sorted
        self.kept: list[Edit] | None = [] if keep_edits else None

    def clash(self, edit: Edit) -> int | None:
        """The index in `live` of an accepted edit that `edit` overlaps (migrate.edits._clashes), None if none."""
        live = self.live
        i = bisect.bisect_right(live, (edit.start * 2 + 1, self.taken))
        if i > 0 and _overlaps(live[i - 1][0] >> 1, live[i - 1][2], edit):
            return i - 1
        while i < len(live) and live[i][0] >> 1 < max(edit.end, edit.start + 1):
            if _overlaps(live[i][0] >> 1, live[i][2], edit):
                return i
            i += 1
        return None

    def take(self, e: Edit, text: int, fix: int) -> None:
        bisect.insort(self.live, (e.start * 2 + (e.end > e.start), self.taken, e.end, text, fix))
        self.taken += 1

    def write_before(self, place: int) -> None:
        """Write out the accepted edits that end at or before `place`, in order."""
        live = self.live
        n = 0
        while n < len(live) and live[n][2] <= place:
            key, _, end, text, _ = live[n]
            start = key >> 1
            if start < self.pos:
                raise ValueError(f"overlapping edit at byte {start}")
            self.out.write(self.view[self.pos:start])
            self.out.write(encoded(self.text_of[text]))
            if self.kept is not None:
                self.kept.append(Edit(start, end, self.text_of[text]))
            self.pos = end
            n += 1
        del live[:n]

    def finish(self) -> bytes:
        self.write_before(len(self.data) + 1)
        if self.live:
            raise ValueError(f"overlapping edit at byte {self.live[0][0] >> 1}")
        self.out.write(self.view[self.pos:])
        return self.out.getvalue()


def apply(data: bytes, found: Found, keep_edits: bool) -> Taken:
    """migrate.edits.apply_fixes over `found.fixes`: the same fixes taken and left out, and the same output."""
    fx = found.fixes
    text_of = list(fx.strings)
    out = Output(data, text_of, keep_edits)
    applied = bytearray(len(found.store))
    conflicts: list[tuple[int, str]] = []
    codes = list(found.codes)
    for k in _in_order(fx.first):
        out.write_before(fx.first[k])
        edits = fx.edits(k, text_of)
        clash = next((c for c in (out.clash(e) for e in edits) if c is not None), None)
        if clash is None and _overlapping(edits):
            conflicts.append((fx.owner[k], codes[fx.code[k]]))
            continue
        if clash is not None:
            conflicts.append((fx.owner[k], codes[fx.code[out.live[clash][4]]]))
            continue
        for e in edits:
            t = fx.strings.setdefault(e.text, len(fx.strings))
            if t == len(text_of):
                text_of.append(e.text)
            out.take(e, t, k)
        applied[fx.owner[k]] = 1
    return Taken(out.finish(), applied, conflicts, out.kept)


def _overlaps(start: int, end: int, b: Edit) -> bool:
    """migrate.edits._overlaps with the first edit as its offsets."""
    if start == end or b.start == b.end:
        if start == end:
            return b.start < start < b.end
        return start < b.start < end
    return start < b.end and b.start < end


def settled(found: Found, taken: Taken) -> tuple[Packed, dict[int, Finding]]:
    """Every finding with its fix's outcome, in order (read out of `found.store`, which is left empty), and the findings
    whose fix was left out by a conflict."""
    out, where = Packed(), {}
    conflicted = {g: code for g, code in taken.conflicts}
    for g, f in enumerate(found.store.drain()):
        if found.has_fix[g]:
            f = found.merged_into.get(g) or f
            if taken.applied[g]:
                f = with_outcome(f, Outcome.APPLIED)
            elif g in found.held:
                f = with_outcome(f, Outcome.SUPPRESSED)
            elif g in conflicted:
                f = with_outcome(f, Outcome.OVERLAPPED, conflicted[g])
                where[g] = f
            else:
                f = with_outcome(f, Outcome.SKIPPED)
        out.add(f)
    return out, where


def run_rules(ctx: FileContext, rules, what: str, extra_edits) -> Translation:
    """migrate.fixing.run_rules for a file whose rules run once (not to a fixed point): `extra_edits` as there."""
    ctx.memo.setdefault("rules", frozenset(r.code for r in rules))
    found = Found(ctx, suppress.of_file(ctx.path, getattr(ctx, "kind", "cpp"), ctx.data, ctx.options))
    for rule in rules:
        found.rule(rule.check(ctx))
    places = ctx.parse_errors()
    ctx.release()
    taken = apply(ctx.data, found, extra_edits is not None)
    found.fixes = None  # applied: let go before the findings are settled
    output = taken.data
    if extra_edits is not None:
        extra = extra_edits(ctx.data, Applied(output, tuple(taken.edits), (), ()))
        if extra:
            output = splice(ctx.data, sorted([*taken.edits, *extra], key=lambda e: (e.start, e.end > e.start)))
    findings, where = settled(found, taken)
    del found
    for g, _ in taken.conflicts:
        f = where[g]
        findings.add(input_finding(ctx.path, "INP007", f"{f.code} fix not applied: it overlaps another fix here; "
                                   "edit this place by hand", f.span.line, f.span.column))
    if places:
        findings.add(parse_problem(ctx, places, "could not parse this file cleanly", "; " + what))
    return Translation(output, compact(findings))
