"""The report model: what every renderer reads, frozen dataclasses built once from the stages' results
(migrate.report.assemble), kept in DST/.hipmigrate/ as their own serialised form (migrate.report.state) and read
back from there by `hipmigrate report` (migrate.report.load).

`Report` has a part per stage: `migration` (run, scan, diff), `build`, `bench_runs` and `comparison`, and
`kernels` (the per-kernel diff of `build --kernels`, None until it is made).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from sys import intern

from migrate.bench.stats import Summary
from migrate.effort import Effort, FileEffort
from migrate.linediff import LineDiff
from migrate.model import AsmSite, Finding, RuleKind
from migrate.pathnames import shown


@dataclass(frozen=True, slots=True)
class Stored:
    """A finding as `run` or `build` recorded it, with the fingerprint it had (the matched text is not kept)."""

    finding: Finding
    fingerprint: str

    @classmethod
    def of(cls, f: Finding) -> Stored:
        """`f` with its fingerprint, interned: a file's findings repeat a few (code, matched text) pairs thousands of
        times, and a string each took a tenth of a large run's memory."""
        return cls(f, intern(f.fingerprint))

    @property
    def where(self) -> str:
        s = self.finding.span
        return f"{shown(s.path)}:{s.line}:{s.column}"  # a line of text: an odd name quoted


def order(s: Stored) -> tuple:
    """The order findings are listed in: path, line, column, code."""
    f = s.finding
    return (f.span.path, f.span.line, f.span.column, f.code)


@dataclass(frozen=True)
class FileEntry:
    path: str
    status: str  # migrated, unchanged, copied, skipped


class FileDiff:
    """A changed file's unified diff (a/ and b/ headers): the text read from the state, or made from the file's line
    diff each time it is read (a huge file's diff is written to the state in pieces, never held whole)."""

    __slots__ = ("path", "_text", "_diff")

    def __init__(self, path: str, text: str | None = None, diff: LineDiff | None = None):
        self.path, self._text, self._diff = path, text, diff

    @property
    def text(self) -> str:
        return self._text if self._text is not None else "".join(self.chunks())

    def chunks(self) -> Iterator[str]:
        if self._text is not None:
            yield self._text
        elif self._diff is not None:
            yield from self._diff.chunks(self.path)

    @property
    def added(self) -> int:
        return sum(1 for line in self.text.splitlines() if line.startswith("+") and not line.startswith("+++"))

    @property
    def removed(self) -> int:
        return sum(1 for line in self.text.splitlines() if line.startswith("-") and not line.startswith("---"))

    def __eq__(self, other) -> bool:
        return isinstance(other, FileDiff) and (self.path, self.text) == (other.path, other.text)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"FileDiff({self.path!r})"


