"""A small lane data-flow helper for the hazard rules: within one function, which variables hold lane or
warp indices and which hold ballot / activemask results.

The flow is deliberately simple: a variable is a *lane variable* when it is named like one (lane, laneId,
warp, warpId, wid, ...) or is assigned, anywhere in the function, an expression that mentions threadIdx,
PTX %laneid, `__lane_id()`, a lane macro or another lane variable (subscripts do not count: `in[threadIdx.x]`
is data, not an index). A variable is a *ballot variable* when it is assigned a ballot result, or a bitwise
combination (`&`, `|`, `^`, `~`, casts, parentheses) of ballot results. Facts are computed once per function
and cached per file context.

`#define` bodies are opaque to the file's tree. `trees(ctx)` gives the rules the file's tree and then each
macro body parsed on its own (with the file offset of its first byte), so the same queries run inside
macros; in a body the whole body is one scope, and a function-like macro's parameters named like lanes are
lane variables. A *lane macro* (`#define LANE (threadIdx.x & 31)`, `#define TID threadIdx.x`) counts as a
lane source wherever it is used.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import tree_sitter

from migrate.cpp import parse
from migrate.cpp.context import DEFINE
from migrate.edits import decoded

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
        return any(decoded(m.group()) in self.lanes for m in IDENT.finditer(data))

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


def _facts_of(function: tree_sitter.Node, seeds: frozenset[str] = frozenset()) -> FunctionFacts:
    facts = FunctionFacts(function, set(seeds))
    assignments: list[tuple[str, tree_sitter.Node, set[str]]] = []
    for _, match in _ASSIGNMENTS.cursor().matches(function):
        name, value = text(match["name"][0]), match["value"][0]
        data = index_text(value)
        assignments.append((name, value, {decoded(m.group()) for m in IDENT.finditer(data)}))
        if LANE_SOURCE.search(data):
            facts.lanes.add(name)
    for _, match in _DECLARATIONS.cursor().matches(function):
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
    """The facts of every function of one tree, found on demand. `seeds` are names that are lane sources
    everywhere (lane macros; a macro body's lane-named parameters); with `whole`, code outside any function
    (a macro body) is one scope of its own."""

    def __init__(self, tree: tree_sitter.Tree, seeds: frozenset[str] = frozenset(), whole: bool = False):
        self._tree = tree
        self._seeds = seeds
        self._facts: dict[int, FunctionFacts] = {}
        self._outside = _facts_of(tree.root_node, seeds) if whole else FunctionFacts(None, set(seeds))

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
            self._facts[key] = _facts_of(function, self._seeds)
        return self._facts[key]


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


_DECLARING = {"declaration", "parameter_declaration", "field_declaration"}
_spellings: dict[frozenset[bytes], list[tuple[bytes, re.Pattern[bytes]]]] = {}


def _type_spellings(types: frozenset[bytes]) -> list[tuple[bytes, re.Pattern[bytes]]]:
    """(first word, pattern of the whole type at that word) for each type, cached."""
    found = _spellings.get(types)
    if found is None:
        found = _spellings[types] = [(t.split()[0], re.compile(rb"(?<![\w:])" + re.escape(t).replace(rb"\ ", rb"\s+")
                                                               + rb"(?!\w)")) for t in types]
    return found


def declared_with(ctx, types: frozenset[bytes]) -> set[bytes]:
    """Names of the variables, parameters and fields declared with one of `types` (pointers, references and
    initialisers looked through), found from each place a type is spelled (cheaper than a whole-tree query)."""
    names: set[bytes] = set()
    data = ctx.data
    for first, pattern in _type_spellings(types):
        at = data.find(first)
        while at >= 0:
            m = pattern.match(data, at)  # the look-behind sees the bytes before `at`
            if m is not None:
                names |= _declarators(ctx, m.start(), m.end(), types)
            at = data.find(first, at + len(first))
    return names


def _declarators(ctx, start: int, end: int, types: frozenset[bytes]) -> set[bytes]:
    node = ctx.node_at(start, end)
    for _ in range(4):  # the type node, a qualified name or a sized type, then its declaration
        if node is None or node.type in _DECLARING:
            break
        node = node.parent
    if node is None or node.type not in _DECLARING:
        return set()
    kind = node.child_by_field_name("type")
    if kind is None or kind.start_byte != start or b" ".join(kind.text.split()) not in types:
        return set()
    names = set()
    for declarator in node.children_by_field_name("declarator"):
        while declarator.type not in ("identifier", "field_identifier") \
                and declarator.child_by_field_name("declarator") is not None:
            declarator = declarator.child_by_field_name("declarator")
        names.add(declarator.text)
    return names


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


def matches(q: parse.Query, node: tree_sitter.Node):
    """The query's matches under `node`: (pattern index, {capture: [nodes]})."""
    return q.cursor().matches(node)


# A 32-bit bitset's word and bit of index x: `x / 32` or `x >> 5`, and `x % 32` or `x & 31`.
_WORD = {"/": 32, ">>": 5}
_BIT = {"%": 32, "&": 31}
_STATEMENTS = {"expression_statement", "declaration", "return_statement", "compound_statement", "function_definition"}


def _unwrapped(node: tree_sitter.Node) -> tree_sitter.Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _split(node: tree_sitter.Node, table: dict[str, int]) -> str | None:
    """The text of x when `node` is `x <op> n` with (op, n) in `table`."""
    node = _unwrapped(node)
    if node.type != "binary_expression":
        return None
    op, right = text(node.child_by_field_name("operator")), node.child_by_field_name("right")
    if op not in table or right is None or int_value(text(right)) != table[op]:
        return None
    return " ".join(text(_unwrapped(node.child_by_field_name("left"))).split())


def in_bitset_idiom(expr: tree_sitter.Node) -> bool:
    """Is `expr` (`x / 32`, `x % 32`, `1u << (x % 32)`, ...) part of a 32-bit bitset access such as
    `bits[i / 32] |= 1u << (i % 32)`: the statement indexes an array with x's word and shifts a one by x's bit.
    Those 32s are the bitset's word size, not the warp's, and stay right on a 64-lane wavefront."""
    x = _split(expr, _WORD) or _split(expr, _BIT)
    if x is None and expr.type == "binary_expression" and text(expr.child_by_field_name("operator")) == "<<":
        x = _split(expr.child_by_field_name("right"), _BIT)
    if x is None:
        return False
    statement = expr.parent
    while statement is not None and statement.type not in _STATEMENTS:
        statement = statement.parent
    if statement is None or statement.type in ("compound_statement", "function_definition"):
        return False
    words, bits = set(), set()
    stack = [statement]
    while stack:
        node = stack.pop()
        if node.type == "subscript_argument_list":
            words.update(x for c in node.named_children if (x := _split(c, _WORD)) is not None)
        elif node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "<<" \
                and int_value(text(node.child_by_field_name("left"))) == 1:
            x = _split(node.child_by_field_name("right"), _BIT)
            if x is not None:
                bits.add(x)
        stack.extend(node.named_children)
    return x in words and x in bits
