"""The library API: what the CLI and the tests call. Each function chains the stages."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from migrate import __version__, config
from migrate.codes import code_table
from migrate.cpp import hipify_perl, project_names
from migrate.files import atomic_write
from migrate.model import BuildResult, EngineInfo, MigrationResult
from migrate.options import Options
from migrate.packs import default_packs
from migrate.report import assemble
from migrate.report import state as report_state
from migrate.report.model import Migration
from migrate.interrupt import noting
from migrate.stages import in_place as in_place_stage
from migrate.stages import rewrite, scan, verify, write
from migrate.errors import UsageError, output_error
from migrate.stages.scan import Inventory
from migrate import targets as amd_targets
from migrate import toolchain
from migrate.toolchain import installed_hip_version

ENGINES = ("builtin", "hipify-perl", "auto")


def target_version(options: Options) -> str:
    """--hip-version, else the newest installed HIP toolchain's version, else the newest any pack knows."""
    if options.hip_version:
        return scan.given_hip_version(options.hip_version)
    return installed_hip_version() or default_packs().newest


def with_targets(options: Options, target: str) -> Options:
    """--offload-arch values checked, or the default targets of the HIP version migrated for (gfx942 from 6.0 on)."""
    if options.offload_arch:
        return replace(options, offload_arch=amd_targets.check(options.offload_arch))
    return replace(options, offload_arch=amd_targets.defaults_for(target))


def engine_info(options: Options) -> EngineInfo:
    name = options.engine
    if name not in ENGINES:
        raise UsageError(f"--engine {name!r}: choose one of {', '.join(ENGINES)}")
    tool = hipify_perl.find() if name != "builtin" else None
    if name == "auto":
        name = "hipify-perl" if tool else "builtin"
    if name == "builtin":
        return EngineInfo("builtin", __version__)
    if tool is None:
        raise UsageError(hipify_perl.not_found())
    return EngineInfo("hipify-perl", hipify_perl.version(tool))


def analyse(source: Path, options: Options,
            progress_factory: Callable | None = None) -> tuple[Inventory, MigrationResult]:
    """Scan and rewrite in memory: what `scan` and `diff` show, and what `run` writes."""
    engine_info(options)  # a wrong --engine or --hip-version is said before the tree is walked
    target = target_version(options)
    inventory = scan.collect(source, options)
    options = replace(options, project_names=inventory.project_names,
                      needed_libraries=project_names.needed_libraries(f.path for f in inventory.cpp))
    return inventory, analyse_files(inventory, options, progress_factory, target)


def analyse_files(inventory: Inventory, options: Options, progress_factory: Callable | None = None,
                  target: str | None = None) -> MigrationResult:
    """The files of `inventory` through the engine and the rules, in memory, for the HIP release `target` (default:
    `target_version(options)`), with the project's facts as `options` carries them (`analyse` finds them in the tree;
    `check` runs this on the files it has to look at)."""
    engine = engine_info(options)
    target = target or target_version(options)
    options = with_targets(options, target)
    progress = progress_factory(len(inventory.cpp) + len(inventory.by_rules)) if progress_factory else None
    return rewrite.rewrite(inventory, options, target, engine, progress)


@dataclass(frozen=True)
class Migrated:
    """What `run` did (the stages' facts) and its report model, built once: what the state keeps and the CLI prints.
    `written`: what it wrote, for an interrupt that comes after (while the CLI prints), None when nothing."""

    result: MigrationResult
    report: Migration
    written: str | None = None


def run(source: Path, out: Path | None, options: Options, *, in_place: bool = False, force: bool = False,
        progress_factory: Callable | None = None) -> MigrationResult:
    """Migrate `source` into `out` (a folder, or a file when `source` is one file) or, with `in_place`,
    into the clean git work tree itself. `out` of None with a single file writes nothing (stdout is the CLI's).
    `force` lets a single file's `out` replace an existing file."""
    return migrate(source, out, options, in_place=in_place, force=force, progress_factory=progress_factory).result


def migrate(source: Path, out: Path | None, options: Options, *, in_place: bool = False, force: bool = False,
            progress_factory: Callable | None = None) -> Migrated:
    """`run`, with the report model of the migration (the one DST/.hipmigrate/run.json keeps)."""
    if in_place:
        in_place_stage.check_clean_git(source)
        options = replace(options, in_place=True)
    elif out is not None and source.is_dir():
        write.check_destination(source, out)
    elif out is not None:
        write.check_file_destination(source, out, force)
    inventory, result = analyse(source, options, progress_factory)
    written = None
    if in_place:
        result = in_place_stage.write_in_place(inventory, result)
        count = len(result.changed)
        written = in_place_stage.complete(count) if count else None
    elif out is not None and inventory.single:
        write.write_file(result, source, out)
        written = f"{out} was written"
    result = replace(result, source=str(source.resolve()),
                     destination=str(source if in_place else out) if (in_place or out) else None)
    with noting(written):
        if out is not None and not in_place and not inventory.single:
            with write.staged_tree(inventory, result, out) as tree:
                model = assemble.migration(tree.result, options.unsafe_fixes, with_diffs=True)
                tree.extra = report_state.run_state(model)
            return Migrated(tree.result, model, f"{out} was written whole")
        return Migrated(result, assemble.migration(result, options.unsafe_fixes, with_diffs=False), written)


def migration_report(result: MigrationResult, options: Options, with_diffs: bool = False) -> Migration:
    """The report model of a migration that wrote nothing (scan, diff); `with_diffs`: with each changed file's
    unified diff."""
    return assemble.migration(result, options.unsafe_fixes, with_diffs)


