"""The one data model shared by every rule kind, stage and renderer.

Frozen dataclasses and enums only: a rule yields `Finding`s, a finding may carry a `Fix`, a fix is a
tuple of `Edit`s (byte ranges of one file) with an `Applicability`.
"""
from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field


class Severity(enum.IntEnum):
    INFO = 0  # a plain conversion, or a note
    WARNING = 1  # may behave differently on AMD, or could not be migrated automatically
    ERROR = 2  # will not build or will give wrong results on AMD

    @property
    def label(self) -> str:
        return self.name.lower()


class Applicability(enum.Enum):
    SAFE = "safe"  # applied by default
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes
    DISPLAY_ONLY = "display-only"  # shown as a suggestion, never applied


class Outcome(enum.Enum):
    """What became of a fix, decided once where fixes are applied (migrate/fixing.py) and read by everything after."""

    APPLIED = "applied"
    SKIPPED = "skipped"  # the fix policy left it out: unsafe without --unsafe-fixes, or display-only
    OVERLAPPED = "overlapped"  # left out because it overlaps another fix that was applied (Fix.overlaps names it)
    SUPPRESSED = "suppressed"  # a `hipmigrate: ignore[...]` comment covers its finding


class RuleKind(enum.Enum):
    MAPPING = "mapping"  # identifier renames driven by the mapping packs
    CPP = "cpp"  # structural C++ rules (headers, launches, symbols, version fallbacks)
    PYTHON = "python"
    HAZARD = "hazard"
    BUILD = "build"
    INPUT = "input"  # problems with the input itself (binary, encoding, parse errors)
    ENGINE = "engine"  # messages from an external engine such as hipify-perl
    PERF = "perf"  # a kernel's resources or occupancy on AMD against CUDA (build --kernels)


@dataclass(frozen=True, slots=True)
class Span:
    """A place in a file: byte offsets [start, end) and the 1-based line and column of start."""

    path: str
    start: int
    end: int
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace bytes [start, end) of one file by `text` (start == end inserts)."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE
    outcome: Outcome | None = None  # None until the fixes of its file are applied
    overlaps: str = ""  # OVERLAPPED: the code of the applied fix it overlaps

    @property
    def applied(self) -> bool:
        return self.outcome is Outcome.APPLIED


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    kind: RuleKind
    severity: Severity
    message: str
    span: Span
    fix: Fix | None = None
    family: str = ""  # API family of a conversion ("runtime", "cublas", ...), empty otherwise
    matched: str = ""  # the matched source text, normalised into the fingerprint
    detail: tuple[str, ...] = ()  # what the finding names, for listings: an inline-PTX finding's PTX items

    @property
    def fingerprint(self) -> str:
        """Stable across lines moving: rule code, path and the whitespace-normalised matched text."""
        text = " ".join(self.matched.split())
        # a path that is not UTF-8 holds its bytes as surrogates (os.fsdecode's): hashed as those bytes
        digest = hashlib.sha256(f"{self.code}\0{self.span.path}\0{text}".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()[:16]


@dataclass(frozen=True)
class AsmSite:
    """One inline-assembly statement: where it is, the PTX it uses, and the HIP counterparts known (migrate.cpp.ptx
    lists them from the inline-PTX findings; the report model keeps them)."""

    path: str
    line: int
    column: int
    instructions: tuple[str, ...]
    suggestions: tuple[tuple[str, str], ...]  # (item, HIP counterpart; "" when there is none)


class FileStatus(enum.Enum):
    UNCHANGED = "unchanged"  # looked at, nothing to change
    MIGRATED = "migrated"  # content changed
    COPIED = "copied"  # not a CUDA source: copied byte for byte
    SKIPPED = "skipped"  # could not be migrated (binary, unreadable, ...): copied unchanged where possible


@dataclass(frozen=True)
class FileResult:
    path: str  # relative to the source root, with forward slashes
    status: FileStatus
    findings: tuple[Finding, ...] = ()
    old: bytes | None = None
    new: bytes | None = None
    lines: int = 0
    suppressed: tuple[Finding, ...] = ()  # covered by a `hipmigrate: ignore[...]` comment: not reported, not fixed
    unused: tuple[Finding, ...] = ()  # CHK001: the suppressions (or codes of one) that matched nothing


@dataclass(frozen=True)
class EngineInfo:
    name: str
    version: str


@dataclass(frozen=True)
class MigrationResult:
    source: str
    destination: str | None
    engine: EngineInfo
    hip_version: str
    files: tuple[FileResult, ...] = field(default_factory=tuple)

    @property
    def findings(self) -> Iterator[Finding]:
        """Every file's findings in turn."""
        return (f for r in self.files for f in r.findings)

    @property
    def changed(self) -> list[FileResult]:
        return [r for r in self.files if r.status is FileStatus.MIGRATED]

    @property
    def problems(self) -> list[Finding]:
        """Findings that make `run` exit 1: input problems and errors."""
        return [f for f in self.findings if f.kind is RuleKind.INPUT or f.severity is Severity.ERROR]


@dataclass(frozen=True)
class UnitResult:
    """One translation unit compiled for one AMD target."""

    path: str  # relative to the migrated tree
    target: str
    status: str  # "ok", "failed"
    seconds: float
    findings: tuple[Finding, ...] = ()
    command: tuple[str, ...] = ()
    cached: bool = False  # the compiler's output and status were read from the compile cache (its seconds too)


@dataclass(frozen=True)
class CommandResult:
    """The project's own build command (its migrated Makefile or CMake build, or --cmd)."""

    command: str
    status: str  # "ok", "failed", "timeout"
    seconds: float
    output_tail: str
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class BuildResult:
    root: str
    source: str | None  # the original tree the findings are mapped back to, when known
    targets: tuple[str, ...]
    hipcc: str
    hip_version: str
    units: tuple[UnitResult, ...] = ()
    skipped: tuple[str, ...] = ()  # sources that are not HIP (plain host C/C++)
    project: CommandResult | None = None
    hipcc_origin: str = ""  # where that hipcc came from (migrate.toolchain.provenance): it is what `build` runs
    compile_cache: str | None = None  # the folder of the compile cache used (HIPMIGRATE_COMPILE_CACHE), if any

    @property
    def failed(self) -> bool:
        return any(u.status != "ok" for u in self.units) or (self.project is not None and self.project.status != "ok")

    @property
    def findings(self) -> list[Finding]:
        out = [f for u in self.units for f in u.findings]
        return out + list(self.project.findings if self.project else ())
