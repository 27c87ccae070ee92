"""Stage 5, bench: run the benchmarks declared by one or more projects (building each first when it declares a
build), with the machine's fingerprint, into a `Results`; and compare two results files benchmark by benchmark.

This stage imports nothing of the migration engine, so it runs on a GPU machine with only click and rich."""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from migrate import __version__
from migrate.bench import config, fingerprint, kernel_compare, kernels, profile, results, runner, stats
from migrate.bench.config import BenchConfig, BenchError, Benchmark
from migrate.bench.profile import Profiler
from migrate.bench.results import BenchmarkResult, BuildRecord, ProfileRecord, Results
from migrate.bench.runner import Run, Status

STATE = ".hipmigrate"  # the state folder of the output tree (migrate/stages/verify.py: STATE)
Progress = Callable[[str, int, int, "Run | None"], None]  # (benchmark, runs done, runs in all, the last run)


def default_output(project: Path, created: str) -> Path:
    """<project>/.hipmigrate/bench/<UTC time>.json, so successive runs sort by time."""
    stamp = created.replace("-", "").replace(":", "").split(".")[0].replace("+0000", "Z")
    return project / STATE / "bench" / f"{stamp}.json"


def load_configs(projects: list[Path], only: tuple[str, ...] = (), repetitions: int | None = None,
                 warmups: int | None = None, timeout: float | None = None) -> list[BenchConfig]:
    configs = [config.load(p) for p in projects]
    names = [b.name for c in configs for b in c.benchmarks]
    duplicate = next((n for n in names if names.count(n) > 1), None)
    if duplicate:
        raise BenchError(f"benchmark name {duplicate!r} is declared by two projects; names must be unique in one run")
    missing = [n for n in only if n not in names]
    if missing:
        raise BenchError(f"--only {missing[0]!r}: no such benchmark (declared: {', '.join(names)})")
    chosen = []
    for c in configs:
        kept = tuple(_override(b, repetitions, warmups, timeout) for b in c.benchmarks if not only or b.name in only)
        if kept:
            chosen.append(replace(c, benchmarks=kept))
    return chosen


def _override(b: Benchmark, repetitions: int | None, warmups: int | None, timeout: float | None) -> Benchmark:
    return replace(b, repetitions=b.repetitions if repetitions is None else repetitions,
                   warmups=b.warmups if warmups is None else warmups, timeout=b.timeout if timeout is None else timeout)


def bench(configs: list[BenchConfig], *, launcher: str | None = None, build: bool = True, command_line: str = "",
          progress: Progress | None = None, profiler: Profiler | None = None, kernel_runs: int | None = None,
          profile_dir: Path | None = None) -> Results:
    """Run every declared benchmark: warm-ups, then the measured repetitions, then with a `profiler` its profiled
    runs (`kernel_runs`, default the repetitions), whose launches become the benchmark's kernels; the profiler's
    raw output of each is kept under `profile_dir` when given. A failed build skips its project's benchmarks
    (recorded, with the reason); a failed or timed-out run is recorded with its status."""
    created = datetime.now(timezone.utc).isoformat(timespec="seconds")
    machine = fingerprint.of_this_machine(configs[0].project if configs else Path.cwd(), command_line)
    builds, done = [], []
    for c in configs:
        env = dict(os.environ, **dict(c.env))
        skipped = None
        if build and c.build is not None:
            record = _build(c, env)
            builds.append(record)
            if record.status != "ok":
                skipped = f"the project's build {record.status}"
        for b in c.benchmarks:
            done.append(_benchmark(c, b, launcher, skipped, progress, profiler, kernel_runs, profile_dir))
    return Results(created=created, hipmigrate=__version__, launcher=launcher, fingerprint=machine.as_dict(),
                   builds=tuple(builds), benchmarks=tuple(done))


def _build(c: BenchConfig, env: dict[str, str]) -> BuildRecord:
    o = runner.execute(runner.argv(c.build, None), c.project, env, c.build_timeout)
    status = ("error" if o.error else "timeout" if o.timed_out else "ok" if o.exit_code == 0 else "failed")
    tail = o.error or runner._tail(o.stdout, o.stderr)
    return BuildRecord(str(c.project), c.build if isinstance(c.build, str) else list(c.build), status, o.exit_code,
                       o.seconds, tail[-2000:])


