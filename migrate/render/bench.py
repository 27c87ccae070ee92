"""Output of `hipmigrate bench` and `hipmigrate compare`: rich tables, or JSON (the results file itself for
bench; the comparison document of docs/bench.md for compare)."""
from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table

from migrate.bench.fingerprint import machine
from migrate.bench.results import Results
from migrate.bench.stats import Summary, Verdict, summarize

COMPARE_FORMAT = "hipmigrate-compare"
COMPARE_VERSION = 1
STYLE = {Verdict.FASTER: "green", Verdict.SLOWER: "red", Verdict.FAILED: "red", Verdict.SAME: "",
         Verdict.TOO_FEW: "yellow", Verdict.NO_BASE: "yellow"}


def number(value: float | None) -> str:
    return "-" if value is None else f"{value:.4g}"


def render_bench_text(result: Results, console: Console, path: str | None) -> None:
    console.print(f"[bold]hipmigrate bench[/]: {len(result.benchmarks)} benchmarks on {machine(result.fingerprint)}",
                  highlight=False)
    if result.launcher:
        console.print(f"launcher: {result.launcher}", markup=False, highlight=False)
    for b in result.builds:
        if b.status != "ok":
            console.print(f"build of {b.project} {b.status} (exit status {b.exit_code}):", markup=False, highlight=False)
            console.print(b.output_tail[-1200:], markup=False, highlight=False)
    table = Table(title_justify="left")
    for column in ("benchmark", "runs ok", "median", "IQR", "unit", "status"):
        table.add_column(column, justify="right" if column in ("runs ok", "median", "IQR") else "left")
    for b in result.benchmarks:
        measured = [r for r in b.runs if not r.warmup]
        s = summarize(b.values)
        style = "green" if b.status == "ok" else "red"
        table.add_row(b.name, f"{len(b.values)}/{len(measured) if b.skipped is None else 0}", number(s.median),
                      number(s.iqr), b.figure.get("unit", ""), f"[{style}]{b.status}[/]")
    console.print(table)
    for b in result.benchmarks:
        if b.skipped:
            console.print(f"{b.name}: not run: {b.skipped}", markup=False, highlight=False)
        for r in b.runs:
            if r.status != "ok":
                label = f"warm-up {r.index + 1}" if r.warmup else f"run {r.index - b.warmups + 1}"
                console.print(f"{b.name} {label}: {r.status}: {r.message}", markup=False, highlight=False)
        if b.profile is not None:
            for r in b.profile.runs:
                if r.status != "ok":
                    console.print(f"{b.name} profiled run {r.index + 1}: {r.status}: {r.message}", markup=False,
                                  highlight=False)
            console.print(f"{b.name}: {len(b.kernels)} kernels, {sum(k.launches for k in b.kernels)} launches in "
                          f"{b.profile.runs_ok} runs under {b.profile.tool} {b.profile.version or ''}".rstrip(),
                          markup=False, highlight=False)
    if path:
        console.print(f"results: {path}", markup=False, highlight=False)


def ratio_dict(r) -> dict:
    return {"ratio": None if r is None else r.value, "ci_low": None if r is None else r.low,
            "ci_high": None if r is None else r.high}


def compare_dict(result) -> dict:
    def side(s: Summary, failed: int) -> dict:
        return {**s.as_dict(), "failed_runs": failed}

    return {
        "format": COMPARE_FORMAT, "version": COMPARE_VERSION, "base": result.base, "candidate": result.candidate,
        "threshold": result.threshold, "confidence": result.confidence, "resamples": result.resamples,
        "seed": result.seed, "base_fingerprint": result.base_fingerprint,
        "candidate_fingerprint": result.candidate_fingerprint,
        "benchmarks": [{"name": c.name, "unit": c.unit, "higher_is_better": c.higher_is_better,
                        "base": side(c.base, c.base_failed_runs),
                        "candidate": side(c.candidate, c.candidate_failed_runs),
                        **ratio_dict(c.ratio),
                        "verdict": c.verdict.value, "regression": c.regression} for c in result.comparisons],
        "only_base": list(result.only_base), "only_candidate": list(result.only_candidate),
        "regressions": len(result.regressions),
        **(kernels_dict(result.kernels) if result.kernels else {}),
    }


def kernels_dict(sets) -> dict:
    """The per-kernel part of compare's JSON (present when both files have profiled runs of a benchmark)."""
    def side(s: Summary, per_run: float) -> dict:
        return {**s.as_dict(), "launches_per_run": per_run}

    return {
        "kernels": [{"benchmark": k.benchmark, "key": k.key, "base_name": k.base_name,
                     "candidate_name": k.candidate_name, "unit": k.comparison.unit,
                     "base": side(k.comparison.base, k.base_launches_per_run),
                     "candidate": side(k.comparison.candidate, k.candidate_launches_per_run),
                     **ratio_dict(k.comparison.ratio),
                     "verdict": k.verdict.value, "base_share": k.base_share, "change_us": k.change_us}
                    for ks in sets for k in ks.comparisons],
        "kernels_only_base": {ks.benchmark: list(ks.only_base) for ks in sets if ks.only_base},
        "kernels_only_candidate": {ks.benchmark: list(ks.only_candidate) for ks in sets if ks.only_candidate},
    }


