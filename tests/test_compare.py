"""`hipmigrate compare BASE.json CAND.json`: results files made by real `hipmigrate bench` runs of scripts that
print known timings, and the two H200 runs of the samples under samples/bench/, checked against statistics
computed here independently."""
from __future__ import annotations

import json
import random
import statistics
import sys
from pathlib import Path


from tests.helpers import cli, write_tree

ROOT = Path(__file__).resolve().parent.parent
RUN1, RUN2 = ROOT / "samples" / "bench" / "h200-run1.json", ROOT / "samples" / "bench" / "h200-run2.json"

# Prints the next value of the file named by argv[1] (one value a line), keeping its place in <file>.count.
EMIT = """import pathlib, sys
values = pathlib.Path(sys.argv[1]).read_text().split()
count = pathlib.Path(sys.argv[1] + ".count")
n = int(count.read_text()) if count.exists() else 0
count.write_text(str(n + 1))
print("elapsed: %s ms" % values[n])
"""


def results(tmp_path: Path, label: str, benchmarks: dict[str, list[float] | None]) -> Path:
    """A results file of `hipmigrate bench` whose benchmark k reports benchmarks[k] in order (None: it fails)."""
    files = {"emit.py": EMIT}
    toml = "[bench]\nwarmups = 0\n"
    for name, values in benchmarks.items():
        if values is None:
            toml += f"[[bench.benchmark]]\nname = '{name}'\ncommand = 'exit 1'\nrepetitions = 3\n"
            continue
        files[f"{name}.txt"] = "\n".join(repr(v) for v in values)
        toml += (f"[[bench.benchmark]]\nname = '{name}'\ncommand = [{json.dumps(sys.executable)}, 'emit.py', "
                 f"'{name}.txt']\nrepetitions = {len(values)}\nregex = 'elapsed: ([0-9.e-]+) ms'\nunit = 'ms'\n")
    root = write_tree(tmp_path / label, {**files, "hipmigrate.toml": toml})
    out = tmp_path / f"{label}.json"
    cli("bench", root, "-o", out, "--no-progress")
    return out


def rows(output: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in output.splitlines() if line.startswith("│")]


