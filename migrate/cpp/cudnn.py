"""What the cuDNN -> MIOpen rules share: cuDNN's names as written (and as hipify-perl writes them), argument text
with the packs' renames applied, and what a cuDNN rule does at one place (`Rewrite`).

The plain renames are the cudnn pack's (rules/mappings/cudnn.toml). Where a MIOpen call takes other arguments than
cuDNN's, CPP030 (migrate/cpp/cudnn_calls.py) writes the argument list again, and CPP031 (migrate/cpp/cudnn_find.py)
replaces cuDNN's algorithm queries; the spans they write whole or drop are gathered above both, in
migrate/cpp/cudnn_spans.py.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from migrate.cpp import parse
from migrate.cpp.parse import Token
from migrate.model import Edit, Severity

CUDNN_NAME = re.compile(r"(?:cudnn[A-Z_]|CUDNN_)\w*")
HIPDNN_NAME = re.compile(r"(?:hipdnn[A-Z_]|HIPDNN_)\w*")
# hipify-perl (without -roc) writes hipDNN's names for cuDNN's: the prefix swapped (cudnnCreate -> hipdnnCreate,
# CUDNN_DATA_FLOAT -> HIPDNN_DATA_FLOAT), except these (read from its substitution table, 6.0.2).
HIPDNN_SPELLED_OTHERWISE = {
    "HIPDNN_ACTIVATION_PATHTRU": "CUDNN_ACTIVATION_IDENTITY",
    "HIPDNN_LRN_CROSS_CHANNEL": "CUDNN_LRN_CROSS_CHANNEL_DIM1",
    "HIPDNN_CONVOLUTION_BWD_DATA_ALGO_TRANSPOSE_GEMM": "CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT",
    "HIPDNN_RNN_WITH_BIAS": "CUDNN_RNN_DOUBLE_BIAS",
}
# The header hipify-perl writes for <cudnn.h>.
HIPDNN_HEADER = "hipDNN.h"
CUDNN_HEADERS = re.compile(r"cudnn(?:_[a-z]+)*(?:_v\d+)?\.h|hipDNN\.h")


def canonical(name: str) -> str | None:
    """cuDNN's name for `name` as written: itself for a cuDNN name, cuDNN's for hipify-perl's hipDNN spelling,
    None for any other name."""
    if CUDNN_NAME.fullmatch(name):
        return name
    if not HIPDNN_NAME.fullmatch(name):
        return None
    if name in HIPDNN_SPELLED_OTHERWISE:
        return HIPDNN_SPELLED_OTHERWISE[name]
    return "cudnn" + name[len("hipdnn"):] if name.startswith("hipdnn") else "CUDNN_" + name[len("HIPDNN_"):]


def mentions_cudnn(data: bytes) -> bool:
    return b"cudnn" in data or b"CUDNN_" in data or b"hipdnn" in data or b"HIPDNN_" in data


def hip_name(ctx, name: str) -> str:
    """The name the packs give `name` (a cuDNN name in either spelling, or any other CUDA name) for the target;
    `name` itself when no pack maps it."""
    mapping = ctx.packs.names.get(canonical(name) or name)
    return ctx.hip_name(mapping) if mapping is not None else name


def code_tokens_in(ctx, start: int, end: int) -> list[Token]:
    """The identifier tokens in code within [start, end): those the packs know or that look like CUDA, and
    hipify-perl's hipDNN names."""
    tokens = ctx.once("cudnn:tokens", lambda c: sorted([*c.code_tokens(), *hipdnn_tokens(c)], key=lambda t: t.start))
    starts = ctx.once("cudnn:token-starts", lambda c: [t.start for t in tokens])
    i = bisect.bisect_left(starts, start)
    out = []
    while i < len(tokens) and tokens[i].start < end:
        if tokens[i].end <= end:
            out.append(tokens[i])
        i += 1
    return out


def hip_text(ctx, start: int, end: int) -> str:
    """The source text of [start, end) with every identifier the packs rename renamed, as MAP000 renames it (or as
    CPP032 renames hipify-perl's hipDNN names) when no rule writes that text whole."""
    pieces, pos = [], start
    for token in code_tokens_in(ctx, start, end):
        new = hip_name(ctx, token.name)
        if new != token.name:
            pieces += [ctx.text(pos, token.start), new]
            pos = token.end
    pieces.append(ctx.text(pos, end))
    return "".join(pieces)


