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
from migrate.buildfiles import flags, torch_ext
from migrate.verify import compile_cache, diagnostics
from migrate.verify.linemap import LineMap
from migrate.model import BuildResult, CommandResult, Finding, RuleKind, Severity, Span, UnitResult
from migrate.packs import default_packs, version_tuple
from migrate.errors import UsageError

UNIT_SUFFIXES = {".cu", ".hip", ".cpp", ".cc", ".cxx", ".c"}
HIP_CODE = re.compile(rb"hip/hip_runtime|__global__|__device__|\bhip[A-Z]\w*\s*\(|hipLaunchKernelGGL|<<<")
STATE = ".hipmigrate"
HOST = "host"  # the `target` of a unit compiled as host C++ only (a PyTorch extension's binding file)
# what to do about a library the link could not find, where this machine's toolchains explain it
LIBRARY_HINTS = {
    "rccl": "the HIP 6.4 toolchain of scripts/install-toolchain has RCCL's header but not its library (Debian sid's "
            "RCCL needs the old HIP runtime); its HIP 7.2 toolchain links RCCL 7.2: build with --hip-version 7.2, or "
            "link with ROCm's RCCL (/opt/rocm, --hipcc), or check the compile only",
}


def units(root: Path) -> tuple[list[Path], list[Path]]:
    """(HIP translation units, plain C/C++ units left to the project's build) under root. A symbolic link to a file
    outside the tree is not one of the project's units (`run` copied it as a link, INP009): it is not compiled."""
    hip, plain = [], []
    inside = root.resolve()
    for path in sorted(root.rglob("*")):
        if STATE in path.relative_to(root).parts or path.suffix not in UNIT_SUFFIXES or not path.is_file():
            continue
        if path.is_symlink() and not path.resolve().is_relative_to(inside):
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

    def __init__(self, root: Path, source: Path | None, newer: dict[str, str] | None = None,
                 headers: dict[str, str] | None = None):
        self.root, self.source, self.newer, self.headers = root, source, newer or {}, headers or {}
        self._maps: dict[str, LineMap | None] = {}

    def finding(self, d: diagnostics.Diagnostic, target: str) -> Finding:
        if d.path == diagnostics.LINK_PATH:
            return self._link_finding(d, target)
        path = Path(d.path)
        try:
            rel = (path if path.is_absolute() else (self.root / path)).resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            rel = d.path  # a system header: keep the compiler's path
        line = self._line(rel, d.line)
        severity = Severity.ERROR if d.level == "error" else Severity.WARNING
        message = f"{diagnostics.title(d.cause)} ({target}): {d.message}"
        if d.needs:
            message += f" (HIP {d.needs} and later have it: build with --hip-version {d.needs} or newer)"
        return Finding(d.code, RuleKind.BUILD, severity, message, Span(rel, 0, 0, line, d.column), matched=d.message)

    def _link_finding(self, d: diagnostics.Diagnostic, target: str) -> Finding:
        message = f"{diagnostics.title(d.cause)} ({target}): {d.message}"
        library = d.message.rsplit("-l", 1)[-1]
        hint = LIBRARY_HINTS.get(library)
        if hint:
            message += f": {hint}"
        return Finding(d.code, RuleKind.BUILD, Severity.ERROR, message, Span(d.path, 0, 0, 1, 1), matched=d.message)

    def _line(self, rel: str, line: int) -> int:
        if self.source is None:
            return line
        if rel not in self._maps:
            original, migrated = self.source / rel, self.root / rel
            self._maps[rel] = (LineMap(original.read_bytes(), migrated.read_bytes())
                               if original.is_file() and migrated.is_file() else None)
        m = self._maps[rel]
        return m.original(line) if m else line


def newer_hip_names(installed: str | None) -> dict[str, str]:
    """HIP names the packs know to appear after the installed HIP version, with the release that has them."""
    if installed is None:
        return {}
    key = version_tuple(installed)
    return {m.hip: m.since for m in default_packs().names.values() if m.newer_than(key)}


def newer_headers(installed: str | None) -> dict[str, str]:
    """HIP headers the packs know to appear after the installed HIP version, with the release that has them."""
    if installed is None:
        return {}
    key = version_tuple(installed)
    return {h.hip: h.since for h in default_packs().headers.values() if h.since and version_tuple(h.since) > key}


