"""The library API: what the CLI and the tests call. Each function chains the stages."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

from migrate import __version__
from migrate.cpp import hipify_perl
from migrate.files import atomic_write
from migrate.model import BuildResult, EngineInfo, MigrationResult
from migrate.render import build as build_render
from migrate.options import Options
from migrate.packs import default_packs
from migrate.report import state as report_state
from migrate.stages import rewrite, scan, verify, write
from migrate.stages.scan import Inventory, UsageError
from migrate.toolchain import installed_hip_version

ENGINES = ("builtin", "hipify-perl", "auto")


def target_version(options: Options) -> str:
    """--hip-version, else the installed hipcc's HIP version, else the newest any pack knows."""
    if options.hip_version:
        return scan.given_hip_version(options.hip_version)
    return installed_hip_version() or default_packs().newest


def engine_info(options: Options) -> EngineInfo:
    name = options.engine
    if name not in ENGINES:
        raise UsageError(f"--engine {name!r}: choose one of {', '.join(ENGINES)}")
    if name == "auto":
        name = "hipify-perl" if hipify_perl.find() else "builtin"
    if name == "builtin":
        return EngineInfo("builtin", __version__)
    tool = hipify_perl.find()
    if tool is None:
        raise UsageError("hipify-perl not found (looked at $HIPIFY_PERL, PATH, /opt/rocm/bin and "
                         f"{hipify_perl.TOOLCHAIN}/bin): install it with scripts/install-toolchain, or use --engine builtin")
    return EngineInfo("hipify-perl", hipify_perl.version(tool))


def analyse(source: Path, options: Options, progress_factory: Callable | None = None) -> tuple[Inventory, MigrationResult]:
    """Scan and rewrite in memory: what `scan` and `diff` show, and what `run` writes."""
    engine = engine_info(options)
    target = target_version(options)
    inventory = scan.collect(source, options)
    options = replace(options, project_names=inventory.project_names)
    progress = progress_factory(len(inventory.cpp) + len(inventory.by_rules)) if progress_factory else None
    result = rewrite.rewrite(inventory, options, target, engine, progress)
    return inventory, result


def run(source: Path, out: Path | None, options: Options, *, in_place: bool = False,
        progress_factory: Callable | None = None) -> MigrationResult:
    """Migrate `source` into `out` (a folder, or a file when `source` is one file) or, with `in_place`,
    into the clean git work tree itself. `out` of None with a single file writes nothing (stdout is the CLI's)."""
    if in_place:
        write.check_clean_git(source)
    elif out is not None and source.is_dir():
        write.check_destination(source, out)
    inventory, result = analyse(source, options, progress_factory)
    if in_place:
        write.write_in_place(inventory, result)
    elif out is not None and inventory.single:
        write.write_file(result, out)
    result = replace(result, source=str(source.resolve()),
                     destination=str(source if in_place else out) if (in_place or out) else None)
    if out is not None and not in_place and not inventory.single:
        write.write_tree(inventory, result, out, extra=report_state.run_state(result, options.unsafe_fixes))
    return result


def build(root: Path, targets: tuple[str, ...], jobs: int = 1, command: str | None = None,
          project_build: bool = False, compile_units: bool = True) -> BuildResult:
    """Compile-check a migrated tree for AMD targets, and/or run its own build (`command`, or the detected
    Make/CMake build with `project_build`). The result is also kept in ROOT/.hipmigrate/build.json."""
    if project_build and command is None:
        command = verify.detected_command(root)
        if command is None:
            raise UsageError(f"{root}: no Makefile or CMakeLists.txt to build; give the build command with --cmd")
    result = verify.verify(root, targets, jobs, command, compile_units)
    state = root / verify.STATE
    state.mkdir(exist_ok=True)
    atomic_write(state / "build.json", build_render.render_json(result).encode())
    return result


def report(root: Path, bench: tuple[Path, Path] | None = None, threshold: float | None = None):
    """The report of the migrated tree `root` from its .hipmigrate/ folder; `bench` (BASE, CANDIDATE) results
    files of `hipmigrate bench` add their comparison."""
    from migrate.stages import bench as bench_stage
    from migrate.stages import report as report_stage

    extra = {} if threshold is None else {"threshold": threshold}
    comparison = bench_stage.compare(bench[0], bench[1], **extra) if bench else None
    return report_stage.report(root, comparison)


def registry():
    from migrate.registry import default_registry

    return default_registry()


def packs():
    return default_packs()


def doctor(targets: tuple[str, ...], probe=None):
    """Check a machine for building migrated code for AMD `targets` and running it on an AMD GPU. `probe` holds the
    machine's facts (migrate.doctor.Probe); None gathers this machine's by running the real tools."""
    import re

    from migrate.doctor import Probe, run as run_checks

    bad = [t for t in targets if not re.fullmatch(r"gfx[0-9a-z-]+(:[a-z]+[+-])*", t)]
    if bad:
        raise UsageError(f"--offload-arch {bad[0]!r}: give an AMD target such as gfx90a or gfx942")
    return run_checks(probe if probe is not None else Probe.of_this_machine(targets), targets)