@dataclass(frozen=True)
class Migration:
    """What a migration found and did (`run`, `scan` and `diff` alike)."""

    source: str
    engine: str
    engine_version: str
    hip_version: str
    files: tuple[FileEntry, ...]
    lines: int
    conversions: dict[str, int]  # API family -> identifiers converted
    by_code: dict[str, int]
    unsupported: tuple[Stored, ...]  # CUDA identifiers left unchanged (CPP006, ENG001)
    hazards: tuple[Stored, ...]  # portability hazards (rule kind hazard)
    warnings: tuple[Stored, ...]  # other findings at warning or above, and input problems
    notes: tuple[Stored, ...]  # information with nothing to fix
    estimate: Effort | None  # the effort of every file read, and the total
    inline_asm: tuple[AsmSite, ...]
    diffs: tuple[FileDiff, ...]  # () when not asked for (scan)
    every: tuple[Stored, ...] = ()  # every finding, the plain conversions included, in the engine's order
    destination: str | None = None
    suppressed: int = 0  # findings set apart by `hipmigrate: ignore[...]` comments (not reported, not fixed)

    @property
    def effort(self) -> tuple[FileEffort, ...] | None:
        """The files with work to do, then the total; None without an estimate."""
        if self.estimate is None:
            return None
        busy = [r for r in self.estimate.files if r.lines_changed or r.hazards_fixed or r.hazards_to_review]
        return (*busy, self.estimate.total)

    @property
    def effort_class(self) -> str | None:
        return self.estimate.effort if self.estimate is not None else None

    @property
    def unsafe_fixes(self) -> bool:
        return bool(self.estimate and self.estimate.unsafe_fixes)

    @property
    def files_changed(self) -> int:
        return self.count("migrated")

    @property
    def fixes_by_rule(self) -> dict[str, int]:
        """Rule code -> fixes applied, for the rules other than the plain conversions (counted by API family)."""
        counts = Counter(s.finding.code for s in self.every if s.finding.fix is not None and s.finding.fix.applied
                         and s.finding.kind not in (RuleKind.MAPPING, RuleKind.INPUT, RuleKind.ENGINE))
        return dict(sorted(counts.items()))

    def count(self, status: str) -> int:
        return sum(1 for f in self.files if f.status == status)

    @property
    def conversions_total(self) -> int:
        return sum(self.conversions.values())

    @property
    def effort_total(self) -> FileEffort | None:
        return self.effort[-1] if self.effort else None

    def fixed(self, s: Stored) -> bool:
        """Whether `run` applied the finding's fix (the outcome it recorded)."""
        return s.finding.fix is not None and s.finding.fix.applied

    @property
    def findings(self) -> tuple[Stored, ...]:
        """Everything but the plain conversions, in the order of the sections."""
        return self.unsupported + self.hazards + self.warnings + self.notes


@dataclass(frozen=True)
class UnitRow:
    path: str
    target: str
    status: str
    seconds: float
    errors: int
    warnings: int
    first_error: str = ""  # the compiler's first error, `CODE path:line: text`, for a unit that failed


@dataclass(frozen=True)
class TargetRow:
    target: str
    compiles: int
    ok: int
    failed: int
    seconds: float


@dataclass(frozen=True)
class Build:
    targets: tuple[str, ...]
    hipcc: str
    hip_version: str
    units: tuple[UnitRow, ...]
    skipped: tuple[str, ...]
    project: dict | None  # command, status, seconds, output_tail
    findings: tuple[Stored, ...]
    failed: bool
    # the units each error was met in: (code, path, line, compiler text) -> units, for the blockers
    units_of: tuple[tuple[tuple, tuple[str, ...]], ...] = ()

    @property
    def by_target(self) -> tuple[TargetRow, ...]:
        out = []
        for t in self.targets:
            rows = [u for u in self.units if u.target == t]
            ok = sum(1 for u in rows if u.status == "ok")
            out.append(TargetRow(t, len(rows), ok, len(rows) - ok, round(sum(u.seconds for u in rows), 3)))
        return tuple(out)

    @property
    def ok(self) -> int:
        return sum(1 for u in self.units if u.status == "ok")


@dataclass(frozen=True)
class BenchRow:
    name: str
    status: str
    unit: str
    higher_is_better: bool
    summary: Summary


@dataclass(frozen=True)
class BenchRun:
    """One results file of `hipmigrate bench` found under DST/.hipmigrate/bench/."""

    path: str  # relative to DST
    created: str
    machine: str
    benchmarks: tuple[BenchRow, ...]


@dataclass(frozen=True)
class Report:
    destination: str
    created: str  # UTC, ISO 8601, when the report was made
    migration: Migration | None  # None when DST has no run.json
    build: Build | None  # None when `build` was not run on DST
    bench_runs: tuple[BenchRun, ...]
    comparison: object | None  # migrate.stages.bench.CompareResult, with --bench
    problems: tuple[str, ...]  # state files that could not be read, said once each
    kernels: object | None = None  # migrate.kernels.model.KernelDiff, from kernels.json (`build --kernels`)

    @property
    def findings(self) -> tuple[Stored, ...]:
        """What code scanning gets: the migration's findings but plain conversions, then the build's."""
        kernels = tuple(Stored.of(f) for f in self.kernels.findings) if self.kernels else ()
        return (self.migration.findings if self.migration else ()) + (self.build.findings if self.build else ()) + kernels
