"""A broken pyproject.toml is a usage error with a clear message, never silently ignored (issue 28, item 7)."""
from __future__ import annotations

import pytest

from tests.helpers import cli, write_tree

CALL = "#include <cuda_runtime.h>\nvoid f(float** p) { cudaMalloc(p, 4); }\n"


@pytest.mark.parametrize("text,message", [
    ('[tool.hipmigrate]\nselect = ["MAP"\n', "not valid TOML (Unclosed array (at end of document)); fix it, since "
     "hipmigrate reads its [tool.hipmigrate] settings from the first pyproject.toml found from here up"),
    ('[project]\nname = "x"\nname = "y"\n[tool.hipmigrate]\nselect = ["MAP"]\n',
     "not valid TOML (Cannot overwrite a value (at line 3, column 11)); fix it, since hipmigrate reads its "
     "[tool.hipmigrate] settings from the first pyproject.toml found from here up"),
    (b'[tool.hipmigrate]\n# caf\xe9\n', "not UTF-8 (byte 0xe9 at offset 23), so not TOML; fix it"),
    ('[tool.hipmigrate]\nselct = ["MAP"]\n', "[tool.hipmigrate] has no setting 'selct' (known: select, ignore, "
     "min-severity, baseline, exclude, hip-version, cache, cache-dir, unsafe-fixes, hipcc, bench)"),
    ('[tool.hipmigrate]\ncache = "yes"\n', "[tool.hipmigrate] cache must be bool"),
    ('[tool.hipmigrate]\nexclude = "third_party/"\n', "[tool.hipmigrate] exclude must be a list of strings"),
])
def test_a_broken_pyproject_is_exit_2_with_its_reason(tmp_path, monkeypatch, text, message):
    root = write_tree(tmp_path / "p", {"k.cu": CALL, "pyproject.toml": text})
    monkeypatch.chdir(root)
    for command in (["check", "."], ["suggest", "--base", "HEAD"], ["build", ".", "--force"]):
        result = cli(*command)
        assert (result.exit_code, result.stderr.splitlines()[-1]) == (
            2, f"hipmigrate: error: {root / 'pyproject.toml'}: {message}"), command


def test_benchmarks_in_pyproject_do_not_break_check(tmp_path, monkeypatch):
    root = write_tree(tmp_path / "p", {"k.cu": CALL, "pyproject.toml": (
        '[tool.hipmigrate]\nselect = ["MAP"]\n[[tool.hipmigrate.bench.benchmark]]\nname = "a"\ncommand = "true"\n')})
    monkeypatch.chdir(root)
    result = cli("check", ".", "--no-cache")
    assert result.exit_code == 1 and "MAP001 1" in result.stdout and "CPP001" not in result.stdout


@pytest.mark.parametrize("text,message", [
    ('min-severity = "loud"', "min-severity 'loud': choose one of info, warning, error"),
    ('hip-version = "banana"', "hip-version 'banana': give major.minor, for example 7.2"),
    ('select = ["NOPE"]', "select NOPE: not a rule code or prefix (MAP, CPP, HAZ, PY, BLD, INP, ENG, CHK, optionally "
     "with digits; `hipmigrate rules` lists them)"),
    ('baseline = "gone.json"', "baseline {root}/gone.json: no such file; create it with --write-baseline "
     "{root}/gone.json"),
])
def test_a_bad_value_in_pyproject_names_the_file_not_an_option(tmp_path, monkeypatch, text, message):
    """The value is wrong where pyproject.toml set it: the message says so, not `--hip-version` nobody gave."""
    root = write_tree(tmp_path / "p", {"k.cu": CALL, "pyproject.toml": f"[tool.hipmigrate]\n{text}\n"})
    monkeypatch.chdir(root)
    for command in (["check", ".", "--no-cache"], ["suggest", "--base", "HEAD", "--no-cache"]):
        result = cli(*command)
        assert (result.exit_code, result.stderr.splitlines()[-1]) == (
            2, f"hipmigrate: error: {root / 'pyproject.toml'}: [tool.hipmigrate] {message.format(root=root)}"), command
    if text.startswith("hip-version"):  # given on the command line too, it is the option's
        given = cli("check", ".", "--no-cache", "--hip-version", "banana")
        assert given.stderr.splitlines()[-1] == "hipmigrate: error: --hip-version 'banana': give major.minor, for example 7.2"
