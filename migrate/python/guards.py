"""Where a Python statement runs, as far as the code around it says: in one branch of a compatibility choice
(the old API kept beside the new one for older torch releases), or only where the program is not on ROCm.

- `compat_branch`: a node in one part of an `if`/`elif`/`else`, a conditional expression or a `try`/`except`
  whose other part (or test) uses the new API, or whose test checks the torch version or the presence of a torch
  attribute (`hasattr(torch, "amp")`). Such a use of the old API is a fallback: rewriting it to the new API breaks
  the old releases it exists for.
- `cuda_only`: a node that never runs on ROCm: the `else:` of `if torch.version.hip:` (`if IS_ROCM:`,
  `if is_hip():`, `if ROCM_HOME is not None:`, `if torch.version.cuda is None:`, ...), the body of
  `if not torch.version.hip:`, the other arm of `x if IS_ROCM else y`, the right side of `IS_ROCM or ...` (and of
  `not IS_ROCM and ...`), and the statements after
  `if is_rocm(): return` (or `raise`, `continue`, `break`, `sys.exit(...)`) in the same block. Findings there are
  false positives: the code is written for CUDA and left as it is (migrate/fixing.py drops them).

What counts as a ROCm test: `torch.version.hip` (truthy, `is not None`, `!= None`), `torch.version.cuda is None`,
`torch.utils.cpp_extension.IS_HIP_EXTENSION` and `ROCM_HOME` (truthy or `is not None`), a comparison of anything
with the string "rocm", "hip" or "amd" (`args.backend == "rocm"`), a name or attribute spelt like a ROCm flag
(`IS_ROCM`, `is_hip`, `has_rocm`, `USE_ROCM`, `self.is_rocm`), a call of a function spelt like one
(`is_rocm()`, `is_hip()`, `current_platform.is_rocm()`, `is_rocm_pytorch()`), a name assigned once from any of
these (`IS_ROCM = torch.version.hip is not None`), and `not`, `and`, `or` of them.
"""
from __future__ import annotations

import re
import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrate.python.index import index, string_value
from migrate.python.walk import children

# -- compatibility branches ----------------------------------------------------------------------------------

_VERSION_WORD = re.compile(r"(?i)(torch|pytorch|pt)_?(version|ver)\b|(version|ver)_?(torch|pytorch)|"
                           r"torch_(greater|less|older|newer|at_least|before|after)")


def compat_branch(ctx, idx, node: cst.CSTNode, new_api: tuple[str, ...]) -> bool:
    """Whether `node` is in one part of a choice between torch APIs (see the module's documentation)."""
    child, parent = node, idx.parent(node)
    while parent is not None:
        if isinstance(parent, (cst.If, cst.IfExp)) and child is not parent.test:
            others = [parent.test, *(b for b in (parent.body, parent.orelse) if b is not None and b is not child)]
            if _torch_guard(ctx, parent.test) or any(_uses(ctx, o, new_api) for o in others):
                return True
        elif isinstance(parent, (cst.Try, cst.TryStar)):
            parts = [parent.body, *parent.handlers, parent.orelse]
            if any(_uses(ctx, p, new_api) for p in parts if p is not None and p is not child):
                return True
        child, parent = parent, idx.parent(parent)
    return False


def nodes(root: cst.CSTNode):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(children(node))


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _uses(ctx, root: cst.CSTNode, new_api: tuple[str, ...]) -> bool:
    """Does `root` use the new API: a name that reaches it, or an import of it?"""
    for node in nodes(root):
        if isinstance(node, (cst.Name, cst.Attribute)):
            if any(_under(q, new_api) for q in ctx.qualified_names(node)):
                return True
        elif isinstance(node, cst.ImportFrom) and node.module is not None and not node.relative:
            module = get_full_name_for_node(node.module) or ""
            names = [] if isinstance(node.names, cst.ImportStar) else [a.evaluated_name for a in node.names]
            if _under(module, new_api) or any(_under(f"{module}.{n}", new_api) for n in names):
                return True
        elif isinstance(node, cst.Import):
            if any(_under(a.evaluated_name, new_api) for a in node.names):
                return True
    return False


