"""Helpers a HIP build cannot compile, set apart in the header that defines them (CPP049), and the calls that then
reach nothing (CPP050): across the files of one run, again when the output is migrated, and compiled with HIP 7.2."""
from __future__ import annotations

from tests.compile import hipcc_compile
from tests.helpers import cli_json, read_tree, write_tree

UTILS = """\
#pragma once
#include <cstddef>
#include <cublas_v2.h>
inline int ceildiv(int a, int b) { return (a + b - 1) / b; }

// the workspace a conditional graph needs
size_t workspace(int m, cudaGraphConditionalHandle control) {
    return control == 0 ? 2 * ceildiv(m, 8) : m;
}
inline size_t padded(int m) { return workspace(m, {}) + 64; }
"""
PLAIN = '#include <cublas_v2.h>\n#include "utils.h"\nint main() { cublasHandle_t h; cublasCreate(&h); return ceildiv(7, 2); }\n'
CALLS = '#include "utils.h"\nint main() {\n    return (int)padded(4);\n}\n'
GUARDED = """\
#pragma once
#include <cstddef>
#include <hipblas/hipblas.h>
inline int ceildiv(int a, int b) { return (a + b - 1) / b; }

// the workspace a conditional graph needs
#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP__)  // hipmigrate CPP049: workspace uses cudaGraphConditionalHandle, which HIP lacks
size_t workspace(int m, cudaGraphConditionalHandle control) {
    return control == 0 ? 2 * ceildiv(m, 8) : m;
}
#endif
#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP__)  // hipmigrate CPP049: padded calls workspace
inline size_t padded(int m) { return workspace(m, {}) + 64; }
#endif
"""


def sites(doc: dict, *codes: str) -> list[tuple]:
    return [(f["code"], f["path"], f["line"], f["severity"]) for f in doc["findings"] if f["code"] in codes]


def test_a_header_helper_without_hip_api_is_guarded_and_its_calls_are_the_blockers(tmp_path):
    src = write_tree(tmp_path / "src", {"utils.h": UTILS, "plain.cu": PLAIN, "calls.cu": CALLS})
    code, doc = cli_json("run", str(src), "--out", str(tmp_path / "out"), "--hip-version", "7.2")
    out = read_tree(tmp_path / "out")
    assert out["utils.h"].decode() == GUARDED
    assert sites(doc, "CPP049", "CPP050", "CPP006") == [
        ("CPP050", "calls.cu", 3, "error"),
        ("CPP049", "utils.h", 7, "warning"), ("CPP006", "utils.h", 7, "warning"), ("CPP049", "utils.h", 10, "warning")]
    call = next(f for f in doc["findings"] if f["code"] == "CPP050")
    assert call["message"] == ("padded is compiled for NVIDIA only after migration (utils.h:10, where it calls "
                               "workspace, NVIDIA only too): this call stops the AMD build; port the helper, or guard "
                               "this code with it")
    assert code == 1  # a blocker is left
    # the migrated tree again: nothing changes, and the calls are still the blockers
    code2, doc2 = cli_json("run", str(tmp_path / "out"), "--out", str(tmp_path / "again"), "--hip-version", "7.2")
    again = read_tree(tmp_path / "again")
    assert {k: v for k, v in again.items() if not k.startswith(".hipmigrate/")} == {
        k: v for k, v in out.items() if not k.startswith(".hipmigrate/")}
    assert sites(doc2, "CPP049", "CPP050", "CPP006") == [
        ("CPP050", "calls.cu", 3, "error"), ("CPP049", "utils.h", 7, "warning"), ("CPP049", "utils.h", 12, "warning")]
    assert code2 == 1


def test_the_unit_that_never_calls_the_helper_compiles_with_hip_7_2(hipcc72, tmp_path):
    src = write_tree(tmp_path / "src", {"utils.h": UTILS, "plain.cu": PLAIN, "calls.cu": CALLS})
    cli_json("run", str(src), "--out", str(tmp_path / "out"), "--hip-version", "7.2")
    out = tmp_path / "out"
    built = hipcc_compile(hipcc72, out / "plain.cu", [out], tmp_path, "gfx942")
    assert built.returncode == 0, built.stderr
    failed = hipcc_compile(hipcc72, out / "calls.cu", [out], tmp_path, "gfx942")
    assert failed.returncode != 0 and "calls.cu:3:" in failed.stderr and "'padded'" in failed.stderr
