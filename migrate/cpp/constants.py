"""Constant integer expressions of C++ source: literals, + - * / % << >>, parentheses, sizeof of a built-in or
vector type, and names a caller resolves (a #define, a constexpr, a local variable), as a launch configuration or
a shared-memory size writes them."""
from __future__ import annotations

from typing import Callable

import tree_sitter

from migrate.cpp import parse
from migrate.edits import decoded, encoded

SIZES = {"char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "int8_t": 1, "uint8_t": 1, "short": 2,
         "unsigned short": 2, "int16_t": 2, "uint16_t": 2, "half": 2, "__half": 2, "__nv_bfloat16": 2,
         "__hip_bfloat16": 2, "int": 4, "unsigned": 4, "unsigned int": 4, "float": 4, "int32_t": 4, "uint32_t": 4,
         "half2": 4, "__half2": 4, "long long": 8, "unsigned long long": 8, "double": 8, "int64_t": 8,
         "uint64_t": 8, "size_t": 8, "float2": 8, "int2": 8, "uint2": 8, "float4": 16, "int4": 16, "uint4": 16,
         "double2": 16, "float3": 12, "int3": 12, "double4": 32}
OPERATORS: dict[str, Callable[[int, int], int | None]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else None, "%": lambda a, b: a % b if b else None,
    "<<": lambda a, b: a << b if 0 <= b < 64 else None, ">>": lambda a, b: a >> b if 0 <= b < 64 else None}
Lookup = Callable[[str], "int | None"]


def number(text: str) -> int | None:
    text = text.rstrip("uUlL").replace("'", "")
    try:
        return int(text, 8) if text.startswith("0") and text[1:].isdigit() else int(text, 0)
    except ValueError:
        return None


def value(node: tree_sitter.Node | None, lookup: Lookup | None = None) -> int | None:
    """The value of a constant integer expression, None when some part of it is not constant."""
    if node is None:
        return None
    kind = node.type
    if kind == "number_literal":
        return number(decoded(node.text))
    if kind in ("identifier", "type_identifier"):
        return lookup(decoded(node.text)) if lookup else None
    if kind in ("parenthesized_expression", "cast_expression") and node.named_child_count:
        return value(node.named_children[-1], lookup)
    if kind == "sizeof_expression":
        inner = node.child_by_field_name("type")
        return SIZES.get(" ".join(decoded(inner.text).split())) if inner is not None else None
    if kind == "binary_expression":
        left = value(node.child_by_field_name("left"), lookup)
        right = value(node.child_by_field_name("right"), lookup)
        op = OPERATORS.get(node.child_by_field_name("operator").type)
        return op(left, right) if op and left is not None and right is not None else None
    return None


def text_value(text: str, lookup: Lookup | None = None) -> int | None:
    """The value of an expression given as text (a #define's body, an argument)."""
    tree = parse.parse_fragment(b"int v = " + encoded(text.strip()) + b";")
    root = tree.root_node
    declarator = root.named_children[0].child_by_field_name("declarator") if root.named_child_count else None
    return value(declarator.child_by_field_name("value"), lookup) if declarator is not None else None
