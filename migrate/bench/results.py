"""The results file of `hipmigrate bench`: one JSON document, versioned (FORMAT, VERSION), documented in
docs/bench.md. `compare` and the report read it back with `load`, which checks what it relies on.

Version 2 adds to each benchmark the runs made under a profiler (`profile`, with `bench --kernels`) and the
`kernels` they measured; a version-1 file loads as one without them."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from migrate.bench.config import BenchError
from migrate.bench.kernels import Kernel
from migrate.bench.runner import Run, Status

FORMAT = "hipmigrate-bench"
VERSION = 2
READS = (1, 2)  # the versions load() reads


@dataclass(frozen=True)
class BuildRecord:
    """The `build` command of one project, run before its benchmarks."""
    project: str
    command: str | list[str]
    status: str  # ok, failed, timeout, error
    exit_code: int | None
    seconds: float
    output_tail: str

    def as_dict(self) -> dict:
        return {"project": self.project, "command": self.command, "status": self.status,
                "exit_code": self.exit_code, "seconds": round(self.seconds, 6), "output_tail": self.output_tail}


@dataclass(frozen=True)
class ProfileRecord:
    """The runs of one benchmark made under a profiler (`bench --kernels`)."""
    tool: str  # "ncu" or "rocprofv3"
    path: str
    version: str | None
    argv: list[str]  # what each run started; the run's own output path reads "<profile>"
    runs: tuple[Run, ...]

    @property
    def runs_ok(self) -> int:
        return sum(1 for r in self.runs if r.status == Status.OK)

    def as_dict(self) -> dict:
        return {"tool": self.tool, "path": self.path, "version": self.version, "argv": self.argv,
                "runs": [r.as_dict() for r in self.runs]}


@dataclass(frozen=True)
class BenchmarkResult:
    name: str
    project: str
    command: str | list[str]
    argv: list[str]  # what was started, launcher included
    cwd: str
    repetitions: int
    warmups: int
    timeout: float
    figure: dict  # Figure.as_dict()
    expect: str | None
    runs: tuple[Run, ...]
    skipped: str | None = None  # why no run was made (the project's build failed)
    profile: ProfileRecord | None = None  # with --kernels
    kernels: tuple[Kernel, ...] = ()  # what the profiled runs that succeeded measured

    def kernel(self, key: str) -> Kernel | None:
        return next((k for k in self.kernels if k.key == key), None)

    @property
    def values(self) -> list[float]:
        """The figures of the measured runs that succeeded (warm-ups left out)."""
        return [r.value for r in self.runs if not r.warmup and r.status == Status.OK and r.value is not None]

    @property
    def status(self) -> str:
        """ok: every run succeeded; partial: some did; failed: no measured run did; skipped: none was made."""
        if self.skipped is not None:
            return "skipped"
        bad = [r for r in self.runs + (self.profile.runs if self.profile else ()) if r.status != Status.OK]
        if not bad:
            return "ok"
        return "partial" if self.values else "failed"

    def as_dict(self) -> dict:
        return {"name": self.name, "project": self.project, "command": self.command, "argv": self.argv,
                "cwd": self.cwd, "repetitions": self.repetitions, "warmups": self.warmups, "timeout": self.timeout,
                "figure": self.figure, "expect": self.expect, "status": self.status, "skipped": self.skipped,
                "values": self.values, "runs": [r.as_dict() for r in self.runs],
                "profile": None if self.profile is None else self.profile.as_dict(),
                "kernels": [k.as_dict() for k in self.kernels]}


@dataclass(frozen=True)
class Results:
    created: str  # UTC, ISO 8601
    hipmigrate: str
    launcher: str | None
    fingerprint: dict  # Fingerprint.as_dict()
    builds: tuple[BuildRecord, ...]
    benchmarks: tuple[BenchmarkResult, ...]

    @property
    def failed(self) -> bool:
        return any(b.status != "ok" for b in self.benchmarks) or any(b.status != "ok" for b in self.builds)

    def as_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "created": self.created, "hipmigrate": self.hipmigrate,
                "launcher": self.launcher, "fingerprint": self.fingerprint,
                "builds": [b.as_dict() for b in self.builds], "benchmarks": [b.as_dict() for b in self.benchmarks]}

    def dumps(self) -> str:
        return json.dumps(self.as_dict(), indent=2) + "\n"

    def benchmark(self, name: str) -> BenchmarkResult | None:
        return next((b for b in self.benchmarks if b.name == name), None)


def load(path: Path) -> Results:
    """Read a results file; BenchError when it is missing, not JSON, of another format or a newer version."""
    try:
        doc = json.loads(path.read_text())
    except OSError as exc:
        raise BenchError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise BenchError(f"{path}: not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BenchError(f"{path}: not a results file of `hipmigrate bench` (no \"format\": \"{FORMAT}\")")
    if doc.get("version") not in READS:
        raise BenchError(f"{path}: results format version {doc.get('version')!r}; this hipmigrate reads versions "
                         f"{' and '.join(map(str, READS))}")
    try:
        return Results(
            created=doc["created"], hipmigrate=doc["hipmigrate"], launcher=doc.get("launcher"),
            fingerprint=dict(doc["fingerprint"]),
            builds=tuple(BuildRecord(b["project"], b["command"], b["status"], b["exit_code"], b["seconds"],
                                     b["output_tail"]) for b in doc["builds"]),
            benchmarks=tuple(BenchmarkResult(
                name=b["name"], project=b["project"], command=b["command"], argv=list(b["argv"]), cwd=b["cwd"],
                repetitions=b["repetitions"], warmups=b["warmups"], timeout=b["timeout"], figure=dict(b["figure"]),
                expect=b.get("expect"), skipped=b.get("skipped"), runs=_runs(b["runs"]),
                profile=_profile(b.get("profile")), kernels=tuple(Kernel.from_dict(k) for k in b.get("kernels", ())))
                for b in doc["benchmarks"]))
    except (KeyError, TypeError) as exc:
        raise BenchError(f"{path}: a results file missing the field {exc}") from None


def _runs(runs: list[dict]) -> tuple[Run, ...]:
    return tuple(Run(r["index"], r["warmup"], r["status"], r["exit_code"], r["seconds"], r["value"], r["message"],
                     r["output_tail"]) for r in runs)


def _profile(p: dict | None) -> ProfileRecord | None:
    return None if p is None else ProfileRecord(p["tool"], p["path"], p.get("version"), list(p["argv"]),
                                                _runs(p["runs"]))


def save(results: Results, path: Path) -> None:
    """Write the file whole or not at all: a temporary file beside `path`, renamed over it."""
    from migrate.files import atomic_write

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, results.dumps().encode())
