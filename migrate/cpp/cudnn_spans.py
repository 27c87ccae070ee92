"""The text that the cuDNN rewrites write whole or drop, gathered from both (migrate/cpp/cudnn_calls.py, CPP030, and
migrate/cpp/cudnn_find.py, CPP031). The identifiers inside text they write are renamed by them, so the pack renames
(MAP000) and hipify-perl's hipDNN names (CPP032) keep out of those spans (`claimed`), and the reports of names with
no counterpart (CPP006, CPP033) keep out of text that the rewrite drops (`dropped`).
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass

from migrate.cpp import cudnn_calls, cudnn_find
from migrate.cpp.cudnn import mentions_cudnn


@dataclass(frozen=True)
class Spans:
    """Sorted, non-overlapping byte ranges, asked whether they hold an offset."""

    ranges: tuple[tuple[int, int], ...] = ()

    def holds(self, start: int, end: int) -> bool:
        i = bisect.bisect_right(self.ranges, (start, float("inf"))) - 1
        return i >= 0 and self.ranges[i][0] <= start and end <= self.ranges[i][1]


def _merged(ranges) -> Spans:
    out: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return Spans(tuple(out))


def claimed(ctx) -> Spans:
    """Text a cuDNN rule writes whole: renamers leave the identifiers in it alone."""
    return ctx.once("cudnn:claimed", lambda c: _merged(r for w in _rewrites(c) for r in w.claimed))


def dropped(ctx) -> Spans:
    """Text a cuDNN rule removes: nothing in it is reported as left unported."""
    return ctx.once("cudnn:dropped", lambda c: _merged(r for w in _rewrites(c) for r in w.dropped))


def _rewrites(ctx):
    """The rewrites of the cuDNN rules that run on this file (all of them when the file is not run through
    migrate.fixing.run_rules, which records the rules it runs)."""
    if not mentions_cudnn(ctx.data):
        return []
    running = ctx.memo.get("rules")
    out = []
    if running is None or "CPP030" in running:
        out += cudnn_calls.rewrites(ctx)
    if running is None or "CPP031" in running:
        out += cudnn_find.rewrites(ctx)
    return out
