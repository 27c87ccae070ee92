"""Code a HIP build skips (migrate.cpp.platform): reports there are dropped, conversions and fixes stay."""
from migrate.cpp_engine import translate
from migrate.cpp.platform import evaluate, not_compiled
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry

RULES = [r() for r in default_registry().cpp()]


def test_conditions_on_the_hip_platform_macros():
    assert evaluate("defined(USE_ROCM)") is True
    assert evaluate("!defined(__HIP_PLATFORM_AMD__)") is False
    assert evaluate("defined(USE_ROCM) || (defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 800))") is True
    assert evaluate("!defined(USE_ROCM) && CUDA_VERSION >= 11000") is False
    assert evaluate("defined(__HIPCC__) && FOO") is None
    assert evaluate("CUDA_VERSION >= 11000") is None


def test_the_skipped_branches():
    source = (b"#if defined(USE_ROCM)\nrocm\n#else\ncuda\n#endif\n#ifndef __HIP_PLATFORM_AMD__\nnv\n#elif X\nx\n"
              b"#else\ny\n#endif\n#ifdef FOO\nfoo\n#else\nbar\n#endif\n")
    assert [source[a:b] for a, b in not_compiled(source)] == [b"\ncuda\n", b"\nnv\n"]
    # C23's #elifdef/#elifndef are branches of their own
    chained = b"#ifdef FOO\nfoo\n#elifndef __HIPCC__\nnot_hip\n#else\nhip\n#endif\n"
    assert [chained[a:b] for a, b in not_compiled(chained)] == [b"\nnot_hip\n"]


SOURCE = """\
#include <cuda_fp16.h>
__device__ void add(__half* out, __half v) {
#if defined(USE_ROCM)
  gpuAtomicAdd(out, v);
#else
  atomicAdd(out, v);
  asm volatile("membar.gl;");
#endif
}
__device__ void add2(__half* out, __half v) { atomicAdd(out, v); }
"""


def test_reports_on_the_cuda_side_of_a_rocm_gate_are_dropped():
    """PyTorch keeps its CUDA path behind #if defined(USE_ROCM) ... #else: a HIP build never compiles it."""
    out = translate("a.cu", SOURCE.encode(), Options(), default_packs(), "6.2", RULES)
    assert out.data.decode() == SOURCE.replace("cuda_fp16.h", "hip/hip_fp16.h").replace(
        "#include <hip/hip_fp16.h>", "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>")
    assert [(f.code, f.span.line) for f in out.findings if f.code in ("CPP018", "HAZ005")] == [("CPP018", 10)]
