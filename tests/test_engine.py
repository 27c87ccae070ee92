"""Engine-level behaviour that no single rule owns: edits, macro continuations, idempotence."""
import re

import pytest

from migrate.cpp_engine import translate
from migrate.edits import apply_fixes, splice
from migrate.model import Applicability, Edit, Finding, Fix, RuleKind, Severity, Span
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry

RULES = [r() for r in default_registry().cpp()]


def migrate(text: str, target: str = "7.0", **options) -> str:
    return translate("t.cu", text.encode(), Options(**options), default_packs(), target, RULES).data.decode()


def test_macro_continuations_keep_their_column():
    source = ("#include <cuda_runtime.h>\n"
              "#define CHECK(x)                  \\\n"
              "  do { cudaError_t e = (x);      \\\n"
              "    if (e != cudaSuccess) abort(); \\\n"
              "  } while (0)\n")
    assert migrate(source) == ("#include <hip/hip_runtime.h>\n"
                               "#define CHECK(x)                  \\\n"
                               "  do { hipError_t e = (x);       \\\n"
                               "    if (e != hipSuccess) abort();  \\\n"
                               "  } while (0)\n")


def test_crlf_macro_continuations_keep_their_column():
    source = "#define F(p) cudaFree(p);   \\\r\n  cudaFree(p)\r\n"
    assert migrate(source) == "#include <hip/hip_runtime.h>\r\n#define F(p) hipFree(p);    \\\r\n  hipFree(p)\r\n"


def test_already_hip_code_is_left_alone():
    source = "#include <hip/hip_runtime.h>\nvoid f(float** p) { hipMalloc(p, 4); hipFree(*p); }\n"
    assert migrate(source) == source


def finding(start, end, text, code="X"):
    return Finding(code, RuleKind.CPP, Severity.INFO, "m", Span("t", start, end, 1, 1),
                   Fix("t", (Edit(start, end, text),), Applicability.SAFE))


def test_overlapping_fixes_keep_the_first_and_report_the_other():
    applied = apply_fixes(b"abcdef", [finding(1, 3, "X"), finding(2, 4, "Y"), finding(4, 4, "+")])
    assert applied.data == b"aXd+ef"
    assert [f.fix.edits[0].text for f in applied.conflicts] == ["Y"]


def test_an_insertion_that_several_fixes_carry_is_made_once():
    """Fixes that each need one block before their first use all carry it (HAZ027, HAZ028: HIPMIGRATE_WAVE_SIZE):
    the block is inserted once, and each fix stays whole on its own."""
    def carrying(start, end, text):
        return Finding("T001", RuleKind.CPP, Severity.INFO, "m", Span("f", start, end, 1, start + 1),
                       Fix("t", (Edit(0, 0, "B;"), Edit(start, end, text)), Applicability.SAFE))
    applied = apply_fixes(b"a b c", [carrying(0, 1, "x"), carrying(4, 5, "z"), carrying(2, 3, "y")])
    assert applied.data == b"B;x y z"
    assert len(applied.applied) == 3 and applied.conflicts == ()


def test_insertions_at_a_replacement_start_go_first():
    assert splice(b"abc", [Edit(1, 1, "<"), Edit(1, 2, "B")]) == b"a<Bc"
    with pytest.raises(ValueError):
        splice(b"abc", [Edit(0, 2, "x"), Edit(1, 3, "y")])


NO_CUDA_HEADER = b"""#pragma once
#include <ATen/core/Tensor.h>
#include <optional>

namespace at {
namespace meta {
TORCH_API at::Tensor & erfc_(at::Tensor & self);
TORCH_API at::Tensor & erfc_out(at::Tensor & out, const at::Tensor & self);
} // namespace meta
} // namespace at
"""


