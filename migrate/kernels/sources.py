"""What the CUDA sources say about each kernel: where it is defined (for findings at its line), its
`__launch_bounds__`, and the block size and dynamic shared memory of its launches where they are constant:

    #define BLOCK 256
    __global__ void __launch_bounds__(BLOCK) scale(float* d);         block 256, from __launch_bounds__
    dim3 block(16, 16);  tile<<<grid, block>>>(d);                    block 256, from the launch
    stage<<<n, 128, 96 * 1024>>>(d);                                  block 128, 98,304 bytes dynamic
    row<<<n, threads>>>(d);   with `int threads = 32;` in the function  block 32

Names resolve through the function's own declarations, then the file's and the tree's headers' #defines and
const/constexpr declarations.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import tree_sitter

from migrate.cpp import parse
from migrate.cpp.constants import text_value, value
from migrate.edits import decoded

SOURCES = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".hxx", ".inl", ".inc"}
HEADERS = {".cuh", ".h", ".hpp", ".hxx", ".inl", ".inc"}
DEPTH = 8  # names defined through names, at most this deep


@dataclass(frozen=True)
class Definition:
    name: str
    path: str  # relative to the tree
    line: int
    launch_bounds: int | None


@dataclass(frozen=True)
class Launch:
    name: str
    path: str
    line: int
    block: int | None
    dynamic_shared: int | None


@dataclass(frozen=True)
class Sources:
    definitions: dict[str, list[Definition]]  # by the kernel's own name
    launches: dict[str, list[Launch]]

    def block(self, name: str, bounds: int | None) -> tuple[int | None, str]:
        """(threads per block, where that comes from): __launch_bounds__, else the launches' most common constant
        block size (the first on a tie), else (None, "")."""
        if bounds:
            return bounds, "__launch_bounds__"
        sizes = [launch for launch in self.launches.get(name, ()) if launch.block]
        if not sizes:
            return None, ""
        common = Counter(launch.block for launch in sizes).most_common(1)[0][0]
        first = next(launch for launch in sizes if launch.block == common)
        return common, f"launch at {first.path}:{first.line}"

    def dynamic_shared(self, name: str) -> int:
        """The most dynamic shared memory a constant launch of the kernel asks for."""
        return max((launch.dynamic_shared or 0 for launch in self.launches.get(name, ())), default=0)


def _named(root: tree_sitter.Node) -> dict[str, str]:
    """name -> expression text of the #defines and const/constexpr declarations of a file."""
    out: dict[str, str] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "preproc_def" and node.child_by_field_name("value") is not None:
            out.setdefault(decoded(node.child_by_field_name("name").text), decoded(node.child_by_field_name("value").text))
        elif node.type == "declaration" and any(c.type == "type_qualifier" and c.text in (b"const", b"constexpr")
                                                for c in node.children):
            out.update(_initialised(node))
        stack.extend(reversed(node.children))
    return out


def _initialised(declaration: tree_sitter.Node) -> dict[str, str]:
    """name -> expression text of a declaration's initialised declarators; a dim3's dimensions multiplied."""
    out = {}
    dim3 = decoded(declaration.child_by_field_name("type").text) == "dim3" \
        if declaration.child_by_field_name("type") is not None else False
    for d in declaration.children_by_field_name("declarator"):
        if d.type == "init_declarator":
            name, init = d.child_by_field_name("declarator"), d.child_by_field_name("value")
            if init is not None and init.type == "call_expression":  # dim3 b = dim3(16, 16)
                init = init.child_by_field_name("arguments")
            if init is None:
                continue
            parts = [decoded(c.text) for c in init.named_children] if init.type in ("argument_list", "initializer_list") \
                else [decoded(init.text)]
        elif d.type == "function_declarator" and dim3:  # dim3 b(16, 16), parsed as a function declaration
            name = d.child_by_field_name("declarator")
            parts = [decoded(c.text) for c in d.child_by_field_name("parameters").named_children]
        else:
            continue
        if parts:
            out[decoded(name.text)] = " * ".join(f"({p})" for p in parts)
    return out


