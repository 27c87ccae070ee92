"""A short seeded run of the fuzzing harness (benchmarks/fuzz.py), and the defects it found, each as a small case.

The seeded run (about a minute here) mutates the samples, the corpora and the rule examples and checks that nothing
raises, hangs, loses a file or changes a file no rule reads, and that what parsed cleanly still parses and is
idempotent. `python benchmarks/fuzz.py --seconds 1800` is the long run.
"""
import random

import pytest

from benchmarks import fuzz, fuzz_cases, fuzz_check
from tests.helpers import cli, cli_json, write_tree

SEEDED_CASES = 1800


@pytest.mark.slow
def test_a_seeded_fuzz_run_finds_nothing():
    tally = fuzz.fuzz(seed=1, cases=SEEDED_CASES, timeout=60)
    assert tally.cases == SEEDED_CASES
    assert tally.failures == {}, fuzz.report(tally)
    assert tally.outcomes["ok"] > SEEDED_CASES // 4  # enough cases parse cleanly for the idempotence check to count


def test_mutations_are_deterministic():
    pool = fuzz_cases.seeds()
    first = [fuzz_cases.make_case(random.Random(7), n, pool).files for n in range(20)]
    again = [fuzz_cases.make_case(random.Random(7), n, pool).files for n in range(20)]
    assert first == again


def test_some_cases_change_a_file_while_the_run_is_in_progress():
    pool = fuzz_cases.seeds()
    cases = [fuzz_cases.make_case(random.Random(7), n, pool) for n in range(200)]
    changes = [c.change for c in cases if c.change]
    assert 5 < len(changes) < 50
    assert {how for _, how, _ in changes} == {"delete", "rewrite", "empty"}
    assert all(rel in c.files for c in cases if c.change for rel in [c.change[0]])


@pytest.mark.parametrize("how", ["delete", "rewrite", "empty"])
@pytest.mark.parametrize("seconds", [0.0, 0.005, 0.02])
def test_a_file_changed_mid_run_is_in_the_output_or_reported(tmp_path, how, seconds):
    """Deleted, rewritten or emptied before the listing, during the stages or after: no crash, no "copied" file
    that is absent, and what is absent has INP012."""
    files = {"a.cu": b"#include <cuda_runtime.h>\nvoid f(float *p) { cudaFree(p); }\n" * 200,
             "run.sh": b"#!/bin/sh\nnvidia-smi\n"}
    case = fuzz_cases.Case(0, files, {"hip_version": "6.4"}, ("a.cu", how, seconds))
    assert fuzz_check.check_case(case, tmp_path) == ([], False)


ENV = b"import os\nos.environ['CUDA_LAUNCH_BLOCKING'] = '1'\n"


@pytest.mark.parametrize("data,status,found,out", [
    (b"x = " + b"{" * 400 + b"}" * 400 + b"\n", 1, [("INP001", 1)], ENV),
    (b"x = " + b"(" * 300 + b"1" + b")" * 300 + b"\n", 1, [("INP001", 1)], ENV),
    (b"x = " + b"(" * 150 + b"1" + b")" * 150 + b"\n", 0, [("PY020", 3)], ENV.replace(
        b"'CUDA_LAUNCH_BLOCKING'] = '1'", b"'AMD_SERIALIZE_KERNEL'] = '3'"))])
def test_python_nested_hundreds_of_levels_deep_is_no_crash(tmp_path, data, status, found, out):
    """Brackets nested over 200 deep, which no CPython compiles (its tokenizer's limit): the file is copied unchanged
    with INP001, never given to libcst, whose parser takes seconds on such lines and has crashed the process on some.
    Under the limit the file is migrated."""
    src = write_tree(tmp_path / "src", {"deep.py": data + ENV})
    code, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert code == status
    assert [(f["code"], f["line"]) for f in doc["findings"]] == found
    assert (tmp_path / "out" / "deep.py").read_bytes() == data + out


def test_cpp_nested_thousands_of_levels_deep_is_migrated(tmp_path):
    data = b"void f() { int x = " + b"(" * 6000 + b"1" + b")" * 6000 + b"; cudaDeviceSynchronize(); }\n"
    src = write_tree(tmp_path / "src", {"deep.cu": data})
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2").exit_code == 0
    assert (tmp_path / "out" / "deep.cu").read_bytes() == b"#include <hip/hip_runtime.h>\n" + data.replace(
        b"cudaDeviceSynchronize", b"hipDeviceSynchronize")


