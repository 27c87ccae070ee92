"""Checks of `torch.version.cuda`: truth tests (`if torch.version.cuda:`, `assert torch.version.cuda`,
`not torch.version.cuda`, `x and torch.version.cuda`, `bool(torch.version.cuda)`), `is None` / `is not None`
tests, and comparisons or parsing of the version string (`torch.version.cuda >= "11.8"`, `.split(".")`,
`float(torch.version.cuda)`, `version.parse(torch.version.cuda)`, `torch.version.cuda[0]`), also through a name
assigned once (`cuda_version = torch.version.cuda`).

Why: ROCm builds of PyTorch set `torch.version.hip` and leave `torch.version.cuda` None. A test written as
"is this a GPU build?" takes the CPU branch on ROCm; parsing or comparing the string raises (AttributeError,
TypeError) or takes the wrong branch.

Fix (safe) for the tests that only ask whether it is set: accept `torch.version.hip` as well:
`if torch.version.cuda:` → `if torch.version.cuda or torch.version.hip:`, `x is not None` →
`x is not None or torch.version.hip is not None`, `x is None` → `x is None and torch.version.hip is None`,
parenthesised where the surrounding operator would bind otherwise (`not (...)`, `a and (...)`, `y = (...) + 1`).
The code under such a test was written for PyTorch's GPU build: that is the branch a ROCm build needs too (other
rules report what in it is CUDA-only). Kept as it is, with no finding, where the code around the test already
handles ROCm (migrate/python/build_tests.py): an `elif torch.version.hip:` (or an `else:` that tests or reads it, the
other arm of `a if torch.version.cuda else b`, an `if IS_ROCM:` or `HAS_HIP = ...` just before or after); accepting
torch.version.hip there would send ROCm down the CUDA branch and leave its own code dead. Reported (WARNING) without a
fix where the code the test guards reads `torch.version.cuda` (or the name bound to it): the rewrite would run it
with None on ROCm; give ROCm its own branch that reads `torch.version.hip`. No fix where the test guards a use of
the string in the same expression (`torch.version.cuda is not None and torch.version.cuda >= "11.8"`): accepting
`torch.version.hip` there would hand None to the use, so it is reported for a hand edit. Comparisons and parsing of
the string are reported (WARNING) without a fix: a CUDA version number means nothing on ROCm; compare
`torch.version.hip` there. Not where only a test that found the string set reaches them (its body, the rest of its
`and`): ROCm never gets there, and that test is reported or kept.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst

from migrate.model import Edit, Severity
from migrate.python.build_tests import Offsets, evaluated_after, guarded, handles_rocm
from migrate.python.index import index
from migrate.rule import PythonRule, Invalid, Valid

NAME = "torch.version.cuda"
TRUTH = ("torch.version.cuda is None on ROCm builds of PyTorch (torch.version.hip is set instead), so this test "
         "takes the non-GPU branch there: accept torch.version.hip too")
PARSE = ("torch.version.cuda is None on ROCm builds of PyTorch: this {what} raises or takes the wrong branch there; "
         "a CUDA version means nothing on ROCm: check torch.version.hip (the HIP version, e.g. \"6.2.41133\") there")
GUARD = ("on ROCm it is None, so this takes the non-GPU branch; accepting torch.version.hip here would hand None "
         "to the use: decide by hand what ROCm should do (torch.version.hip holds the HIP version)")

READS = ("{text} is None on ROCm builds of PyTorch, and the code this test guards reads it: accepting "
         "torch.version.hip here would run that code with None there; give ROCm its own branch that reads "
         "torch.version.hip (`elif torch.version.hip:`)")

PARSERS = {"float", "int", "tuple", "list", "map", "packaging.version.parse", "packaging.version.Version",
           "distutils.version.LooseVersion", "distutils.version.StrictVersion", "pkg_resources.parse_version",
           "looseversion.LooseVersion"}
# where an `a or b` needs no parentheses
OPEN = (cst.If, cst.While, cst.Assert, cst.Assign, cst.AnnAssign, cst.Return, cst.Arg, cst.IfExp)


@dataclass(frozen=True)
class Around:
    """What the file says around each use: where torch.version.cuda (itself, or a name bound to it) is read as a
    value, the tests kept because the code around them handles ROCm, and the byte ranges reached only once a test
    has found torch.version.cuda set."""

    values: Offsets
    kept: set
    covered: Offsets


class TorchVersionCuda(PythonRule):
    code = "PY009"
    severity = Severity.WARNING
    example_path = "utils.py"
    examples = [
        Valid("import torch\nprint('CUDA', torch.version.cuda)\nif torch.version.cuda or torch.version.hip:\n"
              "    pass\n"),
        Valid("import torch\nlog.info('built with %s', torch.version.cuda)\nv = str(torch.version.git_version)\n"),
        Valid("import torch\n\nif torch.version.hip:\n    backend = 'rocm'\nelif torch.version.cuda:\n"
              "    backend = 'cuda'\nelse:\n    backend = 'cpu'\n"),
        # ROCm handled already: an elif, an else, the other arm, the statement before
        Valid("import torch\n\nif torch.version.cuda:\n    v = torch.version.cuda\nelif torch.version.hip:\n"
              "    v = torch.version.hip\nelse:\n    v = None\n"),
        Valid("import torch\n\nif torch.version.cuda is not None:\n    backend = 'cuda'\nelse:\n"
              "    backend = 'rocm' if torch.version.hip else 'cpu'\n"),
        Valid("import torch\n\nversion = torch.version.cuda if torch.version.cuda else torch.version.hip\n"),
        Valid("import torch\n\nIS_ROCM = torch.version.hip is not None\nif IS_ROCM:\n    backend = 'rocm'\n"
              "if torch.version.cuda:\n    backend = 'cuda'\n"),
        # the comparison and parsing under a kept test are never reached on ROCm
        Valid("import torch\n\nif torch.version.cuda is not None and torch.version.cuda >= '11.8':\n"
              "    major = int(torch.version.cuda.split('.')[0])\nelif torch.version.hip:\n"
              "    major = int(torch.version.hip.split('.')[0])\n"),
        # the guarded code reads the value: no fix
        Invalid("import torch\n\nif torch.version.cuda:\n    print('CUDA', torch.version.cuda)\n", line=3,
                message=READS.format(text="torch.version.cuda")),
        Invalid("import torch\n\ncuda_version = torch.version.cuda\n\n\ndef runtime():\n"
                "    if cuda_version is None:\n        return 'cpu'\n    return 'cuda ' + cuda_version\n", line=7,
                message=READS.format(text="cuda_version")),
        Invalid("import torch\n\nif torch.version.cuda:\n    backend = 'gpu'\nassert torch.version.cuda, 'GPU build'\n"
                "HAS_GPU = torch.version.cuda is not None\nCPU_ONLY = not torch.version.cuda\n",
                fixed="import torch\n\nif torch.version.cuda or torch.version.hip:\n    backend = 'gpu'\n"
                      "assert torch.version.cuda or torch.version.hip, 'GPU build'\n"
                      "HAS_GPU = torch.version.cuda is not None or torch.version.hip is not None\n"
                      "CPU_ONLY = not (torch.version.cuda or torch.version.hip)\n",
                line=3, message=TRUTH),
        Invalid("import torch\n\nuse_fast = ready and torch.version.cuda is None\n",
                fixed="import torch\n\nuse_fast = ready and (torch.version.cuda is None and torch.version.hip is None)\n"),
        Invalid("import torch\n\nif torch.version.cuda >= '11.8':\n    pass\nmajor = int(torch.version.cuda.split('.')[0])\n",
                line=3, message=PARSE.format(what="comparison")),
        Invalid("import torch\n\n\ndef graphs_ok():\n"
                "    return torch.version.cuda is not None and torch.version.cuda >= '11.8'\n", line=5,
                message="torch.version.cuda guards a use of the CUDA version string in the same expression: " + GUARD),
        Invalid("import torch\nfrom packaging import version\n\ncuda_version = torch.version.cuda\n"
                "if version.parse(cuda_version) < version.parse('12.0'):\n    pass\n", line=5,
                message=PARSE.format(what="parsing")),
    ]

    def check(self, ctx):
        if not re.search(rb"version\.cuda|version import", ctx.data):  # cheap test first: most files never name it
            return
        idx = index(ctx)
        uses = [node for node in [*idx.attributes, *idx.names] if not idx.inside_import(node)
                and NAME in ctx.qualified_names(node)
                and not (isinstance(node, cst.Name) and getattr(idx.parent(node), "attr", None) is node)]
        holders = set()
        for node in uses:
            parent = idx.parent(node)
            if isinstance(parent, cst.Assign) and len(parent.targets) == 1 \
                    and isinstance(parent.targets[0].target, cst.Name) \
                    and idx.followed(parent.targets[0].target.value) is not None:
                holders.add(parent.targets[0].target.value)
        held = [node for node in idx.names if node.value in holders and self._loads(idx, node)]
        tests = [node for node in uses + held if _is_test(idx, node)]
        kept = {node for node in tests if handles_rocm(ctx, idx, node)}
        # the code that runs only once a test has found torch.version.cuda set: a use there is never reached on ROCm
        # (nor is the rest of an `and` after a kept test: `if cuda and cuda >= "11.8": ... elif hip: ...`)
        covered = [span for node in tests for span in guarded(ctx, idx, node, certain=True)]
        covered += [span for node in kept for span in evaluated_after(ctx, idx, node)]
        values = [ctx.byte_span(node) for node in uses + held if not _is_test(idx, node)]
        around = Around(Offsets(values), kept, Offsets(covered))
        for node in uses:
            yield from self._use(ctx, idx, node, around, fix=True)
        for node in held:
            yield from self._use(ctx, idx, node, around, fix=False)

    @staticmethod
    def _loads(idx, node: cst.Name) -> bool:
        parent = idx.parent(node)
        if isinstance(parent, cst.AssignTarget) or (isinstance(parent, cst.Attribute) and parent.attr is node):
            return False
        return not isinstance(parent, (cst.Param, cst.Arg)) or getattr(parent, "keyword", None) is not node

    def _use(self, ctx, idx, node, around: Around, fix: bool):
        parent = idx.parent(node)
        text = ctx.text(*ctx.byte_span(node))
        hip = _hip(ctx, node) if fix else None
        if _mentions_hip(ctx, idx, node):
            return  # `torch.version.cuda or torch.version.hip`: already looks at both
        is_test = _is_test(idx, node)
        if node in around.kept:
            return  # `if torch.version.cuda: ... elif torch.version.hip: ...`: ROCm has its own code already
        if is_test and hip is not None and _guards_a_use(ctx, idx, node):
            # `torch.version.cuda is not None and torch.version.cuda >= "11.8"`: accepting torch.version.hip
            # here would let None reach the use; the use itself is reported
            start, end = ctx.byte_span(node if not isinstance(parent, cst.Comparison) else parent)
            yield self.finding(ctx, start, end, f"{text} guards a use of the CUDA version string in the same "
                               f"expression: {GUARD}")
            return
        if is_test and any(around.values.meet(*span) for span in guarded(ctx, idx, node)):
            # `if torch.version.cuda: v = torch.version.cuda`: accepting torch.version.hip would run that with None
            start, end = ctx.byte_span(node if not isinstance(parent, cst.Comparison) else parent)
            yield self.finding(ctx, start, end, READS.format(text=text))
            return
        if not is_test and around.covered.hold(ctx.byte_span(node)[0]):
            return  # under `if torch.version.cuda:`: never reached on ROCm; that test is what is reported, or kept
        # truth tests
        if _truth_test(idx, node, parent):
            start, end = ctx.byte_span(node)
            if hip is None:
                yield self.finding(ctx, start, end, f"{text} holds {TRUTH}")
                return
            new = f"{text} or {hip}"
            if not node.lpar and (isinstance(parent, cst.UnaryOperation) or
                                  isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And)):
                new = f"({new})"
            yield self.finding(ctx, start, end, TRUTH, edits=[Edit(start, end, new)], title="Accept torch.version.hip")
            return
        if isinstance(parent, cst.Comparison):
            yield from self._comparison(ctx, idx, node, parent, text, hip)
            return
        what = None
        if isinstance(parent, cst.Attribute) and parent.value is node:
            what = "parsing"
        elif isinstance(parent, cst.Subscript) and parent.value is node:
            what = "parsing"
        elif isinstance(parent, cst.Arg) and isinstance(idx.parent(parent), cst.Call):
            call = idx.parent(parent)
            names = ctx.qualified_names(call.func) | {_last(call.func)}
            if names & PARSERS or _last(call.func) in {"parse", "Version", "LooseVersion", "StrictVersion",
                                                         "parse_version"}:
                what = "parsing"
        if what:
            start, end = ctx.byte_span(node)
            yield self.finding(ctx, start, end, PARSE.format(what=what))

    def _comparison(self, ctx, idx, node, comparison: cst.Comparison, text: str, hip: str | None):
        start, end = ctx.byte_span(comparison)
        targets = comparison.comparisons
        if _none_test(comparison, node):
            if hip is None:
                yield self.finding(ctx, start, end, f"{text} holds {TRUTH}")
                return
            whole = ctx.text(start, end)
            if isinstance(targets[0].operator, cst.IsNot):
                new = f"{whole} or {hip} is not None"
            else:
                new = f"{whole} and {hip} is None"
            if not comparison.lpar and not isinstance(idx.parent(comparison), OPEN):
                new = f"({new})"
            yield self.finding(ctx, start, end, TRUTH, edits=[Edit(start, end, new)], title="Accept torch.version.hip")
            return
        yield self.finding(ctx, start, end, PARSE.format(what="comparison"))


def _is_test(idx, node) -> bool:
    """A truth test of `node`, or `node is None` / `node is not None`."""
    parent = idx.parent(node)
    return _truth_test(idx, node, parent) or (isinstance(parent, cst.Comparison) and _none_test(parent, node))


def _none_test(comparison: cst.Comparison, node) -> bool:
    """`node is None` / `node is not None`."""
    targets = comparison.comparisons
    return (len(targets) == 1 and comparison.left is node and isinstance(targets[0].comparator, cst.Name)
            and targets[0].comparator.value == "None" and isinstance(targets[0].operator, (cst.Is, cst.IsNot)))


def _guards_a_use(ctx, idx, node) -> bool:
    """Is `node` one operand of an `and`/`or` whose other operands read torch.version.cuda too?"""
    top = node
    while isinstance(idx.parent(top), (cst.BooleanOperation, cst.UnaryOperation, cst.Comparison,
                                       cst.ComparisonTarget)):
        top = idx.parent(top)
    if not isinstance(top, cst.BooleanOperation):
        return False
    others = 0

    class _Count(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> bool:
            nonlocal others
            if n is not node and n.attr.value == "cuda" and NAME in ctx.qualified_names(n):
                others += 1
                return False
            return True

    top.visit(_Count())
    return others > 0


def _mentions_hip(ctx, idx, node) -> bool:
    """Does the boolean expression around `node` (through and/or/not and comparisons) read torch.version.hip?"""
    top = node
    while isinstance(idx.parent(top), (cst.BooleanOperation, cst.UnaryOperation, cst.Comparison,
                                       cst.ComparisonTarget)):
        top = idx.parent(top)
    found = False

    class _Find(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> bool:
            nonlocal found
            found = found or (n.attr.value == "hip" and "torch.version.hip" in ctx.qualified_names(n))
            return not found

    top.visit(_Find())
    return found


def _truth_test(idx, node, parent) -> bool:
    if isinstance(parent, (cst.If, cst.While)) and parent.test is node:
        return True
    if isinstance(parent, cst.Assert) and parent.test is node:
        return True
    if isinstance(parent, cst.IfExp) and parent.test is node:
        return True
    if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
        return True
    if isinstance(parent, cst.BooleanOperation):
        # `x and torch.version.cuda` used as a value (y = a and v) is still a truth test of v when the whole is
        # tested; as an assigned value it may be the string itself: treat it as a test only where the whole is one
        outer = idx.parent(parent)
        while isinstance(outer, cst.BooleanOperation):
            outer = idx.parent(outer)
        return isinstance(outer, (cst.If, cst.While, cst.Assert, cst.IfExp, cst.UnaryOperation))
    if isinstance(parent, cst.Arg) and isinstance(idx.parent(parent), cst.Call):
        call = idx.parent(parent)
        return isinstance(call.func, cst.Name) and call.func.value == "bool" and len(call.args) == 1
    return False


def _hip(ctx, node) -> str | None:
    """`torch.version.hip` spelt the way the file reaches `torch.version.cuda` (`torch.version.` or `th.version.`)."""
    if isinstance(node, cst.Attribute):
        return f"{ctx.text(*ctx.byte_span(node.value))}.hip"
    return None


def _last(func: cst.BaseExpression) -> str:
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else ""