def test_a_file_with_nothing_to_migrate_is_not_parsed_for_its_includes():
    """tree-sitter cannot parse `TORCH_API at::Tensor & f(...)`; a header with no CUDA in it is not parsed at
    all, so it gets no INP001 (4,036 of torch's ATen/ops headers got one)."""
    out = translate("ops/erfc_meta.h", NO_CUDA_HEADER, Options(hip_version="6.2"), default_packs(), "6.2", RULES)
    assert (out.data, out.findings) == (NO_CUDA_HEADER, ())
    hidden = b"/* disabled\n#include <cuda_runtime.h>\n*/\n" + NO_CUDA_HEADER
    out = translate("ops/erfc_meta.h", hidden, Options(hip_version="6.2"), default_packs(), "6.2", RULES)
    assert out.data == hidden and [f.code for f in out.findings] == ["INP001"]


def test_macro_calls_written_without_a_semicolon_are_not_parse_problems():
    """CUDALibrarySamples write `CUDA_CHECK(cudaFree(p))` with no `;` (the macro brings its braces): tree-sitter
    reports a missing `;`, which is not worth an INP001; a plain call without one still is. (As the last
    statement of a block such a call makes tree-sitter misread the whole function, and INP001 stays.)"""
    source = (b"void f(float* x, cusparseHandle_t h) {\n  CUDA_CHECK(cudaFree(x))\n  CUSPARSE_CHECK(cusparseDestroy(h))\n"
              b"  CHECK_CUDA( cudaMemcpy(x, x, 4,\n                         cudaMemcpyHostToDevice) )\n  float y = 0;\n}\n")
    out = translate("t.cu", source, Options(), default_packs(), "6.2", RULES)
    assert out.data == source.replace(b"cudaFree", b"hipFree").replace(b"cusparse", b"hipsparse") \
        .replace(b"cudaMemcpy", b"hipMemcpy").replace(b"void f", b"#include <hip/hip_runtime.h>\nvoid f")
    assert "INP001" not in [f.code for f in out.findings]
    out = translate("t.cu", b"void f(float* x) {\n  cudaFree(x)\n  x = 0;\n}\n", Options(), default_packs(), "6.2", RULES)
    assert [(f.code, f.span.line) for f in out.findings if f.code == "INP001"] == [("INP001", 3)]


@pytest.mark.parametrize("launch, want", [
    ("chevron", "#include <hip/hip_runtime.h>\nvoid f(float* d) { k<<<(n >> 1), 64>>>(d); }\n"),
    ("ggl", "#include <hip/hip_runtime.h>\nvoid f(float* d) { hipLaunchKernelGGL(k, (n >> 1), 64, 0, 0, d); }\n"),
])
def test_a_fix_that_writes_a_launch_is_followed_by_what_a_launch_needs(launch, want):
    """CPP046 joins `k< <<` into a launch, which CPP002 (the include) and, with --launch-syntax ggl, CPP004 then
    rewrite in the same run (the fuzzing harness found the second run doing it); the joined chevrons' finding keeps
    its applied fix, and a second run changes nothing."""
    source = "void f(float* d) { k< <<(n >> 1), 64>>>(d); }\n"
    result = translate("t.cu", source.encode(), Options(launch_syntax=launch), default_packs(), "7.0", RULES)
    assert result.data.decode() == want
    joined = [f for f in result.findings if f.code == "CPP046"]
    assert [(f.severity, f.fix.outcome.value) for f in joined] == [(Severity.WARNING, "applied")]
    assert migrate(want, launch_syntax=launch) == want


QUALIFIERS = re.compile(r"__global__|__device__|__host__|__shared__|__constant__")


def test_every_rule_example_is_idempotent_through_the_whole_engine():
    """Each C++ rule's examples, and each with its CUDA qualifiers taken out (host code that a fix may give device
    code: CPP018's helper, a fuzz find), through every rule twice: the second run changes nothing."""
    changed = []
    for rule in default_registry().cpp():
        for example in rule.examples:
            options = Options(**dict(example.options))
            for source in {example.code, QUALIFIERS.sub("", example.code)}:
                once = translate("t.cu", source.encode(), options, default_packs(), "7.2", RULES).data
                twice = translate("t.cu", once, options, default_packs(), "7.2", RULES)
                if twice.data != once:
                    changed.append((rule.code, sorted({f.code for f in twice.findings if f.fix}), source[:60]))
    assert changed == []


