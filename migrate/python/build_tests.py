"""A test of a CUDA build (`if torch.version.cuda:`, `HAS_GPU = torch.version.cuda is not None`, `if CUDA_HOME is
None:`) seen with the code around it: whether that code already handles ROCm, and what runs once the test has found
the CUDA build. PY009 keeps such a test, or refuses to fix it, by these; PY013 leaves it unreported.

- `handles_rocm`: the test's own expression makes a ROCm test too (`torch.version.cuda and not IS_ROCM`), a later
  `elif`/`else` of its `if` (or an earlier test of the same chain) makes one or reads a ROCm attribute
  (`elif torch.version.hip:`, `else: backend = "rocm" if torch.version.hip else "cpu"`), the other arm of a
  conditional expression does (`torch.version.cuda if torch.version.cuda else torch.version.hip`), or the statement
  just before or after it is an `if` whose test is a ROCm test or an assignment of one
  (`HAS_HIP = torch.version.hip is not None`). Accepting `torch.version.hip` in such a test would send ROCm down the
  CUDA branch and leave the ROCm code that is already there dead.
- `guarded`: the code that runs when the test finds the CUDA build: the body of `if`/`while`/the first arm of a
  conditional expression (for `not ...` and `... is None`: the `else`, and the rest of the block after a body that
  returns or raises), and the rest of the block after `assert ...`; `evaluated_after`: the rest of an `and` after
  the test (`cuda is not None and cuda >= "11.8"`).

What counts as a ROCm test is migrate/python/guards.py's (`rocm_test`); a comparison of `torch.version.cuda` with
None, which guards.py reads as one, is not counted here: it is the CUDA test itself.
"""
from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from migrate.python.guards import exits, nodes, rocm_test

CUDA = "torch.version.cuda"
_EXPRESSION = (cst.BooleanOperation, cst.UnaryOperation, cst.Comparison, cst.ComparisonTarget)
_BLOCKS = (cst.IndentedBlock, cst.Module)


def test_top(idx, node: cst.CSTNode) -> cst.CSTNode:
    """The whole test `node` is part of: up through and/or/not, comparisons and `bool(...)`."""
    top = node
    while True:
        parent = idx.parent(top)
        if isinstance(parent, _EXPRESSION):
            top = parent
        elif isinstance(parent, cst.Arg) and _bool_call(idx.parent(parent)):
            top = idx.parent(parent)
        else:
            return top


def handles_rocm(ctx, idx, node: cst.CSTNode) -> bool:
    """Whether the code around the test `node` is part of already handles ROCm (see the module's documentation)."""
    top = test_top(idx, node)
    if _mentions_rocm(ctx, idx, top):
        return True
    owner = idx.parent(top)
    statement = None
    if isinstance(owner, cst.If) and owner.test is top:
        if owner.orelse is not None and _mentions_rocm(ctx, idx, owner.orelse):
            return True
        statement = owner
        while isinstance(idx.parent(statement), cst.If) and idx.parent(statement).orelse is statement:
            statement = idx.parent(statement)  # an `elif`: the tests before it belong to the same choice
            if _mentions_rocm(ctx, idx, statement.test):
                return True
    elif isinstance(owner, cst.IfExp) and owner.test is top and _mentions_rocm(ctx, idx, owner.orelse):
        return True
    statement = statement or _statement(idx, top)
    return any(_rocm_choice(ctx, idx, s) for s in _neighbours(idx, statement))


def guarded(ctx, idx, node: cst.CSTNode, certain: bool = False) -> list[cst.CSTNode]:
    """The code that runs when the test `node` is part of finds the CUDA build (see the module's documentation);
    with `certain`, only where that code runs with `node` set (`if node and x:`, not `if node or x:`)."""
    top = test_top(idx, node)
    owner = idx.parent(top)
    positive = _positive(idx, node, top, certain)
    if positive is None:
        return []
    if isinstance(owner, cst.If) and owner.test is top:
        if positive:
            return [owner.body]
        found = [owner.orelse] if owner.orelse is not None else []
        return found + (_rest(idx, owner) if exits(ctx, owner.body) else [])
    if isinstance(owner, cst.While) and owner.test is top:
        return [owner.body] if positive else []
    if isinstance(owner, cst.IfExp) and owner.test is top:
        return [owner.body if positive else owner.orelse]
    if isinstance(owner, cst.Assert) and owner.test is top and positive:
        return _rest(idx, idx.parent(owner))
    return []


