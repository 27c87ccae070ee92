"""A read-only walk over a libcst tree, in document order, several times faster than `node.visit(visitor)`.

libcst's visitors rebuild every node they pass (`_visit_and_replace_children`), which is most of the cost of
reading a tree. For reading only, the children of a node are its dataclass fields that hold nodes; their order is
the order of the fields, except where a class declares a field before another that comes first in the source
(decorators, keyword names, exception types): `FIELD_ORDER` gives those classes' order (only whitespace and
punctuation may still come in another order than libcst's). tests/test_python_walk.py checks that the walk
meets every node libcst's own visitor meets, in the same order, on real files.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

import libcst as cst

# Classes whose fields are not declared in source order.
FIELD_ORDER: dict[type, tuple[str, ...]] = {
    cst.FunctionDef: ("leading_lines", "decorators", "lines_after_decorators", "asynchronous", "whitespace_after_def",
                      "name", "whitespace_after_name", "type_parameters", "whitespace_after_type_parameters",
                      "whitespace_before_params", "params", "returns", "whitespace_before_colon", "body"),
    cst.ClassDef: ("leading_lines", "decorators", "lines_after_decorators", "whitespace_after_class", "name",
                   "whitespace_after_name", "type_parameters", "whitespace_after_type_parameters", "lpar", "bases",
                   "keywords", "rpar", "whitespace_before_colon", "body"),
    cst.Arg: ("star", "keyword", "equal", "value", "comma"),
    cst.Param: ("star", "name", "annotation", "equal", "default", "comma"),
    cst.Parameters: ("posonly_params", "posonly_ind", "params", "star_arg", "kwonly_params", "star_kwarg"),
    cst.ExceptHandler: ("type", "name", "body"),
    cst.ImportFrom: ("relative", "module", "names"),
    cst.IfExp: ("body", "whitespace_before_if", "whitespace_after_if", "test", "whitespace_before_else",
                "whitespace_after_else", "orelse"),
}
_fields: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _fields.get(cls)
    if names is None:
        declared = [f.name for f in dataclasses.fields(cls)]
        order = FIELD_ORDER.get(cls)
        if order is not None:
            names = tuple(n for n in order if n in declared) + tuple(n for n in declared if n not in order)
        else:
            names = tuple(declared)
        _fields[cls] = names
    return names


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []
    for name in _field_names(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            found.append(value)
        elif isinstance(value, (list, tuple)):
            found.extend(v for v in value if isinstance(v, cst.CSTNode))
    return found


def walk(root: cst.CSTNode, on_visit: Callable[[cst.CSTNode], bool],
         on_leave: Callable[[cst.CSTNode], None]) -> None:
    """Call on_visit on every node, parents before children; a False answer skips the children; on_leave after."""
    stack: list[tuple[cst.CSTNode, bool]] = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            on_leave(node)
            continue
        stack.append((node, True))
        if on_visit(node):
            stack.extend((child, False) for child in reversed(children(node)))