def compile_unit(tc: toolchain.Toolchain, root: Path, unit: Path, target: str, args: list[str], mapper: Mapper,
                 problem: str | None = None, memo: dict | None = None) -> UnitResult:
    """Compile `unit` for `target` to a temporary object, thrown away; with a compile cache
    (HIPMIGRATE_COMPILE_CACHE) the same compile made before is read from it instead, as if it had run."""
    rel = unit.relative_to(root).as_posix()
    store = compile_cache.folder()
    with tempfile.TemporaryDirectory(prefix="hipmigrate-build-") as tmp:
        arch = [] if target == HOST else [f"--offload-arch={target}"]
        obj = str(Path(tmp) / "unit.o")
        cmd = [tc.hipcc, "-x", "hip", *arch, *args, "-c", str(unit), "-o", obj]
        env = toolchain.build_env(tc, scratch=tmp)
        key = None if store is None else compile_cache.key(
            tc.hipcc, compile_cache.version(tc.hipcc, env), cmd[1:], target, unit, root, unit.parent, env,
            {obj: "<object>"}, memo)
        hit = None if key is None else compile_cache.load(store, key, root)
        if hit is None:
            output, code, seconds = _compile(tc, cmd, unit, env, Path(obj))
            if key is not None and seconds is not None:
                compile_cache.save(store, key, compile_cache.Outcome(output, code, seconds), root)
            seconds = seconds if seconds is not None else 900.0
        else:
            output, code, seconds = hit.output, hit.status, hit.seconds
    findings = tuple(mapper.finding(d, target) for d in diagnostics.parse(output, mapper.newer, mapper.headers))
    if code != 0 and problem:
        findings = (Finding("BLD909", RuleKind.BUILD, Severity.ERROR, f"{problem} ({target})", Span(rel, 0, 0, 1, 1),
                            matched=problem), *findings)
    if code != 0 and not findings:  # a failure without a diagnostic clang can parse: keep what it printed
        text = next((line.strip() for line in output.splitlines() if line.strip()), f"hipcc exited with status {code}")
        findings = (Finding("BLD906", RuleKind.BUILD, Severity.ERROR, f"{diagnostics.title('other')} ({target}): {text}",
                            Span(rel, 0, 0, 1, 1), matched=text),)
    return UnitResult(rel, target, "ok" if code == 0 else "failed", round(seconds, 3), findings, tuple(cmd),
                      hit is not None)


def _compile(tc: toolchain.Toolchain, cmd: list[str], unit: Path, env: dict[str, str],
             obj: Path) -> tuple[str, int, float | None]:
    """(all hipcc printed, its exit status, its seconds; None for a compile that timed out: not one to keep)."""
    started = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="surrogateescape", cwd=unit.parent, timeout=900, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"{unit}:1:1: error: compile timed out after 900 s", 1, None
    output, code = proc.stdout + proc.stderr, proc.returncode
    if code == 0 and not _written(obj):  # a compiler that does nothing has compiled nothing
        output, code = f"{tc.hipcc} exited 0 but wrote no object file (-o unit.o): is it a compiler?", 1
    return output, code, time.perf_counter() - started


def _written(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except OSError:
        return False


def run_command(tc: toolchain.Toolchain, command: str, root: Path, mapper: Mapper, timeout: int = 3600) -> CommandResult:
    started = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix="hipmigrate-build-") as scratch:
            proc = subprocess.run(tc.shell(command), shell=True, capture_output=True, text=True, errors="surrogateescape", cwd=root,
                                  timeout=timeout, env=toolchain.build_env(tc, scratch), stdin=subprocess.DEVNULL)
        output, status = proc.stdout + proc.stderr, "ok" if proc.returncode == 0 else "failed"
    except subprocess.TimeoutExpired as exc:
        output, status = (exc.stdout or "") if isinstance(exc.stdout, str) else "", "timeout"
    findings = tuple(mapper.finding(d, "project build") for d in diagnostics.parse(output, mapper.newer, mapper.headers))
    return CommandResult(command, status, round(time.perf_counter() - started, 3), output[-4000:], findings)