def _torch_guard(ctx, test: cst.BaseExpression) -> bool:
    """A test of the torch version (`torch.__version__`, `TORCH_VERSION >= (2, 3)`, `is_torch_greater_than(...)`)
    or of a torch attribute's presence (`hasattr(torch, "amp")`)."""
    for node in nodes(test):
        if isinstance(node, (cst.Name, cst.Attribute)):
            names = ctx.qualified_names(node)
            if names & {"torch.__version__", "torch.version.__version__"}:
                return True
            if isinstance(node, cst.Name) and _VERSION_WORD.search(node.value):
                return True
            if isinstance(node, cst.Attribute) and _VERSION_WORD.search(node.attr.value):
                return True
        elif isinstance(node, cst.Call) and ctx.qualified_names(node.func) & {"builtins.hasattr", "builtins.getattr"}:
            if node.args and any(q == "torch" or q.startswith("torch.") for q in ctx.qualified_names(node.args[0].value)):
                return True
    return False


# -- code that never runs on ROCm -----------------------------------------------------------------------------

_ROCM_WORD = re.compile(r"(?i)^_*(is|has|use|using|with|on|enable|build|for|run|running)?_*(rocm|hip|amd)"
                        r"(_?(build|enabled|available|platform|device|gpu|extension|torch|pytorch|backend|runtime|"
                        r"mode|env|system))?$")
_ROCM_CALL = re.compile(r"(?i)^_*(is|has|using|on|running)_*(rocm|hip|amd)(_\w+)?$")
_ROCM_STRINGS = {"rocm", "hip", "amd"}
_ROCM_ATTRIBUTES = {"torch.version.hip", "torch.utils.cpp_extension.IS_HIP_EXTENSION",
                    "torch.utils.cpp_extension.ROCM_HOME"}
_MENTIONS = re.compile(rb"(?i)rocm|\bhip|_hip|\bamd|_amd|version\.cuda")
_EXITS = (cst.Return, cst.Raise, cst.Continue, cst.Break)


def cuda_only(ctx, start: int) -> bool:
    """Whether the byte `start` lies in code that never runs on ROCm (see the module's documentation)."""
    return any(a <= start < b for a, b in ctx.once("cuda_only_ranges", _ranges))


def _ranges(ctx) -> list[tuple[int, int]]:
    if ctx.wrapper is None or not _MENTIONS.search(ctx.data):
        return []  # names no ROCm test: the tree is not walked
    idx = index(ctx)
    found: list[tuple[int, int]] = []
    for node in nodes(idx.module):
        if isinstance(node, cst.If):
            truth = rocm_test(ctx, idx, node.test)
            if truth == "rocm" and node.orelse is not None:
                found.append(ctx.byte_span(node.orelse))
            elif truth == "not rocm":
                found.append(ctx.byte_span(node.body))
        elif isinstance(node, cst.IfExp):
            truth = rocm_test(ctx, idx, node.test)
            if truth == "rocm":
                found.append(ctx.byte_span(node.orelse))
            elif truth == "not rocm":
                found.append(ctx.byte_span(node.body))
        elif isinstance(node, cst.BooleanOperation):  # `is_rocm() or <CUDA only>`, `not IS_HIP and <CUDA only>`
            truth = rocm_test(ctx, idx, node.left)
            if truth == ("rocm" if isinstance(node.operator, cst.Or) else "not rocm"):
                found.append(ctx.byte_span(node.right))
        elif isinstance(node, (cst.IndentedBlock, cst.Module)):
            body = list(node.body)
            for i, statement in enumerate(body[:-1]):
                if isinstance(statement, cst.If) and statement.orelse is None and exits(ctx, statement.body) \
                        and rocm_test(ctx, idx, statement.test) == "rocm":
                    found.append((ctx.byte_span(body[i + 1])[0], ctx.byte_span(body[-1])[1]))
                    break
    return found


