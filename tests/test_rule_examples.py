"""Every rule's examples are its tests (see migrate/testing.py)."""
import re
import pytest

from migrate.packs import default_packs
from migrate.registry import default_registry
from migrate.rule import Invalid, Valid
from migrate.testing import example_id, run_example

REGISTRY = default_registry()
CASES = [pytest.param(rule, ex, id=example_id(rule, i, ex))
         for rule in REGISTRY.rules for i, ex in enumerate(rule.examples)]


@pytest.fixture(scope="module")
def engine_rules():
    return [r() for r in REGISTRY.cpp()]


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_example(rule, example, engine_rules):
    outcome = run_example(rule, example, default_packs(), engine_rules)
    if isinstance(example, Valid):
        assert outcome.findings == (), [f.message for f in outcome.findings]
        return
    assert outcome.findings, f"{rule.code} did not flag: {example.code!r}"
    if example.fixed is not None:
        assert outcome.output == example.fixed
    else:
        assert outcome.output == example.code, "a rule without a fixed text must not change the code"
    if example.line is not None:
        assert outcome.findings[0].span.line == example.line
    if example.message is not None:
        assert example.message in [f.message for f in outcome.findings]
    assert outcome.second_pass_edits == 0, "a second pass over the output still changes it"
    assert not outcome.new_parse_errors, "the output does not parse"
    # one site, one finding: no two of the rule's findings share code, file and line with the same message
    sites = [(f.code, f.span.path, f.span.line, f.message) for f in outcome.findings]
    assert len(sites) == len(set(sites)), f"duplicate findings: {sorted(sites)}"


@pytest.mark.parametrize("rule", REGISTRY.rules, ids=lambda r: r.code)
def test_rule_is_documented_and_exemplified(rule):
    assert rule.doc(), f"{rule.__name__} has no docstring"
    assert any(isinstance(e, Valid) for e in rule.examples), "needs a Valid example"
    assert any(isinstance(e, Invalid) for e in rule.examples), "needs an Invalid example"
    if rule.fixable:
        assert any(isinstance(e, Invalid) and e.fixed is not None for e in rule.examples), \
            "a rule that can fix must show a fixed text"
    else:
        assert all(e.fixed is None for e in rule.examples if isinstance(e, Invalid))


def test_codes_are_unique_and_well_formed():
    """Over every code (rules, packs, the engine's own): the table refuses a code defined twice (tests/test_codes.py
    shows it failing), and every code is a known prefix and three digits."""
    from migrate.codes import code_table

    codes = list(code_table(REGISTRY, default_packs()))
    assert set(r.code for r in REGISTRY.rules) <= set(codes)
    prefix = re.compile(r"(MAP|CPP|HAZ|BLD|PY|INP|ENG|CHK|PRF)\d{3}")
    assert [c for c in codes if not prefix.fullmatch(c)] == []