def check_targets(tc: toolchain.Toolchain, targets: tuple[str, ...]) -> None:
    """Every target known and compiled for by this toolchain (probed); a usage error names one that can."""
    from migrate import targets as amd

    amd.check(targets)
    for target in targets:
        if toolchain.accepts_target(tc.hipcc, target):
            continue
        others = [t for t in toolchain.discover_all() if t.hipcc != tc.hipcc and toolchain.accepts_target(t.hipcc, target)]
        hint = (f"; {others[0].label} can: pass --hip-version {others[0].short_version}" if others else
                f"; no installed toolchain can: install {amd.needs(target)} ({toolchain.INSTALL_HINT})")
        raise UsageError(f"--offload-arch {target}: {tc.label} ({tc.clang or 'clang unknown'}) cannot compile for it{hint}")


def unit_args(root: Path, source: Path | None, hip_units: list[Path], tc: toolchain.Toolchain,
              make_vars: dict[str, str] | None = None) -> tuple[dict[Path, list[str]], dict[Path, str], set[Path]]:
    """Per HIP unit (once, not per target): its hipcc arguments (include paths, defines, standard; a PyTorch
    extension's torch flags), what a failed compile of it means (a PyTorch unit without torch's headers), and the
    units that are host C++ only (a PyTorch binding file)."""
    base = flags.project_flags(root, make_vars)
    extra = [f"-I{d}" for d in tc.include_dirs()]
    database = flags.compile_database(root, source)
    args, problems, host = {}, {}, set()
    for u in hip_units:
        args[u] = flags.unit_flags(root, u, base, extra, database)
        data = u.read_bytes()
        if torch_ext.is_torch_unit(data):
            args[u] += torch_ext.flags(u, data)
            problems[u] = torch_ext.problem(data)
            if torch_ext.is_host_unit(data):
                host.add(u)
    return args, problems, host


def verify(root: Path, targets: tuple[str, ...], jobs: int = 1, command: str | None = None,
           compile_units: bool = True, tc: toolchain.Toolchain | None = None,
           make_vars: dict[str, str] | None = None) -> BuildResult:
    root = root.resolve() if root.is_dir() else root
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder; give the migrated tree (the --out of `hipmigrate run`)")
    tc = tc or toolchain.choose()
    targets = targets or tc.default_targets()
    check_targets(tc, targets)
    source = source_root(root)
    mapper = Mapper(root, source, newer_hip_names(tc.short_version), newer_headers(tc.short_version))
    hip_units, plain = units(root) if compile_units else ([], [])
    results: list[UnitResult] = []
    if hip_units:
        args, problems, host = unit_args(root, source, hip_units, tc, make_vars)
        # a PyTorch binding file is host C++: compiled once, not once per AMD target
        work = [(u, t) for u in hip_units for t in ((HOST,) if u in host else targets)]
        memo: dict = {}  # the environment's headers, read once for every unit's cache key
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = list(pool.map(lambda ut: compile_unit(tc, root, ut[0], ut[1], args[ut[0]], mapper,
                                                            problems.get(ut[0]), memo), work))
    project = run_command(tc, command, root, mapper) if command else None
    return BuildResult(str(root), str(source) if source else None, targets, tc.hipcc, tc.hip_version or "unknown",
                       tuple(results), tuple(p.relative_to(root).as_posix() for p in plain), project,
                       toolchain.provenance(tc.origin), _cache_folder(hip_units))


def _cache_folder(hip_units: list[Path]) -> str | None:
    store = compile_cache.folder()
    return str(store) if store is not None and hip_units else None


def detected_command(root: Path, tc: toolchain.Toolchain, make_vars: dict[str, str] | None = None) -> str | None:
    """The project's own build, migrated: make where there is a Makefile (with the --make-var values), CMake where
    there is a CMakeLists.txt."""
    root = root.resolve()
    if any((root / n).is_file() for n in ("Makefile", "makefile", "GNUmakefile")):
        return " ".join(["make -k", *(shlex.quote(f"{k}={v}") for k, v in (make_vars or {}).items())])
    if (root / "CMakeLists.txt").is_file():
        state = root / STATE
        build = state / f"cmake-build-{tc.short_version or 'hip'}"
        env, args = toolchain.cmake_hip_args(tc, state)
        prefix = "".join(f"{k}={shlex.quote(v)} " for k, v in env.items())
        args_text = " ".join(shlex.quote(a) for a in args)
        return f"{prefix}cmake -S . -B {shlex.quote(str(build))} {args_text} && cmake --build {shlex.quote(str(build))}"
    return None
