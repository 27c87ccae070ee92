"""Statistics for comparing two sets of timings, with no outside dependency.

- `quantile` interpolates linearly between order statistics (the "type 7" definition of R and numpy's default).
- The spread is the interquartile range (IQR); the median absolute deviation (MAD, unscaled) is given too.
- `bootstrap_ratio` estimates ratio = median(candidate) / median(base) with a percentile bootstrap: `resamples`
  times, draw len(base) values from base and len(candidate) values from candidate with replacement (base first,
  then candidate, each draw `rng.randrange(n)` of `random.Random(seed)`), take the ratio of the two medians; the
  interval is the (1 - confidence)/2 and (1 + confidence)/2 quantiles of those ratios. Same seed, same answer.
- `verdict`: with threshold t, a figure where lower is better (a time) is "slower" when the whole interval lies
  above 1 + t and "faster" when it lies below 1 / (1 + t); the other way round when higher is better; "same"
  otherwise (a change smaller than t, or one the noise cannot tell apart). Fewer than MIN_RUNS values on either
  side give "too few".
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from enum import Enum
from typing import Sequence

MIN_RUNS = 2
RESAMPLES = 2000
CONFIDENCE = 0.95
THRESHOLD = 0.05
SEED = 0


class Verdict(str, Enum):
    FASTER = "faster"
    SLOWER = "slower"
    SAME = "same"
    TOO_FEW = "too few"  # fewer than MIN_RUNS values on a side
    FAILED = "failed"  # the candidate has no value where the base has (counts as a regression)
    NO_BASE = "no base"  # the base has no value; nothing to compare against


def quantile(values: Sequence[float], q: float) -> float:
    xs = sorted(values)
    if not xs:
        raise ValueError("quantile of no values")
    pos = (len(xs) - 1) * q
    low = math.floor(pos)
    high = min(low + 1, len(xs) - 1)
    return xs[low] + (xs[high] - xs[low]) * (pos - low)


def median(values: Sequence[float]) -> float:
    return quantile(values, 0.5)


def iqr(values: Sequence[float]) -> float:
    return quantile(values, 0.75) - quantile(values, 0.25)


def mad(values: Sequence[float]) -> float:
    m = median(values)
    return median([abs(x - m) for x in values])


@dataclass(frozen=True)
class Summary:
    n: int
    median: float | None
    iqr: float | None
    mad: float | None
    minimum: float | None
    maximum: float | None

    def as_dict(self) -> dict:
        return {"n": self.n, "median": self.median, "iqr": self.iqr, "mad": self.mad, "min": self.minimum,
                "max": self.maximum}


def summarize(values: Sequence[float]) -> Summary:
    if not values:
        return Summary(0, None, None, None, None, None)
    return Summary(len(values), median(values), iqr(values), mad(values), min(values), max(values))


@dataclass(frozen=True)
class Ratio:
    value: float  # median(candidate) / median(base)
    low: float
    high: float
    confidence: float

    @property
    def width(self) -> float:
        return self.high - self.low


def bootstrap_ratio(base: Sequence[float], candidate: Sequence[float], *, resamples: int = RESAMPLES,
                    confidence: float = CONFIDENCE, seed: int = SEED) -> Ratio:
    """The ratio of medians and its percentile-bootstrap interval (see the module's docstring)."""
    if not base or not candidate:
        raise ValueError("a ratio needs values on both sides")
    rng = random.Random(seed)
    nb, nc = len(base), len(candidate)
    ratios = []
    for _ in range(resamples):
        b = median([base[rng.randrange(nb)] for _ in range(nb)])
        c = median([candidate[rng.randrange(nc)] for _ in range(nc)])
        ratios.append(_divide(c, b))
    alpha = (1 - confidence) / 2
    return Ratio(_divide(median(candidate), median(base)), quantile(ratios, alpha), quantile(ratios, 1 - alpha),
                 confidence)


def _divide(a: float, b: float) -> float:
    if b == 0:
        return math.inf if a > 0 else -math.inf if a < 0 else 1.0
    return a / b


def verdict(ratio: Ratio, threshold: float, higher_is_better: bool = False) -> Verdict:
    up, down = ratio.low > 1 + threshold, ratio.high < 1 / (1 + threshold)
    if higher_is_better:
        up, down = down, up
    return Verdict.SLOWER if up else Verdict.FASTER if down else Verdict.SAME


@dataclass(frozen=True)
class Comparison:
    """One benchmark present in both files."""
    name: str
    unit: str
    higher_is_better: bool
    base: Summary
    candidate: Summary
    base_failed_runs: int
    candidate_failed_runs: int
    ratio: Ratio | None
    verdict: Verdict

    @property
    def regression(self) -> bool:
        return self.verdict in (Verdict.SLOWER, Verdict.FAILED)


def compare(name: str, base: Sequence[float], candidate: Sequence[float], *, unit: str = "s",
            higher_is_better: bool = False, threshold: float = THRESHOLD, resamples: int = RESAMPLES,
            confidence: float = CONFIDENCE, seed: int = SEED, base_failed_runs: int = 0,
            candidate_failed_runs: int = 0) -> Comparison:
    sb, sc = summarize(base), summarize(candidate)
    ratio = None
    if not base:
        result = Verdict.NO_BASE
    elif not candidate:
        result = Verdict.FAILED
    else:
        ratio = bootstrap_ratio(base, candidate, resamples=resamples, confidence=confidence, seed=seed)
        result = Verdict.TOO_FEW if min(len(base), len(candidate)) < MIN_RUNS else verdict(ratio, threshold,
                                                                                             higher_is_better)
    return Comparison(name, unit, higher_is_better, sb, sc, base_failed_runs, candidate_failed_runs, ratio, result)
