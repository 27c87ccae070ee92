"""A small lane data-flow helper for the hazard rules: within one function, which variables hold lane or
warp indices and which hold ballot / activemask results.

The flow is deliberately simple: a variable is a *lane variable* when it is named like one (lane, laneId,
warp, warpId, wid, ...) or is assigned, anywhere in the function, an expression that mentions threadIdx,
PTX %laneid, `__lane_id()` or another lane variable (subscripts do not count: `in[threadIdx.x]` is data, not
an index). A variable is a *ballot variable* when it is assigned a ballot result, or a bitwise combination
(`&`, `|`, `^`, `~`, casts, parentheses) of ballot results. Facts are computed once per function and cached
per file context.
"""
from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field

import tree_sitter

from migrate.cpp import parse

LANE_NAME = re.compile(r"(?i)^(?:lane|lane_?id|lane_?idx|lane_?index|warp|warp_?id|warp_?idx|warp_?index|wid)$")
LANE_SOURCE = re.compile(rb"\bthreadIdx\b|%laneid\b|\b__lane_id\b")
IDENT = re.compile(rb"[A-Za-z_]\w*")
SUBSCRIPT = re.compile(rb"\[[^\[\]]*\]")
BALLOT_CALLS = frozenset({"__ballot_sync", "__ballot", "__activemask"})
MASK_OPERATORS = frozenset({"&", "|", "^"})
# The 32-bit integer types a ballot result must not be kept in (normalised spelling).
BITS32 = frozenset({"int", "unsigned", "unsigned int", "signed", "signed int", "uint32_t", "int32_t",
                    "uint", "std::uint32_t", "std::int32_t", "long", "unsigned long", "long int",
                    "unsigned long int"})

_FUNCTIONS = parse.query("(function_definition body: (compound_statement)) @fn")
_ASSIGNMENTS = parse.query("""
(init_declarator declarator: (identifier) @name value: (_) @value)
(assignment_expression left: (identifier) @name right: (_) @value)
""")
_DECLARATIONS = parse.query("""
(declaration declarator: (init_declarator declarator: (identifier) @name)) @decl
(declaration declarator: (identifier) @name) @decl
(parameter_declaration declarator: (identifier) @name) @decl
""")


def text(node: tree_sitter.Node) -> str:
    return node.text.decode("utf-8", "replace")


def index_text(node: tree_sitter.Node) -> bytes:
    """The node's source with every `[...]` subscript removed (repeatedly, innermost first)."""
    data = node.text
    while b"[" in data:
        stripped = SUBSCRIPT.sub(b"", data)
        if stripped == data:
            break
        data = stripped
    return data


@dataclass
class FunctionFacts:
    node: tree_sitter.Node | None
    lanes: set[str] = field(default_factory=set)
    ballots: set[str] = field(default_factory=set)
    declarations: dict[str, tree_sitter.Node] = field(default_factory=dict)  # name -> declaration node

    def is_lane(self, node: tree_sitter.Node) -> bool:
        """Does the expression involve a thread/lane index (threadIdx, %laneid, __lane_id(), a lane variable)?"""
        data = index_text(node)
        if LANE_SOURCE.search(data):
            return True
        return any(m.group().decode() in self.lanes for m in IDENT.finditer(data))

    def is_mask(self, node: tree_sitter.Node | None) -> bool:
        """Is the expression a ballot result, or a bitwise combination that contains one?"""
        while node is not None and node.type in ("parenthesized_expression", "cast_expression"):
            if node.type == "cast_expression":
                node = node.child_by_field_name("value")
            else:
                node = node.named_children[0] if node.named_children else None
        if node is None:
            return False
        if node.type == "identifier":
            return text(node) in self.ballots
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            return function is not None and text(function) in BALLOT_CALLS
        if node.type == "binary_expression":
            operator = node.child_by_field_name("operator")
            if operator is None or text(operator) not in MASK_OPERATORS:
                return False
            return self.is_mask(node.child_by_field_name("left")) or self.is_mask(node.child_by_field_name("right"))
        if node.type == "unary_expression":
            operator = node.child_by_field_name("operator")
            return operator is not None and text(operator) == "~" and self.is_mask(node.child_by_field_name("argument"))
        return False

    def declared_type(self, name: str) -> tree_sitter.Node | None:
        decl = self.declarations.get(name)
        return decl.child_by_field_name("type") if decl is not None else None


