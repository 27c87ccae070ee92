"""Statistics of `hipmigrate compare` on synthetic timings with known answers."""
import random
import statistics

import pytest

from migrate.bench import stats
from migrate.bench.stats import Verdict


def timings(center: float, noise: float, n: int = 20, seed: int = 7) -> list[float]:
    """n timings around `center`, each off by a uniform relative error of at most `noise`."""
    rng = random.Random(seed)
    return [center * (1 + rng.uniform(-noise, noise)) for _ in range(n)]


def test_quantiles_median_iqr_mad_known_answers():
    assert stats.quantile([1, 2, 3, 4], 0.25) == 1.75
    assert stats.quantile([1, 2, 3, 4], 0.75) == 3.25
    assert stats.median([5, 1, 3]) == 3
    assert stats.median([4, 1, 3, 2]) == 2.5
    assert stats.iqr([1, 2, 3, 4]) == 1.5
    assert stats.mad([1, 2, 3, 4, 100]) == 1  # median 3, deviations 2 1 0 1 97
    s = stats.summarize([3.0, 1.0, 2.0])
    assert (s.n, s.median, s.iqr, s.minimum, s.maximum) == (3, 2.0, 1.0, 1.0, 3.0)
    assert stats.summarize([]).median is None


def test_quartiles_agree_with_the_standard_library():
    values = timings(1.0, 0.3, n=13)
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    assert stats.iqr(values) == pytest.approx(q3 - q1, rel=1e-12)
    assert stats.median(values) == statistics.median(values)


def test_identical_pair_is_same_with_ratio_one():
    base = timings(1.0, 0.02)
    c = stats.compare("k", base, list(base))
    assert c.verdict is Verdict.SAME
    assert c.ratio.value == 1.0
    assert c.ratio.low <= 1.0 <= c.ratio.high
    assert not c.regression


def test_ten_percent_slowdown_with_low_noise_is_slower():
    base = timings(1.0, 0.01, seed=1)
    cand = timings(1.1, 0.01, seed=2)
    c = stats.compare("k", base, cand, threshold=0.05)
    assert c.verdict is Verdict.SLOWER and c.regression
    assert c.ratio.value == pytest.approx(1.1, abs=0.01)
    assert 1.05 < c.ratio.low <= c.ratio.value <= c.ratio.high < 1.13


def test_high_noise_widens_the_interval_and_the_verdict_is_same():
    quiet = stats.compare("k", timings(1.0, 0.01, seed=1), timings(1.1, 0.01, seed=2))
    noisy = stats.compare("k", timings(1.0, 0.5, seed=1), timings(1.1, 0.5, seed=2))
    assert noisy.ratio.width > 5 * quiet.ratio.width
    assert noisy.ratio.low < 1.05 < noisy.ratio.high
    assert noisy.verdict is Verdict.SAME and not noisy.regression


def test_speedup_is_faster_and_higher_is_better_turns_it_round():
    base, cand = timings(1.0, 0.01, seed=1), timings(0.8, 0.01, seed=2)
    assert stats.compare("t", base, cand).verdict is Verdict.FASTER
    # a throughput that fell by 20 % is a regression
    assert stats.compare("gflops", base, cand, higher_is_better=True).verdict is Verdict.SLOWER


def test_a_change_within_the_threshold_is_same():
    c = stats.compare("k", timings(1.0, 0.005, seed=1), timings(1.03, 0.005, seed=2), threshold=0.05)
    assert c.ratio.low > 1.0  # really slower ...
    assert c.verdict is Verdict.SAME  # ... but by less than 5 %
    assert stats.compare("k", timings(1.0, 0.005, seed=1), timings(1.03, 0.005, seed=2),
                         threshold=0.01).verdict is Verdict.SLOWER


def test_bootstrap_is_deterministic_for_a_seed():
    base, cand = timings(1.0, 0.2, seed=1), timings(1.05, 0.2, seed=2)
    a = stats.bootstrap_ratio(base, cand, seed=3)
    assert a == stats.bootstrap_ratio(base, cand, seed=3)
    assert a != stats.bootstrap_ratio(base, cand, seed=4)
    assert a.confidence == 0.95
    assert stats.bootstrap_ratio(base, cand, confidence=0.5, seed=3).width < a.width


def test_missing_and_too_few_values():
    assert stats.compare("k", [1.0, 1.1], []).verdict is Verdict.FAILED
    assert stats.compare("k", [1.0, 1.1], []).regression
    assert stats.compare("k", [], [1.0]).verdict is Verdict.NO_BASE
    few = stats.compare("k", [1.0], [2.0])
    assert few.verdict is Verdict.TOO_FEW and few.ratio.value == 2.0 and not few.regression