def test_a_warp_size_written_where_a_constant_is_needed_is_the_constant():
    """HAZ001 writes warpSize for a literal 32 (an unsafe fix), and in a template argument HIP 7's warpSize is no
    constant: HAZ027 rewrites it in the same run (a fuzz find: the second run did), and a second run changes nothing."""
    source = ("template <int W> __device__ int lane_of(int t) { return t % W; }\n"
              "__global__ void k(int* o) { o[0] = lane_of<threadIdx.x % 32>(1); }\n")
    once = migrate(source, unsafe_fixes=True, hip_version="7.0")
    assert once.endswith("__global__ void k(int* o) { o[0] = lane_of<threadIdx.x % HIPMIGRATE_WAVE_SIZE>(1); }\n")
    assert migrate(once, unsafe_fixes=True, hip_version="7.0") == once


@pytest.mark.parametrize("break_", ["\r", "\\\n"])
def test_one_helper_for_two_calls_keeps_the_edits_after_it_in_place(break_):
    """CPP018 inserts one helper for both bf16x2 atomicAdds and feeds the rules a second pass; its insertion came
    twice in the composed edits, so everything after it moved by the helper's length where the edits are applied
    again to the file's own bytes: lone-CR files, and files whose macro continuations are realigned (a fuzz find:
    `void add(* a,  v)`). Both give what the same file with plain line breaks gives."""
    body = ("#include <cuda_bf16.h>\n__device__ void add(__nv_bfloat16* a, __nv_bfloat16 v) {\n"
            "  __nv_bfloat162* p = reinterpret_cast<__nv_bfloat162*>(a);\n"
            "  atomicAdd(p, __halves2bfloat162(v, v));\n  atomicAdd(p + 1, __halves2bfloat162(v, v));\n}\n")
    plain = migrate(body)
    if break_ == "\r":
        assert migrate(body.replace("\n", "\r")) == plain.replace("\n", "\r")
    else:
        macro = "#define SYNC()                \\\n  cudaDeviceSynchronize();    \\\n  (void)0\n"
        realigned = macro.replace("cudaDeviceSynchronize();    ", "hipDeviceSynchronize();     ")
        assert migrate(body + macro) == plain + realigned
    assert plain.count("hipmigrate_atomic_add(p") == 2 and plain.count("template <typename T>") == 1


def test_a_cast_keeps_the_bytes_of_its_argument():
    """CPP047 writes each argument again inside its cast: a byte that is not UTF-8 there (a latin-1 file) stays that
    byte, not U+FFFD (a fuzz find)."""
    source = b"__device__ long long g(long long a, int b) { return llmax(a, b \xe9+ 1); }\n"
    out = translate("t.cu", source, Options(hip_version="6.4"), default_packs(), "6.4", RULES).data
    assert out.endswith(b"return max((long long)a, (long long)(b \xe9+ 1)); }\n")


def test_a_byte_that_is_not_utf8_in_a_name_read_by_a_rule_is_no_exception():
    """Rules that read a node's text as a name (CPP022's operators, CPP049's helpers, CPP045's overloads) read its
    bytes as surrogate escapes: `operator\\xe9+` in a latin-1 file raised UnicodeDecodeError (a fuzz find)."""
    source = (b"inline __host__ __device__ float2 operator\xe9+(float2 a, float2 b) {\n"
              b"  return make_float2(a.x + b.x, a.y + b.y);\n}\n")
    out = translate("t.cu", source, Options(hip_version="6.4"), default_packs(), "6.4", RULES)
    assert b"operator\xe9+(float2 a, float2 b)" in out.data


def test_a_removal_that_ends_its_line_takes_the_blanks_before_it():
    """CPP010 removes CUDART_CB; at the end of a macro body the blank before it went too (`#define CB `, which
    tree-sitter refuses: a fuzz find), while a removal inside a line keeps its neighbours' spacing."""
    out = migrate("#ifndef CUDART_CB\n#define CB CUDART_CB\n#endif\nvoid CUDART_CB done(void* p) {}\n")
    assert out.endswith("#ifndef CUDART_CB\n#define CB\n#endif\nvoid done(void* p) {}\n")
