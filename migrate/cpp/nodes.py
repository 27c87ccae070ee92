"""Small helpers over tree-sitter nodes of C++/CUDA code that the hazard rules share: a node's text, what a call
calls and its arguments, an integer literal's value, a node's span without blanks, a query's matches."""
from __future__ import annotations

import re

import tree_sitter

from migrate.cpp import parse


def text(node: tree_sitter.Node) -> str:
    """The node's source text, bytes that are not UTF-8 kept as surrogate escapes (as `FileContext.text`)."""
    return node.text.decode("utf-8", "surrogateescape")


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
