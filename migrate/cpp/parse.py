"""tree-sitter-cuda parsing, and the context of one identifier token in the tree."""
from __future__ import annotations

import enum
import re
import threading
from typing import Iterator, NamedTuple

import tree_sitter
import tree_sitter_cuda

from migrate.edits import decoded

LANGUAGE = tree_sitter.Language(tree_sitter_cuda.language())
_local = threading.local()

# Namespaces whose members the packs may rename; any other qualifier is a user namespace.
LIBRARY_NAMESPACES = {"cub", "hipcub", "thrust", "cooperative_groups", "std", "nvcuda"}
STRING_TYPES = {"string_literal", "string_content", "raw_string_literal", "raw_string_content",
                "raw_string_delimiter", "char_literal", "character", "escape_sequence",
                "system_lib_string", "concatenated_string"}
SCOPES = {"namespace_definition", "class_specifier", "struct_specifier", "union_specifier"}


def parser() -> tree_sitter.Parser:
    p = getattr(_local, "parser", None)
    if p is None:
        p = _local.parser = tree_sitter.Parser(LANGUAGE)
    return p


def parse(data: bytes) -> tree_sitter.Tree:
    return parser().parse(data)


_fragments: dict[bytes, tree_sitter.Tree] = {}
FRAGMENT_CACHE = 4096  # trees kept; a macro body is a few hundred bytes


def parse_fragment(data: bytes) -> tree_sitter.Tree:
    """A macro body's own tree. Bodies repeat, within a file (the rename and hazard rules both read them) and
    across files (a project's CHECK macro in every source), and trees are read-only: each text is parsed once."""
    tree = _fragments.get(data)
    if tree is None:
        if len(_fragments) >= FRAGMENT_CACHE:
            _fragments.clear()
        tree = _fragments[data] = parser().parse(data)
    return tree


class Query:
    """A tree-sitter query, compiled the first time it is used: compiling one costs about 10 ms, and the
    rules declare two dozen at import while a run often needs only a few."""

    def __init__(self, source: str):
        self.source = source
        self._compiled: tree_sitter.Query | None = None

    def cursor(self) -> tree_sitter.QueryCursor:
        if self._compiled is None:
            self._compiled = tree_sitter.Query(LANGUAGE, self.source)
        return tree_sitter.QueryCursor(self._compiled)


def query(source: str) -> Query:
    return Query(source)


