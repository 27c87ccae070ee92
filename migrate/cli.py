"""The `hipmigrate` command: parses options, calls migrate.api, picks a renderer. Nothing else.

Exit status: 0 done, 1 done but some input needs attention (a file skipped, unparsable or not UTF-8),
2 usage or internal error (an internal error in one file: the rest is still migrated and written),
3 the output could not be written (migrate.errors.OutputError), 130 or 143 interrupted by SIGINT or SIGTERM (migrate/interrupt.py).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from migrate.render.console import new_console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from migrate import __version__, api, errors, formats
from migrate.commands import guard
from migrate.commands.shared import jobs_option, suppressions_option
from migrate.commands.output import emit, output_format, printing, put
from migrate.options import MAX_FILE_SIZE, Options, default_jobs
from migrate.render import build as build_render
from migrate.render import diff as diff_render
from migrate.stages import write
from migrate.errors import UsageError
from migrate.interrupt import noting

err = new_console(stderr=True)


def common(f):
    options = [
        click.option("--engine", type=click.Choice(api.ENGINES), default="builtin", show_default=True,
                     help="Translation engine: the built-in one, AMD's hipify-perl, or hipify-perl when found."),
        click.option("--hip-version", default="", metavar="X.Y",
                     help="HIP version to migrate for (default: the newest installed HIP toolchain's, else the newest "
                          "the mapping packs know)."),
        click.option("--launch-syntax", type=click.Choice(["chevron", "ggl"]), default="chevron", show_default=True,
                     help="Keep <<<...>>> launches, or rewrite them to hipLaunchKernelGGL."),
        click.option("--translate-comments", is_flag=True, help="Also rename CUDA identifiers inside comments."),
        click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes graded unsafe."),
        click.option("--portable", is_flag=True,
                     help="Python: rewrite to device-agnostic torch APIs (torch.Stream, torch.Event, torch.accelerator)."),
        click.option("--exclude", multiple=True, metavar="PATTERN", help="gitignore-style pattern to leave out (repeatable)."),
        jobs_option("Worker processes"),
        click.option("--max-file-size", type=click.IntRange(1), default=MAX_FILE_SIZE, show_default=True,
                     help="Bytes up to which a file is fully analysed; a C++ file above it is renamed only (INP011), "
                          "any other file copied unchanged (INP005)."),
        click.option("--over-size", type=click.Choice(["rename", "copy"]), default="rename", show_default=True,
                     help="A C++ file over --max-file-size: rename its CUDA names and headers only, or copy it "
                          "unchanged (INP005)."),
        output_format("migration"),
        click.option("--no-progress", is_flag=True, help="No progress bar."),
        suppressions_option,
        click.option("--statistics", is_flag=True,
                     help="After the blockers, the number of findings per code instead of each finding."),
        click.option("--offload-arch", "offload_arch", multiple=True, metavar="GFX",
                     help="AMD target written into build files (repeatable; default gfx942 for HIP 6 and later, "
                          "gfx90a and gfx940 for HIP 5)."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def make_options(kw: dict) -> Options:
    extra = {"offload_arch": tuple(kw["offload_arch"])} if kw.get("offload_arch") else {}
    return Options(hip_version=kw["hip_version"], engine=kw["engine"], launch_syntax=kw["launch_syntax"],
                   translate_comments=kw["translate_comments"], unsafe_fixes=kw["unsafe_fixes"], portable=kw["portable"],
                   exclude=tuple(kw["exclude"]), jobs=kw["jobs"] or default_jobs(), max_file_size=kw["max_file_size"],
                   over_size=kw["over_size"], suppressions=not kw["no_suppressions"], **extra)


def progress_factory(kw: dict):
    if kw["no_progress"] or not err.is_terminal:
        return None

    def factory(total: int):
        if total < 20:
            return None
        bar = Progress(TextColumn("migrating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       console=err, transient=True)
        bar.start()
        task = bar.add_task("files", total=total)

        def advance(n: int) -> None:
            bar.advance(task, n)
            if bar.finished:
                bar.stop()

        return advance

    return factory


def finish(result, model, command: str, fmt: str, to_stderr: bool = False, statistics: bool = False) -> None:
    """Print the report model (on stderr when stdout carries the migrated source) and exit with the status."""
    emit("migration", fmt, model, command=command, statistics=statistics, to_stderr=to_stderr)
    sys.exit(exit_status(result))


def exit_status(result) -> int:
    """2 when a file met an internal error (INP008), 1 when some input needs attention, else 0."""
    return errors.exit_status(result.findings, bool(result.problems))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hipmigrate")
def main() -> None:
    """hipmigrate: migrate CUDA projects to HIP/ROCm."""


def offload_arch_option(f):
    return click.option("--offload-arch", "offload_arch", multiple=True, metavar="GFX",
                        help="AMD target to compile for (repeatable; default: the toolchain's, gfx942 for HIP 6 and "
                             "later, gfx90a and gfx940 for HIP 5).")(f)


def hipcc_option(f):
    return click.option("--hipcc", default=None, metavar="PATH",
                        help="The hipcc to use (default: [tool.hipmigrate] hipcc, else the toolchain of --hip-version).")(f)


def say_target(kw: dict) -> None:
    """On a terminal's stderr: which HIP release a migration is for when --hip-version was not given, and why."""
    if kw.get("hip_version") or kw.get("output_format") != "text":
        return
    from migrate import toolchain

    tc = toolchain.discover()
    if tc is not None and tc.short_version:
        err.print(f"hipmigrate: migrating for HIP {tc.short_version}, the newest installed toolchain ({tc.hipcc}); "
                  "--hip-version X.Y picks another", markup=False, highlight=False)
    else:
        err.print(f"hipmigrate: no HIP toolchain installed; migrating for HIP {api.packs().newest}, the newest the "
                  "mapping packs know; --hip-version X.Y picks another", markup=False, highlight=False)


