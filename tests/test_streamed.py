"""Build files' rules run with their findings packed as made (migrate/streamed.py): the same findings, outcomes, order
and output as run_rules on objects (migrate.fixing.run_rules_on_objects), on every build-file rule example, the
samples' build files, generated files of thousands of findings, and fixes made to clash."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from migrate import packed, streamed
from migrate.contexts import CONTEXTS
from migrate.fixing import run_rules_on_objects
from migrate.model import Applicability, Edit, Outcome
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry
from migrate.rule import CMakeRule, Invalid
from migrate.testing import example_options

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import scaling  # noqa: E402


def both(kind: str, data: bytes, rules, options: Options | None = None, target: str = "6.4"):
    def ctx():
        return CONTEXTS[kind]("CMakeLists.txt" if kind == "cmake" else "Makefile", data, options or Options(),
                              default_packs(), target)
    held = run_rules_on_objects(ctx(), rules, what="what could be read there was migrated: review those lines")
    packed_run = streamed.run_rules(ctx(), rules, "what could be read there was migrated: review those lines", None)
    return held, packed_run


def same(held, packed_run) -> None:
    assert packed_run.data == held.data
    assert tuple(packed_run.findings) == tuple(held.findings)


def _examples():
    for rule in default_registry().rules:
        if getattr(rule, "file_kind", "") in ("cmake", "make"):
            for i, example in enumerate(rule.examples):
                yield pytest.param(rule, example, id=f"{rule.code}-{i}")


@pytest.mark.parametrize("rule,example", list(_examples()))
def test_each_build_rule_example_is_the_same_both_ways(rule, example):
    options, target = example_options(example, default_packs())
    held, packed_run = both(rule.file_kind, example.code.encode(), [rule()], options, target)
    same(held, packed_run)
    if isinstance(example, Invalid) and example.fixed is not None:
        assert packed_run.data.decode() == example.fixed


@pytest.mark.parametrize("path", sorted(p for p in (ROOT / "samples").glob("*/src/*")
                                        if p.name in ("CMakeLists.txt", "Makefile")), ids=lambda p: p.parent.parent.name)
def test_the_samples_build_files_are_the_same_both_ways(path):
    kind = "cmake" if path.name == "CMakeLists.txt" else "make"
    held, packed_run = both(kind, path.read_bytes(), [r() for r in default_registry().for_kind(kind)])
    assert held.findings
    same(held, packed_run)


@pytest.mark.parametrize("shape", ["cmake", "make"])
def test_a_generated_file_of_thousands_of_findings_is_the_same_both_ways(shape, monkeypatch):
    monkeypatch.setattr(packed, "BLOCK", 5)  # many blocks, and the findings packed at the end too
    monkeypatch.setattr(packed, "PACK_ABOVE", 0)
    kind = "cmake" if shape == "cmake" else "make"
    data = scaling.make_file(shape, 40_000)
    held, packed_run = both(kind, data, [r() for r in default_registry().for_kind(kind)])
    assert len(held.findings) > 600
    assert isinstance(packed_run.findings, packed.Packed)
    same(held, packed_run)
    codes = {f.fix.outcome for f in packed_run.findings if f.fix}
    assert codes == {Outcome.APPLIED}


class Planted(CMakeRule):
    """Findings planted at given places: (start, end, message, edits, applicability) each, in the order given."""
    code = "BLD999"
    examples = []
    planted: list = []

    def check(self, ctx):
        for start, end, message, edits, applicability in self.planted:
            yield self.finding(ctx, start, end, message, edits=[Edit(*e) for e in edits], title="planted",
                               applicability=applicability)


class Other(Planted):
    code = "BLD998"
    planted: list = []


SAFE, UNSAFE = Applicability.SAFE, Applicability.UNSAFE
DATA = b"project(a)\nadd_library(k k.cu)\nset(X 1)\nset(Y 2)\n# hipmigrate: ignore[BLD998]\nset(Z 3)\n"


def test_clashes_repeats_and_suppressions_come_out_the_same_both_ways():
    Planted.planted = [
        (30, 33, "late first", [(30, 33, "A"), (40, 41, "B")], SAFE),  # two edits, far apart
        (11, 22, "replaces", [(11, 22, "lib")], SAFE),
        (11, 11, "inserted where a replacement starts", [(11, 11, "#\n")], SAFE),
        (22, 22, "inserted where it ends", [(22, 22, "!")], SAFE),
        (15, 16, "inside the replacement", [(15, 16, "x")], SAFE),  # INP007, overlapping "replaces"
        (40, 41, "repeat", [(40, 41, "C")], SAFE),  # clashes with the second edit of "late first"
        (0, 7, "same line", [(0, 7, "p1")], SAFE),
        (1, 2, "same line", [(8, 9, "p2")], SAFE),  # a repeat on line 1: taken over by the first
        (3, 4, "same line", [(9, 9, "q")], UNSAFE),  # same line, other grade: kept apart, skipped
        (2, 3, "no fix", [], SAFE),
        (5, 9, "own edits overlap", [(5, 9, "a"), (6, 7, "b")], SAFE),
    ]
    Other.planted = [
        (70, 73, "suppressed", [(70, 73, "W")], SAFE),
        (0, 1, "before all", [(0, 0, "#top\n")], SAFE),
        (50, 52, "no fix either", [], SAFE),
    ]
    held, packed_run = both("cmake", DATA, [Planted(), Other()])
    same(held, packed_run)
    outcomes = [(f.code, f.message.split(":")[0], f.fix and f.fix.outcome.value, f.fix and f.fix.overlaps)
                for f in packed_run.findings]
    assert outcomes == [
        ("BLD999", "late first", "applied", ""),
        ("BLD999", "replaces", "applied", ""),
        ("BLD999", "inserted where a replacement starts", "applied", ""),
        ("BLD999", "inserted where it ends", "applied", ""),
        ("BLD999", "inside the replacement", "overlapped", "BLD999"),
        ("BLD999", "repeat", "overlapped", "BLD999"),
        ("BLD999", "same line", "applied", ""),  # the repeat's edit taken over
        ("BLD999", "same line", "skipped", ""),  # unsafe: kept apart
        ("BLD999", "no fix", None, None),
        ("BLD999", "own edits overlap", "overlapped", "BLD999"),
        ("BLD998", "suppressed", "suppressed", ""),
        ("BLD998", "before all", "applied", ""),
        ("BLD998", "no fix either", None, None),
        ("INP007", "BLD999 fix not applied", None, None),  # in the order met: own edits (line 1), inside, repeat
        ("INP007", "BLD999 fix not applied", None, None),
        ("INP007", "BLD999 fix not applied", None, None),
    ]
    assert [f.span.line for f in packed_run.findings][-3:] == [1, 2, 4]
    assert packed_run.findings[6].fix.edits == (Edit(0, 7, "p1"), Edit(8, 9, "p2"))
    assert packed_run.data == (b"#top\np1(p2)\n#\nlib!(k k.cu)At(X 1)\nBet(Y 2)\n# hipmigrate: ignore[BLD998]\n"
                               b"set(Z 3)\n")


@pytest.mark.parametrize("runs", [3, 200])
def test_findings_out_of_order_and_repeats_far_apart_come_out_the_same_both_ways(runs, monkeypatch):
    """A rule's findings in `runs` ascending runs (over 64: all sorted), repeats of a site 300 findings after it
    (past the findings kept as objects), and another rule's fixes overlapping them, in reverse order."""
    monkeypatch.setattr(packed, "BLOCK", 7)
    monkeypatch.setattr(packed, "PACK_ABOVE", 0)
    data = b"".join(b"set(V%d %d)\n" % (i, i) for i in range(400))
    starts = [i * 11 for i in range(400)]
    order = [i for r in range(runs) for i in range(r, 400, runs)]
    Planted.planted = [(starts[i], starts[i] + 3, f"site {i // 2}", [(starts[i] + (i % 3), starts[i] + 4, "S")],
                        SAFE) for i in order]
    Planted.planted += [(starts[i], starts[i] + 1, f"site {i // 2}", [(starts[i] + 5, starts[i] + 6, "R")], SAFE)
                        for i in range(0, 400, 5)]
    Other.planted = [(starts[i], starts[i] + 1, "other", [(starts[i] + 3, starts[i] + 9, "O")], SAFE)
                     for i in range(399, 0, -7)]
    held, packed_run = both("cmake", data, [Planted(), Other()])
    same(held, packed_run)
    assert sum(f.code == "INP007" for f in packed_run.findings) > 0
