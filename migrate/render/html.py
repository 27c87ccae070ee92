"""`hipmigrate report --output-format html`: the report as ONE self-contained HTML page.

Inline CSS (pygments' colours included), inline SVG for the chart, no script and no external URL: the file
opens offline, in a mail attachment or a CI artifact. Summary numbers carry ids (`summary-files`, ...) so that
tools and tests can read them off the rendered page. Per-file diffs are in <details> (open when they are short), coloured by language; past
DIFF_LINES lines in all, the remaining files are listed without their diff.
"""
from __future__ import annotations

from html import escape

from migrate.render.bench import machine, number
from migrate.render import chart, highlight
from migrate.report.model import Build, Migration, Report, Stored
from migrate.render.blockers import report_rows
from migrate.render import kernels_report
from migrate.pathnames import shown

DIFF_LINES = 20_000
OPEN_LINES = 300  # diffs of fewer lines than this in all are shown open
CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#24292f;margin:0 auto;max-width:1180px;padding:16px 24px}
h1{font-size:24px;margin:8px 0 2px}h2{font-size:19px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:28px}
h3{font-size:15px;margin:18px 0 6px}.meta{color:#57606a;margin:0 0 12px}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}
.card{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;min-width:120px;background:#f6f8fa}
.card .n{font-size:22px;font-weight:600;display:block}.card .l{color:#57606a;font-size:12px}
.card.bad .n{color:#cf222e}.card.good .n{color:#1a7f37}
table{border-collapse:collapse;margin:6px 0 10px}th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.r,th.r{text-align:right}.ok{color:#1a7f37}.failed,.error,.slower{color:#cf222e}
.warning,.too.few{color:#9a6700}.faster{color:#1a7f37}code{font-size:12.5px}
details{margin:4px 0}summary{cursor:pointer}
table.diff{font:12px/1.35 ui-monospace,SFMono-Regular,Menlo,monospace;width:100%;border:1px solid #d0d7de}
table.diff td{border:0;padding:0 6px;white-space:pre-wrap;word-break:break-all}
table.diff td.sign{width:1em;color:#57606a;user-select:none}
tr.add{background:#e6ffec}tr.del{background:#ffebe9}tr.hunk td{background:#ddf4ff;color:#57606a}
.note{color:#57606a;font-style:italic}
"""


def card(ident: str, value, label: str, tone: str = "") -> str:
    return (f'<div class="card {tone}"><span class="n" id="summary-{ident}">{escape(str(value))}</span>'
            f'<span class="l">{escape(label)}</span></div>')


def rows_table(headers: tuple[str, ...], rows: list[tuple], right: tuple[str, ...] = (), ident: str = "") -> str:
    head = "".join(f'<th class="r">{escape(h)}</th>' if h in right else f"<th>{escape(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = []
        for h, v in zip(headers, row):
            cls = ' class="r"' if h in right else ""
            cells.append(f"<td{cls}>{v}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    id_attr = f' id="{ident}"' if ident else ""
    return f"<table{id_attr}><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def findings_table(items: tuple[Stored, ...], title: str, ident: str, status=None) -> str:
    if not items:
        return ""
    headers = ("location", "code", "severity", "message") + (("status",) if status else ())
    rows = []
    for s in items:
        f = s.finding
        row = (f"<code>{escape(s.where)}</code>", escape(f.code), f'<span class="{f.severity.label}">'
               f"{f.severity.label}</span>", escape(f.message))
        rows.append(row + ((escape(status(s)),) if status else ()))
    table = rows_table(headers, rows, ident=ident)
    if len(items) > 20:
        return f"<h3>{escape(title)} ({len(items)})</h3><details><summary>show all {len(items)}</summary>{table}</details>"
    return f"<h3>{escape(title)} ({len(items)})</h3>{table}"


def summary(report: Report) -> str:
    cards = []
    m, b, c = report.migration, report.build, report.comparison
    if m is not None:
        total = m.effort_total
        cards += [card("files", len(m.files), "files"), card("files-changed", m.count("migrated"), "files migrated"),
                  card("lines", m.lines, "lines"), card("conversions", m.conversions_total, "identifiers converted"),
                  card("unsupported", len(m.unsupported), "unsupported identifiers", "bad" if m.unsupported else ""),
                  card("hazards", len(m.hazards), "portability hazards"),
                  card("hazards-fixed", total.hazards_fixed if total else "-", "hazards fixed"),
                  card("effort", m.effort_class or "unknown", "effort")]
    if b is not None:
        failed = len(b.units) - b.ok
        cards += [card("compiles", len(b.units), "compiles"), card("compiles-ok", b.ok, "compiled", "good"),
                  card("compiles-failed", failed, "failed", "bad" if failed else "")]
    if c is not None:
        cards += [card("benchmarks", len(c.comparisons), "benchmarks compared"),
                  card("regressions", len(c.regressions), "regressions", "bad" if c.regressions else "good")]
    return f'<section id="summary"><div class="cards">{"".join(cards)}</div></section>'


def blocking(report: Report, codes: dict) -> str:
    """The first thing on the page, never folded: what stops the build, by cause (migrate/render/blockers.py)."""
    rows = [(r.count, escape(r.code), escape(r.what), f"<code>{escape(r.first)}</code>", escape(r.next_step))
            for r in report_rows(report, codes)]
    if not rows:
        return ('<section id="blockers"><h2>Blockers</h2><p class="ok">nothing found that stops the build'
                "</p></section>")
    table = rows_table(("count", "code", "what", "first at", "next step"), rows, right=("count",), ident="blockers-table")
    return f'<section id="blockers"><h2>Blockers</h2>{table}</section>'


def where_of(f) -> str:
    return f"{shown(f.span.path)}:{f.span.line}:{f.span.column}"


def migration(m: Migration) -> str:
    out = [f'<section id="migration"><h2>Migration</h2><p>{len(m.files)} files, {m.count("migrated")} migrated, '
           f'{m.count("skipped")} skipped, {m.lines} lines; engine {escape(m.engine)} {escape(m.engine_version)}; '
           f"target HIP {escape(m.hip_version)}; from <code>{escape(m.source)}</code></p>"]
    if m.conversions:
        rows = [(escape(k), str(v)) for k, v in m.conversions.items()] + [("<b>total</b>", f"<b>{m.conversions_total}</b>")]
        out.append("<h3>Identifiers converted by API family</h3>" +
                   rows_table(("API family", "conversions"), rows, right=("conversions",), ident="conversions"))
    out.append(findings_table(m.unsupported, "Unsupported identifiers (left unchanged)", "unsupported"))
    out.append(findings_table(m.hazards, "Portability hazards", "hazards",
                              lambda s: "fixed" if m.fixed(s) else "to review"))
    out.append(findings_table(m.warnings, "Warnings", "warnings"))
    out.append(findings_table(m.notes, "Notes (kept as they are)", "notes"))
    if m.effort is not None:
        rows = [(f"<code>{escape(shown(r.path))}</code>" if r.path else "<b>total</b>", r.lines, r.lines_changed,
                 r.hazards_fixed, r.hazards_to_review, r.review_weight, escape(r.effort)) for r in m.effort]
        right = ("lines", "changed", "fixed", "to review", "weight")
        out.append(f"<h3>Effort: {escape(m.effort_class or '')}</h3>" + rows_table(
            ("file", "lines", "changed", "fixed", "to review", "weight", "effort"), rows, right, "effort"))
    out.append("</section>")
    return "\n".join(out)


def build(b: Build) -> str:
    out = [f'<section id="build"><h2>Build for AMD</h2><p>{len(b.units)} compiles ({b.ok} ok) of '
           f"{len({u.path for u in b.units})} units for {escape(', '.join(b.targets))} with hipcc "
           f"{escape(b.hip_version)}; {len(b.skipped)} plain C/C++ units left to the project's build</p>"]
    out.append(rows_table(("target", "compiles", "ok", "failed", "seconds"),
                          [(escape(t.target), t.compiles, t.ok, t.failed, f"{t.seconds:.2f}") for t in b.by_target],
                          right=("compiles", "ok", "failed", "seconds"), ident="targets"))
    units = [(f"<code>{escape(shown(u.path))}</code>", escape(u.target), f'<span class="{escape(u.status)}">{escape(u.status)}'
              "</span>", f"{u.seconds:.2f}", u.errors, u.warnings, escape(u.first_error)) for u in b.units]
    table = rows_table(("unit", "target", "status", "seconds", "errors", "warnings", "first error"), units,
                       right=("seconds", "errors", "warnings"), ident="units")
    out.append(f"<h3>Per translation unit ({len(units)})</h3>"
               + (f"<details><summary>show all {len(units)}</summary>{table}</details>" if len(units) > 20 else table))
    out.append(findings_table(b.findings, "Compiler diagnostics", "diagnostics"))
    if b.project is not None:
        p = b.project
        out.append(f"<h3>Project build</h3><p><code>{escape(p['command'])}</code>: "
                   f'<span class="{escape(p["status"])}">{escape(p["status"])}</span> in {p["seconds"]:.1f} s</p>')
    out.append("</section>")
    return "\n".join(out)


def performance(report: Report) -> str:
    out = ['<section id="performance"><h2>Performance</h2>']
    c = report.comparison
    if c is not None:
        out.append(f"<p>Base <code>{escape(c.base)}</code>: {escape(machine(c.base_fingerprint))}<br>Candidate "
                   f"<code>{escape(c.candidate)}</code>: {escape(machine(c.candidate_fingerprint))}<br>Threshold "
                   f"{c.threshold:g}, {c.confidence:.0%} bootstrap interval ({c.resamples} resamples, seed {c.seed})</p>")
        out.append(chart.ratio_chart(c))
        rows = [(escape(x.name), escape(x.unit), number(x.base.median), number(x.base.iqr), x.base.n,
                 number(x.candidate.median), number(x.candidate.iqr), x.candidate.n,
                 "-" if x.ratio is None else f"{x.ratio.value:.3f}",
                 "-" if x.ratio is None else f"{x.ratio.low:.3f} to {x.ratio.high:.3f}",
                 f'<span class="{escape(x.verdict.value)}">{escape(x.verdict.value)}</span>') for x in c.comparisons]
        out.append(rows_table(("benchmark", "unit", "base median", "base IQR", "base n", "cand. median", "cand. IQR",
                               "cand. n", "ratio", "interval", "verdict"), rows,
                              right=("base median", "base IQR", "base n", "cand. median", "cand. IQR", "cand. n",
                                     "ratio", "interval"), ident="comparison"))
        for label, names in (("only in base", c.only_base), ("only in candidate", c.only_candidate)):
            if names:
                out.append(f"<p>{label}: {escape(', '.join(names))}</p>")
    for run in report.bench_runs:
        rows = [(escape(b.name), escape(b.status), b.summary.n, number(b.summary.median), number(b.summary.iqr),
                 escape(b.unit)) for b in run.benchmarks]
        out.append(f"<h3>Results <code>{escape(run.path)}</code> ({escape(run.created)})</h3><p>{escape(run.machine)}</p>"
                   + rows_table(("benchmark", "status", "n", "median", "IQR", "unit"), rows, right=("n", "median", "IQR")))
    if c is None and not report.bench_runs:
        out.append('<p class="note">No benchmarks: <code>hipmigrate bench</code> records them, '
                   "<code>--bench BASE.json CAND.json</code> compares two results files.</p>")
    out.append("</section>")
    return "\n".join(out)


def diffs(m: Migration) -> str:
    out = [f'<section id="diffs"><h2>Changes per file ({len(m.diffs)})</h2>']
    budget = DIFF_LINES
    opened = " open" if sum(d.text.count("\n") for d in m.diffs) <= OPEN_LINES else ""
    for d in m.diffs:
        head = f"<code>{escape(shown(d.path))}</code> <span class=\"ok\">+{d.added}</span> <span class=\"failed\">-{d.removed}</span>"
        lines = d.text.count("\n")
        if lines > budget:
            out.append(f'<p>{head} <span class="note">(diff left out: the report shows {DIFF_LINES} diff lines in all; '
                       "<code>hipmigrate diff</code> prints every one)</span></p>")
            continue
        budget -= lines
        out.append(f'<details{opened}><summary>{head}</summary><table class="diff">{highlight.diff_rows(d.text, d.path)}'
                   "</table></details>")
    out.append("</section>")
    return "\n".join(out)


def render(report: Report, codes: dict) -> str:
    """`codes`: the code table (migrate.codes), which names the blockers."""
    parts = [f"<h1>hipmigrate report</h1><p class=\"meta\">{escape(report.destination)} &middot; "
             f'<span id="created">{escape(report.created)}</span></p>', summary(report), blocking(report, codes)]
    parts += [f'<p class="failed">cannot read {escape(p)}</p>' for p in report.problems]
    if report.migration is not None:
        parts.append(migration(report.migration))
    if report.build is not None:
        parts.append(build(report.build))
    parts.append(performance(report))
    if report.kernels is not None:
        parts.append(kernels_report.html(report.kernels, report.comparison))
    if report.migration is not None and report.migration.diffs:
        parts.append(diffs(report.migration))
    style = CSS + highlight.css()
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>hipmigrate report: {escape(report.destination)}</title><style>{style}</style></head>\n<body>\n"
            + "\n".join(p for p in parts if p) + "\n</body></html>\n")
