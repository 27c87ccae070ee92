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
- `guarded`: the byte ranges of the code that runs when the test finds the CUDA build: the body of `if`/`while`/the
  first arm of a conditional expression (for `not ...` and `... is None`: the `else`, and the rest of the block after
  a body that returns or raises), and the rest of the block after `assert ...`; `evaluated_after`: the rest of an
  `and` after the test (`cuda is not None and cuda >= "11.8"`). `Offsets` answers whether such ranges hold a place.

What counts as a ROCm test is migrate/python/guards.py's (`rocm_test`); a comparison of `torch.version.cuda` with
None, which guards.py reads as one, is not counted here: it is the CUDA test itself. The nodes that make or hold a
ROCm test are found in one walk of the file, so every question here takes constant or logarithmic time, and a file
of thousands of tests is read in linear time.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

import libcst as cst

from migrate.python.guards import exits, rocm_test
from migrate.python.index import index

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
    facts = _facts(ctx)
    top = test_top(idx, node)
    if top in facts.rocm:
        return True
    owner = idx.parent(top)
    statement = None
    if isinstance(owner, cst.If) and owner.test is top:
        if owner.orelse in facts.rocm or _earlier_rocm_test(idx, facts, owner):
            return True
        statement = _chain_head(idx, facts, owner)
    elif isinstance(owner, cst.IfExp) and owner.test is top and owner.orelse in facts.rocm:
        return True
    statement = statement or _statement(idx, top)
    return any(_rocm_choice(facts, s) for s in _neighbours(facts, idx, statement))


def guarded(ctx, idx, node: cst.CSTNode, certain: bool = False) -> list[tuple[int, int]]:
    """The byte ranges of the code that runs when the test `node` is part of finds the CUDA build (see the module's
    documentation); with `certain`, only where that code runs with `node` set (`if node and x:`, not
    `if node or x:`)."""
    top = test_top(idx, node)
    owner = idx.parent(top)
    positive = _positive(idx, node, top, certain)
    if positive is None:
        return []
    if isinstance(owner, cst.If) and owner.test is top:
        if positive:
            return [ctx.byte_span(owner.body)]
        found = [ctx.byte_span(owner.orelse)] if owner.orelse is not None else []
        return found + (_rest(ctx, idx, owner) if exits(ctx, owner.body) else [])
    if isinstance(owner, cst.While) and owner.test is top:
        return [ctx.byte_span(owner.body)] if positive else []
    if isinstance(owner, cst.IfExp) and owner.test is top:
        return [ctx.byte_span(owner.body if positive else owner.orelse)]
    if isinstance(owner, cst.Assert) and owner.test is top and positive:
        return _rest(ctx, idx, idx.parent(owner))
    return []


def evaluated_after(ctx, idx, node: cst.CSTNode) -> list[tuple[int, int]]:
    """The byte range of the operands of `and`s evaluated only once the test of `node` (`node`, `node is not None`)
    was true: `b and c` in `node and b and c`."""
    found, child, parent = [], node, idx.parent(node)
    if isinstance(parent, cst.Comparison) and parent.left is child and len(parent.comparisons) == 1 \
            and isinstance(parent.comparisons[0].operator, cst.IsNot):
        child, parent = parent, idx.parent(parent)
    while isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And) and parent.left is child:
        found.append(parent.right)
        child, parent = parent, idx.parent(parent)
    return [(ctx.byte_span(found[0])[0], ctx.byte_span(found[-1])[1])] if found else []


class Offsets:
    """Byte ranges, merged and sorted once, asked whether they hold an offset or meet a range (in log time)."""

    def __init__(self, ranges) -> None:
        merged: list[list[int]] = []
        for start, end in sorted(ranges):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.starts = [m[0] for m in merged]
        self.ends = [m[1] for m in merged]

    def hold(self, at: int) -> bool:
        """Whether a range holds the offset `at`."""
        i = bisect_right(self.starts, at) - 1
        return i >= 0 and at < self.ends[i]

    def meet(self, start: int, end: int) -> bool:
        """Whether a range overlaps [start, end)."""
        i = bisect_left(self.starts, start)
        return self.hold(start) or (i < len(self.starts) and self.starts[i] < end)


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


