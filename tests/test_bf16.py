"""CUDA's bfloat16 API migrated for a HIP that has hip/hip_bf16.h (>= 5.7) and for one that has only
hip/hip_bfloat16.h (5.2): the exact text for each target, the findings that say what an older HIP lacks, and
real builds with hipcc where the headers are here (HIP 5.2 installed on Debian 12; HIP 5.7.1's headers in the
cache of scripts/gen_packs.py, or installed on Debian 13)."""
import os
import subprocess
from pathlib import Path

import pytest

from migrate.cpp_engine import translate
from migrate.cpp.hipify_perl import TOOLCHAIN
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry
from tests.compile import TARGET
from tests.conftest import REQUIRE_TOOLS
from tests.helpers import cli

KERNEL = """\
#include <cuda_runtime.h>
#include <cuda_bf16.h>

// y[i] = a * x[i] + y[i] in bfloat16; out2 gets pairs of x plus the low half of each pair, twice
__global__ void axpy_bf16(int n, float a, const __nv_bfloat16* x, __nv_bfloat16* y, __nv_bfloat162* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 scale = __float2bfloat16(a);
    __nv_bfloat16 r = __hadd(__hmul(scale, x[i]), y[i]);
    y[i] = __float2bfloat16(__bfloat162float(r));
    if (i % 2 == 0 && i + 1 < n) {
        __nv_bfloat162 pair = __halves2bfloat162(x[i], x[i + 1]);
        out2[i / 2] = __hadd2(pair, __bfloat162bfloat162(__low2bfloat16(pair)));
    }
}
"""

KERNEL_HIP = """\
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>

// y[i] = a * x[i] + y[i] in bfloat16; out2 gets pairs of x plus the low half of each pair, twice
__global__ void axpy_bf16(int n, float a, const __hip_bfloat16* x, __hip_bfloat16* y, __hip_bfloat162* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __hip_bfloat16 scale = __float2bfloat16(a);
    __hip_bfloat16 r = __hadd(__hmul(scale, x[i]), y[i]);
    y[i] = __float2bfloat16(__bfloat162float(r));
    if (i % 2 == 0 && i + 1 < n) {
        __hip_bfloat162 pair = __halves2bfloat162(x[i], x[i + 1]);
        out2[i / 2] = __hadd2(pair, __bfloat162bfloat162(__low2bfloat16(pair)));
    }
}
"""

# For HIP 5.2 the type is hip_bfloat16 and its header hip/hip_bfloat16.h; the intrinsics and the pair stay,
# reported as needing HIP 5.7 (the output does not build on 5.2, and says so).
KERNEL_HIP_5_2 = """\
#include <hip/hip_runtime.h>
#include <hip/hip_bfloat16.h>

// y[i] = a * x[i] + y[i] in bfloat16; out2 gets pairs of x plus the low half of each pair, twice
__global__ void axpy_bf16(int n, float a, const hip_bfloat16* x, hip_bfloat16* y, __hip_bfloat162* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    hip_bfloat16 scale = __float2bfloat16(a);
    hip_bfloat16 r = __hadd(__hmul(scale, x[i]), y[i]);
    y[i] = __float2bfloat16(__bfloat162float(r));
    if (i % 2 == 0 && i + 1 < n) {
        __hip_bfloat162 pair = __halves2bfloat162(x[i], x[i + 1]);
        out2[i / 2] = __hadd2(pair, __bfloat162bfloat162(__low2bfloat16(pair)));
    }
}
"""

# bfloat16 as storage only (a constructor from float and a conversion to float, no intrinsic): HIP 5.2's
# hip_bfloat16 has both, so the output for 5.2 builds there.
STORAGE = """\
#include <cuda_runtime.h>
#include <cuda_bf16.h>

__global__ void scale_bf16(int n, float a, const __nv_bfloat16* x, nv_bfloat16* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __nv_bfloat16(a * static_cast<float>(x[i]));
}
"""

STORAGE_HIP_5_2 = """\
#include <hip/hip_runtime.h>
#include <hip/hip_bfloat16.h>

__global__ void scale_bf16(int n, float a, const hip_bfloat16* x, hip_bfloat16* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = hip_bfloat16(a * static_cast<float>(x[i]));
}
"""

RULES = [r() for r in default_registry().cpp()]


def run_cli(tmp_path: Path, source: str, hip_version: str, *flags: str) -> str:
    src = tmp_path / f"src-{hip_version}" / "k.cu"
    src.parent.mkdir()
    src.write_text(source)
    out = tmp_path / f"out-{hip_version}"
    result = cli("run", src.parent, "-o", out, "--hip-version", hip_version, "--no-progress", *flags)
    assert result.exit_code in (0, 1), result.output
    return (out / "k.cu").read_text()


def findings(source: str, hip_version: str) -> list[tuple[str, str]]:
    got = translate("k.cu", source.encode(), Options(), default_packs(), hip_version, RULES)
    return sorted((f.code, f.matched) for f in got.findings)


@pytest.mark.parametrize("hip_version", ["5.7", "6.2"])
def test_bf16_kernel_for_a_hip_with_hip_bf16_h(tmp_path, hip_version):
    assert run_cli(tmp_path, KERNEL, hip_version) == KERNEL_HIP
    assert [f for f in findings(KERNEL, hip_version) if f[0] in ("CPP005", "CPP006")] == []  # none too new, none unsupported