def _device_type(test: cst.Comparison) -> bool:
    """`t.device.type == "hip"` and the like: a device type is never "hip" or "rocm" (a wrong port, PY003), so such a
    test says nothing about the platform."""
    for side in (test.left, test.comparisons[0].comparator):
        name = get_full_name_for_node(side) or ""
        if name.rsplit(".", 1)[-1] == "type" or "device" in name.lower():
            return True
    return False


def exits(ctx, body: cst.BaseSuite) -> bool:
    statements = list(body.body) if isinstance(body, cst.IndentedBlock) else [body]
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, cst.SimpleStatementLine) or isinstance(last, cst.SimpleStatementSuite):
        small = last.body[-1] if last.body else None
        if isinstance(small, _EXITS):
            return True
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            return bool(ctx.qualified_names(small.value.func) & {"sys.exit", "builtins.exit", "builtins.quit",
                                                                 "os._exit"})
    return False


def rocm_test(ctx, idx, test: cst.BaseExpression, depth: int = 0) -> str | None:
    """"rocm" when `test` is true on ROCm (so its else never runs there), "not rocm" when it is false on ROCm (so its
    body never runs there), None when it cannot tell."""
    if depth > 8:
        return None
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = rocm_test(ctx, idx, test.expression, depth + 1)
        return {"rocm": "not rocm", "not rocm": "rocm"}.get(inner)
    if isinstance(test, cst.BooleanOperation):
        left = rocm_test(ctx, idx, test.left, depth + 1)
        right = rocm_test(ctx, idx, test.right, depth + 1)
        if isinstance(test.operator, cst.Or):
            if "rocm" in (left, right):
                return "rocm"  # true on ROCm whatever the other side
            return "not rocm" if left == right == "not rocm" else None
        if "not rocm" in (left, right):
            return "not rocm"  # false on ROCm whatever the other side
        return "rocm" if left == right == "rocm" else None
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        op, right = target.operator, target.comparator
        if isinstance(right, cst.Name) and right.value == "None" and isinstance(op, (cst.Is, cst.IsNot, cst.Equal,
                                                                                     cst.NotEqual)):
            positive = isinstance(op, (cst.IsNot, cst.NotEqual))
            names = ctx.qualified_names(test.left)
            if "torch.version.cuda" in names:
                return None if positive else "rocm"  # `cuda is None` holds on ROCm (and on CPU builds)
            inner = rocm_test(ctx, idx, test.left, depth + 1)
            if inner == "rocm":
                return "rocm" if positive else "not rocm"
            return None
        if isinstance(op, (cst.Equal, cst.NotEqual)):  # args.backend == "rocm"
            text = string_value(right)
            text = string_value(test.left) if text is None else text
            strings = _ROCM_STRINGS
        elif isinstance(op, (cst.In, cst.NotIn)):  # "rocm" in platform ("amd" in a name may be the CPU's vendor)
            text, strings = string_value(test.left), _ROCM_STRINGS - {"amd"}
        else:
            return None
        if text is not None and text.lower() in strings and not _device_type(test):
            return "rocm" if isinstance(op, (cst.Equal, cst.In)) else "not rocm"
        return None
    if isinstance(test, cst.Call):
        names = ctx.qualified_names(test.func)
        if names & {"builtins.bool"} and len(test.args) == 1:
            return rocm_test(ctx, idx, test.args[0].value, depth + 1)
        last = test.func.attr.value if isinstance(test.func, cst.Attribute) else \
            test.func.value if isinstance(test.func, cst.Name) else ""
        return "rocm" if _ROCM_CALL.match(last) and not test.args else None
    if isinstance(test, (cst.Name, cst.Attribute)):
        if ctx.qualified_names(test) & _ROCM_ATTRIBUTES:
            return "rocm"
        if isinstance(test, cst.Name):
            value = idx.followed(test.value)
            if value is not None and depth < 4:
                inner = rocm_test(ctx, idx, value, depth + 1)
                if inner is not None:
                    return inner
            return "rocm" if _ROCM_WORD.match(test.value) else None
        return "rocm" if _ROCM_WORD.match(test.attr.value) else None
    return None

