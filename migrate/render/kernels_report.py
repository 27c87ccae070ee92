"""The report's "Kernels" section in each format: the static diff of `build --kernels` (kernels.json), and where
`report --bench BASE CAND` compares profiled runs (`bench --kernels`), each kernel's measured median durations,
their ratio and verdict in the same row, joined by the profilers' pairing key (migrate.bench.kernels.key)."""
from __future__ import annotations

from html import escape

from rich.console import Console

from migrate.bench.kernels import key
from migrate.kernels.expectation import Expectation, between
from migrate.kernels.hardware import product
from migrate.kernels.model import KernelDiff
from migrate.render import kernels as kernels_render

MEASURED = ("base us", "cand. us", "time ratio", "verdict", "hardware")
RIGHT = ("block", "ratio", "base us", "cand. us", "time ratio")


def measured(comparison) -> dict[str, object]:
    """Kernel key -> its KernelComparison (the first benchmark that profiled it), from `report --bench`."""
    out: dict[str, object] = {}
    for kernel_set in getattr(comparison, "kernels", ()) or ():
        for k in kernel_set.comparisons:
            out.setdefault(k.key, k)
    return out


def expectations(diff: KernelDiff) -> dict[str, Expectation]:
    """Per AMD column (TARGET@HIP): what the peaks of the architectures' first products lead to expect."""
    out = {}
    for target, release in diff.targets:
        e = between(product(arch=diff.cuda_arch), product(arch=target))
        if e is not None:
            out[f"{target}@{release}"] = e
    return out


def expectation_lines(diff: KernelDiff) -> list[str]:
    return [f"{e.base} -> {e.candidate} ({column.split('@')[0]}): a kernel bound by memory bandwidth should take "
            f"{e.memory:.2f}x the time, one bound by FP32 {e.compute:.2f}x (peaks of rules/data/hardware.toml)"
            for column, e in expectations(diff).items()]


def measured_expectation(comparison) -> Expectation | None:
    """What the peaks of the two measured GPUs (their fingerprints' names) lead to expect."""
    if comparison is None:
        return None
    name = lambda fp: (fp or {}).get("gpu_name")  # noqa: E731
    return between(product(gpu=name(comparison.base_fingerprint)), product(gpu=name(comparison.candidate_fingerprint)))


def explained(found, comparison) -> bool | None:
    e = measured_expectation(comparison)
    ratio = found.comparison.ratio
    return None if e is None or ratio is None else e.explains(ratio.value, comparison.threshold)


def measured_cells(found, comparison=None) -> tuple[str, ...]:
    if found is None:
        return ("-",) * len(MEASURED)
    c = found.comparison
    ratio = "-" if c.ratio is None else f"{c.ratio.value:.3f}"
    verdict = {None: "-", True: "explains it", False: "does not explain it"}[explained(found, comparison)]
    return (f"{c.base.median:.4g}", f"{c.candidate.median:.4g}", ratio, c.verdict.value, verdict)


def rows(diff: KernelDiff, comparison=None) -> tuple[tuple[str, ...], list[tuple]]:
    """(headers, rows of plain strings): one row per kernel and AMD target; measured columns when there are any."""
    times = measured(comparison)
    headers = kernels_render.HEADERS + (MEASURED if times else ())
    out = []
    for k, _, cells in kernels_render.table_rows(diff):
        extra = (measured_cells(times.get(key(k.name)), comparison) if cells[0] else ("",) * len(MEASURED)) \
            if times else ()
        out.append(cells + extra)
    return headers, out


def text(diff: KernelDiff, comparison, console: Console) -> None:
    console.print("[bold]Kernels[/]")
    kernels_render.render_text(diff, console)
    for line in expectation_lines(diff):
        console.print(line, markup=False, highlight=False)
    if comparison is not None and not measured(comparison):
        console.print("no measured kernel times: `hipmigrate bench --kernels` on both sides, then `report --bench "
                      "BASE CAND`", highlight=False)
    elif comparison is not None:
        headers, table = rows(diff, comparison)
        console.print("measured (median duration per launch): " + "; ".join(
            f"{r[0]} {r[-5]} -> {r[-4]} us ({r[-3]}, {r[-2]}; the hardware {r[-1]})" for r in table
            if r[0] and r[-2] != "-"),
            markup=False, highlight=False)


def markdown(w, diff: KernelDiff, comparison) -> None:
    w.add("## Kernels")
    w.add("")
    w.add(kernels_render.legend(diff) + ".")
    w.add("")
    for line in expectation_lines(diff):
        w.add(f"- {line}")
    w.add("")
    headers, table = rows(diff, comparison)
    w.table(headers, table, right=RIGHT)
    for f in sorted(diff.findings, key=lambda f: (f.span.path, f.span.line, f.code)):
        w.add(f"- `{f.span.path}:{f.span.line}` **{f.code}** {f.message}")
    for p in diff.problems:
        w.add(f"- not compiled: {p}")
    w.add("")


def json_dict(diff: KernelDiff, comparison) -> dict:
    doc = kernels_render.as_dict(diff)
    doc["expectations"] = {column: e.as_dict() for column, e in expectations(diff).items()}
    times = measured(comparison)
    hardware = measured_expectation(comparison)
    for k, d in zip(diff.kernels, doc["kernels"]):
        found = times.get(key(k.name))
        d["measured"] = None if found is None else {
            "benchmark": found.benchmark, "base_median_us": found.comparison.base.median,
            "candidate_median_us": found.comparison.candidate.median,
            "ratio": None if found.comparison.ratio is None else found.comparison.ratio.value,
            "verdict": found.comparison.verdict.value,
            "hardware": None if hardware is None else {**hardware.as_dict(), "explains": explained(found, comparison)}}
    return doc


def html(diff: KernelDiff, comparison) -> str:
    from migrate.render import kernels_html

    headers, table = rows(diff, comparison)
    findings = "".join(f"<li><code>{escape(f.span.path)}:{f.span.line}</code> <b>{escape(f.code)}</b> "
                       f'<span class="{f.severity.label}">{escape(f.message)}</span></li>'
                       for f in sorted(diff.findings, key=lambda f: (f.span.path, f.span.line, f.code)))
    problems = "".join(f"<li>not compiled: {escape(p)}</li>" for p in diff.problems)
    hook = "" if measured(comparison) else (
        '<p class="note">No measured kernel times: <code>hipmigrate bench --kernels</code> on the CUDA and the ROCm '
        "machine, then <code>report --bench BASE.json CAND.json</code>, adds them to this table.</p>")
    return ('<section id="kernels"><h2>Kernels</h2>'
            f"<p>{escape(kernels_render.legend(diff))}.</p>"
            + "".join(f"<p>{escape(line)}.</p>" for line in expectation_lines(diff)) + kernels_html.ratio_chart(diff) +
            f"{kernels_html.sortable_table(headers, table, RIGHT)}{hook}"
            + (f"<ul>{findings}{problems}</ul>" if findings or problems else "") + "</section>")
