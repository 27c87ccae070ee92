"""File names that are not UTF-8, or that hold a newline (issue 28, item 2): the file is migrated and the output
written; text output shows the name quoted as git does (migrate/pathnames.py), so no name splits a line; JSON keeps
the name itself (a byte that is not UTF-8 as Python's surrogate)."""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from migrate.pathnames import prefixed, shown
from tests.helpers import cli, git, git_repo

CU = b"#include <cuda_runtime.h>\nvoid f(void** p) { cudaMalloc(p, 4); }\n"
BAD = os.fsdecode(b"bad\xffname.cu")  # 'bad\udcffname.cu'
NEWLINE = "new\nline.cu"


def _tree(root: Path) -> Path:
    root.mkdir()
    for name in (os.fsencode(BAD), os.fsencode(NEWLINE), b"ok.cu"):
        (root / os.fsdecode(name)).write_bytes(CU)
    return root


def test_shown_quotes_as_git_does():
    assert shown("ok.cu") == "ok.cu" and shown("é/ü.cu") == "é/ü.cu" and shown("a b.cu") == "a b.cu"
    assert shown(BAD) == '"bad\\377name.cu"'
    assert shown(NEWLINE) == '"new\\nline.cu"'
    assert shown('q"\\t\t') == '"q\\"\\\\t\\t"'
    assert shown("rtl\u202e.cu") == '"rtl\\342\\200\\256.cu"'  # a bidirectional override reorders what is shown
    assert prefixed("a/", NEWLINE) == '"a/new\\nline.cu"' and prefixed("a/", "ok.cu") == "a/ok.cu"


def test_run_migrates_and_writes_files_whose_names_are_odd(tmp_path):
    src = _tree(tmp_path / "src")
    out = tmp_path / "out"
    result = cli("run", src, "--out", out)
    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(os.fsencode(out))) == [b".hipmigrate", b"bad\xffname.cu", b"new\nline.cu", b"ok.cu"]
    for name in (BAD, NEWLINE):
        assert b"hipMalloc" in (out / name).read_bytes()
    assert '"bad\\377name.cu" (2 lines changed, 0 to review); "new\\nline.cu" (2 lines changed' in result.stdout
    assert not any(line.startswith("line.cu") for line in result.stdout.splitlines())


def test_a_message_naming_a_file_quotes_it(tmp_path):
    """CPP050 names the file where its helper is: quoted as the file's own place is (a fuzz find)."""
    src = tmp_path / "src"
    src.mkdir()
    (src / NEWLINE).write_text('const char *name(cublasLtMatmulTile_t t) { return "t"; }\n'
                               "void show() { puts(name({})); }\n")
    result = cli("run", src, "--out", tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert '"new\\nline.cu":2:20: CPP050 name is compiled for NVIDIA only after migration ("new\\nline.cu":1, ' \
           'where it uses cublasLtMatmulTile_t' in result.stdout
    assert NEWLINE not in result.stdout


def test_json_keeps_the_names_themselves(tmp_path):
    src = _tree(tmp_path / "src")
    result = cli("scan", src, "--output-format", "json")
    assert result.exit_code == 0, result.output
    assert [f["path"] for f in json.loads(result.stdout)["files"]] == [BAD, NEWLINE, "ok.cu"]


def test_check_and_diff_lines_stay_whole(tmp_path, monkeypatch):
    src = _tree(tmp_path / "src")
    monkeypatch.chdir(src)
    checked = cli("check", ".", "--no-cache")
    assert checked.exit_code == 1
    assert checked.stdout.splitlines()[:4] == [
        '"bad\\377name.cu":1:11: CPP001 [info] <cuda_runtime.h> is <hip/hip_runtime.h> in HIP',
        '"bad\\377name.cu":2:20: MAP001 [info] cudaMalloc is hipMalloc in HIP',
        '"new\\nline.cu":1:11: CPP001 [info] <cuda_runtime.h> is <hip/hip_runtime.h> in HIP',
        '"new\\nline.cu":2:20: MAP001 [info] cudaMalloc is hipMalloc in HIP']
    diff = cli("diff", src).stdout
    assert [line for line in diff.splitlines() if line.startswith(("--- ", "+++ "))] == [
        '--- "a/bad\\377name.cu"', '+++ "b/bad\\377name.cu"', '--- "a/new\\nline.cu"', '+++ "b/new\\nline.cu"',
        "--- a/ok.cu", "+++ b/ok.cu"]


@pytest.mark.git
def test_a_suggested_patch_for_an_odd_name_applies(tmp_path, monkeypatch):
    repo = git_repo(tmp_path / "repo", {"base.txt": "x\n"})
    (repo / NEWLINE).write_bytes(CU)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "odd")
    monkeypatch.chdir(repo)
    patch = cli("suggest", "--base", "HEAD~1", "--no-cache").stdout
    assert patch.startswith('diff --git "a/new\\nline.cu" "b/new\\nline.cu"\n')
    subprocess.run(["git", "-C", str(repo), "apply", "-"], input=patch.encode(), check=True)
    assert b"hipMalloc" in (repo / NEWLINE).read_bytes()