def test_a_recursion_error_is_the_inputs_nesting_exit_1(tmp_path, monkeypatch):
    from migrate.registry import default_registry

    def too_deep(self, ctx):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(default_registry().by_code("CPP004"), "check", too_deep)
    src = write_tree(tmp_path / "src", {"deep.cu": "__global__ void k() {}\n"})
    status, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.2", "--jobs", "1")
    assert status == 1
    line = too_deep.__code__.co_firstlineno + 1
    assert [(f["code"], f["severity"], f["message"]) for f in doc["findings"]] == [
        ("INP010", "warning", f"nested deeper than hipmigrate can follow (RecursionError at tests/test_fuzz.py:{line}): "
                              "copied unchanged; compilers limit nesting too (clang: 256 brackets, CPython: 200 "
                              "parentheses)")]
    assert (tmp_path / "out" / "deep.cu").read_text() == "__global__ void k() {}\n"


def test_a_control_character_before_a_makefile_variable(tmp_path):
    data = b"\x1coCUDA_HOME := /usr/local/cuda\nexport CUDA_HOME\nNVCC := $(CUDA_HOME)/bin/nvcc\n"
    src = write_tree(tmp_path / "src", {"Makefile": data})
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert result.exit_code == 0, result.stdout
    # make takes "\x1coCUDA_HOME" for the variable's name: CUDA_HOME is only exported and used
    assert (tmp_path / "out" / "Makefile").read_bytes() == (
        b"ROCM_PATH ?= /opt/rocm\n\x1coCUDA_HOME := /opt/rocm\nexport ROCM_PATH\nNVCC := hipcc\n")


def test_an_edit_over_a_line_continuation_does_not_clash_with_the_backslash_realignment(tmp_path):
    data = b"__device__ int f(int p) {\n  unsigned long long m = __ballot_sync(0xfffffffffffffffful\\\nl, p);\n}\n"
    src = write_tree(tmp_path / "src", {"c.cu": data})
    status, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "5.2")
    assert status == 1  # the literal split by the backslash is not parsed cleanly (INP001); no internal error
    assert [f["code"] for f in doc["findings"] if f["code"].startswith("INP")] == ["INP001"]
    assert (tmp_path / "out" / "c.cu").read_bytes() == (
        b"#include <hip/hip_runtime.h>\n__device__ int f(int p) {\n  unsigned long long m = __ballot(l, p);\n}\n")


def test_a_byte_that_is_not_utf8_in_a_computed_makefile_value(tmp_path):
    src = write_tree(tmp_path / "src", {"Makefile": b"CUDA_PATH ?= /usr/local/cuda\nCUDA_HOME ?= $(CUD\xffA_PATH)\n"})
    status, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert status == 1  # INP003
    assert [(f["code"], f["line"]) for f in doc["findings"]] == [("BLD107", 1), ("BLD107", 2), ("INP003", 2)]
    assert (tmp_path / "out" / "Makefile").read_bytes() == b"ROCM_PATH ?= /opt/rocm\nROCM_PATH ?= $(CUD\xffA_PATH)\n"


def test_a_call_renamed_in_a_comment_needs_no_runtime_include(tmp_path):
    """--translate-comments renames CUDA names in comments too; a device call named only in a comment (here a //
    comment continued by a backslash) made CPP002 insert the runtime include inside the comment, again each run."""
    data = b"// comment \\\n__device__ float f(float v) { return __shfl_down_sync(~0ull, v, 16); }"
    src = write_tree(tmp_path / "src", {"example.cu": data})
    for folder, out in ((src, "one"), (tmp_path / "one", "two")):
        assert cli("run", folder, "--out", tmp_path / out, "--hip-version", "6.4", "--translate-comments").exit_code == 0
    expected = b"// comment \\\n__device__ float f(float v) { return __shfl_down(~0ull, v, 16); }"
    assert (tmp_path / "one" / "example.cu").read_bytes() == (tmp_path / "two" / "example.cu").read_bytes() == expected


def test_a_byte_that_is_not_utf8_in_an_exec_form_run_keeps_the_offsets(tmp_path):
    """A deployment file's text was decoded with U+FFFD for bytes that are not UTF-8 and its offsets measured in the
    re-encoded text (three bytes for one): past such a byte every edit landed late, or an IndexError (INP008)."""
    data = (b'FROM python:3.11\nRUN ["/bin/sh", "-c", "pip install \\"torch==2.3.1+cu121\\" '
            b'torchvision==0.18.1+cu121\xe9"]\n')
    src = write_tree(tmp_path / "src", {"Dockerfile": data})
    status, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.4")
    assert [(f["code"], f["line"]) for f in doc["findings"] if f["code"].startswith("INP")] == [("INP003", 2)]
    assert (tmp_path / "out" / "Dockerfile").read_bytes() == data.replace(b"+cu121", b"+rocm6.0")