def build(root: Path, targets: tuple[str, ...] = (), jobs: int = 1, command: str | None = None,
          project_build: bool = False, compile_units: bool = True, *, hip_version: str | None = None,
          hipcc: str | None = None, force: bool = False, make_vars: dict[str, str] | None = None) -> BuildResult:
    """Compile-check a migrated tree for AMD targets, and/or run its own build (`command`, or the detected
    Make/CMake build with `project_build`), with the toolchain of `hip_version` (default: the release `run`
    migrated the tree for, else the newest installed) or the given `hipcc` (default: `[tool.hipmigrate] hipcc`).
    `targets` () are the toolchain's defaults. A tree without `run`'s .hipmigrate/ state is refused unless `force`:
    its sources may still be CUDA. The result is also kept in ROOT/.hipmigrate/build.json."""
    root = Path(root)
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder; give the migrated tree (the --out of `hipmigrate run`)")
    tc = build_toolchain(root, hip_version, hipcc)
    if not (root / verify.STATE / report_state.RUN_FILE).is_file() and not force:
        raise UsageError(f"{root}: no {verify.STATE}/{report_state.RUN_FILE}, so `hipmigrate run` did not make this "
                         f"tree and its sources may still be CUDA; migrate it first (hipmigrate run SRC --out DST) "
                         "or pass --force to compile it as it is (build.json is then written into it)")
    if project_build and command is None:
        command = verify.detected_command(root, tc, make_vars)
        if command is None:
            raise UsageError(f"{root}: no Makefile or CMakeLists.txt to build; give the build command with --cmd")
    result = verify.verify(root, targets, jobs, command, compile_units, tc, make_vars)
    write_build_state(root, result)
    return result


def write_build_state(root: Path, result: BuildResult) -> None:
    """ROOT/.hipmigrate/build.json: the report model of the build."""
    state = root / report_state.STATE
    try:
        state.mkdir(exist_ok=True)
        atomic_write(state / report_state.BUILD_FILE,
                     report_state.encode(report_state.build_dict(assemble.build(result))))
    except OSError as exc:
        raise output_error(exc, state / report_state.BUILD_FILE, "the build ran, its record was not kept") from None


def kernels(root: Path, targets: tuple[str, ...] = (), jobs: int = 1, *, hip_version: str | None = None,
            hipcc: str | None = None, cuda_arch: str | None = None, min_ratio: float = 0.5,
            make_vars: dict[str, str] | None = None):
    """The per-kernel diff of a migrated tree against the CUDA tree `run` made it from (migrate.kernels.diff), with
    the toolchain `build` would use; kept in ROOT/.hipmigrate/kernels.json for the report."""
    from migrate.kernels import state as kernels_state
    from migrate.kernels.diff import kernel_diff

    root = Path(root)
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder; give the migrated tree (the --out of `hipmigrate run`)")
    tc = build_toolchain(root, hip_version, hipcc)
    targets = targets or tc.default_targets()
    verify.check_targets(tc, targets)
    diff = kernel_diff(root, targets, tc, cuda_arch=cuda_arch, jobs=jobs, min_ratio=min_ratio, make_vars=make_vars)
    kernels_state.save(diff, root / verify.STATE)
    return diff


def build_toolchain(root: Path, hip_version: str | None, hipcc: str | None) -> toolchain.Toolchain:
    """The toolchain `build` uses: --hipcc, else `[tool.hipmigrate] hipcc` of the tree's (or the current folder's)
    pyproject.toml; else the one of --hip-version, else of the release run.json records, else the newest."""
    origin = "--hipcc"
    if hipcc is None:
        project = config.load(root)
        if project.path is None:
            project = config.load(Path.cwd())
        if project.get("hipcc"):
            hipcc, origin = str(project.path_value("hipcc")), f"named by [tool.hipmigrate] hipcc in {project.path}"
    if hip_version:
        hip_version = scan.given_hip_version(hip_version)
    elif hipcc is None:
        hip_version = report_state.migrated_for(root)
    return toolchain.choose(hip_version, hipcc, origin)


def report(root: Path, bench: tuple[Path, Path] | None = None, threshold: float | None = None):
    """The report of the migrated tree `root` from its .hipmigrate/ folder; `bench` (BASE, CANDIDATE) results
    files of `hipmigrate bench` add their comparison."""
    from migrate.report.load import load
    from migrate.stages import bench as bench_stage

    extra = {} if threshold is None else {"threshold": threshold}
    comparison = bench_stage.compare(bench[0], bench[1], **extra) if bench else None
    return load(root, comparison)


def registry():
    from migrate.registry import default_registry

    return default_registry()


def packs():
    return default_packs()


def codes() -> dict:
    """Every code with its title and rule (migrate.codes.code_table): what renderers name codes by."""
    return code_table(registry(), packs())


def doctor(targets: tuple[str, ...] = (), probe=None, hipcc: str | None = None):
    """Check a machine for building migrated code for AMD `targets` (default: those of the default toolchain) and
    running it on an AMD GPU. `probe` holds the machine's facts (migrate.doctor.Probe); None gathers this machine's
    by running the real tools, with `hipcc` as the default toolchain when given."""
    from migrate.doctor import Probe, run as run_checks

    targets = amd_targets.check(targets)
    if probe is None:
        if not targets:
            chosen = toolchain.discover_all(hipcc)
            targets = chosen[0].default_targets() if chosen else amd_targets.defaults_for(None)
        probe = Probe.of_this_machine(targets, hipcc)
    elif not targets:
        targets = amd_targets.defaults_for(None)
    return run_checks(probe, targets)
