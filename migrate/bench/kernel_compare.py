"""Comparing the kernels of one benchmark across two results files (a CUDA baseline and a ROCm candidate, say).

Kernels are paired by their key (migrate/bench/kernels.py: the demangled name without return type, parameters
and spaces). For each pair, the sample on each side is the duration of every launch over the profiled runs, in
microseconds, and the statistics are those of whole benchmarks (migrate/bench/stats.py): medians, IQRs, the ratio
median(candidate) / median(base) with its percentile-bootstrap interval, and the verdict against the threshold.
Beside the verdict, each pair says how much kernel time it adds per run (`change_us`: candidate launches per run
times its median, less the same of the base), so the kernels that carry a slowdown are the ones with the largest
change, and what share of the base's kernel time it had."""
from __future__ import annotations

from dataclasses import dataclass

from migrate.bench import stats
from migrate.bench.kernels import Kernel
from migrate.bench.results import BenchmarkResult

UNIT = "us"


@dataclass(frozen=True)
class KernelComparison:
    benchmark: str
    key: str
    base_name: str
    candidate_name: str
    base_launches_per_run: float
    candidate_launches_per_run: float
    base_share: float | None  # of the base's kernel time in this benchmark, 0..1
    change_us: float | None  # kernel time per run, candidate less base
    comparison: stats.Comparison  # over per-launch durations in microseconds

    @property
    def verdict(self) -> stats.Verdict:
        return self.comparison.verdict


@dataclass(frozen=True)
class KernelSet:
    """The kernels of one benchmark found in both files, and those in one only (by key)."""
    benchmark: str
    comparisons: tuple[KernelComparison, ...]
    only_base: tuple[str, ...]
    only_candidate: tuple[str, ...]


def _per_run(k: Kernel) -> float:
    return k.launches / k.runs if k.runs else 0.0


def compare(base: BenchmarkResult, candidate: BenchmarkResult, *, threshold: float = stats.THRESHOLD,
            resamples: int = stats.RESAMPLES, confidence: float = stats.CONFIDENCE,
            seed: int = stats.SEED) -> KernelSet | None:
    """The per-kernel comparison of one benchmark, or None when either side has no profiled run."""
    if base.profile is None or candidate.profile is None:
        return None
    total_base = sum(k.total_ns / k.runs for k in base.kernels if k.runs)
    out = []
    for b in base.kernels:
        c = candidate.kernel(b.key)
        if c is None:
            continue
        bu, cu = [d / 1000 for d in b.durations_ns], [d / 1000 for d in c.durations_ns]
        result = stats.compare(b.key, bu, cu, unit=UNIT, threshold=threshold, resamples=resamples,
                               confidence=confidence, seed=seed)
        change = None
        if bu and cu:
            change = _per_run(c) * stats.median(cu) - _per_run(b) * stats.median(bu)
        share = (b.total_ns / b.runs) / total_base if total_base and b.runs else None
        out.append(KernelComparison(base.name, b.key, b.name, c.name, _per_run(b), _per_run(c), share, change,
                                    result))
    keys_c = {k.key for k in candidate.kernels}
    keys_b = {k.key for k in base.kernels}
    return KernelSet(base.name, tuple(out), tuple(k.key for k in base.kernels if k.key not in keys_c),
                     tuple(k.key for k in candidate.kernels if k.key not in keys_b))