def make_vars(values: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for value in values:
        name, eq, text = value.partition("=")
        if not eq or not name.strip() or any(c.isspace() for c in name.strip()):
            raise UsageError(f"--make-var {value!r}: give NAME=VALUE, for example --make-var PRECISION=FP32")
        out[name.strip()] = text
    return out


@main.command()
@click.argument("src", type=click.Path(path_type=Path))
@click.option("--out", "-o", "out", type=str, default=None,
              help="Output folder (or file, or - for stdout, when SRC is one file).")
@click.option("--in-place", is_flag=True, help="Migrate the clean git work tree SRC itself (run it again to resume "
                                                "after an interrupt).")
@click.option("--force", is_flag=True, help="Let --out replace an existing file (SRC one file).")
@click.option("--build", "then_build", is_flag=True, help="Then compile-check the output for the AMD targets.")
@common
@guard.guarded
def run(src: Path, out: str | None, in_place: bool, force: bool, then_build: bool, **kw) -> None:
    """Migrate SRC (a folder or one file) into --out, or in place."""
    options = make_options(kw)
    if then_build and (out is None or out == "-" or src.is_file()):
        raise UsageError("--build needs a folder migrated into --out DST")
    if in_place == (out is not None):
        raise UsageError("give exactly one of --out DST and --in-place")
    if out == "-":
        if src.is_dir():
            raise UsageError("--out - (standard output) needs SRC to be one file")
        if src.exists() and not src.is_file():
            raise UsageError(f"{src}: not a regular file (a device, FIFO or socket); give a source file")
        done = api.migrate(src, None, options)
        with printing():
            sys.stdout.flush()
            write.write_stream(done.result, src, sys.stdout.buffer)
        finish(done.result, done.report, "run", kw["output_format"], to_stderr=True, statistics=kw["statistics"])
    say_target(kw)
    done = api.migrate(src, Path(out) if out else None, options, in_place=in_place, force=force,
                       progress_factory=progress_factory(kw))
    result = done.result
    if not then_build:
        with noting(done.written):
            finish(result, done.report, "run", kw["output_format"], statistics=kw["statistics"])
    built = api.build(Path(out), options.offload_arch, options.jobs, hip_version=result.hip_version)
    if kw["output_format"] == "json":
        put(json.dumps({"run": json.loads(formats.render("json", "migration", done.report, formats.Context("run"))),
                        "build": build_render.as_dict(built)}, indent=2) + "\n")
    else:
        emit("migration", "text", done.report, command="run")
        emit("build", "text", built)
    sys.exit(exit_status(result) or (1 if built.failed else 0))


@main.command()
@click.argument("dst", type=click.Path(path_type=Path))
@offload_arch_option
@click.option("--hip-version", default=None, metavar="X.Y",
              help="Build with the installed toolchain of this HIP release (default: the release `run` migrated DST "
                   "for, else the newest installed).")
@hipcc_option
@jobs_option("Parallel compiles")
@click.option("--cmd", "command", default=None, help="Also run this build command in DST (with HIP_PLATFORM=amd).")
@click.option("--project-build", is_flag=True, help="Also run DST's own migrated Makefile or CMake build.")
@click.option("--no-compile-check", is_flag=True, help="Skip the per-unit compile checks (only the project build).")
@click.option("--make-var", "make_var", multiple=True, metavar="NAME=VALUE",
              help="Set a make variable, as `make NAME=VALUE` does: chooses the Makefile's branches for the compile "
                   "checks and is passed to the project build (repeatable).")
@click.option("--force", is_flag=True, help="Build a tree that `hipmigrate run` did not make (it writes "
                                            "DST/.hipmigrate/build.json).")
@click.option("--kernels", is_flag=True,
              help="Instead, compare each kernel's registers, shared memory (LDS), spills and occupancy: the CUDA "
                   "original compiled with nvcc against DST compiled with hipcc for each target (kept for `report`).")
@click.option("--cuda-arch", default=None, metavar="sm_XX",
              help="With --kernels: the NVIDIA architecture (default: the newest the project's build files name, "
                   "else sm_90).")
@click.option("--min-occupancy-ratio", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="With --kernels: AMD occupancy below this fraction of CUDA's is a finding (PRF003).")
@output_format("build")
@guard.guarded
def build(dst: Path, offload_arch: tuple[str, ...], hip_version: str | None, hipcc: str | None, jobs: int,
          command: str | None, project_build: bool, no_compile_check: bool, make_var: tuple[str, ...], force: bool,
          kernels: bool, cuda_arch: str | None, min_occupancy_ratio: float, output_format: str) -> None:
    """Compile-check every migrated HIP unit of DST with hipcc for AMD targets."""
    jobs = jobs or default_jobs()
    if kernels:
        diff = api.kernels(dst, tuple(offload_arch), jobs, hip_version=hip_version, hipcc=hipcc, cuda_arch=cuda_arch,
                           min_ratio=min_occupancy_ratio, make_vars=make_vars(make_var))
        emit("kernels", output_format, diff)
        sys.exit(1 if diff.problems or any(f.severity.label == "error" for f in diff.findings) else 0)
    result = api.build(dst, tuple(offload_arch), jobs, command, project_build, compile_units=not no_compile_check,
                       hip_version=hip_version, hipcc=hipcc, force=force, make_vars=make_vars(make_var))
    emit("build", output_format, result)
    sys.exit(1 if result.failed else 0)


def analysed(src: Path, kw: dict):
    """SRC migrated in memory with the command's options: (the result, the options)."""
    say_target(kw)
    options = make_options(kw)
    _, result = api.analyse(src, options, progress_factory(kw))
    return result, options


@main.command()
@click.argument("src", type=click.Path(path_type=Path))
@common
@guard.guarded
def diff(src: Path, **kw) -> None:
    """Print the unified diff of migrating SRC; write nothing."""
    result, options = analysed(src, kw)
    if kw["output_format"] != "text":
        finish(result, api.migration_report(result, options), "diff", kw["output_format"])
    model = api.migration_report(result, options, with_diffs=True)
    console = new_console()
    if console.is_terminal:
        diff_render.print_colored(diff_render.unified(model), console)
    else:
        for chunk in diff_render.chunks(model):
            put(chunk)
    sys.exit(exit_status(result))


@main.command()
@click.argument("src", type=click.Path(path_type=Path))
@common
@guard.guarded
def scan(src: Path, **kw) -> None:
    """Report what migrating SRC would change and what is unsupported; write nothing."""
    result, options = analysed(src, kw)
    finish(result, api.migration_report(result, options), "scan", kw["output_format"], statistics=kw["statistics"])


@main.command()
@click.argument("code", required=False)
@guard.guarded
def rules(code: str | None) -> None:
    """List the rules, or explain the rule CODE with its examples."""
    from migrate.render import rules as rules_render

    console = new_console()
    if code is None:
        rules_render.listing(api.registry(), api.packs(), console)
        return
    if not rules_render.explain(api.registry(), api.packs(), code.upper(), console):
        raise UsageError(f"no rule or pack with code {code!r}: `hipmigrate rules` lists them")


@main.command()
@offload_arch_option
@hipcc_option
@output_format("doctor")
@guard.guarded
def doctor(offload_arch: tuple[str, ...], hipcc: str | None, output_format: str) -> None:
    """Check this machine: can it build migrated code for AMD GPUs, and run it on one?

    Exit status 1 when building for AMD is blocked (no hipcc, a target hipcc rejects, HIP_PLATFORM=nvidia)."""
    report = api.doctor(tuple(offload_arch), hipcc=hipcc)
    emit("doctor", output_format, report)
    sys.exit(0 if report.summary.can_build else 1)

from migrate.commands.bench import bench, compare  # noqa: E402  (commands in modules of their own)
main.add_command(bench)
main.add_command(compare)

from migrate.commands.check import check as check_command, suggest as suggest_command  # noqa: E402
main.add_command(check_command)
main.add_command(suggest_command)

from migrate.commands.report import report as report_command  # noqa: E402
main.add_command(report_command)