def _benchmark(c: BenchConfig, b: Benchmark, launcher: str | None, skipped: str | None, progress: Progress | None,
               profiler: Profiler | None = None, kernel_runs: int | None = None,
               profile_dir: Path | None = None) -> BenchmarkResult:
    args = runner.argv(b.command, launcher)
    profiled = 0 if profiler is None else (b.repetitions if kernel_runs is None else kernel_runs)
    total = b.warmups + b.repetitions + profiled
    runs: list[Run] = []
    record, found = None, ()
    if skipped is None:
        env = dict(os.environ, **dict(b.env))
        if progress:
            progress(b.name, 0, total, None)
        for i in range(b.warmups + b.repetitions):
            run = runner.run_once(i, i < b.warmups, args, b.cwd, env, b.timeout, b.figure, b.expect)
            runs.append(run)
            if progress:
                progress(b.name, i + 1, total, run)
        if profiler is not None:
            record, found = _profiled(b, env, launcher, profiler, profiled, profile_dir,
                                      lambda done, run: progress and progress(b.name, len(runs) + done, total, run))
    elif profiler is not None:
        record = ProfileRecord(profiler.tool, profiler.path, profiler.version,
                               profile.recorded_argv(profiler, b.command, launcher), ())
    return BenchmarkResult(name=b.name, project=str(c.project), command=b.command if isinstance(b.command, str)
                           else list(b.command), argv=args, cwd=str(b.cwd), repetitions=b.repetitions,
                           warmups=b.warmups, timeout=b.timeout, figure=b.figure.as_dict(), expect=b.expect,
                           runs=tuple(runs), skipped=skipped, profile=record, kernels=found)


def _profiled(b: Benchmark, env: dict[str, str], launcher: str | None, profiler: Profiler, count: int,
              profile_dir: Path | None, progress) -> tuple[ProfileRecord, tuple[kernels.Kernel, ...]]:
    """`count` runs of `b` under the profiler; the kernels of those that succeeded."""
    runs, launches = [], []
    for i in range(count):
        keep = None if profile_dir is None else profile_dir / f"{b.name.replace('/', '_')}-{i}.csv"
        run, seen = profile.run_profiled(profiler, i, b.command, launcher, b.cwd, env, b.timeout, b.figure,
                                         b.expect, keep)
        runs.append(run)
        if run.status == Status.OK:
            launches.append(seen)
        progress(i + 1, run)
    return (ProfileRecord(profiler.tool, profiler.path, profiler.version,
                          profile.recorded_argv(profiler, b.command, launcher), tuple(runs)),
            kernels.group(launches))


@dataclass(frozen=True)
class CompareResult:
    base: str
    candidate: str
    base_fingerprint: dict
    candidate_fingerprint: dict
    threshold: float
    confidence: float
    resamples: int
    seed: int
    comparisons: tuple[stats.Comparison, ...]
    only_base: tuple[str, ...]
    only_candidate: tuple[str, ...]
    kernels: tuple[kernel_compare.KernelSet, ...] = ()  # benchmarks profiled in both files

    @property
    def regressions(self) -> tuple[stats.Comparison, ...]:
        return tuple(c for c in self.comparisons if c.regression)


def compare(base_path: Path, candidate_path: Path, *, threshold: float = stats.THRESHOLD,
            confidence: float = stats.CONFIDENCE, resamples: int = stats.RESAMPLES, seed: int = stats.SEED) -> CompareResult:
    if threshold < 0:
        raise BenchError(f"--threshold {threshold}: give a fraction of at least 0, such as 0.05 for 5 %")
    if not 0 < confidence < 1:
        raise BenchError(f"--confidence {confidence}: give a fraction between 0 and 1, such as 0.95")
    base, cand = results.load(base_path), results.load(candidate_path)
    names_c = {b.name for b in cand.benchmarks}
    names_b = {b.name for b in base.benchmarks}
    out, per_kernel = [], []
    for b in base.benchmarks:
        c = cand.benchmark(b.name)
        if c is None:
            continue
        out.append(stats.compare(
            b.name, b.values, c.values, unit=b.figure.get("unit", ""),
            higher_is_better=bool(b.figure.get("higher_is_better")), threshold=threshold, resamples=resamples,
            confidence=confidence, seed=seed, base_failed_runs=_failed(b), candidate_failed_runs=_failed(c)))
        found = kernel_compare.compare(b, c, threshold=threshold, resamples=resamples, confidence=confidence,
                                       seed=seed)
        if found is not None:
            per_kernel.append(found)
    return CompareResult(
        base=str(base_path), candidate=str(candidate_path), base_fingerprint=base.fingerprint,
        candidate_fingerprint=cand.fingerprint, threshold=threshold, confidence=confidence, resamples=resamples,
        seed=seed, comparisons=tuple(out),
        only_base=tuple(b.name for b in base.benchmarks if b.name not in names_c),
        only_candidate=tuple(b.name for b in cand.benchmarks if b.name not in names_b), kernels=tuple(per_kernel))


def _failed(b: BenchmarkResult) -> int:
    return sum(1 for r in b.runs if not r.warmup and r.status != Status.OK)