def evaluated_after(idx, node: cst.CSTNode) -> list[cst.CSTNode]:
    """The operands of `and`s evaluated only once the test of `node` (`node`, `node is not None`) was true: `b` and
    `c` in `node and b and c`."""
    found, child, parent = [], node, idx.parent(node)
    if isinstance(parent, cst.Comparison) and parent.left is child and len(parent.comparisons) == 1 \
            and isinstance(parent.comparisons[0].operator, cst.IsNot):
        child, parent = parent, idx.parent(parent)
    while isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And) and parent.left is child:
        found.append(parent.right)
        child, parent = parent, idx.parent(parent)
    return found


def reads_in(roots: list[cst.CSTNode], reads: Callable[[cst.CSTNode], bool]) -> cst.CSTNode | None:
    """The first node under `roots` for which `reads` holds, else None."""
    for root in roots:
        for node in nodes(root):
            if reads(node):
                return node
    return None


def _bool_call(node) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "bool" \
        and len(node.args) == 1


def _positive(idx, node: cst.CSTNode, top: cst.CSTNode, certain: bool) -> bool | None:
    """Whether the test `top` is true when `node` is set (`not node` and `node is None` turn it round); with
    `certain`, None where the outcome of `top` does not settle whether `node` is set (`node or x` true)."""
    positive, child = True, node
    while child is not top:
        parent = idx.parent(child)
        if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
            positive = not positive
        elif certain and isinstance(parent, cst.BooleanOperation) \
                and isinstance(parent.operator, cst.Or if positive else cst.And):
            return None
        elif isinstance(parent, cst.Comparison) and parent.left is child and len(parent.comparisons) == 1:
            target = parent.comparisons[0]
            if isinstance(target.comparator, cst.Name) and target.comparator.value == "None" \
                    and isinstance(target.operator, (cst.Is, cst.Equal)):
                positive = not positive
        child = parent
    return positive


def _mentions_rocm(ctx, idx, root: cst.CSTNode) -> bool:
    """Does `root` make a ROCm test or read a ROCm attribute (`torch.version.hip`, `IS_ROCM`, `is_hip()`)?"""
    for node in nodes(root):
        if isinstance(node, cst.Comparison) and CUDA in ctx.qualified_names(node.left):
            continue  # `torch.version.cuda is None`: the CUDA test, not a ROCm one
        if isinstance(node, (cst.Name, cst.Attribute, cst.Call, cst.Comparison)) \
                and CUDA not in ctx.qualified_names(node) and rocm_test(ctx, idx, node) is not None:
            return True
    return False


def _rocm_choice(ctx, idx, statement: cst.CSTNode) -> bool:
    """An `if` whose chain of tests makes a ROCm test, or an assignment of one (`IS_HIP = torch.version.hip`)."""
    if isinstance(statement, cst.If):
        branch = statement
        while isinstance(branch, cst.If):
            if _mentions_rocm(ctx, idx, branch.test):
                return True
            branch = branch.orelse
        return False
    if isinstance(statement, cst.SimpleStatementLine):
        return any(isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None
                   and _mentions_rocm(ctx, idx, small.value) for small in statement.body)
    return False


def _statement(idx, node: cst.CSTNode) -> cst.CSTNode | None:
    """The statement of a block (a whole line of simple statements, or a compound one) that holds `node`."""
    child, parent = node, idx.parent(node)
    while parent is not None and not isinstance(parent, _BLOCKS):
        child, parent = parent, idx.parent(parent)
    return child if parent is not None else None


def _neighbours(idx, statement: cst.CSTNode | None) -> list[cst.CSTNode]:
    """The statements just before and after `statement` in its block."""
    block = idx.parent(statement) if statement is not None else None
    if not isinstance(block, _BLOCKS):
        return []
    body = list(block.body)
    at = next((i for i, s in enumerate(body) if s is statement), None)
    if at is None:
        return []
    return [s for s in (body[at - 1] if at else None, body[at + 1] if at + 1 < len(body) else None) if s is not None]


def _rest(idx, statement: cst.CSTNode) -> list[cst.CSTNode]:
    """The statements after `statement` in its block."""
    block = idx.parent(statement)
    if not isinstance(block, _BLOCKS):
        return []
    body = list(block.body)
    at = next((i for i, s in enumerate(body) if s is statement), None)
    return body[at + 1:] if at is not None else []
