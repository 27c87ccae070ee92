"""An inline SVG chart of benchmark ratios (candidate / base median) with their bootstrap intervals.

One row per compared benchmark: the interval as a bar with end caps, the ratio as a dot coloured by verdict,
the value at the right; a shaded band marks "same within the threshold" and a line marks 1.0. Plain SVG
with no script and no external reference, so the page that holds it works offline.
"""
from __future__ import annotations

from html import escape

from migrate.bench.stats import Verdict

COLORS = {Verdict.FASTER: "#1a7f37", Verdict.SLOWER: "#cf222e", Verdict.FAILED: "#cf222e", Verdict.SAME: "#57606a",
          Verdict.TOO_FEW: "#9a6700", Verdict.NO_BASE: "#9a6700"}
LABEL, PLOT, VALUE, ROW, TOP, BOTTOM = 170, 440, 150, 26, 12, 34


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    step = (high - low) / (count - 1)
    return [low + i * step for i in range(count)]


def ratio_chart(comparison) -> str:
    rows = [c for c in comparison.comparisons if c.ratio is not None]
    if not rows:
        return ""
    t = comparison.threshold
    lows = [c.ratio.low for c in rows] + [c.ratio.value for c in rows] + [1 / (1 + t)]
    highs = [c.ratio.high for c in rows] + [c.ratio.value for c in rows] + [1 + t]
    pad = (max(highs) - min(lows)) * 0.06 or 0.05
    lo, hi = min(lows) - pad, max(highs) + pad

    def x(v: float) -> float:
        return round(LABEL + (min(max(v, lo), hi) - lo) / (hi - lo) * PLOT, 1)

    width, height = LABEL + PLOT + VALUE, TOP + ROW * len(rows) + BOTTOM
    plot_bottom = TOP + ROW * len(rows)
    out = [f'<svg id="ratio-chart" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="ratio of medians, candidate / base, with '
           f'{comparison.confidence:.0%} intervals" font-family="sans-serif" font-size="12">',
           f'<rect x="{x(1 / (1 + t))}" y="{TOP}" width="{round(x(1 + t) - x(1 / (1 + t)), 1)}" '
           f'height="{ROW * len(rows)}" fill="#eaeef2"><title>same within the threshold {t:g}</title></rect>',
           f'<line x1="{x(1)}" y1="{TOP}" x2="{x(1)}" y2="{plot_bottom}" stroke="#8c959f" stroke-dasharray="3,3"/>']
    for tick in _ticks(lo, hi):
        out.append(f'<line x1="{x(tick)}" y1="{plot_bottom}" x2="{x(tick)}" y2="{plot_bottom + 4}" stroke="#57606a"/>'
                   f'<text x="{x(tick)}" y="{plot_bottom + 16}" text-anchor="middle" fill="#57606a">{tick:.3f}</text>')
    out.append(f'<text x="{LABEL + PLOT / 2}" y="{height - 3}" text-anchor="middle" fill="#24292f">ratio of medians, '
               f'candidate / base ({comparison.confidence:.0%} bootstrap interval)</text>')
    for i, c in enumerate(rows):
        y = TOP + ROW * i + ROW / 2
        r, color = c.ratio, COLORS[c.verdict]
        name = escape(c.name)
        out.append(
            f'<g class="bench" data-name="{name}" data-ratio="{r.value:.4f}" data-low="{r.low:.4f}" '
            f'data-high="{r.high:.4f}" data-verdict="{c.verdict.value}">'
            f'<title>{name}: {r.value:.3f} ({r.low:.3f} to {r.high:.3f}), {c.verdict.value}</title>'
            f'<text x="{LABEL - 8}" y="{y + 4}" text-anchor="end" fill="#24292f">{name}</text>'
            f'<line x1="{x(r.low)}" y1="{y}" x2="{x(r.high)}" y2="{y}" stroke="{color}" stroke-width="2"/>'
            f'<line x1="{x(r.low)}" y1="{y - 5}" x2="{x(r.low)}" y2="{y + 5}" stroke="{color}" stroke-width="2"/>'
            f'<line x1="{x(r.high)}" y1="{y - 5}" x2="{x(r.high)}" y2="{y + 5}" stroke="{color}" stroke-width="2"/>'
            f'<circle cx="{x(r.value)}" cy="{y}" r="4.5" fill="{color}"/>'
            f'<text x="{LABEL + PLOT + 10}" y="{y + 4}" fill="{color}">{r.value:.3f} {escape(c.verdict.value)}</text>'
            '</g>')
    out.append("</svg>")
    return "\n".join(out)