def captures(q: Query, node: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    """Each capture's nodes in document order (tree-sitter's own order is not, and differs from run to run)."""
    return {name: sorted(nodes, key=lambda n: (n.start_byte, n.end_byte))
            for name, nodes in q.cursor().captures(node).items()}


def matches(q: Query, node: tree_sitter.Node) -> list[dict[str, list[tree_sitter.Node]]]:
    """One dict of captures per match (keeps a match's captures together, unlike `captures`)."""
    return [caps for _, caps in q.cursor().matches(node)]


class Context(enum.Enum):
    CODE = "code"
    COMMENT = "comment"
    STRING = "string"
    MEMBER = "member"  # x.name, p->name, or a field declaration
    USER_SCOPE = "user-scope"  # my_ns::name, or a name declared inside a user namespace or class
    MACRO = "macro"  # inside a #define body: opaque to the tree, parsed on its own


class Token(NamedTuple):
    """One identifier token found in a file, with where it sits in the tree (a tuple: tens of thousands are
    made per run)."""

    name: str
    start: int
    end: int
    context: Context
    node: tree_sitter.Node | None  # the identifier node (in the macro body's own tree for MACRO tokens)
    base: int = 0  # file offset of the tree `node` belongs to (non-zero for macro bodies)


DECLARATIONS = {"declaration", "field_declaration", "function_definition", "type_definition",
                "enumerator", "alias_declaration"}


def declared_in_scope(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """If `node` is the name a declaration declares inside a user namespace or class, that scope."""
    child, parent = node, node.parent
    while parent is not None and parent.type.endswith("_declarator"):
        if parent.child_by_field_name("declarator") != child:
            return None
        child, parent = parent, parent.parent
    if parent is None or parent.type not in DECLARATIONS:
        return None
    if child not in parent.children_by_field_name("declarator") and child != parent.child_by_field_name("name"):
        return None
    scope = parent.parent
    while scope is not None:
        if scope.type in SCOPES:
            return scope
        if scope.type in ("compound_statement", "translation_unit"):
            return None
        scope = scope.parent
    return None


def declares(token: Token) -> bool:
    """The token is the name being declared (a project's own function, type or variable)."""
    node = token.node
    parent = node.parent if node is not None else None
    if parent is None:
        return False
    if parent.type in ("function_declarator", "init_declarator", "pointer_declarator", "type_definition",
                       "struct_specifier", "class_specifier", "enum_specifier", "enumerator", "preproc_def",
                       "preproc_function_def", "field_declaration", "array_declarator", "declaration",
                       "parameter_declaration", "optional_parameter_declaration", "reference_declarator"):
        if parent.type == "reference_declarator":  # `T& name`: the name is its only named child, without a field
            return node in parent.named_children
        # `T a, b;` declares every declarator, not only the first
        return node in parent.children_by_field_name("declarator") or parent.child_by_field_name("name") == node
    return declared_in_scope(node) is not None


def in_user_namespace(node: tree_sitter.Node) -> bool:
    """Is `node` qualified, at any depth, by a namespace other than a library's: `mine::cudaMalloc`, and the `cub`
    of `at::cuda::cub::inclusive_scan` (PyTorch's own `cub` namespace), but not `cub::BlockReduce`."""
    child, parent = node, node.parent
    while parent is not None and parent.type == "qualified_identifier":
        scope = parent.child_by_field_name("scope")
        if scope is not None and scope != child and _named_by_user(scope):
            return True
        child, parent = parent, parent.parent
    return False


def _named_by_user(name: tree_sitter.Node | None) -> bool:
    return name is not None and name.type == "namespace_identifier" and decoded(name.text) not in LIBRARY_NAMESPACES


def defined_in_user_namespace(node: tree_sitter.Node) -> bool:
    """Is `node` the name of a namespace defined inside a user namespace (`namespace at { namespace cuda {
    namespace cub {` or `namespace at::cuda::cub {`)? `namespace cub {` alone reopens CUB's namespace."""
    parent = node.parent
    while parent is not None and parent.type == "nested_namespace_specifier":
        if any(_named_by_user(c) for c in parent.named_children if c.end_byte <= node.start_byte):
            return True
        parent = parent.parent
    if parent is None or parent.type != "namespace_definition":
        return False
    outer = parent.parent
    while outer is not None:
        if outer.type == "namespace_definition":
            name = outer.child_by_field_name("name")
            if _named_by_user(name) or (name is not None and name.type == "nested_namespace_specifier"
                                         and any(_named_by_user(c) for c in name.named_children)):
                return True
        outer = outer.parent
    return False


def classify(node: tree_sitter.Node) -> Context:
    kind = node.type
    if kind == "comment":
        return Context.COMMENT
    if kind in STRING_TYPES:
        return Context.STRING
    if kind == "preproc_arg":
        return Context.MACRO
    if kind == "field_identifier":
        return Context.MEMBER
    parent = node.parent
    if parent is None:
        return Context.CODE
    if parent.type in STRING_TYPES:
        return Context.STRING
    if parent.type == "qualified_identifier" and in_user_namespace(node):
        return Context.USER_SCOPE
    if parent.type in ("namespace_definition", "nested_namespace_specifier") and defined_in_user_namespace(node):
        return Context.USER_SCOPE
    if (parent.type in DECLARATIONS or parent.type.endswith("_declarator")) and declared_in_scope(node):
        return Context.USER_SCOPE
    return Context.CODE


DIRECTIVES = {"preproc_if", "preproc_elif", "preproc_ifdef", "preproc_elifdef"}
# Macros only nvcc and the CUDA headers define: in a directive's condition HAZ018 reports them (CPP006 elsewhere).
CUDA_ONLY_MACROS = frozenset({"CUDA_VERSION", "CUDART_VERSION", "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__",
                              "__CUDACC_VER_BUILD__", "__NVCC__"})
# Calling-convention macros of host callbacks (empty outside Windows, nothing on AMD): CPP010 removes them.
CALLBACK_MACROS = frozenset({"CUDART_CB", "CUDA_CB"})


def in_other_directive(node: tree_sitter.Node) -> bool:
    """`node` (the outer tree's node at a place) is the text of a directive that is not a #define: #pragma, #error,
    #line or an unknown one (a mistyped #dfine): words there are no code to rename or to count as used."""
    return node.type == "preproc_arg" and node.parent is not None and node.parent.type == "preproc_call"


def defined_or_tested(node: tree_sitter.Node) -> bool:
    """The name of a `#define`, or in the condition of an `#if`/`#ifdef` (`defined(...)` included)."""
    parent = node.parent
    if parent is not None and parent.type in ("preproc_def", "preproc_function_def") \
            and parent.child_by_field_name("name") == node:
        return True
    return directive_condition(node) is not None


def directive_condition(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The condition (or #ifdef name) of the #if/#elif/#ifdef that `node` sits in, or None (code, a #define)."""
    child, parent = node, node.parent
    while parent is not None:
        if parent.type in DIRECTIVES:
            field = "name" if parent.type.endswith("ifdef") else "condition"
            return child if parent.child_by_field_name(field) == child else None
        if parent.type.startswith("preproc_") and parent.type != "preproc_defined":
            return None
        child, parent = parent, parent.parent
    return None


def error_lines(tree: tree_sitter.Tree, limit: int = 20) -> list[tuple[int, int]]:
    """(line, column) of the first `limit` ERROR or MISSING nodes, 1-based. A missing newline at the end of
    a last-line #define is not an error worth reporting, nor a missing `;` after a macro call written as a
    statement (`CHECK(cudaFree(p))`: the macro brings its own braces, as the code compiled with nvcc)."""
    found: list[tuple[int, int]] = []
    if not tree.root_node.has_error:
        return found
    end = tree.root_node.end_byte
    cursor = tree.walk()
    while len(found) < limit:
        node = cursor.node
        if node.is_error or (node.is_missing and not (node.start_byte >= end and node.type.startswith("preproc"))
                             and not _macro_statement(node)):
            # An ERROR node often wraps good code too: its first stray token is where parsing went wrong.
            stray = next((c for c in node.children if not c.is_named), node) if node.is_error else node
            found.append((stray.start_point[0] + 1, stray.start_point[1] + 1))
        elif node.has_error and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return found
    return found


MACRO_NAME = re.compile(rb"[A-Z_][A-Z0-9_]*$")


def _macro_statement(missing: tree_sitter.Node) -> bool:
    """A MISSING `;` that ends a statement made of one call of an all-caps name (a macro, by convention)."""
    parent = missing.parent
    if missing.type != ";" or parent is None:
        return False
    first = parent.named_children[0] if parent.named_children else None
    if parent.type == "declaration" and first is not None and first.type == "type_identifier":
        # `CHECK( cudaMemcpy(a, b, n, kind) )` read as a declaration of a parenthesized name
        rest = [c for c in parent.named_children[1:] if c.type != "comment"]
        return MACRO_NAME.match(first.text) is not None and [c.type for c in rest] == ["parenthesized_declarator"]
    if parent.type != "expression_statement":
        return False
    call = first
    callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    return callee is not None and callee.type == "identifier" and MACRO_NAME.match(callee.text) is not None


def in_device_function(node: tree_sitter.Node) -> bool:
    """Inside the body of a function declared `__device__` or `__global__`."""
    while node is not None and node.type != "function_definition":
        node = node.parent
    return node is not None and any(c.type in ("__device__", "__global__") for c in node.children)


def element_base(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The expression that `x[i]`, `*p` and `(e)` read from, through any nesting of them (`x` of `(*x)[0]`)."""
    while node is not None and node.type in ("subscript_expression", "pointer_expression", "parenthesized_expression"):
        if node.type == "parenthesized_expression":
            node = node.named_children[0] if node.named_children else None
        else:
            node = node.child_by_field_name("argument")
    return node


DECLARED = query("[(parameter_declaration type: (_) @type declarator: (_) @name)"
                 " (declaration type: (_) @type declarator: (_) @name)]")


def declarations(root: tree_sitter.Node, types: set[bytes] | None) -> Iterator[tuple[tree_sitter.Node, bytes, tuple[str, ...]]]:
    """(declared node, type, shape) of each variable and parameter declared with one of `types` (None: any
    type): the node is the name's identifier unless the declarator hides it, the shape its declarators outermost
    first, initialisers left out (("pointer_declarator",) for `T* p`, ("reference_declarator",) for `T& r`, () for `T v`)."""
    for m in matches(DECLARED, root):
        type_text = m["type"][0].text
        if types is not None and type_text not in types:
            continue
        for node in m["name"]:
            seen = []
            while node.type != "identifier":
                inner = node.child_by_field_name("declarator")
                if inner is None and node.type == "reference_declarator" and node.named_children:
                    inner = node.named_children[-1]  # `T& r`: the grammar gives the name no field
                if inner is None:
                    break
                if node.type != "init_declarator":
                    seen.append(node.type)
                node = inner
            yield node, type_text, tuple(seen)


def declared_names(root: tree_sitter.Node, types: set[bytes], shape: tuple[str, ...] | None = None) -> set[bytes]:
    """Names of the variables and parameters declared with one of `types` (pointers, references and
    initialisers looked through). `shape`: only those whose declarators, outermost first and initialisers left
    out, are exactly these (("pointer_declarator",) for `void* p`, not `void** p` or `void (*f)()`)."""
    return {node.text for node, _, seen in declarations(root, types)
            if shape is None or (node.type == "identifier" and seen == shape)}
