"""No single file aborts the tree: a bug met in one file (C++, Python or build file) is reported on that file as
INP008, the file is copied unchanged, every other file is migrated and written, and the command exits 2."""
import inspect
import json
import os

import pytest

from migrate.registry import default_registry
from tests.helpers import cli, cli_json, read_tree, write_tree

CALL = "void f(float** p) { cudaMalloc(p, 4); }\n"
MIGRATED = "#include <hip/hip_runtime.h>\nvoid f(float** p) { hipMalloc(p, 4); }\n"
MARKER = b"BREAK_HERE"


def _raise_on_marker(self, ctx):
    if MARKER in ctx.data:
        raise ValueError("planted failure")
    return iter(())


RAISE_LINE = inspect.getsourcelines(_raise_on_marker)[1] + 2


def _plant(monkeypatch, code: str, check=_raise_on_marker):
    rule = default_registry().by_code(code)
    monkeypatch.setattr(rule, "check", check)


def _message(where: str) -> str:
    return (f"internal error while migrating this file (ValueError: planted failure, at {where}): copied unchanged, "
            "the other files were migrated; please report it with this file")


@pytest.mark.parametrize("code,name,content", [
    ("CPP004", "bad.cu", "// BREAK_HERE\n" + CALL),
    ("PY002", "bad.py", "# BREAK_HERE\nimport torch\n"),
    ("BLD002", "CMakeLists.txt", "# BREAK_HERE\nfind_package(CUDA REQUIRED)\n"),
])
def test_a_failing_file_is_copied_unchanged_and_the_rest_migrated(tmp_path, monkeypatch, code, name, content):
    _plant(monkeypatch, code)
    src = write_tree(tmp_path / "src", {name: content, "ok.cu": CALL})
    status, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.2", "--jobs", "1")
    assert status == 2
    where = f"tests/test_internal_errors.py:{RAISE_LINE}"
    assert [(f["path"], f["code"], f["severity"], f["message"]) for f in doc["findings"] if f["code"] == "INP008"] == [
        (name, "INP008", "error", _message(where))]
    out = read_tree(tmp_path / "out")
    assert out[name] == content.encode()
    assert out["ok.cu"] == MIGRATED.encode()


def test_text_output_names_the_file_and_exits_2(tmp_path, monkeypatch):
    _plant(monkeypatch, "CPP004")
    src = write_tree(tmp_path / "src", {"bad.cu": "// BREAK_HERE\n" + CALL, "ok.cu": CALL})
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2", "--jobs", "1")
    assert result.exit_code == 2
    assert f"bad.cu:1:1: INP008 {_message(f'tests/test_internal_errors.py:{RAISE_LINE}')}" in " ".join(
        result.stdout.split())


def test_single_file_and_stdout_get_the_source_unchanged(tmp_path, monkeypatch):
    _plant(monkeypatch, "CPP004")
    bad = write_tree(tmp_path, {"bad.cu": "// BREAK_HERE\n" + CALL}) / "bad.cu"
    result = cli("run", bad, "--out", "-", "--hip-version", "6.2")
    assert result.exit_code == 2
    assert result.stdout == "// BREAK_HERE\n" + CALL
    result = cli("run", bad, "--out", tmp_path / "new.cu", "--hip-version", "6.2")
    assert result.exit_code == 2
    assert (tmp_path / "new.cu").read_text() == "// BREAK_HERE\n" + CALL


def test_check_reports_the_failing_file_and_exits_2(tmp_path, monkeypatch):
    _plant(monkeypatch, "CPP004")
    write_tree(tmp_path, {"bad.cu": "// BREAK_HERE\n#include <hip/hip_runtime.h>\n", "ok.cu": CALL})
    monkeypatch.chdir(tmp_path)
    result = cli("check", ".", "--no-cache", "--hip-version", "6.2", "--output-format", "json")
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    assert [(f["path"], f["code"], f["blocking"]) for f in doc["findings"]] == [
        ("ok.cu", "CPP002", True), ("ok.cu", "MAP001", True), ("bad.cu", "INP008", False)]


def _die_on_marker(self, ctx):
    if MARKER in ctx.data:
        os._exit(9)  # a crash in a parser's C code, or the kernel's OOM killer
    return iter(())


def test_a_worker_process_that_dies_costs_only_its_file(tmp_path, monkeypatch):
    _plant(monkeypatch, "CPP004", _die_on_marker)
    files = {f"ok{i}.cu": CALL for i in range(6)}
    src = write_tree(tmp_path / "src", {**files, "bad.cu": "// BREAK_HERE\n" + CALL})
    status, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.2", "--jobs", "2")
    assert status == 2
    failed = [(f["path"], f["message"].split(",")[0]) for f in doc["findings"] if f["code"] == "INP008"]
    assert failed == [("bad.cu", "internal error while migrating this file (BrokenProcessPool: A process in the "
                                 "process pool was terminated abruptly while the future was running or pending.")]
    out = read_tree(tmp_path / "out")
    assert out["bad.cu"] == b"// BREAK_HERE\n" + CALL.encode()
    assert {k: v for k, v in out.items() if k != "bad.cu" and not k.startswith(".hipmigrate")} == {
        name: MIGRATED.encode() for name in files}


def test_an_error_outside_the_files_is_an_internal_error_exit_2(tmp_path, monkeypatch):
    from migrate.stages import write

    def broken(*args, **kw):
        raise RuntimeError("planted")

    monkeypatch.setattr(write, "staged_tree", broken)
    src = write_tree(tmp_path / "src", {"ok.cu": CALL})
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == ("hipmigrate: internal error: RuntimeError: planted (at "
                                              f"tests/test_internal_errors.py:{inspect.getsourcelines(broken)[1] + 1}); "
                                              "please report it with the command line")


def test_latin1_byte_in_a_ggl_launch_is_migrated_byte_for_byte(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": b"void f(){ k<'\xe9'><<<1,1>>>(); }\n"})
    status, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.2", "--launch-syntax", "ggl")
    assert status == 1  # INP003: not UTF-8
    assert [(f["code"], f["message"]) for f in doc["findings"] if f["code"] in ("CPP004", "INP003")] == [
        ("INP003", "not UTF-8 (byte 0xe9 at line 1): migrated byte for byte, the encoding is kept; convert it to "
                   "UTF-8 when you can"),
        ("CPP004", "launch of k<'?'> rewritten to hipLaunchKernelGGL")]
    assert (tmp_path / "out" / "k.cu").read_bytes() == (
        b"#include <hip/hip_runtime.h>\nvoid f(){ hipLaunchKernelGGL(HIP_KERNEL_NAME(k<'\xe9'>), 1,1, 0, 0); }\n")
