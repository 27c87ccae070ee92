"""Call-expression helpers for rules that edit the arguments of a call found through one token."""
from __future__ import annotations

import tree_sitter

from migrate.cpp.parse import Token
from migrate.model import Edit


def call_of(token: Token) -> tree_sitter.Node | None:
    """The call_expression whose callee is `token` (plain or `::`-qualified), else None."""
    node = token.node
    if node is None:
        return None
    callee = node
    if callee.parent is not None and callee.parent.type == "qualified_identifier":
        callee = callee.parent
    parent = callee.parent
    if parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == callee:
        return parent
    return None


def api_arguments(ctx, apis: dict[str, int]):
    """(token, argument node) for each call in code of a function of `apis` (name -> 0-based argument position)
    that has that argument."""
    for token in ctx.code_tokens():
        index = apis.get(token.name)
        call = call_of(token) if index is not None else None
        args = arguments(call) if call is not None else []
        if index is not None and index < len(args):
            yield token, args[index]


def arguments(call: tree_sitter.Node) -> list[tree_sitter.Node]:
    args = call.child_by_field_name("arguments")
    if args is None:
        return []
    return [c for c in args.named_children if c.type != "comment"]


def drop_argument(call: tree_sitter.Node, index: int, base: int) -> list[Edit]:
    """Edits that remove argument `index` with its comma (and the blank after it)."""
    args = arguments(call)
    if index >= len(args):
        return []
    if index + 1 < len(args):
        return [Edit(base + args[index].start_byte, base + args[index + 1].start_byte, "")]
    if index > 0:
        return [Edit(base + args[index - 1].end_byte, base + args[index].end_byte, "")]
    return [Edit(base + args[index].start_byte, base + args[index].end_byte, "")]