@dataclass
class _Facts:
    """Worked out once a file: the nodes that make a ROCm test or hold one (`rocm`), and what has been asked already:
    where statements stand in their blocks, the head of each `elif` chain, whether a test before an `elif` is a ROCm
    test, whether a statement is a ROCm choice."""

    rocm: set = field(default_factory=set)
    places: dict = field(default_factory=dict)  # statement -> its index in its block
    heads: dict = field(default_factory=dict)  # if -> the first if of its chain
    earlier: dict = field(default_factory=dict)  # if -> whether a test before it in its chain is a ROCm test
    choices: dict = field(default_factory=dict)  # statement -> _rocm_choice


def _facts(ctx) -> _Facts:
    return ctx.once("build_test_facts", _work_out)


def _work_out(ctx) -> _Facts:
    idx = index(ctx)
    facts = _Facts()
    for node in [*idx.names, *idx.attributes, *idx.calls, *idx.comparisons]:  # the index has them: no walk
        if isinstance(node, cst.Comparison) and CUDA in ctx.qualified_names(node.left):
            continue  # `torch.version.cuda is None`: the CUDA test, not a ROCm one
        if CUDA in ctx.qualified_names(node) or rocm_test(ctx, idx, node) is None:
            continue
        while node is not None and node not in facts.rocm:  # it, and everything that holds it
            facts.rocm.add(node)
            node = idx.parent(node)
    return facts


def _earlier_rocm_test(idx, facts: _Facts, branch: cst.If) -> bool:
    """Whether a test before `branch` in its `if`/`elif` chain makes a ROCm test."""
    todo = []  # (an elif, the if it is the orelse of), innermost first, up to one already answered
    while branch not in facts.earlier:
        parent = idx.parent(branch)
        if not (isinstance(parent, cst.If) and parent.orelse is branch):
            facts.earlier[branch] = False  # the head of its chain: no test before it
            break
        todo.append((branch, parent))
        branch = parent
    answer = facts.earlier[branch]
    for later, before in reversed(todo):
        answer = answer or before.test in facts.rocm
        facts.earlier[later] = answer
    return answer


def _chain_head(idx, facts: _Facts, branch: cst.If) -> cst.If:
    """The first `if` of the chain `branch` is an `elif` of (itself when it is none)."""
    seen = []
    while branch not in facts.heads:
        parent = idx.parent(branch)
        seen.append(branch)
        if not (isinstance(parent, cst.If) and parent.orelse is branch):
            facts.heads[branch] = branch
            break
        branch = parent
    head = facts.heads[branch]
    for node in seen:
        facts.heads[node] = head
    return head


def _rocm_choice(facts: _Facts, statement: cst.CSTNode) -> bool:
    """An `if` whose chain of tests makes a ROCm test, or an assignment of one (`IS_HIP = torch.version.hip`)."""
    if statement not in facts.choices:
        answer = False
        if isinstance(statement, cst.If):
            branch = statement
            while isinstance(branch, cst.If) and not answer:
                answer = branch.test in facts.rocm
                branch = branch.orelse
        elif isinstance(statement, cst.SimpleStatementLine):
            answer = any(isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value in facts.rocm
                         for small in statement.body)
        facts.choices[statement] = answer
    return facts.choices[statement]


def _statement(idx, node: cst.CSTNode) -> cst.CSTNode | None:
    """The statement of a block (a whole line of simple statements, or a compound one) that holds `node`."""
    child, parent = node, idx.parent(node)
    while parent is not None and not isinstance(parent, _BLOCKS):
        child, parent = parent, idx.parent(parent)
    return child if parent is not None else None


def _place(facts: _Facts, idx, statement: cst.CSTNode | None) -> tuple[tuple, int] | None:
    """The statements of the block `statement` stands in, and its index there."""
    block = idx.parent(statement) if statement is not None else None
    if not isinstance(block, _BLOCKS):
        return None
    if statement not in facts.places:
        facts.places.update((s, i) for i, s in enumerate(block.body))
    return block.body, facts.places[statement]


def _neighbours(facts: _Facts, idx, statement: cst.CSTNode | None) -> list[cst.CSTNode]:
    """The statements just before and after `statement` in its block."""
    place = _place(facts, idx, statement)
    if place is None:
        return []
    body, at = place
    return [body[i] for i in (at - 1, at + 1) if 0 <= i < len(body)]


def _rest(ctx, idx, statement: cst.CSTNode) -> list[tuple[int, int]]:
    """The byte range of the statements after `statement` in its block."""
    place = _place(_facts(ctx), idx, statement)
    if place is None or place[1] + 1 >= len(place[0]):
        return []
    body, at = place
    return [(ctx.byte_span(body[at + 1])[0], ctx.byte_span(body[-1])[1])]
