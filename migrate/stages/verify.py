"""Stage 3, verify: compile every migrated HIP translation unit with hipcc for each AMD target, in
parallel, and turn the compiler's diagnostics into findings at the original file and line; or run the
project's own migrated build. Include paths and defines come from compile_commands.json when there is
one, else from the migrated build files."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from migrate import toolchain
from migrate.build import diagnostics, flags
from migrate.build.linemap import LineMap
from migrate.model import BuildResult, CommandResult, Finding, RuleKind, Severity, Span, UnitResult
from migrate.packs import default_packs, version_tuple
from migrate.stages.scan import UsageError

UNIT_SUFFIXES = {".cu", ".hip", ".cpp", ".cc", ".cxx", ".c"}
HIP_CODE = re.compile(rb"hip/hip_runtime|__global__|__device__|\bhip[A-Z]\w*\s*\(|hipLaunchKernelGGL|<<<")
STATE = ".hipmigrate"


def units(root: Path) -> tuple[list[Path], list[Path]]:
    """(HIP translation units, plain C/C++ units left to the project's build) under root."""
    hip, plain = [], []
    for path in sorted(root.rglob("*")):
        if STATE in path.relative_to(root).parts or path.suffix not in UNIT_SUFFIXES or not path.is_file():
            continue
        (hip if HIP_CODE.search(path.read_bytes()) else plain).append(path)
    return hip, plain


def source_root(root: Path) -> Path | None:
    """The original tree `run` migrated from, recorded in .hipmigrate/run.json."""
    state = root / STATE / "run.json"
    try:
        source = Path(json.loads(state.read_text())["source"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return source if source.is_dir() else None


class Mapper:
    """Diagnostics on migrated files, mapped to the original files' lines."""

    def __init__(self, root: Path, source: Path | None, newer: frozenset[str] = frozenset()):
        self.root, self.source, self.newer = root, source, newer
        self._maps: dict[str, LineMap | None] = {}

    def finding(self, d: diagnostics.Diagnostic, target: str) -> Finding:
        path = Path(d.path)
        try:
            rel = (path if path.is_absolute() else (self.root / path)).resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            rel = d.path  # a system header: keep the compiler's path
        line = self._line(rel, d.line)
        severity = Severity.ERROR if d.level == "error" else Severity.WARNING
        message = f"{diagnostics.title(d.cause)} ({target}): {d.message}"
        return Finding(d.code, RuleKind.BUILD, severity, message, Span(rel, 0, 0, line, d.column), matched=d.message)

    def _line(self, rel: str, line: int) -> int:
        if self.source is None:
            return line
        if rel not in self._maps:
            original, migrated = self.source / rel, self.root / rel
            self._maps[rel] = (LineMap(original.read_bytes(), migrated.read_bytes())
                               if original.is_file() and migrated.is_file() else None)
        m = self._maps[rel]
        return m.original(line) if m else line


def newer_hip_names(installed: str | None) -> frozenset[str]:
    """HIP names the packs know to appear after the installed HIP version."""
    if installed is None:
        return frozenset()
    packs = default_packs()
    return frozenset(m.hip for m in packs.names.values() if m.newer_than(version_tuple(installed)))


def compile_unit(hipcc: str, root: Path, unit: Path, target: str, args: list[str], mapper: Mapper) -> UnitResult:
    rel = unit.relative_to(root).as_posix()
    with tempfile.TemporaryDirectory(prefix="hipmigrate-build-") as tmp:
        cmd = [hipcc, "-x", "hip", f"--offload-arch={target}", *args, "-c", str(unit), "-o", str(Path(tmp) / "unit.o")]
        started = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=unit.parent, timeout=900,
                                  env=toolchain.amd_env(scratch=tmp))
            output, code = proc.stdout + proc.stderr, proc.returncode
        except subprocess.TimeoutExpired:
            output, code = f"{rel}:1:1: error: compile timed out after 900 s", 1
        seconds = time.perf_counter() - started
    findings = tuple(mapper.finding(d, target) for d in diagnostics.parse(output, mapper.newer))
    return UnitResult(rel, target, "ok" if code == 0 else "failed", round(seconds, 3), findings, tuple(cmd))


def run_command(command: str, root: Path, mapper: Mapper, timeout: int = 3600) -> CommandResult:
    started = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix="hipmigrate-build-") as scratch:
            proc = subprocess.run(command, shell=True, capture_output=True, text=True, cwd=root, timeout=timeout,
                                  env=toolchain.build_env(scratch))
        output, status = proc.stdout + proc.stderr, "ok" if proc.returncode == 0 else "failed"
    except subprocess.TimeoutExpired as exc:
        output, status = (exc.stdout or "") if isinstance(exc.stdout, str) else "", "timeout"
    findings = tuple(mapper.finding(d, "project build") for d in diagnostics.parse(output, mapper.newer))
    return CommandResult(command, status, round(time.perf_counter() - started, 3), output[-4000:], findings)


def verify(root: Path, targets: tuple[str, ...], jobs: int = 1, command: str | None = None,
           compile_units: bool = True) -> BuildResult:
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder; give the migrated tree (the --out of `hipmigrate run`)")
    tc = toolchain.discover()
    if tc.hipcc is None:
        raise UsageError(f"hipcc not found: {toolchain.INSTALL_HINT}")
    for target in targets:
        if not toolchain.accepts_target(target):
            raise UsageError(f"--offload-arch {target}: this hipcc ({tc.hip_version}, {tc.clang}) cannot compile for "
                             "it; gfx90a and gfx940 work with Debian's hipcc")
    source = source_root(root)
    mapper = Mapper(root, source, newer_hip_names(tc.short_version))
    hip_units, plain = units(root) if compile_units else ([], [])
    results: list[UnitResult] = []
    if hip_units:
        base = flags.project_flags(root)
        extra = [f"-I{d}" for d in tc.include_dirs()]
        database = flags.compile_database(root, source)
        args = {u: flags.unit_flags(root, u, base, extra, database) for u in hip_units}  # once per unit, not target
        work = [(u, t) for u in hip_units for t in targets]
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = list(pool.map(lambda ut: compile_unit(tc.hipcc, root, ut[0], ut[1], args[ut[0]], mapper), work))
    project = run_command(command, root, mapper) if command else None
    return BuildResult(str(root), str(source) if source else None, targets, tc.hipcc, tc.hip_version or "unknown",
                       tuple(results), tuple(p.relative_to(root).as_posix() for p in plain), project)


def detected_command(root: Path) -> str | None:
    """The project's own build, migrated: make where there is a Makefile, CMake where there is a CMakeLists.txt."""
    if any((root / n).is_file() for n in ("Makefile", "makefile", "GNUmakefile")):
        return "make -k"
    if (root / "CMakeLists.txt").is_file():
        state = root / STATE
        build = state / "cmake-build"
        env, args = toolchain.cmake_hip_args(state)
        prefix = "".join(f"{k}={shlex.quote(v)} " for k, v in env.items())
        args_text = " ".join(shlex.quote(a) for a in args)
        return f"{prefix}cmake -S . -B {shlex.quote(str(build))} {args_text} && cmake --build {shlex.quote(str(build))}"
    return None
