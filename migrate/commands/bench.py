"""`hipmigrate bench` and `hipmigrate compare`: options onto migrate.stages.bench, output through the format table
(migrate/formats: migrate.render.bench's renderers).

Exit status of bench: 0 every run succeeded; 1 a build or some run failed, timed out or gave no figure (all are
in the results file); 2 usage or configuration error. Of compare: 0 no regression beyond the threshold; 1 a
benchmark is slower beyond it, or failed in the candidate only; 2 usage error (a missing or foreign file)."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click
from migrate.render.console import new_console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from migrate.bench import profile, results, stats
from migrate.bench.config import BenchError
from migrate.commands import guard
from migrate.commands.output import emit, output_format
from migrate.stages import bench as stage

err = new_console(stderr=True)


def progress_callback(enabled: bool):
    """A rich progress bar per benchmark on a terminal; one line per finished benchmark otherwise."""
    if not enabled:
        return None, None
    if not err.is_terminal:
        def plain(name: str, done: int, total: int, run) -> None:
            if done == total:
                err.print(f"bench {name}: {total} runs done", markup=False, highlight=False)
        return plain, None
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TextColumn("{task.fields[last]}"), console=err, transient=False)
    tasks: dict[str, int] = {}

    def fancy(name: str, done: int, total: int, run) -> None:
        if name not in tasks:
            tasks[name] = bar.add_task(name, total=total, last="")
        last = "" if run is None else (f"{run.value:.4g}" if run.status == "ok" else run.status)
        bar.update(tasks[name], completed=done, last=last)
    return fancy, bar


class Recorded(click.Command):
    """A command that keeps its own arguments as given (ctx.meta["argv"]), for the fingerprint."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["argv"] = list(args)
        return super().parse_args(ctx, args)


def command_line() -> str:
    return shlex.join(["hipmigrate", "bench", *click.get_current_context().meta.get("argv", [])])


@click.command(cls=Recorded)
@click.argument("projects", nargs=-1, type=click.Path(path_type=Path))
@click.option("--output", "-o", "output", type=click.Path(path_type=Path), default=None,
              help="Results file (default: PROJECT/.hipmigrate/bench/<UTC time>.json; needed with several projects).")
@click.option("--launcher", default=None, metavar="PREFIX",
              help="Run each benchmark through this command prefix, e.g. 'srun -p mi300x --gpus=1'.")
@click.option("--only", multiple=True, metavar="NAME", help="Run only this benchmark (repeatable).")
@click.option("--repetitions", "-n", type=click.IntRange(1), default=None, help="Measured runs (overrides the declarations).")
@click.option("--warmups", type=click.IntRange(0), default=None, help="Warm-up runs (overrides the declarations).")
@click.option("--timeout", type=click.FloatRange(0, min_open=True), default=None, help="Seconds per run (overrides).")
@click.option("--no-build", is_flag=True, help="Do not run the projects' declared build commands.")
@output_format("bench")
@click.option("--no-progress", is_flag=True, help="No progress display.")
@click.option("--kernels", is_flag=True,
              help="Also time every kernel: more runs under Nsight Compute (NVIDIA) or rocprofv3 (ROCm).")
@click.option("--profiler", type=click.Choice(profile.CHOICES), default="auto", show_default=True,
              help="The profiler of --kernels (auto: ncu where nvidia-smi is found, else rocprofv3).")
@click.option("--kernel-runs", type=click.IntRange(1), default=None,
              help="Profiled runs per benchmark with --kernels (default: its repetitions).")
@click.option("--profile-dir", type=click.Path(path_type=Path), default=None,
              help="Keep the profiler's raw output of each profiled run here (<benchmark>-<run>.csv).")
@guard.guarded
def bench(projects: tuple[Path, ...], output: Path | None, launcher: str | None, only: tuple[str, ...],
          repetitions: int | None, warmups: int | None, timeout: float | None, no_build: bool, output_format: str,
          no_progress: bool, kernels: bool, profiler: str, kernel_runs: int | None, profile_dir: Path | None) -> None:
    """Run the benchmarks declared in PROJECT's hipmigrate.toml or pyproject.toml (default: the current folder)
    and record every run, with this machine's fingerprint, in a JSON results file."""
    projects = projects or (Path("."),)
    if output is None and len(projects) > 1:
        raise BenchError("several projects: name the results file with -o FILE")
    if launcher is not None and not shlex.split(launcher):
        raise BenchError("--launcher: give a command prefix, such as 'srun -p mi300x --gpus=1'")
    configs = stage.load_configs(list(projects), only, repetitions, warmups, timeout)
    if not kernels and (kernel_runs is not None or profile_dir is not None or profiler != "auto"):
        raise BenchError("--profiler, --kernel-runs and --profile-dir go with --kernels")
    chosen = profile.find(profiler) if kernels else None
    callback, bar = progress_callback(not no_progress and output_format == "text")
    if bar is not None:
        bar.start()
    try:
        result = stage.bench(configs, launcher=launcher, build=not no_build, progress=callback,
                             command_line=command_line(), profiler=chosen, kernel_runs=kernel_runs,
                             profile_dir=profile_dir)
    finally:
        if bar is not None:
            bar.stop()
    path = output or stage.default_output(projects[0], result.created)
    results.save(result, path)
    emit("bench", output_format, result, plain_width=200)
    if output_format == "text":
        click.echo(f"results: {path}")
    sys.exit(1 if result.failed else 0)


@click.command()
@click.argument("base", type=click.Path(path_type=Path))
@click.argument("candidate", type=click.Path(path_type=Path))
@click.option("--threshold", type=float, default=stats.THRESHOLD, show_default=True,
              help="Relative change that counts: slower means the whole interval is above 1 + THRESHOLD.")
@click.option("--confidence", type=float, default=stats.CONFIDENCE, show_default=True,
              help="Confidence of the bootstrap interval of the ratio.")
@click.option("--resamples", type=click.IntRange(100), default=stats.RESAMPLES, show_default=True,
              help="Bootstrap resamples.")
@click.option("--seed", type=int, default=stats.SEED, show_default=True, help="Seed of the bootstrap.")
@output_format("compare")
@guard.guarded
def compare(base: Path, candidate: Path, threshold: float, confidence: float, resamples: int, seed: int,
            output_format: str) -> None:
    """Compare two results files of `hipmigrate bench`: per benchmark the medians, spreads, the ratio
    CANDIDATE/BASE with a bootstrap interval, and a verdict. Exit status 1 on a regression beyond the threshold."""
    result = stage.compare(base, candidate, threshold=threshold, confidence=confidence, resamples=resamples, seed=seed)
    emit("compare", output_format, result, plain_width=200)
    sys.exit(1 if result.regressions else 0)
