"""`hipmigrate report --output-format md`: the report as a pull-request comment (GitHub-flavoured Markdown).

Compact: a summary line and small tables first; findings, units and diffs in collapsible <details>. GitHub
rejects a comment over 65,536 characters, so the document is written against a budget (LIMIT, with room for a
note): sections go in order, and the rows and diffs that do not fit are left out with a note saying how many.
"""
from __future__ import annotations

from migrate.render.bench import number
from migrate.report.model import Build, Migration, Report, Stored
from migrate.render.blockers import report_rows
from migrate.render import kernels_report
from migrate.pathnames import shown

GITHUB_LIMIT = 65_536
LIMIT = GITHUB_LIMIT - 4_096  # room for what closes each section after a cut one (its head, the "left out" line)
FULL = "`hipmigrate report --output-format html` shows everything"


def cell(text) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("<", "&lt;")


class Writer:
    """Collects lines while the budget lasts; `fits` says whether more text still does."""

    def __init__(self, limit: int = LIMIT):
        self.lines: list[str] = []
        self.left = limit
        self.cut = 0  # rows and diffs left out

    def add(self, text: str = "") -> None:
        self.lines.append(text)
        self.left -= len(text) + 1

    def fits(self, text: str) -> bool:
        return len(text) + 1 <= self.left

    def table(self, headers: tuple[str, ...], rows: list[tuple], right: tuple[str, ...] = ()) -> None:
        self.add("| " + " | ".join(headers) + " |")
        self.add("|" + "|".join("---:" if h in right else "---" for h in headers) + "|")
        for i, row in enumerate(rows):
            line = "| " + " | ".join(cell(v) for v in row) + " |"
            if not self.fits(line + "\n" * 200):  # keep room for what closes the section
                self.add(f"\n*{len(rows) - i} more rows left out to fit a comment; {FULL}.*")
                self.cut += len(rows) - i
                return
            self.add(line)

    def details(self, summary: str) -> None:
        self.add(f"<details><summary>{summary}</summary>")
        self.add()

    def end_details(self) -> None:
        self.add()
        self.add("</details>")
        self.add()

    def text(self) -> str:
        return "\n".join(self.lines).rstrip("\n") + "\n"


def findings(w: Writer, items: tuple[Stored, ...], title: str, status=None) -> None:
    if not items:
        return
    w.details(f"{len(items)} {title}")
    headers = ("location", "code", "severity", "message") + (("status",) if status else ())
    w.table(headers, [(f"`{s.where}`", s.finding.code, s.finding.severity.label, s.finding.message)
                      + ((status(s),) if status else ()) for s in items])
    w.end_details()


def headline(report: Report) -> str:
    parts = []
    m, b, c = report.migration, report.build, report.comparison
    if m is not None:
        parts.append(f"**{len(m.files)} files**, {m.count('migrated')} migrated, {m.lines} lines; "
                     f"**{m.conversions_total}** identifiers converted, **{len(m.unsupported)}** unsupported, "
                     f"**{len(m.hazards)}** hazards; effort **{m.effort_class or 'unknown'}**")
    if b is not None:
        parts.append(f"build **{b.ok}/{len(b.units)}** compiles ok ({', '.join(b.targets)})")
    if c is not None:
        parts.append(f"**{len(c.comparisons)}** benchmarks compared, **{len(c.regressions)}** regressions")
    return " · ".join(parts) or "nothing recorded yet"


def migration(w: Writer, m: Migration) -> None:
    w.add("### Migration")
    w.add()
    w.add(f"Engine {m.engine} {m.engine_version}, target HIP {m.hip_version}; {len(m.files)} files "
          f"({m.count('migrated')} migrated, {m.count('skipped')} skipped).")
    w.add()
    if m.conversions:
        w.table(("API family", "conversions"), list(m.conversions.items()) + [("**total**", m.conversions_total)],
                right=("conversions",))
        w.add()
    findings(w, m.unsupported, "unsupported identifiers (left unchanged)")
    findings(w, m.hazards, "portability hazards", lambda s: "fixed" if m.fixed(s) else "to review")
    findings(w, m.warnings, "warnings")
    findings(w, m.notes, "notes (kept as they are)")
    if m.effort is not None:
        w.details(f"effort: {m.effort_class} ({len(m.effort) - 1} files with work)")
        rows = [(f"`{shown(r.path)}`" if r.path else "**total**", r.lines, r.lines_changed, r.hazards_fixed,
                 r.hazards_to_review, r.review_weight, r.effort) for r in [m.effort[-1], *m.effort[:-1]]]
        w.table(("file", "lines", "changed", "fixed", "to review", "weight", "effort"), rows,
                right=("lines", "changed", "fixed", "to review", "weight"))
        w.end_details()


