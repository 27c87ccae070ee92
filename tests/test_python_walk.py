"""migrate/python/walk.py meets the nodes libcst's own visitor meets, in the same order (whitespace and
punctuation aside), on real files: the Python corpus, the rules and hipmigrate's own sources."""
from pathlib import Path

import libcst as cst
import pytest

from migrate.python.walk import walk

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.glob("tests/python_corpus/src/**/*.py"), *ROOT.glob("rules/**/*.py"), *ROOT.glob("migrate/**/*.py"),
                ROOT / "samples" / "pytorch_ddp" / "src" / "train.py"])
SEMANTIC = (cst.BaseExpression, cst.BaseStatement, cst.BaseSmallStatement, cst.Arg, cst.Param, cst.ImportAlias,
            cst.AsName, cst.WithItem, cst.Decorator, cst.ComparisonTarget, cst.BaseElement, cst.BaseDictElement,
            cst.Annotation, cst.IndentedBlock, cst.SimpleStatementSuite, cst.CompFor, cst.CompIf, cst.ExceptHandler,
            cst.Else, cst.Finally, cst.Parameters, cst.FormattedStringText, cst.FormattedStringExpression, cst.Index,
            cst.Slice, cst.SubscriptElement, cst.AssignTarget, cst.NameItem)


class _Order(cst.CSTVisitor):
    def __init__(self) -> None:
        self.seen: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen.append(node)
        return True


@pytest.mark.slow
def test_same_nodes_in_the_same_order_as_libcst():
    checked = 0
    for path in FILES:
        try:
            module = cst.parse_module(path.read_bytes())
        except cst.ParserSyntaxError:
            continue  # the corpus's broken.py
        theirs = _Order()
        module.visit(theirs)
        ours: list[cst.CSTNode] = []
        walk(module, lambda n: ours.append(n) is None, lambda n: None)
        assert [id(n) for n in ours if isinstance(n, SEMANTIC)] == \
            [id(n) for n in theirs.seen if isinstance(n, SEMANTIC)], path
        assert len(ours) == len(theirs.seen), path  # whitespace and punctuation too, if maybe in another order
        checked += 1
    assert checked > 150


def test_a_false_answer_skips_the_children_and_still_leaves():
    module = cst.parse_module("f(a, b)\n")
    visited, left = [], []
    walk(module, lambda n: visited.append(type(n).__name__) is None and not isinstance(n, cst.Call),
         lambda n: left.append(type(n).__name__))
    assert "Call" in visited and "Arg" not in visited and "Call" in left and left[-1] == "Module"
