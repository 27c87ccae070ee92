"""`hipmigrate report --output-format text`: the report as rich tables on the terminal."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from migrate.render.bench import number, render_compare_text
from migrate.report.model import Build, Migration, Report, Stored
from migrate.render.blockers import report_rows
from migrate.render import kernels_report
from migrate.pathnames import shown

LIMIT = 50


def table(*columns: str, right: tuple[str, ...] = ()) -> Table:
    t = Table(title_justify="left")
    for c in columns:
        t.add_column(c, justify="right" if c in right else "left")
    return t


def listing(console: Console, items: tuple[Stored, ...], heading: str, status=None) -> None:
    if not items:
        return
    console.print(f"[bold yellow]{len(items)} {heading}[/]")
    for s in items[:LIMIT]:
        f = s.finding
        tail = f" [{status(s)}]" if status else ""
        console.print(f"  {s.where}: {f.code} {f.message}{tail}", markup=False, highlight=False)
    if len(items) > LIMIT:
        console.print(f"  ... and {len(items) - LIMIT} more (--output-format json lists them all)", highlight=False)


def migration(m: Migration, console: Console) -> None:
    console.print(f"[bold]migration[/]: {len(m.files)} files, {m.count('migrated')} migrated, "
                  f"{m.count('skipped')} skipped, {m.lines} lines; engine {m.engine} {m.engine_version}; "
                  f"target HIP {m.hip_version}", highlight=False)
    if m.conversions:
        t = table("API family", "conversions", right=("conversions",))
        for family, n in m.conversions.items():
            t.add_row(family, str(n))
        t.add_row("[bold]total[/]", f"[bold]{m.conversions_total}[/]")
        console.print(t)
    listing(console, m.unsupported, "unsupported identifiers (left unchanged)")
    listing(console, m.hazards, "portability hazards", lambda s: "fixed" if m.fixed(s) else "to review")
    listing(console, m.warnings, "warnings")
    listing(console, m.notes, "notes (kept as they are)")
    if m.effort is not None:
        t = table("file", "lines", "changed", "fixed", "review", "weight", "effort",
                  right=("lines", "changed", "fixed", "review", "weight"))
        for r in m.effort[:-1][:LIMIT]:
            t.add_row(shown(r.path), str(r.lines), str(r.lines_changed), str(r.hazards_fixed), str(r.hazards_to_review),
                      str(r.review_weight), r.effort)
        if len(m.effort) - 1 > LIMIT:
            t.add_row(f"... {len(m.effort) - 1 - LIMIT} more files", "", "", "", "", "", "")
        r = m.effort[-1]
        t.add_row("[bold]total[/]", str(r.lines), str(r.lines_changed), str(r.hazards_fixed),
                  str(r.hazards_to_review), str(r.review_weight), f"[bold]{r.effort}[/]")
        console.print(t)
        console.print(f"[bold]effort: {m.effort_class}[/]", highlight=False)


def build(b: Build, console: Console) -> None:
    console.print(f"[bold]build[/]: {len(b.units)} compiles ({b.ok} ok) of {len({u.path for u in b.units})} units "
                  f"for {', '.join(b.targets)} with hipcc {b.hip_version}; {len(b.skipped)} plain C/C++ units left "
                  "to the project's build", highlight=False)
    t = table("target", "compiles", "ok", "failed", "seconds", right=("compiles", "ok", "failed", "seconds"))
    for r in b.by_target:
        t.add_row(r.target, str(r.compiles), str(r.ok), f"[red]{r.failed}[/]" if r.failed else "0", f"{r.seconds:.2f}")
    console.print(t)
    if b.units:
        t = table("unit", "target", "status", "seconds", "errors", "warnings", right=("seconds", "errors", "warnings"))
        for u in b.units[:LIMIT]:
            style = "green" if u.status == "ok" else "red"
            t.add_row(shown(u.path), u.target, f"[{style}]{u.status}[/]", f"{u.seconds:.2f}", str(u.errors), str(u.warnings))
        if len(b.units) > LIMIT:
            t.add_row(f"... {len(b.units) - LIMIT} more", "", "", "", "", "")
        console.print(t)
    listing(console, b.findings, "compiler diagnostics")
    if b.project is not None:
        p = b.project
        console.print(f"project build `{p['command']}`: {p['status']} in {p['seconds']:.1f} s", markup=False,
                      highlight=False)


def render(report: Report, console: Console, codes: dict) -> None:
    """`codes`: the code table (migrate.codes), which names the blockers."""
    console.print(f"[bold]hipmigrate report[/] of {report.destination} ({report.created})", highlight=False)
    for problem in report.problems:
        console.print(f"[red]cannot read[/] {problem}", highlight=False)
    rows = report_rows(report, codes)
    if rows:
        console.print(f"[bold red]blockers[/]: {sum(r.count for r in rows)} finding(s) in {len(rows)} group(s)")
        for r in rows:
            console.print(f"  {r.count:>4} x {r.code} {r.what}, first at {r.first}", markup=False, highlight=False)
            console.print(f"         next: {r.next_step}", markup=False, highlight=False)
    else:
        console.print("[bold green]no blockers[/] found", highlight=False)
    if report.migration is not None:
        migration(report.migration, console)
    else:
        console.print("migration: no .hipmigrate/run.json (not an output tree of `hipmigrate run`)", highlight=False)
    if report.build is not None:
        build(report.build, console)
    else:
        console.print("build: not checked (`hipmigrate build DST` records it)", highlight=False)
    for run in report.bench_runs:
        console.print(f"[bold]benchmarks[/] {run.path} ({run.created}): {run.machine}", highlight=False)
        t = table("benchmark", "status", "n", "median", "IQR", "unit", right=("n", "median", "IQR"))
        for b in run.benchmarks:
            t.add_row(b.name, b.status, str(b.summary.n), number(b.summary.median), number(b.summary.iqr), b.unit)
        console.print(t)
    if report.comparison is not None:
        render_compare_text(report.comparison, console)
    if report.kernels is not None:
        kernels_report.text(report.kernels, report.comparison, console)