def test_a_broken_declaration_gives_no_empty_name_to_look_for(tmp_path):
    """tree-sitter's recovery from a mangled call made an empty declarator of cudaError_t; HAZ014 then looked for
    the empty name at every byte, forever (the only hang the fuzzer found)."""
    from migrate.cpp.context import CppContext
    from migrate.cpp.declared import declared_with
    from migrate.options import Options
    from migrate.packs import default_packs

    data = (b"    cudaError_t err = layernorm_forward(xc.data_ptr<float;>(), gamma.data_ptr<float>(),\n"
            b"        beta.data_ptr<float>(), y.data_ptr<float>(), rows, cols,\n"
            b"       us().data_ptr<float>(), y.data_ptr<float>(), rows, cols,\n   " + b"{" * 50 + b"  " + b"}" * 50
            + b"   static_cast<float>(eps), reinterpret_cast<cudaStream_t>(stream));\n"
            b"    TORCH_CHECK(err == cudaSuccess, \"failed: \", cudaGetErrorString(err));\n    return y;\n}\n$(")
    ctx = CppContext("layernorm.cpp", data, Options(hip_version="6.4"), default_packs(), "6.4")
    assert b"" not in declared_with(ctx, frozenset({b"cudaError_t"}))
    src = write_tree(tmp_path / "src", {"layernorm.cpp": data})
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.4").exit_code in (0, 1)
    assert (tmp_path / "out" / "layernorm.cpp").read_bytes().count(b"hipSuccess") == 1


def test_a_byte_that_is_not_utf8_in_a_reordered_cudnn_argument_is_kept(tmp_path):
    """CPP030 moves a cuDNN call's arguments as text; that text was decoded with U+FFFD (FileContext.text), so the
    moved argument came out with three other bytes in place of the one that was there."""
    data = (b"void run(cudnnHandle_t h) {\n    cudnnConvolutionForward(h, &a, xD, x /* caf\xe9 */, wD, w, cD, "
            b"CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, ws, n, &b, yD, y);\n}\n")
    src = write_tree(tmp_path / "src", {"conv.cu": data})
    status, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.4")
    assert status == 1  # INP003: not UTF-8
    assert ("INP003", 2) in [(f["code"], f["line"]) for f in doc["findings"]]
    assert (tmp_path / "out" / "conv.cu").read_bytes() == (
        b"void run(miopenHandle_t h) {\n    miopenConvolutionForward(h, &a, xD, x /* caf\xe9 */, wD, w, cD, "
        b"miopenConvolutionFwdAlgoImplicitGEMM, &b, yD, y, ws, n);\n}\n")


def test_an_except_clause_continued_onto_its_colon_keeps_later_positions(tmp_path):
    """libcst leaves a backslash-newline before an except clause's colon out of every later byte position: the
    GradScaler fix below it landed three bytes early and the output no longer parsed."""
    data = (b"import torch\ntry:\n    import apex\nexcept ImportError\\\n:\n    apex = None\n"
            b"scaler = torch.cuda.amp.GradScaler()\n")
    src = write_tree(tmp_path / "src", {"train.py": data})
    status, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.4")
    assert status == 0
    assert [(f["code"], f["line"]) for f in doc["findings"]] == [("PY005", 7)]
    assert (tmp_path / "out" / "train.py").read_bytes() == data.replace(b"torch.cuda.amp.GradScaler()",
                                                                        b'torch.amp.GradScaler("cuda")')


def test_a_byte_that_is_not_utf8_in_a_rewritten_bf16_argument_is_kept(tmp_path):
    """Rules that write an argument's text again read it from the tree's node; decoded with U+FFFD (seed 16), the
    byte came out as three others. Node texts keep surrogate escapes now, as FileContext.text does."""
    data = (b"#include <cuda_bf16.h>\n__device__ __nv_bfloat162 pair(float a, float b) "
            b"{ return __floats2bfloat162_rn(a, b * \xff2.0f); }\n")
    src = write_tree(tmp_path / "src", {"example.cu": data})
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "7.0", "--unsafe-fixes").exit_code == 1
    assert (tmp_path / "out" / "example.cu").read_bytes() == (
        b"#include <hip/hip_runtime.h>\n#include <hip/hip_bf16.h>\n__device__ __hip_bfloat162 pair(float a, float b) "
        b"{ return __halves2bfloat162(__float2bfloat16(a), __float2bfloat16(b * \xff2.0f)); }\n")


def cmake_twice(tmp_path, data: bytes) -> tuple[bytes, bytes]:
    """A CMakeLists.txt migrated, then its output migrated again (each run exits 0): the two outputs."""
    src = write_tree(tmp_path / "src", {"CMakeLists.txt": data})
    for folder, out in ((src, "one"), (tmp_path / "one", "two")):
        assert cli("run", folder, "--out", tmp_path / out, "--hip-version", "6.4").exit_code == 0
    return (tmp_path / "one" / "CMakeLists.txt").read_bytes(), (tmp_path / "two" / "CMakeLists.txt").read_bytes()


