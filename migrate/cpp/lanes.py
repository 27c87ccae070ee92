"""A small lane data-flow helper for the hazard rules: within one function, which variables hold lane or
warp indices and which hold ballot / activemask results, and the 32-bit bitset idiom whose 32s are not a warp.

The flow is deliberately simple: a variable is a *lane variable* when it is named like one (lane, laneId,
warp, warpId, wid, ...) or is assigned, anywhere in the function, an expression that mentions threadIdx,
PTX %laneid, `__lane_id()`, a lane macro or another lane variable (subscripts do not count: `in[threadIdx.x]`
is data, not an index). A variable is a *ballot variable* when it is assigned a ballot result, or a bitwise
combination (`&`, `|`, `^`, `~`, casts, parentheses) of ballot results. Facts are computed once per function
(the per-file cache is migrate/cpp/macro_bodies.py, which also gives the facts inside #define bodies).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import tree_sitter

from migrate.cpp import parse
from migrate.cpp.nodes import int_value, text
from migrate.edits import decoded

LANE_NAME = re.compile(r"(?i)^(?:lane|lane_?id|lane_?idx|lane_?index|warp|warp_?id|warp_?idx|warp_?index|wid)$")
LANE_SOURCE = re.compile(rb"\bthreadIdx\b|%laneid\b|\b__lane_id\b")
IDENT = re.compile(rb"[A-Za-z_]\w*")
SUBSCRIPT = re.compile(rb"\[[^\[\]]*\]")
BALLOT_CALLS = frozenset({"__ballot_sync", "__ballot", "__activemask", "__match_any_sync", "__match_all_sync"})
# HIP's warp-synchronous functions: the first argument is the lane mask, 64 bits wide in HIP
SYNC_CALLS = frozenset({"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
                        "__any_sync", "__all_sync", "__match_any_sync", "__match_all_sync", "__syncwarp"})
# the functions reading one mask whose 64-bit forms HAZ003 puts in (their 64-bit forms too)
MASK_READERS = frozenset({"__popc", "__ffs", "__popcll", "__ffsll"})
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
    _only_masks: set[str] | None = field(default=None, repr=False)

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

    def only_masks(self) -> set[str]:
        """The ballot variables declared 32-bit in this function (one name a declaration) whose every use is
        as a lane mask (`mask_use`), as are the variables they are copied to or from: declared 64-bit, they keep
        all 64 lanes and nothing else they do changes."""
        if self._only_masks is None:
            self._only_masks = _only_masks(self)
        return self._only_masks


def uses(scope: tree_sitter.Node, names: set[str]) -> dict[str, list[tree_sitter.Node]]:
    """The identifiers under `scope` spelled as one of `names` (comments and strings are not identifiers)."""
    found: dict[str, list[tree_sitter.Node]] = {name: [] for name in names}
    stack = [scope]
    while stack:
        node = stack.pop()
        if node.type == "identifier":
            name = text(node)
            if name in found:
                found[name].append(node)
        else:
            stack.extend(node.children)
    return found


BLOCKS = frozenset({"compound_statement", "for_statement", "translation_unit"})


def declared_name(declarator: tree_sitter.Node) -> str | None:
    """The name a declarator (`x`, `x = 1`, `*x`, `x[4]`, `&x`) declares."""
    while declarator is not None and declarator.type != "identifier":
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in declarator.named_children
                          if c.type.endswith("declarator") or c.type == "identifier"), None)
        declarator = inner
    return text(declarator) if declarator is not None else None


def declaration_of(use: tree_sitter.Node) -> tree_sitter.Node | None:
    """The declaration, in the blocks around the identifier `use` and before it, that its name refers to: the
    innermost, so that `int mask` in one block and `unsigned mask` in another are two variables."""
    name = text(use)
    node = use
    while node.parent is not None:
        block = node.parent
        if block.type in BLOCKS:
            found = None
            for child in block.named_children:
                if child.start_byte > use.start_byte:
                    break
                if child.type == "declaration" and any(declared_name(d) == name
                                                       for d in child.children_by_field_name("declarator")):
                    found = child
            if found is not None:
                return found
        if block.type == "function_definition":
            return None
        node = block
    return None


def scoped_uses(declaration: tree_sitter.Node, name: str) -> list[tree_sitter.Node]:
    """The identifiers that refer to `name` as `declaration` declares it (not the declared name itself)."""
    declared = {d.start_byte for d in declaration.children_by_field_name("declarator")}
    found = []
    for use in uses(declaration.parent, {name})[name]:
        if use.start_byte in declared or (use.parent.type == "init_declarator" and use.parent.start_byte in declared
                                          and use.parent.child_by_field_name("declarator") == use):
            continue
        if declaration_of(use) == declaration:
            found.append(use)
    return found


def written(use: tree_sitter.Node) -> bool:
    """Whether the identifier `use` is assigned, incremented or has its address taken there."""
    parent = use.parent
    if parent.type == "assignment_expression":
        return parent.child_by_field_name("left") == use
    if parent.type == "update_expression":
        return True
    return parent.type == "pointer_expression" and text(parent.child_by_field_name("operator")) == "&"


def mask_argument(use: tree_sitter.Node) -> bool:
    """Whether the identifier `use` is the lane mask (first argument) of a warp-synchronous call."""
    parent = use.parent
    if parent.type != "argument_list" or parent.named_children[0] != use:
        return False
    function = parent.parent.child_by_field_name("function")
    return function is not None and text(function) in SYNC_CALLS


def mask_use(use: tree_sitter.Node, facts: FunctionFacts) -> tuple[bool, str | None]:
    """Whether the identifier `use` of a ballot variable uses it as a lane mask only, and the variable it is
    copied to or from there (None if none). Mask uses: assigned a mask, 0 or a variable; `&=`, `|=`, `^=`;
    read through `&`, `|`, `^`, `~`, `- 1` and parentheses by a warp-synchronous call's mask, `__popc`/`__ffs`
    (and their 64-bit forms), a condition, `!`, `== 0`/`!= 0`, a cast to a wider type, or copied to a variable."""
    parent = use.parent
    if written(use):
        if parent.type != "assignment_expression":
            return False, None
        operator = text(parent.child_by_field_name("operator"))
        right = parent.child_by_field_name("right")
        if operator in ("&=", "|=", "^="):
            return True, None
        if operator != "=":
            return False, None
        if right.type == "identifier":
            return True, text(right)
        # 0, not another number: a 32-lane constant such as 0xffffffff would name half a wavefront once widened
        return (right.type == "number_literal" and int_value(text(right)) == 0) or facts.is_mask(right), None
    child = use
    while True:
        parent = child.parent
        operator = parent.child_by_field_name("operator")
        shown = text(operator) if operator is not None else ""
        if parent.type == "parenthesized_expression" and parent.parent.type != "do_statement" \
                or parent.type == "binary_expression" and shown in MASK_OPERATORS \
                or parent.type == "unary_expression" and shown == "~" \
                or parent.type == "binary_expression" and shown == "-" and parent.child_by_field_name("left") == child \
                and int_value(text(parent.child_by_field_name("right"))) == 1:
            child = parent
            continue
        break
    if parent.type in ("condition_clause", "do_statement"):
        return True, None
    if parent.type == "for_statement":
        return parent.child_by_field_name("condition") == child, None
    if parent.type == "unary_expression":
        return shown == "!", None
    if parent.type == "binary_expression":
        other = parent.child_by_field_name("right" if parent.child_by_field_name("left") == child else "left")
        return shown in ("==", "!=") and int_value(text(other)) == 0, None
    if parent.type == "argument_list":
        function = parent.parent.child_by_field_name("function")
        name = text(function) if function is not None else ""
        arguments = parent.named_children
        return (name in MASK_READERS and len(arguments) == 1) or (name in SYNC_CALLS and arguments[0] == child), None
    if parent.type == "cast_expression":
        return not is_32bit(parent.child_by_field_name("type")), None
    if parent.type == "assignment_expression" and text(operator) == "=":
        left = parent.child_by_field_name("left")
        return left.type == "identifier", text(left)
    if parent.type == "init_declarator":
        return True, text(parent.child_by_field_name("declarator"))
    return False, None


def _only_masks(facts: FunctionFacts) -> set[str]:
    if facts.node is None:
        return set()
    names = set()
    for name in facts.ballots:
        declaration = facts.declarations.get(name)
        if declaration is not None and declaration.type == "declaration" and is_32bit(facts.declared_type(name)) \
                and len(declaration.children_by_field_name("declarator")) == 1:
            names.add(name)
    partners: dict[str, set[str]] = {}
    for name in sorted(names):
        partners[name] = set()
        for use in scoped_uses(facts.declarations[name], name):
            ok, partner = mask_use(use, facts)
            if not ok:
                names.discard(name)
                break
            if partner is not None:
                partners[name].add(partner)
    changed = True
    while changed:  # a copy to or from a variable that stays 32 bits (or is not the function's) rules it out
        changed = False
        for name in list(names):
            if any(p not in names and (p not in facts.declarations or is_32bit(facts.declared_type(p)))
                   for p in partners[name]):
                names.discard(name)
                changed = True
    return names


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


# A 32-bit bitset's word and bit of index x: `x / 32` or `x >> 5`, and `x % 32` or `x & 31`.
_WORD = {"/": 32, ">>": 5}
_BIT = {"%": 32, "&": 31}
_STATEMENTS = {"expression_statement", "declaration", "return_statement", "compound_statement", "function_definition"}


def unwrapped(node: tree_sitter.Node) -> tree_sitter.Node:
    """The node without the parentheses around it."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _split(node: tree_sitter.Node, table: dict[str, int]) -> str | None:
    """The text of x when `node` is `x <op> n` with (op, n) in `table`."""
    node = unwrapped(node)
    if node.type != "binary_expression":
        return None
    op, right = text(node.child_by_field_name("operator")), node.child_by_field_name("right")
    if op not in table or right is None or int_value(text(right)) != table[op]:
        return None
    return " ".join(text(unwrapped(node.child_by_field_name("left"))).split())


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