def column(ctx, offset: int) -> int:
    return offset - (ctx.data.rfind(b"\n", 0, offset) + 1)


def aligned(separator: str, first_column: int, delta: int) -> str:
    """A separator between two arguments, whose line break is followed by blanks up to the first argument's column
    (an argument list laid out under its opening parenthesis), with `delta` more blanks (the function's name grew
    by `delta` characters)."""
    head, newline, indent = separator.rpartition("\n")
    if not newline or delta == 0 or indent.strip() or len(indent) != first_column:
        return separator
    return head + newline + " " * max(0, first_column + delta)


def realigned(ctx, spans: list[tuple[int, int]], delta: int) -> list[Edit]:
    """Whitespace edits that keep an argument list laid out under its opening parenthesis when the function's name
    changes length by `delta` and the arguments themselves are left as they are."""
    if delta == 0 or len(spans) < 2:
        return []
    first = column(ctx, spans[0][0])
    edits = []
    for (_, end), (start, _) in zip(spans, spans[1:]):
        between = ctx.text(end, start)
        new = aligned(between, first, delta)
        if new != between:
            line_start = ctx.data.rfind(b"\n", 0, start) + 1
            edits.append(Edit(line_start, start, new.rpartition("\n")[2]))
    return edits


def declaration_of(ctx, name: str, at):
    """The identifier node that declares variable or parameter `name` as seen from node `at`: the last declaration
    before it in the same function, else at file scope; None when the file declares none."""
    where = _function(at)
    by_scope = ctx.once("cudnn:declarations", _declarations_by_scope)
    found = None
    for scope in (None, _scope_key(where)):
        starts, nodes = by_scope.get((name.encode(), scope), ((), ()))
        i = bisect.bisect_right(starts, at.start_byte)
        if i and (found is None or nodes[i - 1].start_byte > found.start_byte):
            found = nodes[i - 1]
    return found


def _scope_key(function) -> tuple[int, int] | None:
    return None if function is None else (function.start_byte, function.end_byte)


def _declarations_by_scope(ctx) -> dict:
    """(name, function's span or None for file scope) -> (starts, identifier nodes) of its declarations, in order:
    worked out once, so that each lookup is a binary search (a file of many calls looked through every declaration
    of the file for each)."""
    grouped: dict = {}
    for node, _, _ in parse.declarations(ctx.tree.root_node, None):
        if node.type == "identifier":
            starts, nodes = grouped.setdefault((node.text, _scope_key(_function(node))), ([], []))
            starts.append(node.start_byte)
            nodes.append(node)
    return grouped


def _function(node):
    while node is not None and node.type != "function_definition":
        node = node.parent
    return node


def hipdnn_tokens(ctx) -> list[Token]:
    """hipify-perl's hipDNN names in code (no pack knows them, so they are not among ctx.code_tokens())."""
    def find(c):
        if b"hipdnn" not in c.data and b"HIPDNN_" not in c.data:
            return []
        matches = c.code_matches(re.compile(rb"(?<![\w$])((?:hipdnn|HIPDNN_)\w+)"))
        return [t for _, t in matches if canonical(t.name) is not None]  # not hipdnnoid, nor a project's own
    return ctx.once("cudnn:hipdnn-tokens", find)


def named_tokens(ctx) -> list[Token]:
    """Every token in code that is a cuDNN name in either spelling, in file order."""
    def find(c):
        found = [t for t in c.code_tokens() if canonical(t.name) is not None]
        return sorted(found + hipdnn_tokens(c), key=lambda t: t.start)
    return ctx.once("cudnn:named-tokens", find)


@dataclass(frozen=True)
class Rewrite:
    """What a cuDNN rule does at one place: its finding (span, message, severity) and fix, and the text it claims."""

    start: int
    end: int
    message: str
    severity: Severity
    edits: tuple[Edit, ...] = ()
    title: str = ""
    claimed: tuple[tuple[int, int], ...] = ()  # text the edits write whole (identifiers in it renamed by them)
    dropped: tuple[tuple[int, int], ...] = ()  # text the edits remove


def findings(rule, ctx, rewrites):
    """The findings of `rule` for its rewrites."""
    for r in rewrites:
        yield rule.finding(ctx, r.start, r.end, r.message, edits=r.edits, title=r.title, severity=r.severity,
                           family="cudnn")