FAILS = ('#!/bin/sh\nfor a in "$@"; do case "$a" in *name.cu) printf "%s:2:5: error: use of undeclared identifier \'x\'\\n" '
         '"$a" >&2; exit 1;; esac; done\n'  # any other compile (the target probe) writes its object
         'while [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then shift; echo obj > "$1"; fi; shift; done\n')


def test_build_reads_a_compiler_naming_an_odd_name(tmp_path):
    """hipcc names the unit in its diagnostics with the name's own bytes: read back to the file, not a crash."""
    hipcc = tmp_path / "hipcc"
    hipcc.write_text(FAILS)
    hipcc.chmod(0o755)
    dst = tmp_path / "dst"
    dst.mkdir()
    (dst / BAD).write_bytes(CU.replace(b"cuda_runtime.h", b"hip/hip_runtime.h").replace(b"cudaMalloc", b"hipMalloc"))
    result = cli("build", dst, "--force", "--offload-arch", "gfx90a", "--hipcc", hipcc, "--output-format", "json")
    assert result.exit_code == 1, result.output
    unit = json.loads(result.stdout)["units"][0]
    assert [(unit["path"], f["path"], f["line"], f["code"]) for f in unit["findings"]] == [(BAD, BAD, 2, "BLD903")]
    text = cli("build", dst, "--force", "--offload-arch", "gfx90a", "--hipcc", hipcc).stdout
    assert ('  "bad\\377name.cu":2:5: BLD903 undeclared identifier: use of undeclared identifier \'x\''
            in text.splitlines())


@pytest.mark.parametrize("fmt", ["text", "md", "html", "github", "json", "sarif"])
def test_a_report_file_holds_odd_names_as_its_standard_output_does(tmp_path, fmt):
    out = tmp_path / "out"
    assert cli("run", _tree(tmp_path / "src"), "--out", out).exit_code == 0
    result = cli("report", out, "--output-format", fmt, "-o", tmp_path / "report")
    assert result.exit_code == 0, result.output
    if fmt != "html":  # which says when it was made (JSON and SARIF too: compared without that time)
        made = re.compile(rb'"created": "[^"]*"')
        assert made.sub(b"", (tmp_path / "report").read_bytes()) == \
            made.sub(b"", cli("report", out, "--output-format", fmt).stdout_bytes)
    if fmt in ("text", "md", "html"):
        assert b'bad\\377name.cu' in (tmp_path / "report").read_bytes() and b"\xff" not in (tmp_path / "report").read_bytes()


@pytest.mark.parametrize("command", [("diff",), ("scan",), ("check", "--no-cache")])
def test_odd_names_print_whatever_python_s_stdout_encoding_is(tmp_path, command):
    """PYTHONIOENCODING=utf-8 makes Python's stdout refuse the surrogate of a byte that is not UTF-8."""
    src = _tree(tmp_path / "src")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(Path(__file__).parents[1])}
    done = subprocess.run(["python", "-m", "migrate", command[0], src, *command[1:]], capture_output=True, env=env)
    assert done.returncode in (0, 1) and b"Traceback" not in done.stderr, done.stderr
    assert b"bad\\377name.cu" in done.stdout


@pytest.mark.hipcc
@pytest.mark.nvcc
def test_build_kernels_reads_a_tree_with_an_odd_name(tmp_path):
    """--kernels hashes each source's name with its file: the name's own bytes, not a crash on the surrogate."""
    from tests.marks import need_tool

    hipcc, _ = need_tool("hipcc"), need_tool("nvcc")
    src = tmp_path / "src"
    src.mkdir()
    (src / BAD).write_bytes(b"#include <cuda_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x] = 1; }\n")
    out = tmp_path / "out"
    assert cli("run", src, "--out", out).exit_code == 0
    result = cli("build", out, "--kernels", "--hipcc", hipcc, "--offload-arch", "gfx90a", "--output-format", "json")
    assert result.exit_code in (0, 1), result.output
    assert [(k["name"], k["path"]) for k in json.loads(result.stdout)["kernels"]] == [("k(int*)", BAD)]
