"""Code a HIP build skips (migrate.cpp.platform): reports there are dropped, conversions and fixes stay."""
from migrate.cpp_engine import translate
from migrate.cpp import atomic_add_16
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
    assert evaluate("FOO >= 11000") is None


def test_cuda_only_macros_are_undefined_in_a_hip_build():
    """hipcc defines none of nvcc's version macros (HAZ018 reports the gate): they compare as 0, `defined` is false;
    `__CUDA_ARCH__` only where compared with a number (HAZ006 renames its plain checks)."""
    assert evaluate("CUDA_VERSION >= 11000") is False
    assert evaluate("CUDART_VERSION < 12000") is True
    assert evaluate("0x100 <= CUDA_VERSION") is False
    assert evaluate("defined(CUDART_VERSION) && CUDART_VERSION < 12000") is False
    assert evaluate("(__CUDACC_VER_MAJOR__ > 11) || (__CUDACC_VER_MAJOR__ == 11 && __CUDACC_VER_MINOR__ >= 2)") is False
    assert evaluate("__CUDA_ARCH__ >= 700") is False
    assert evaluate("defined(__CUDA_ARCH__)") is None  # becomes __HIP_DEVICE_COMPILE__
    assert evaluate("!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600") is None
    assert evaluate("__CUDA_ARCH__") is None
    assert evaluate("CUDA_VERSION + 1 > 3") is None
    assert evaluate("defined(__CUDACC__)") is True  # becomes __HIPCC__
    source = b"#ifdef __NVCC__\nnv\n#else\nother\n#endif\n#if CUDART_VERSION >= 12000\nnew\n#else\nold\n#endif\n"
    assert [source[a:b] for a, b in not_compiled(source)] == [b"\nnv\n", b"\nnew\n"]
    # a file that defines the macro itself decides it
    own = b"#define CUDART_VERSION 12000\n#if CUDART_VERSION >= 11000\nx\n#endif\n"
    assert not_compiled(own) == []


GATED = """\
#include <cuda_runtime.h>
__global__ void k(int* p) {
#if __CUDA_ARCH__ >= 700
  asm volatile("cp.async.wait_all;");
#endif
  p[0] = 1;
}
#if CUDART_VERSION >= 12030
cudaGraphConditionalHandle handle;
#endif
"""


def test_reports_behind_cuda_version_gates_are_dropped():
    """A HIP build compiles neither branch: the PTX and the name with no HIP counterpart are no blockers; the
    gates themselves are reported (HAZ006, HAZ018)."""
    out = translate("a.cu", GATED.encode(), Options(), default_packs(), "7.2", RULES)
    assert sorted((f.code, f.span.line) for f in out.findings if f.code in ("CPP006", "HAZ005", "HAZ006", "HAZ018")) == [
        ("HAZ006", 3), ("HAZ018", 8)]


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
  asm volatile("cp.async.wait_all;");
#endif
}
__device__ void add2(__half* out, __half v) { atomicAdd(out, v); }
"""


def test_reports_on_the_cuda_side_of_a_rocm_gate_are_dropped():
    """PyTorch keeps its CUDA path behind #if defined(USE_ROCM) ... #else: a HIP build never compiles it."""
    out = translate("a.cu", SOURCE.encode(), Options(), default_packs(), "6.2", RULES)
    assert out.data.decode() == SOURCE.replace("cuda_fp16.h", "hip/hip_fp16.h").replace(
        "#include <hip/hip_fp16.h>", "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>").replace(
        "__device__ void add2(__half* out, __half v) { atomicAdd(out, v); }",
        atomic_add_16.block() + "\n__device__ void add2(__half* out, __half v) { hipmigrate_atomic_add(out, v); }")
    assert [(f.code, f.span.line) for f in out.findings if f.code in ("CPP018", "HAZ005")] == [("CPP018", 10)]
