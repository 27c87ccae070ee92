"""Inline suppressions are the engine's (migrate/suppress.py): run, scan and check honour the same comments, a
suppressed finding's fix is not applied, and --no-suppressions sees and fixes everything."""
from __future__ import annotations

from migrate import api
from migrate.model import Outcome
from migrate.options import Options
from tests.helpers import cli, cli_json, read_tree, write_tree

KERNEL = """\
#include <cuda_runtime.h>
void f(float* d) {
    cudaMalloc(&d, 4);  // hipmigrate: ignore[MAP001]
    cudaFree(d);
    int n = 0;  // hipmigrate: ignore[HAZ001]
}
"""


def test_run_leaves_a_suppressed_line_as_it_is(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": KERNEL})
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert result.exit_code == 0
    assert ("1 finding suppressed by `hipmigrate: ignore` comments, not fixed (--no-suppressions shows and fixes "
            "them)") in result.stdout.splitlines()
    lines = read_tree(tmp_path / "out")["k.cu"].decode().splitlines()
    assert lines[:5] == ["#include <hip/hip_runtime.h>", "void f(float* d) {",
                         "    cudaMalloc(&d, 4);  // hipmigrate: ignore[MAP001]", "    hipFree(d);",
                         "    int n = 0;  // hipmigrate: ignore[HAZ001]"]
    assert cli("run", src, "--out", tmp_path / "all", "--hip-version", "6.2", "--no-suppressions").exit_code == 0
    assert b"hipMalloc(&d, 4);  // hipmigrate: ignore[MAP001]" in read_tree(tmp_path / "all")["k.cu"]


def test_the_result_keeps_suppressed_and_unused_apart(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": KERNEL})
    _, result = api.analyse(src, Options(hip_version="6.2"))
    (r,) = result.files
    assert [(f.code, f.span.line) for f in r.findings] == [("CPP001", 1), ("MAP001", 4)]
    assert [(f.code, f.span.line, f.fix.outcome) for f in r.suppressed] == [("MAP001", 3, Outcome.SUPPRESSED)]
    assert [(f.code, f.span.line) for f in r.unused] == [("CHK001", 5)]


def test_scan_and_check_agree_on_what_is_suppressed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_tree(tmp_path / "src", {"k.cu": KERNEL})
    _, scan = cli_json("scan", "src", "--hip-version", "6.2")
    assert [(f["code"], f["line"]) for f in scan["findings"]] == [("CPP001", 1), ("MAP001", 4)]
    _, check = cli_json("check", "src", "--hip-version", "6.2", "--no-cache")
    assert [(f["code"], f["line"], f["blocking"]) for f in check["findings"]] == [
        ("CPP001", 1, True), ("MAP001", 4, True), ("CHK001", 5, False)]
    assert check["summary"]["suppressed"] == 1
    _, every = cli_json("check", "src", "--hip-version", "6.2", "--no-cache", "--no-suppressions")
    assert [(f["code"], f["line"]) for f in every["findings"]] == [("CPP001", 1), ("MAP001", 3), ("MAP001", 4)]
    assert every["summary"]["suppressed"] == 0
