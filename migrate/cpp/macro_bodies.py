"""The trees the hazard rules search in one file, and what they share about it (kept in the context's memo).

`#define` bodies are opaque to the file's tree. `trees(ctx)` gives the rules the file's tree and then each
macro body parsed on its own (with the file offset of its first byte), so the same queries run inside
macros; in a body the whole body is one scope, and a function-like macro's parameters named like lanes are
lane variables. A *lane macro* (`#define LANE (threadIdx.x & 31)`, `#define TID threadIdx.x`) counts as a
lane source wherever it is used (migrate/cpp/lanes.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter

from migrate.cpp import parse
from migrate.cpp.context import DEFINE
from migrate.cpp.lanes import LANE_NAME, LANE_SOURCE, Lanes, index_text
from migrate.cpp.nodes import text


@dataclass(frozen=True)
class Macro:
    name: str
    params: tuple[str, ...] | None  # None for an object-like macro
    body: tree_sitter.Node  # the preproc_arg in the file's tree


@dataclass(frozen=True)
class Tree:
    """A tree the hazard rules search: the file's own (`macro` "") or one #define body parsed alone, whose
    node offsets are relative to `base` in the file."""

    root: tree_sitter.Node
    base: int
    lanes: Lanes
    data: bytes  # the text the tree was parsed from (offsets of `root` index it)
    macro: str = ""

    def node_at(self, start: int, end: int) -> tree_sitter.Node:
        """The smallest node of this tree around [start, end) (offsets into `data`)."""
        return self.root.descendant_for_byte_range(start, end)


class _FileState:
    """What the hazard rules share about one file (kept in the context's memo)."""

    def __init__(self, ctx):
        self.macros: list[Macro] = _macros_of(ctx)
        self.lane_macros = frozenset(m.name for m in self.macros if LANE_SOURCE.search(index_text(m.body)))
        self.lanes = Lanes(ctx.tree, self.lane_macros)
        self.bodies: dict[int, Tree] = {}

    def body(self, macro: Macro) -> Tree:
        key = macro.body.start_byte
        if key not in self.bodies:
            tree = parse.parse_fragment(macro.body.text)
            params = frozenset(p for p in macro.params or () if LANE_NAME.match(p))
            self.bodies[key] = Tree(tree.root_node, key, Lanes(tree, self.lane_macros | params, whole=True),
                                    macro.body.text, macro.name)
        return self.bodies[key]


def _macros_of(ctx) -> list[Macro]:
    """Found from each `#define` line's name node (cheaper than a query over the whole tree)."""
    found = []
    for m in DEFINE.finditer(ctx.data):
        name = ctx.node_at(m.start(1), m.end(1))
        definition = name.parent
        if definition is None or definition.type not in ("preproc_def", "preproc_function_def") \
                or definition.child_by_field_name("name") != name:
            continue
        body = definition.child_by_field_name("value")
        if body is None:
            continue
        params = None
        if definition.type == "preproc_function_def":
            params = tuple(text(p) for p in definition.child_by_field_name("parameters").named_children
                           if p.type == "identifier")
        found.append(Macro(text(name), params, body))
    return found


def _state(ctx) -> _FileState:
    return ctx.once("lanes", _FileState)


def lanes(ctx) -> Lanes:
    """The lane facts of `ctx`'s file tree, shared by every rule that asks."""
    return _state(ctx).lanes


def macros(ctx) -> list[Macro]:
    """The file's #define's, in order."""
    return _state(ctx).macros


def trees(ctx, hint: re.Pattern[bytes] | None = None) -> list[Tree]:
    """The file's tree, then the body of every #define whose text `hint` finds (every body without a hint)."""
    state = _state(ctx)
    found = [Tree(ctx.tree.root_node, 0, state.lanes, ctx.data)]
    for macro in state.macros:
        if hint is None or hint.search(macro.body.text):
            found.append(state.body(macro))
    return found
