"""The bad-input cases of test_bad_input.py with `--engine hipify-perl`: each file that can be migrated is, with its
encoding, byte-order mark and line endings kept; the others are copied and reported; a rerun changes nothing."""
import pytest

from migrate.registry import default_registry
from tests.conftest import need_tool
from tests.helpers import cli_json, read_tree, write_tree

pytestmark = pytest.mark.hipify_perl

CALL = b"void f(float** p) { cudaMalloc(p, 4); }\n"
SOURCES = {
    "blob.cu": b"\x7fELF\x02\x01\x01\x00\x00cudaMalloc\x00\xff\xfe",
    "ok.cu": CALL,
    "latin1.cu": b"// M\xfcller's kernel\n" + CALL,
    "windows.cu": b"\xef\xbb\xbf// header\r\n#include <stdio.h>\r\n" + CALL.replace(b"\n", b"\r\n"),
    "bad.cu": b"#include <cuda_runtime.h>\nvoid f( {\n  cudaFree(p);\n",
    "mac.cu": b"// old Mac\r__global__ void k(float* a) { a[threadIdx.x] = 0; }\r" + CALL.replace(b"\n", b"\r"),
    "continued.cu": b"// text \\\nint x;\n__global__ void k() {}\n",
}
EXPECTED = {
    "blob.cu": SOURCES["blob.cu"],
    "ok.cu": b"void f(float** p) { hipMalloc(p, 4); }\n",
    "latin1.cu": b"// M\xfcller's kernel\nvoid f(float** p) { hipMalloc(p, 4); }\n",
    "windows.cu": b"\xef\xbb\xbf// header\r\n#include <stdio.h>\r\nvoid f(float** p) { hipMalloc(p, 4); }\r\n",
    "bad.cu": b"#include <hip/hip_runtime.h>\nvoid f( {\n  hipFree(p);\n",
    "mac.cu": b'#include "hip/hip_runtime.h"\r// old Mac\r__global__ void k(float* a) { a[threadIdx.x] = 0; }\r'
              b"void f(float** p) { hipMalloc(p, 4); }\r",
    "continued.cu": b'#include "hip/hip_runtime.h"\n// text \\\nint x;\n__global__ void k() {}\n',
}


@pytest.fixture(autouse=True)
def hipify_perl():
    need_tool("hipify-perl")


def _run(src, out, *extra):
    return cli_json("run", src, "--out", out, "--engine", "hipify-perl", "--hip-version", "6.2", *extra)


def test_bad_inputs_through_hipify_perl_and_a_rerun(tmp_path):
    src = write_tree(tmp_path / "src", SOURCES)
    status, doc = _run(src, tmp_path / "out")
    assert status == 1
    assert sorted((f["path"], f["code"], f["line"]) for f in doc["findings"] if f["code"].startswith("INP")) == [
        ("bad.cu", "INP001", 2), ("blob.cu", "INP002", 1), ("latin1.cu", "INP003", 1)]
    out = {k: v for k, v in read_tree(tmp_path / "out").items() if not k.startswith(".hipmigrate")}
    assert out == EXPECTED
    status, doc = _run(tmp_path / "out", tmp_path / "again")
    assert [f["path"] for f in doc["files"] if f["status"] == "migrated"] == []
    assert {k: v for k, v in read_tree(tmp_path / "again").items() if not k.startswith(".hipmigrate")} == EXPECTED


def test_an_internal_error_after_hipify_perl_costs_only_its_file(tmp_path, monkeypatch):
    def broken(self, ctx):
        if b"BREAK_HERE" in ctx.data:
            raise ValueError("planted failure")
        return iter(())

    monkeypatch.setattr(default_registry().by_code("CPP004"), "check", broken)
    src = write_tree(tmp_path / "src", {"bad.cu": b"// BREAK_HERE\n" + CALL, "ok.cu": CALL})
    status, doc = _run(src, tmp_path / "out", "--jobs", "1")
    assert status == 2
    assert [(f["path"], f["code"]) for f in doc["findings"] if f["code"].startswith("INP")] == [("bad.cu", "INP008")]
    assert (tmp_path / "out" / "bad.cu").read_bytes() == b"// BREAK_HERE\n" + CALL
    assert (tmp_path / "out" / "ok.cu").read_bytes() == EXPECTED["ok.cu"]


def test_a_file_over_the_limit_keeps_hipify_perls_translation_and_says_so(tmp_path):
    """Over --max-file-size, hipify-perl's output is kept and the rename pass renames only what it left; INP011 says
    so, rather than that only names and headers were renamed."""
    text = b"#include <cuda_runtime.h>\n" + CALL * 10
    src = write_tree(tmp_path / "src", {"big.cu": text})
    code, doc = _run(src, tmp_path / "out", "--max-file-size", "100")
    assert code == 1
    [finding] = [f for f in doc["findings"] if f["code"] == "INP011"]
    assert finding["message"] == (
        f"{len(text)} bytes is over the 100-byte limit of full analysis: hipify-perl's translation was kept and only "
        "CUDA names and headers it left were renamed after it (0 names, 0 include lines); no post-rule or hazard check "
        "ran; raise --max-file-size to analyse it, or give --over-size copy to copy such files unchanged")
    assert (tmp_path / "out" / "big.cu").read_bytes() == b"#include <hip/hip_runtime.h>\n" + EXPECTED["ok.cu"] * 10