def build(w: Writer, b: Build) -> None:
    w.add("### Build for AMD")
    w.add()
    w.table(("target", "compiles", "ok", "failed", "seconds"),
            [(t.target, t.compiles, t.ok, t.failed, f"{t.seconds:.2f}") for t in b.by_target],
            right=("compiles", "ok", "failed", "seconds"))
    w.add()
    w.details(f"{len(b.units)} compiles of {len({u.path for u in b.units})} units")
    w.table(("unit", "target", "status", "seconds", "errors", "warnings"),
            [(f"`{shown(u.path)}`", u.target, u.status, f"{u.seconds:.2f}", u.errors, u.warnings) for u in b.units],
            right=("seconds", "errors", "warnings"))
    w.end_details()
    findings(w, b.findings, "compiler diagnostics")
    if b.project is not None:
        w.add(f"Project build `{b.project['command']}`: {b.project['status']} in {b.project['seconds']:.1f} s")
        w.add()


def performance(w: Writer, report: Report) -> None:
    c = report.comparison
    if c is None and not report.bench_runs:
        return
    w.add("### Performance")
    w.add()
    if c is not None:
        w.add(f"`{c.base}` → `{c.candidate}`: candidate / base median, {c.confidence:.0%} bootstrap interval, "
              f"threshold {c.threshold:g}.")
        w.add()
        w.table(("benchmark", "unit", "base median", "cand. median", "ratio", "interval", "verdict"),
                [(x.name, x.unit, number(x.base.median), number(x.candidate.median),
                  "-" if x.ratio is None else f"{x.ratio.value:.3f}",
                  "-" if x.ratio is None else f"{x.ratio.low:.3f}–{x.ratio.high:.3f}",
                  f"**{x.verdict.value}**" if x.regression else x.verdict.value) for x in c.comparisons],
                right=("base median", "cand. median", "ratio", "interval"))
        w.add()
        for label, names in (("only in base", c.only_base), ("only in candidate", c.only_candidate)):
            if names:
                w.add(f"{label}: {', '.join(names)}")
                w.add()
    for run in report.bench_runs:
        w.details(f"results `{run.path}` ({run.created})")
        w.add(cell(run.machine))
        w.add()
        w.table(("benchmark", "status", "n", "median", "IQR", "unit"),
                [(b.name, b.status, b.summary.n, number(b.summary.median), number(b.summary.iqr), b.unit)
                 for b in run.benchmarks], right=("n", "median", "IQR"))
        w.end_details()


def diffs(w: Writer, m: Migration) -> None:
    if not m.diffs:
        return
    w.details(f"changes in {len(m.diffs)} files")
    for i, d in enumerate(m.diffs):
        fence = "````" if "```" in d.text else "```"
        block = f"`{shown(d.path)}` (+{d.added} −{d.removed})\n\n{fence}diff\n{d.text.rstrip()}\n{fence}\n"
        if not w.fits(block + "\n" * 100):
            w.add(f"*{len(m.diffs) - i} more diffs left out to fit a comment; `hipmigrate diff` prints them.*")
            w.cut += len(m.diffs) - i
            break
        w.add(block)
    w.end_details()


def render(report: Report, codes: dict, limit: int = LIMIT) -> str:
    """`codes`: the code table (migrate.codes), which names the blockers."""
    w = Writer(limit)
    w.add("## hipmigrate report")
    w.add()
    w.add(headline(report))
    w.add()
    for problem in report.problems:
        w.add(f"> cannot read {cell(problem)}")
        w.add()
    rows = report_rows(report, codes)
    if rows:
        w.add("**Blockers**")
        w.add()
        w.add("| count | code | what | first at | next step |")
        w.add("|---:|---|---|---|---|")
        for r in rows[:10]:
            w.add(f"| {r.count} | {r.code} | {cell(r.what)} | `{cell(r.first)}` | {cell(r.next_step)} |")
        w.add()
    if report.migration is not None:
        migration(w, report.migration)
    if report.build is not None:
        build(w, report.build)
    performance(w, report)
    if report.kernels is not None:
        kernels_report.markdown(w, report.kernels, report.comparison)
    if report.migration is not None:
        diffs(w, report.migration)
    w.add(f"<sub>hipmigrate · {report.created}"
          + (f" · {w.cut} rows or diffs left out to stay under GitHub's {GITHUB_LIMIT:,}-character limit" if w.cut else "")
          + "</sub>")
    return w.text()