def is_32bit(type_node: tree_sitter.Node | None) -> bool:
    return type_node is not None and " ".join(text(type_node).split()) in BITS32


def _facts_of(function: tree_sitter.Node) -> FunctionFacts:
    facts = FunctionFacts(function)
    assignments: list[tuple[str, tree_sitter.Node, set[str]]] = []
    for _, match in tree_sitter.QueryCursor(_ASSIGNMENTS).matches(function):
        name, value = text(match["name"][0]), match["value"][0]
        data = index_text(value)
        assignments.append((name, value, {m.group().decode() for m in IDENT.finditer(data)}))
        if LANE_SOURCE.search(data):
            facts.lanes.add(name)
    for _, match in tree_sitter.QueryCursor(_DECLARATIONS).matches(function):
        name = text(match["name"][0])
        facts.declarations.setdefault(name, match["decl"][0])
        if LANE_NAME.match(name):
            facts.lanes.add(name)
    changed = True
    while changed:  # to a fixed point: a handful of rounds on real kernels
        changed = False
        for name, value, idents in assignments:
            if name not in facts.lanes and idents & facts.lanes:
                facts.lanes.add(name)
                changed = True
            if name not in facts.ballots and facts.is_mask(value):
                facts.ballots.add(name)
                changed = True
    return facts


class Lanes:
    """The facts of every function of one file, found on demand."""

    def __init__(self, tree: tree_sitter.Tree):
        self._tree = tree
        self._facts: dict[int, FunctionFacts] = {}
        self._outside = FunctionFacts(None)

    def function_of(self, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """The innermost function definition around `node`."""
        while node is not None and node.type != "function_definition":
            node = node.parent
        return node

    def facts(self, node: tree_sitter.Node) -> FunctionFacts:
        """The facts of the function around `node` (empty facts outside any function)."""
        function = self.function_of(node)
        if function is None:
            return self._outside
        key = function.start_byte
        if key not in self._facts:
            self._facts[key] = _facts_of(function)
        return self._facts[key]


_cache: "weakref.WeakKeyDictionary[object, Lanes]" = weakref.WeakKeyDictionary()


def lanes(ctx) -> Lanes:
    """The lane facts of `ctx`'s file, shared by every rule that asks."""
    found = _cache.get(ctx)
    if found is None:
        found = _cache[ctx] = Lanes(ctx.tree)
    return found


def callee(call: tree_sitter.Node) -> str:
    """The plain name a call_expression calls (the last part of a qualified name), else ''."""
    function = call.child_by_field_name("function")
    while function is not None and function.type in ("qualified_identifier", "template_function"):
        function = function.child_by_field_name("name")
    return text(function) if function is not None and function.type == "identifier" else ""


def arguments(call: tree_sitter.Node) -> list[tree_sitter.Node]:
    args = call.child_by_field_name("arguments")
    return [c for c in args.named_children if c.type != "comment"] if args is not None else []


def strip_span(node: tree_sitter.Node) -> tuple[int, int]:
    """The node's byte range without leading and trailing whitespace (for preproc_arg values)."""
    data = node.text
    start = node.start_byte + (len(data) - len(data.lstrip()))
    return start, start + len(data.strip())


NUMBER = re.compile(r"^(0[xX][0-9a-fA-F]+|\d+)[uUlL]*$")


def int_value(literal: str) -> int | None:
    """The value of an integer literal such as `32`, `0x1f` or `32u`, else None."""
    m = NUMBER.match(literal.strip())
    if not m:
        return None
    try:
        return int(m.group(1), 0)
    except ValueError:  # octal spelling such as 010
        return None


def matches(q: tree_sitter.Query, node: tree_sitter.Node):
    """The query's matches under `node`: (pattern index, {capture: [nodes]})."""
    return tree_sitter.QueryCursor(q).matches(node)
