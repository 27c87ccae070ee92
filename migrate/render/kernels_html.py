"""The HTML report's kernel table, sortable without script, and its chart of occupancy ratios per AMD target.

Sorting: each sort key's order is a tbody of its own, pre-sorted; radio buttons in the header cells pick which one
shows (CSS `:checked ~`), so the page keeps no script. The chart is inline SVG: a row per kernel, a dot per
target at AMD occupancy over CUDA's, a line at 1 and the band below the finding threshold shaded.
"""
from __future__ import annotations

from html import escape

from migrate.kernels.demangle import without_parameters
from migrate.kernels.model import KernelDiff

# (key, label, the column it sorts by, numeric): "order" is the table's own order (source file and line)
SORTS = (("order", "source order", None, False), ("kernel", "kernel", 0, False), ("ratio", "ratio", 8, True),
         ("amd", "AMD occupancy", 7, True), ("registers", "registers", 3, True))
CSS = ("input.sort{display:none}label.sort{cursor:pointer;color:#0969da;margin-right:10px}"
       + "".join(f"#sort-{k}:checked~table tbody.by-{k}{{display:table-row-group}}"
                 f"#sort-{k}:checked~p label[for=sort-{k}]{{font-weight:600;color:#24292f}}" for k, *_ in SORTS)
       + "table#kernels tbody{display:none}")
COLORS = ("#0969da", "#cf222e", "#1a7f37", "#8250df", "#9a6700")
LABEL, PLOT, RIGHT, ROW, TOP, BOTTOM = 220, 420, 120, 22, 10, 34


def _number(cell: str) -> float:
    """The first number of a cell ("25% 8/32 LDS" -> 25, "168 / 128v ..." -> 128 (the AMD side), "-" -> inf)."""
    text = cell.split(" / ", 1)[-1] if " / " in cell else cell
    digits = ""
    for ch in text:
        if ch.isdigit() or (ch == "." and digits):
            digits += ch
        elif digits:
            break
    return float(digits) if digits else float("inf")


def _groups(rows: list[tuple]) -> list[list[tuple]]:
    """The rows of each kernel together (a kernel's first row names it)."""
    out: list[list[tuple]] = []
    for row in rows:
        if row[0] or not out:
            out.append([])
        out[-1].append(row)
    return out


def sortable_table(headers: tuple[str, ...], rows: list[tuple], right: tuple[str, ...]) -> str:
    head = "".join(f'<th class="r">{escape(h)}</th>' if h in right else f"<th>{escape(h)}</th>" for h in headers)
    groups = _groups(rows)
    bodies = []
    for sort_key, _, column, numeric in SORTS:
        ordered = groups if column is None else sorted(
            groups, key=lambda g: min(_number(r[column]) for r in g) if numeric else g[0][column])
        cells = "".join("<tr>" + "".join(f'<td class="r">{escape(v)}</td>' if h in right else f"<td>{escape(v)}</td>"
                                         for h, v in zip(headers, r)) + "</tr>" for g in ordered for r in g)
        bodies.append(f'<tbody class="by-{sort_key}">{cells}</tbody>')
    radios = "".join(f'<input type="radio" name="kernel-sort" class="sort" id="sort-{k}"{" checked" if i == 0 else ""}>'
                     for i, (k, *_) in enumerate(SORTS))
    labels = "".join(f'<label class="sort" for="sort-{k}">{escape(label)}</label>' for k, label, *_ in SORTS)
    return (f"<style>{CSS}</style><div class=\"kernel-table\">{radios}<p>sort by: {labels}</p>"
            f'<table id="kernels"><thead><tr>{head}</tr></thead>{"".join(bodies)}</table></div>')


def ratio_chart(diff: KernelDiff) -> str:
    points = [(without_parameters(k.name), c.target, c.hip_version, c.ratio) for k in diff.kernels for c in k.amd
              if c.ratio is not None]
    if not points:
        return ""
    names = list(dict.fromkeys(p[0] for p in points))
    columns = list(dict.fromkeys((p[1], p[2]) for p in points))
    high = max(2.0, max(p[3] for p in points) * 1.05)

    def x(v: float) -> float:
        return round(LABEL + min(v, high) / high * PLOT, 1)

    plot_bottom = TOP + ROW * len(names)
    width, height = LABEL + PLOT + RIGHT, plot_bottom + BOTTOM + 18 * ((len(columns) + 2) // 3)
    out = [f'<svg id="occupancy-chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
           'aria-label="AMD occupancy over CUDA occupancy, per kernel and target" font-family="sans-serif" '
           'font-size="12">',
           f'<rect x="{LABEL}" y="{TOP}" width="{round(x(diff.min_ratio) - LABEL, 1)}" height="{ROW * len(names)}" '
           f'fill="#ffebe9"><title>below {diff.min_ratio:g}: a finding (PRF003)</title></rect>',
           f'<line x1="{x(1)}" y1="{TOP}" x2="{x(1)}" y2="{plot_bottom}" stroke="#8c959f" stroke-dasharray="3,3"/>']
    for i in range(5):
        tick = high * i / 4
        out.append(f'<line x1="{x(tick)}" y1="{plot_bottom}" x2="{x(tick)}" y2="{plot_bottom + 4}" stroke="#57606a"/>'
                   f'<text x="{x(tick)}" y="{plot_bottom + 16}" text-anchor="middle" fill="#57606a">{tick:.2f}</text>')
    out.append(f'<text x="{LABEL + PLOT / 2}" y="{plot_bottom + 30}" text-anchor="middle" fill="#24292f">occupancy '
               "ratio, AMD / CUDA</text>")
    for i, name in enumerate(names):
        y = TOP + ROW * i + ROW / 2
        out.append(f'<text x="{LABEL - 8}" y="{y + 4}" text-anchor="end" fill="#24292f">{escape(name[:32])}</text>'
                   f'<line x1="{LABEL}" y1="{y}" x2="{LABEL + PLOT}" y2="{y}" stroke="#eaeef2"/>')
    for name, target, release, ratio in points:
        at = columns.index((target, release))
        y = TOP + ROW * names.index(name) + ROW / 2 + (at - (len(columns) - 1) / 2) * min(6, 12 / len(columns))
        color = COLORS[at % len(COLORS)]
        out.append(f'<circle class="kernel" cx="{x(ratio)}" cy="{y}" r="5" fill="{color}" data-kernel="{escape(name)}" '
                   f'data-target="{escape(target)}" data-ratio="{ratio:.4f}"><title>{escape(name)} on {escape(target)} '
                   f"(HIP {escape(release)}): {ratio:.2f}</title></circle>")
    for i, (target, release) in enumerate(columns):
        lx, ly = LABEL + (i % 3) * 140, plot_bottom + BOTTOM + 14 + 18 * (i // 3)
        out.append(f'<circle cx="{lx}" cy="{ly - 4}" r="5" fill="{COLORS[i % len(COLORS)]}"/>'
                   f'<text x="{lx + 10}" y="{ly}" fill="#24292f">{escape(target)} (HIP {escape(release)})</text>')
    out.append("</svg>")
    return "\n".join(out)