def _enclosing_function(node: tree_sitter.Node) -> tree_sitter.Node | None:
    while node is not None and node.type != "function_definition":
        node = node.parent
    return node


def _locals(function: tree_sitter.Node | None) -> dict[str, str]:
    out: dict[str, str] = {}
    if function is None:
        return out
    stack = [function.child_by_field_name("body")]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node.type == "declaration":
            for name, text in _initialised(node).items():
                out.setdefault(name, text)
        stack.extend(reversed(node.children))
    return out


def _resolver(*tables: dict[str, str]):
    known: dict[tuple[str, int], int | None] = {}  # by name and depth: names that use a name many times stay linear

    def lookup(name: str, depth: int = 0) -> int | None:
        if depth > DEPTH:
            return None
        if (name, depth) not in known:
            table = next((t for t in tables if name in t), None)
            known[name, depth] = None if table is None else text_value(table[name], lambda n: lookup(n, depth + 1))
        return known[name, depth]
    return lookup


def _kernel_name(declarator: tree_sitter.Node | None) -> str | None:
    while declarator is not None and declarator.type not in ("identifier", "qualified_identifier", "field_identifier"):
        declarator = declarator.child_by_field_name("declarator")
    if declarator is None:
        return None
    return decoded(declarator.text).split("::")[-1]


def _scan_file(rel: str, root: tree_sitter.Node, headers: dict[str, str], sources: Sources) -> None:
    file_names = {**headers, **_named(root)}
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.children))
        if node.type == "function_definition" and any(c.type == "__global__" for c in node.children):
            declarator = node.child_by_field_name("declarator")
            name = _kernel_name(declarator)
            if name is None:
                continue
            bounds = next((c for c in node.children if c.type == "launch_bounds"), None)
            first = bounds.named_children[0] if bounds is not None and bounds.named_child_count else None
            spot = declarator.child_by_field_name("declarator") or declarator
            sources.definitions.setdefault(name, []).append(
                Definition(name, rel, spot.start_point[0] + 1, value(first, _resolver(file_names))))
        elif node.type == "kernel_call_syntax" and node.parent is not None and node.parent.type == "call_expression":
            callee = node.parent.child_by_field_name("function")
            name = decoded((callee.child_by_field_name("name") or callee).text).split("::")[-1].split("<")[0]
            lookup = _resolver(_locals(_enclosing_function(node)), file_names)
            args = [c for c in node.named_children if c.type != "comment"]
            block = _threads(args[1], lookup) if len(args) > 1 else None
            shared = value(args[2], lookup) if len(args) > 2 else None
            sources.launches.setdefault(name, []).append(
                Launch(name, rel, node.start_point[0] + 1, block, shared))


def _threads(node: tree_sitter.Node, lookup) -> int | None:
    """A block argument's threads: an expression, a dim3(x, y, z) made in place, or a dim3 variable."""
    if node.type == "call_expression" and decoded(node.child_by_field_name("function").text) == "dim3":
        dims = [value(c, lookup) for c in node.child_by_field_name("arguments").named_children]
        product = 1
        for d in dims:
            if d is None:
                return None
            product *= d
        return product
    return value(node, lookup)


def scan(tree: Path) -> Sources:
    """Every kernel definition and launch in the CUDA sources under `tree`."""
    files = sorted(p for p in tree.rglob("*") if p.suffix in SOURCES and p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(tree).parts))
    parsed = {p: parse.parse(p.read_bytes()) for p in files}
    headers: dict[str, str] = {}
    for p in files:
        if p.suffix in HEADERS:
            for name, text in _named(parsed[p].root_node).items():
                headers.setdefault(name, text)
    found = Sources({}, {})
    for p in files:
        _scan_file(p.relative_to(tree).as_posix(), parsed[p].root_node, headers, found)
    return found