def test_bf16_kernel_for_hip_5_2_keeps_the_old_type_and_reports_what_5_2_lacks(tmp_path):
    assert run_cli(tmp_path, KERNEL, "5.2") == KERNEL_HIP_5_2
    too_new = sorted({name for code, name in findings(KERNEL, "5.2") if code == "CPP005"})
    # __nv_bfloat16 -> hip_bfloat16 is reported too (an INFO: the older type used instead); __hadd, __hmul and
    # __hadd2 are not: HIP 5.2 has them for __half, and a token does not tell the argument types apart.
    assert too_new == ["__bfloat162bfloat162", "__bfloat162float", "__float2bfloat16", "__halves2bfloat162",
                       "__low2bfloat16", "__nv_bfloat16", "__nv_bfloat162"]
    # CPP008 does, from the declarations: __hadd and __hmul on bfloat16 values (their fix is unsafe: not applied)
    assert [m for code, m in findings(KERNEL, "5.2") if code == "CPP008"] == [
        "__hadd(__hmul(scale, x[i]), y[i])", "__hmul(scale, x[i])"]


# bfloat16 arithmetic through the intrinsics: for HIP 5.2, --unsafe-fixes writes hip_bfloat16's operators
ARITH = """\
#include <cuda_runtime.h>
#include <cuda_bf16.h>

__global__ void blend_bf16(int n, const __nv_bfloat16* x, __nv_bfloat16* y, nv_bfloat16 w, bool* above) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 v = x[i];
    y[i] = __hadd(__hmul(w, v), __hneg(y[i]));
    above[i] = __hgt(v, w);
}
"""

ARITH_HIP_5_2 = """\
#include <hip/hip_runtime.h>
#include <hip/hip_bfloat16.h>

__global__ void blend_bf16(int n, const hip_bfloat16* x, hip_bfloat16* y, hip_bfloat16 w, bool* above) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    hip_bfloat16 v = x[i];
    y[i] = ((w * v) + (-y[i]));
    above[i] = (v > w);
}
"""


def test_bf16_arithmetic_for_hip_5_2_with_unsafe_fixes_builds_with_the_installed_hipcc(tmp_path, hipcc):
    text = run_cli(tmp_path, ARITH, "5.2", "--unsafe-fixes")
    assert text == ARITH_HIP_5_2
    assert_builds(hipcc, tmp_path / "arith.hip", text)


def test_bf16_storage_for_hip_5_2_builds_with_the_installed_hipcc(tmp_path, hipcc):
    text = run_cli(tmp_path, STORAGE, "5.2")
    assert text == STORAGE_HIP_5_2
    assert_builds(hipcc, tmp_path / "storage.hip", text)


def assert_builds(hipcc: str, unit: Path, text: str) -> None:
    """`text` written to `unit` compiles for AMD with the installed hipcc and its own headers."""
    unit.write_text(text)
    cmd = [hipcc, "-std=c++17", f"--offload-arch={TARGET}", "-x", "hip", "-c", str(unit), "-o", str(unit.with_suffix(".o"))]
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"}, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]


def hip_bf16_include_dir() -> Path | None:
    """An include folder whose hip/hip_bf16.h comes with the rest of its HIP (5.7.1 from Debian 13): the
    installed one, else the one scripts/gen_packs.py unpacks into its cache."""
    if Path("/usr/include/hip/hip_bf16.h").is_file():
        return Path("/usr/include")
    unpacked = TOOLCHAIN / "hip-5.7" / "include"  # scripts/install-toolchain on Debian 12
    if (unpacked / "hip" / "hip_bf16.h").is_file():
        return unpacked
    cache = Path(os.environ.get("HIPMIGRATE_GEN_CACHE", "/tmp/hipmigrate-gen-cache"))
    trixie = cache / "debian" / "trixie" / "root" / "libamdhip64-dev" / "usr" / "include"
    return trixie if (trixie / "hip" / "hip_bf16.h").is_file() else None


def test_bf16_kernel_for_hip_6_2_builds_against_hip_5_7_headers(tmp_path, hipcc):
    """HIP 5.7.1's hip_bf16.h is the oldest with the intrinsics: what is migrated for 5.7 or later builds there.
    Debian 12's hipcc (clang 15) compiles against those headers when told to use no others (-nogpuinc)."""
    include = hip_bf16_include_dir()
    if include is None:
        message = "no HIP >= 5.7 headers here (scripts/install-toolchain unpacks them on Debian 12)"
        if REQUIRE_TOOLS:
            pytest.fail(message + ": required in CI (HIPMIGRATE_REQUIRE_TOOLS=1)")
        pytest.skip(message)
    unit = tmp_path / "axpy.hip"
    unit.write_text(run_cli(tmp_path, KERNEL, "6.2"))
    cmd = [hipcc, "-std=c++17", f"--offload-arch={TARGET}", "-x", "hip", "-c", str(unit), "-o", str(tmp_path / "a.o")]
    if include != Path("/usr/include"):
        cmd[1:1] = ["-nogpuinc", "-I", str(include)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"}, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