def render_compare_json(result) -> str:
    return json.dumps(compare_dict(result), indent=2) + "\n"


def render_compare_text(result, console: Console) -> None:
    console.print(f"[bold]hipmigrate compare[/]: base {result.base}, candidate {result.candidate}; threshold "
                  f"{result.threshold:g}, {result.confidence:.0%} bootstrap interval ({result.resamples} resamples, "
                  f"seed {result.seed})", highlight=False)
    console.print(f"base:      {machine(result.base_fingerprint)}", markup=False, highlight=False)
    console.print(f"candidate: {machine(result.candidate_fingerprint)}", markup=False, highlight=False)
    render_compare_table(result, console)
    if result.kernels:
        render_kernels_text(result, console)
    regressions = result.regressions
    if regressions:
        console.print(f"[red]{len(regressions)} regression(s) beyond the threshold[/]: "
                      + ", ".join(f"{c.name} ({c.verdict.value})" for c in regressions), highlight=False)
    else:
        console.print("no regression beyond the threshold", highlight=False)


def render_compare_table(result, console: Console) -> None:
    table = Table(title_justify="left")
    for column in ("benchmark", "unit", "base median", "base IQR", "n", "cand median", "cand IQR", "n",
                   "ratio", f"{result.confidence:.0%} CI", "verdict"):
        table.add_column(column, justify="left" if column in ("benchmark", "unit", "verdict") else "right")
    for c in result.comparisons:
        r = c.ratio
        style = STYLE[c.verdict]
        table.add_row(c.name, c.unit, number(c.base.median), number(c.base.iqr), _n(c.base.n, c.base_failed_runs),
                      number(c.candidate.median), number(c.candidate.iqr), _n(c.candidate.n, c.candidate_failed_runs),
                      "-" if r is None else f"{r.value:.3f}", "-" if r is None else f"{r.low:.3f}-{r.high:.3f}",
                      f"[{style}]{c.verdict.value}[/]" if style else c.verdict.value)
    console.print(table)
    if result.only_base:
        console.print(f"only in base: {', '.join(result.only_base)}", markup=False, highlight=False)
    if result.only_candidate:
        console.print(f"only in candidate: {', '.join(result.only_candidate)}", markup=False, highlight=False)


def render_kernels_text(result, console: Console) -> None:
    """Per kernel: medians of the launch durations, the ratio and its interval, the verdict, the kernel's share
    of the base's kernel time and the time it adds per run; then the kernels found on one side only and the
    slower kernels, the largest change first."""
    table = Table(title="kernels (duration per launch)", title_justify="left")
    for column in ("benchmark", "kernel", "unit", "base median", "n", "cand median", "n", "ratio",
                   f"{result.confidence:.0%} CI", "verdict", "base share", "change/run"):
        table.add_column(column, justify="left" if column in ("benchmark", "kernel", "unit", "verdict") else "right",
                         overflow="fold")
    slower = []
    for ks in result.kernels:
        for k in ks.comparisons:
            c, r, style = k.comparison, k.comparison.ratio, STYLE[k.verdict]
            table.add_row(k.benchmark, k.key, c.unit, number(c.base.median), str(c.base.n), number(c.candidate.median),
                          str(c.candidate.n), "-" if r is None else f"{r.value:.3f}",
                          "-" if r is None else f"{r.low:.3f}-{r.high:.3f}",
                          f"[{style}]{k.verdict.value}[/]" if style else k.verdict.value,
                          "-" if k.base_share is None else f"{k.base_share:.1%}",
                          "-" if k.change_us is None else f"{k.change_us:+.4g} us")
            if k.verdict == Verdict.SLOWER:
                slower.append(k)
    console.print(table)
    for ks in result.kernels:
        for side, keys in (("base", ks.only_base), ("candidate", ks.only_candidate)):
            if keys:
                console.print(f"{ks.benchmark}: kernels only in {side}: {', '.join(keys)}", markup=False,
                              highlight=False)
    if slower:
        slower.sort(key=lambda k: -(k.change_us or 0))
        console.print("slower kernels: " + ", ".join(f"{k.benchmark}/{k.key} ({k.change_us:+.4g} us per run)"
                                                     for k in slower), markup=False, highlight=False)


def _n(n: int, failed: int) -> str:
    return f"{n}" if not failed else f"{n} (+{failed} failed)"
