"""Where a value used in a call comes from, inside one file: a name bound once (`cmd = ["nvidia-smi", "-L"]`), the
result of `shutil.which("nvidia-smi")`, or a helper of the module that returns one value (`def smi(): return
"nvidia-smi"`). The rules that read commands follow these to the literal, so that the finding lands at the use with
the origin named; a name bound more than once, or also some other way (a loop, a parameter), is not followed.
"""
from __future__ import annotations

import libcst as cst

from migrate.python.index import index, string_value

DEPTH = 3  # hops followed: a name bound to a helper's call that returns shutil.which(...)


def followed(ctx, node: cst.BaseExpression) -> tuple[cst.BaseExpression, str] | None:
    """(the expression `node` stands for, how it was reached) one hop back, or None."""
    idx = index(ctx)
    if isinstance(node, cst.Name):
        values = idx.assigned.get(node.value, [])
        if len(values) == 1 and node.value not in idx.rebound:
            return values[0], f"{node.value}, set at line {_line(ctx, values[0])}"
        return None
    if not isinstance(node, cst.Call):
        return None
    if "shutil.which" in ctx.qualified_names(node.func) and node.args:
        return node.args[0].value, f"shutil.which at line {_line(ctx, node)}"
    if isinstance(node.func, cst.Name) and not node.args:
        returned = idx.returns.get(node.func.value, [])
        if len(returned) == 1 and node.func.value not in idx.assigned:
            return returned[0], f"what {node.func.value}() returns at line {_line(ctx, returned[0])}"
    return None


def resolved(ctx, node: cst.BaseExpression) -> tuple[cst.BaseExpression, str]:
    """The expression `node` stands for after following it as far as it goes, and the first hop's origin ("" for
    `node` itself)."""
    origin = ""
    for _ in range(DEPTH):
        step = followed(ctx, node)
        if step is None:
            break
        node, how = step
        origin = origin or how
    return node, origin


def resolved_string(ctx, node: cst.BaseExpression) -> tuple[str | None, str]:
    """The string `node` holds, directly or through what `resolved` follows, with the origin."""
    value = string_value(node)
    if value is not None:
        return value, ""
    target, origin = resolved(ctx, node)
    return (string_value(target), origin) if origin else (None, "")


def _line(ctx, node: cst.CSTNode) -> int:
    start = ctx.byte_span(node)[0]
    return ctx.span(start, start).line
