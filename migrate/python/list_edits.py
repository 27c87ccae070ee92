"""Byte edits that take elements out of a Python list literal, or whole statements out of their block, leaving
valid Python with its layout: commas, a line of its own, comments kept, an emptied block given `pass`."""
from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from migrate.model import Edit, Severity
from migrate.python.index import index, quoted


@dataclass
class Item:
    """One element of a list: the span of its value and its words (None: not a string literal)."""

    element: cst.BaseElement
    start: int
    end: int
    words: list[str] | None
    built: str | None = None  # the literal start of a string made at run time (f-string, .format, %, +)


@dataclass
class Action:
    first: int  # index of the first element it covers
    count: int  # elements it covers
    message: str
    title: str = ""
    new: list[str] | None = None  # None: dropped (with `title`) or only reported (without)
    severity: Severity | None = None
    edits: list[Edit] = field(default_factory=list)


def fill_edits(ctx, node: cst.List, items: list[Item], actions: list[Action]) -> None:
    """Fill in each action's edits: replacements in place, removals with their commas and, for an element
    on a line of its own, with its line (a comment on that line goes with it; comment lines stay)."""
    owner: dict[int, Action] = {}
    for action in actions:
        if action.new:
            first, last = items[action.first], items[action.first + action.count - 1]
            separator = ", "
            line = _line_start(ctx.data, first.start)
            if line is not None:
                separator = "," + ctx.newline + ctx.data[line:first.start].decode()
            text = separator.join(quoted(first.element.value, word) for word in action.new)
            action.edits.append(Edit(first.start, last.end, text))
        elif action.title:  # removed
            for k in range(action.first, action.first + action.count):
                owner[k] = action
    run: list[int] = []
    for k in sorted(owner) + [None]:
        if run and (k is None or k != run[-1] + 1):
            for start, end in _removal(ctx, node, items, run[0], run[-1]):
                # one range per run, split where each removed element starts, so that each finding owns
                # the part of its own element
                cuts = [start] + [items[m].start for m in run[1:] if start < items[m].start < end] + [end]
                for a, b in zip(cuts, cuts[1:]):
                    m = max([x for x in run if items[x].start <= a] or [run[0]])
                    owner[m].edits.append(Edit(a, b, ""))
            run = []
        if k is not None:
            run.append(k)


def drop_operand(ctx, node: cst.List, items: list[Item], actions: list[Action]) -> bool:
    """A list all of whose elements go, joined with `+` (`flags + ["-gencode", "arch=..."]`): it goes with its
    `+` instead of leaving `+ []`; each action removes the part from its element on."""
    owner = {k: a for a in actions if a.title and not a.new for k in range(a.first, a.first + a.count)}
    parent = index(ctx).parent(node)
    if not items or len(owner) != len(items) or not isinstance(parent, cst.BinaryOperation) \
            or not isinstance(parent.operator, cst.Add):
        return False
    if parent.right is node:
        start, end = ctx.byte_span(parent.left)[1], ctx.byte_span(node)[1]
    else:
        start, end = ctx.byte_span(node)[0], ctx.byte_span(parent.right)[0]
    cuts = [start] + [item.start for item in items[1:]] + [end]
    for k, (a, b) in enumerate(zip(cuts, cuts[1:])):
        owner[k].edits.append(Edit(a, b, ""))
    return True


def _line_start(data: bytes, pos: int) -> int | None:
    """Where the line of `pos` starts, when only blanks precede `pos` on it; else None."""
    start = data.rfind(b"\n", 0, pos) + 1
    return start if not data[start:pos].strip(b" \t") else None


def _removal(ctx, node: cst.List, items: list[Item], a: int, b: int) -> list[tuple[int, int]]:
    """The byte ranges that remove elements a..b (all removed, and the ones around them kept)."""
    data = ctx.data
    first, last = items[a], items[b]
    line = _line_start(data, first.start)
    after = b + 1 < len(items)
    stop = items[b + 1].start if after else ctx.byte_span(node.rbracket)[1] - 1  # its span has the blanks before ]
    if after:
        # from its comma on, which may stand on a later line than the element (`"-O3"  # x` then `,`: a fuzz find)
        base = ctx.byte_span(last.element.comma)[1] if isinstance(last.element.comma, cst.Comma) else last.end
        gap = data[base:stop]
        newline = gap.find(b"\n")
        if newline < 0:
            return [(first.start, stop)]
        if line is not None:
            return [(line, base + newline + 1)]
        end = base + newline - (1 if gap[:newline].endswith(b"\r") else 0)
        return [(_blanks_before(data, first.start), end)]
    comma = last.element.comma
    trailing = isinstance(comma, cst.Comma)
    base = ctx.byte_span(comma)[1] if trailing else last.end  # a trailing comma may stand on a later line too
    newline = data[base:stop].find(b"\n")
    if a == 0:
        if line is not None and newline >= 0:
            return [(line, base + newline + 1)]
        return [(first.start, base)]
    previous = items[a - 1]
    previous_comma = [ctx.byte_span(previous.element.comma)] if not trailing else []
    if line is not None and newline >= 0:
        return previous_comma + [(line, base + newline + 1)]
    if b"#" not in data[previous.end:first.start]:
        return [(previous.end, last.end)]
    # a comment after the element before: keep it and its line break
    start = line if line is not None else _blanks_before(data, first.start)
    return previous_comma + [(start, base)]


def _blanks_before(data: bytes, pos: int) -> int:
    while pos > 0 and data[pos - 1:pos] in (b" ", b"\t"):
        pos -= 1
    return pos


def statement_removals(ctx, idx, calls: list[cst.Call]) -> dict[cst.Call, list[Edit]]:
    """Edits that remove each call's statement (`flags.append(...)` on a line of its own): its line goes; where every
    statement of a block goes, the first becomes `pass` so the block stays valid Python."""
    lines: dict[cst.Call, cst.SimpleStatementLine] = {}
    for call in calls:
        expr = idx.parent(call)
        line = idx.parent(expr) if isinstance(expr, cst.Expr) else None
        if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
            lines[call] = line
    by_block: dict[int, list[cst.Call]] = {}
    blocks: dict[int, cst.CSTNode] = {}
    for call, line in lines.items():
        block = idx.parent(line)
        blocks[id(block)] = block
        by_block.setdefault(id(block), []).append(call)
    edits: dict[cst.Call, list[Edit]] = {}
    for key, mine in by_block.items():
        block = blocks[key]
        body = list(getattr(block, "body", []))
        gone = {id(lines[c]) for c in mine}
        empty = isinstance(block, cst.IndentedBlock) and all(id(statement) in gone for statement in body)
        for n, call in enumerate(sorted(mine, key=lambda c: ctx.byte_span(c)[0])):
            start, end = ctx.byte_span(lines[call])
            line_start = ctx.data.rfind(b"\n", 0, start) + 1
            if empty and n == 0:
                edits[call] = [Edit(start, ctx.byte_span(lines[call].body[0])[1], "pass")]
                continue
            newline = ctx.data.find(b"\n", end)
            edits[call] = [Edit(line_start, len(ctx.data) if newline < 0 else newline + 1, "")]
    return edits
