"""The code table (migrate/codes.py): every code hipmigrate reports, with its title, explained by `hipmigrate rules`;
a code defined twice is refused."""
import ast
import re
from pathlib import Path

import pytest

from migrate import codes
from migrate.codes import Code, code_table
from migrate.model import RuleKind, Severity
from migrate.packs import PackError, default_packs
from migrate.registry import default_registry, load_registry
from tests.helpers import cli

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"(MAP|CPP|HAZ|BLD|PY|INP|ENG|CHK|PRF)\d{3}")


def test_rules_explains_a_code_no_rule_carries():
    result = cli("rules", "inp005")
    assert result.exit_code == 0
    assert result.stdout == ("INP005 (input, warning)\na file over --max-file-size\n\n"
                             "It is copied unchanged. Raise --max-file-size to migrate it.\n")
    assert cli("rules", "BLD902").stdout.startswith("BLD902 (build, error)\nCUDA API without a HIP counterpart\n")


def test_every_code_in_the_sources_is_in_the_table():
    """Each code-like string literal of migrate/ and rules/ is a code of the table."""
    table = code_table(default_registry(), default_packs())
    files = [*(ROOT / "migrate").rglob("*.py"), *(ROOT / "rules").rglob("*.py")]
    found = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value):
                found.setdefault(node.value, path.relative_to(ROOT).as_posix())
    assert len(found) > 150
    assert {c: p for c, p in found.items() if c not in table and c != "MAP000"} == {}


def test_a_code_defined_twice_is_refused(monkeypatch):
    monkeypatch.setattr(codes, "ENGINE_CODES", (*codes.ENGINE_CODES,
                                                Code("CPP001", "again", RuleKind.INPUT, Severity.WARNING)))
    with pytest.raises(PackError, match=r"code CPP001 is defined twice: migrate\.rules\.cpp\.cuda_header_include\."
                                        r"CudaHeaderInclude and the engine code 'again'"):
        code_table(default_registry(), default_packs())


def test_two_rule_modules_with_one_code_are_refused(tmp_path, monkeypatch):
    package = tmp_path / "twice_rules"
    package.mkdir()
    rule = ('from migrate.rule import CppRule\n\nclass {0}(CppRule):\n    """A rule."""\n    code = "CPP999"\n')
    (package / "first.py").write_text(rule.format("First"))
    (package / "second.py").write_text(rule.format("Second"))
    (package / "_helper.py").write_text("raise AssertionError('a helper module is no rule module')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PackError, match=r"second\.py: rule code CPP999 is already used by twice_rules\.first\.First"):
        load_registry("twice_rules")