def jitter(center: float, noise: float, n: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [round(center * (1 + rng.uniform(-noise, noise)), 6) for _ in range(n)]


BASE = jitter(10.0, 0.01, 12, 1)


def test_identical_runs_are_same_and_exit_0(tmp_path):
    base = results(tmp_path, "base", {"k": BASE})
    cand = results(tmp_path, "cand", {"k": BASE})
    result = cli("compare", base, cand)
    assert result.exit_code == 0, result.output
    med, iqr = f"{statistics.median(BASE):.4g}", f"{quartile_range(BASE):.4g}"
    _, low, high, _ = independent(BASE, BASE)  # both sides are resampled: the interval is not a point
    assert low < 1 < high
    assert rows(result.stdout) == [["k", "ms", med, iqr, "12", med, iqr, "12", "1.000", f"{low:.3f}-{high:.3f}", "same"]]
    assert "no regression beyond the threshold" in result.stdout


def test_ten_percent_slower_exits_1_and_a_wider_threshold_accepts_it(tmp_path):
    base = results(tmp_path, "base", {"k": BASE, "steady": BASE})
    cand = results(tmp_path, "cand", {"k": [round(v * 1.1, 6) for v in BASE], "steady": BASE})
    result = cli("compare", base, cand)
    assert result.exit_code == 1
    (k, steady) = rows(result.stdout)
    assert k[0] == "k" and k[8] == f"{statistics.median([v * 1.1 for v in BASE]) / statistics.median(BASE):.3f}"
    assert k[8] == "1.100" and k[10] == "slower"
    low, high = (float(x) for x in k[9].split("-"))
    assert 1.05 < low <= 1.1 <= high
    assert steady[10] == "same"
    assert "1 regression(s) beyond the threshold: k (slower)" in result.stdout
    relaxed = cli("compare", base, cand, "--threshold", "0.2")
    assert relaxed.exit_code == 0 and rows(relaxed.stdout)[0][10] == "same"
    assert "threshold 0.2," in relaxed.stdout
    # the other way round it is faster, not a regression
    back = cli("compare", cand, base)
    assert back.exit_code == 0 and rows(back.stdout)[0][10] == "faster"


def test_noise_gives_same(tmp_path):
    base = results(tmp_path, "base", {"k": jitter(10.0, 0.5, 8, 1)})
    cand = results(tmp_path, "cand", {"k": jitter(11.0, 0.5, 8, 2)})
    result = cli("compare", base, cand)
    assert result.exit_code == 0 and rows(result.stdout)[0][10] == "same"


def test_benchmarks_on_one_side_are_listed_and_a_failing_candidate_is_a_regression(tmp_path):
    base = results(tmp_path, "base", {"a": BASE, "b": BASE, "d": BASE})
    cand = results(tmp_path, "cand", {"a": BASE, "c": BASE, "d": None})
    result = cli("compare", base, cand)
    assert result.exit_code == 1
    assert [r[0] for r in rows(result.stdout)] == ["a", "d"]
    d = rows(result.stdout)[1]
    assert (d[7], d[8], d[9], d[10]) == ("0 (+3 failed)", "-", "-", "failed")
    assert "only in base: b" in result.stdout and "only in candidate: c" in result.stdout
    assert "1 regression(s) beyond the threshold: d (failed)" in result.stdout
    code, doc = json_compare(base, cand)
    assert code == 1
    assert (doc["only_base"], doc["only_candidate"], doc["regressions"]) == (["b"], ["c"], 1)
    a, d = doc["benchmarks"]
    assert (a["name"], a["verdict"], a["ratio"], a["regression"]) == ("a", "same", 1.0, False)
    assert a["base"]["n"] == 12 and a["base"]["median"] == statistics.median(BASE)
    assert (d["verdict"], d["ratio"], d["candidate"]["n"], d["candidate"]["failed_runs"]) == ("failed", None, 0, 3)


def json_compare(*args) -> tuple[int, dict]:
    result = cli("compare", *args, "--output-format", "json")
    return result.exit_code, json.loads(result.stdout)


def test_usage_errors_exit_2(tmp_path):
    good = results(tmp_path, "base", {"a": BASE})
    (tmp_path / "other.json").write_text('{"schema": 1}')
    missing = cli("compare", good, tmp_path / "none.json")
    assert missing.exit_code == 2 and "none.json: cannot be read" in missing.stderr
    foreign = cli("compare", tmp_path / "other.json", good)
    assert foreign.exit_code == 2 and "not a results file of `hipmigrate bench`" in foreign.stderr
    assert cli("compare", good, good, "--threshold", "-1").exit_code == 2
    assert cli("compare", good, good, "--confidence", "1.5").exit_code == 2
    assert cli("compare", good).exit_code == 2  # click: missing argument


# --- the two H200 runs of the samples' CUDA baselines --------------------------------------------------------

def values(path: Path) -> dict[str, list[float]]:
    doc = json.loads(path.read_text())
    return {b["name"]: [r["value"] for r in b["runs"] if not r["warmup"] and r["status"] == "ok"]
            for b in doc["benchmarks"]}


def independent(base: list[float], cand: list[float], seed=0, resamples=2000, confidence=0.95, threshold=0.05):
    """docs/bench.md's procedure, written out again: ratio of medians, percentile bootstrap, verdict."""
    rng = random.Random(seed)
    ratios = []
    for _ in range(resamples):
        b = statistics.median([base[rng.randrange(len(base))] for _ in base])
        c = statistics.median([cand[rng.randrange(len(cand))] for _ in cand])
        ratios.append(c / b)
    cuts = statistics.quantiles(ratios, n=40, method="inclusive")  # 2.5 %, 5 %, ..., 97.5 %
    low, high = cuts[0], cuts[-1]
    verdict = "slower" if low > 1 + threshold else "faster" if high < 1 / (1 + threshold) else "same"
    return statistics.median(cand) / statistics.median(base), low, high, verdict


def quartile_range(xs: list[float]) -> float:
    q1, _, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    return q3 - q1


def test_compare_of_the_two_h200_runs():
    result = cli("compare", RUN1, RUN2)
    base, cand = values(RUN1), values(RUN2)
    expected = []
    for name in base:
        ratio, low, high, verdict = independent(base[name], cand[name])
        unit = "ms" if name == "saxpy_streams" else "s"
        expected.append([name, unit, f"{statistics.median(base[name]):.4g}", f"{quartile_range(base[name]):.4g}", "10",
                         f"{statistics.median(cand[name]):.4g}", f"{quartile_range(cand[name]):.4g}", "10",
                         f"{ratio:.3f}", f"{low:.3f}-{high:.3f}", verdict])
    assert rows(result.stdout) == expected
    # what the data say: two runs of the same binaries, no change beyond 5 % that the noise can't explain
    assert [r[10] for r in expected] == ["same"] * 6
    assert result.exit_code == 0
    assert "base:      NVIDIA H200 x1; driver 580.159.04; CUDA 13.0, nvcc release 13.0, V13.0.88" in result.stdout
    # the interval is honest about small drifts: two benchmarks were really a little slower on the second run
    # (the whole interval above 1), but by less than the 5 % threshold, so they are "same", not "slower"
    drifted = [r[0] for r in expected if float(r[9].split("-")[0]) > 1]
    assert drifted == ["cublas_sgemm", "multifile_constant"]
    strict = cli("compare", RUN1, RUN2, "--threshold", "0.01")
    assert strict.exit_code == 1
    assert [r[10] for r in rows(strict.stdout) if r[0] in drifted] == ["slower", "slower"]