def test_a_line_added_after_a_cmake_command_does_not_go_inside_the_next_one(tmp_path):
    """Two commands on one line (which tree-sitter-cmake accepts): BLD006's set_source_files_properties went after
    the line, inside the second command's arguments, and again on each run (seed 16)."""
    once, twice = cmake_twice(tmp_path, b"add_executable(demo main.cu) add_executable(other\n  other.cu)\n")
    assert once == twice == (b"add_executable(demo main.cu)\nset_source_files_properties(main.cu PROPERTIES LANGUAGE "
                             b"HIP) add_executable(other\n  other.cu)\nset_source_files_properties(other.cu PROPERTIES "
                             b"LANGUAGE HIP)\n")


def test_a_fix_whose_own_edits_overlap_is_left_out_not_a_crash():
    """CPP012 rewrote a shuffle of a uint4 whose argument held another such shuffle: one fix with overlapping edits,
    which splice refused (ValueError, INP008 for the whole file; seed 18). It is a conflict now, reported as INP007."""
    from migrate.edits import apply_fixes
    from migrate.model import Applicability, Edit, Finding, Fix, RuleKind, Severity, Span

    def finding(code, *edits):
        return Finding(code, RuleKind.CPP, Severity.INFO, "m", Span("a.cu", edits[0].start, edits[0].end, 1, 1),
                       Fix("t", edits, Applicability.SAFE))

    tangled = finding("CPP012", Edit(0, 6, "A"), Edit(4, 9, "B"))
    plain = finding("MAP001", Edit(10, 12, "xy"))
    result = apply_fixes(b"0123456789ab", [tangled, plain])
    assert result.data == b"0123456789xy"
    assert result.applied == (plain,) and result.conflicts == (tangled,) and result.overlapped == (tangled,)


def test_options_removed_after_a_comment_leave_the_closing_parenthesis_out_of_it(tmp_path):
    """BLD014 removed cuda_add_executable's OPTIONS with the line end before them, and that line ended in a CMake
    comment: the closing parenthesis went into the comment, the next run could not parse the command and added
    another set_source_files_properties at the end of the file (seed 20, CRLF line ends)."""
    once, twice = cmake_twice(tmp_path, b"CUDA_ADD_EXECUTABLE(demo main.cu # keep\r\n OPTIONS -arch=sm_80)\r\n#e")
    assert once == twice == (b"add_executable(demo main.cu # keep\r\n)\r\n"
                             b"set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\r\n#e")


def test_options_removed_across_a_nested_group_keep_its_parentheses(tmp_path):
    """BLD014 removed the arguments from OPTIONS to the last, and a parenthesis closing a nested group between them
    went too: the command no longer parsed, and each run added another set_source_files_properties (seed 21)."""
    once, twice = cmake_twice(tmp_path, b"CUDA_ADD_EXECUTABLE(demo main.cu ((OPTIONS -arch=sm_80)\nx))\n")
    assert once == twice == (b"add_executable(demo main.cu (()))\ntarget_compile_options(demo PRIVATE "
                             b"$<$<COMPILE_LANGUAGE:HIP>:x>)\nset_source_files_properties(main.cu PROPERTIES LANGUAGE "
                             b"HIP)\n")


def test_brackets_nested_too_deep_for_python_are_not_given_to_libcst(tmp_path, monkeypatch):
    """Nine lines of 1,000 nested brackets: Python's tokenizer refuses them at once (over 200 deep), libcst's parser
    took 10 s and more to get through them (seed 22: a hang past the 20-second watchdog). The file is copied
    unchanged with INP001, and libcst is never asked."""
    import libcst

    def refused(*args, **kwargs):
        raise AssertionError("libcst was asked to parse the file")

    monkeypatch.setattr(libcst, "parse_module", refused)
    source = b"import os\n" + b"os.environ" + b"[" * 1000 + b"\n" + b"x = 1\n"
    src = write_tree(tmp_path / "src", {"train.py": source})
    code, doc = cli_json("run", src, "--out", tmp_path / "out")
    assert code == 1
    assert [(f["code"], f["line"], f["column"], f["message"]) for f in doc["findings"]] == [
        ("INP001", 2, 1, "libcst could not parse this file (at 2:1): copied unchanged; brackets are nested over 200 "
                         "deep there, which Python cannot compile either; nest them less deeply, or exclude the file "
                         "with --exclude")]
    assert (tmp_path / "out" / "train.py").read_bytes() == source
