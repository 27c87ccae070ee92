"""The HIP 7.2 toolchain of scripts/install-hip72 (Debian experimental's HIP 7.2.4 and LLVM 22 in a sid root): the
targets it compiles and links for, the wave size each gets (which rules/data/amd_targets.toml records), and the
libraries the HIP 6.4 root could not link (RCCL) or lacked, as docs/build.md ("Toolchain") states them."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from migrate import targets

NEW_TARGETS = ("gfx942", "gfx950", "gfx1201", "gfx1250")
KERNEL = """#include <hip/hip_runtime.h>
__global__ void add(float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i];
}
int main() {
  float* d = nullptr;
  if (hipMalloc(&d, 64) != hipSuccess) return 0;
  add<<<1, 16>>>(d, d, 16);
  return hipFree(d) == hipSuccess ? 0 : 1;
}
"""


def hipcc(tool: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([tool, *args], capture_output=True, text=True, cwd=cwd, timeout=600,
                          env={**os.environ, "HIP_PLATFORM": "amd", "TMPDIR": str(cwd)})


def test_hipconfig_reports_hip_7_2_with_llvm_22(hipcc72, tmp_path):
    version = hipcc(str(Path(hipcc72).with_name("hipconfig")), "--version", cwd=tmp_path)
    assert version.stdout.strip() == "7.2.53211-9999"
    full = hipcc(str(Path(hipcc72).with_name("hipconfig")), "--full", cwd=tmp_path).stdout
    assert "HIP_CLANG_PATH     :/usr/lib/llvm-22/bin" in full and "Debian clang version 22.1.8" in full


@pytest.mark.parametrize("target", NEW_TARGETS)
def test_compiles_and_links_for_each_new_target_with_the_recorded_wave_size(hipcc72, tmp_path, target):
    (tmp_path / "add.hip").write_text(KERNEL)
    built = hipcc(hipcc72, f"--offload-arch={target}", "add.hip", "-o", "add", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert f"amdgcn-amd-amdhsa--{target}".encode() in (tmp_path / "add").read_bytes()
    device = hipcc(hipcc72, f"--offload-arch={target}", "--offload-device-only", "-S", "add.hip", "-o", "add.s",
                   cwd=tmp_path)
    assert device.returncode == 0, device.stderr
    wave32 = re.search(r"\.amdhsa_wavefront_size32 1", (tmp_path / "add.s").read_text()) is not None
    assert (32 if wave32 else 64) == targets.known()[target].wave


def test_rccl_links_and_reports_its_nccl_version(hipcc72, tmp_path):
    (tmp_path / "v.hip").write_text("#include <rccl/rccl.h>\n#include <cstdio>\n"
                                    "int main() { int v = 0; ncclGetVersion(&v); std::printf(\"%d\\n\", v); }\n")
    built = hipcc(hipcc72, "--offload-arch=gfx942", "v.hip", "-o", "v", "-lrccl", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    ran = subprocess.run([str(Path(hipcc72).with_name("enter")), "./v"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert ran.stdout == "22707\n"  # RCCL 7.2.4 is NCCL 2.27.7's API


LIBRARIES = """#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hipblaslt/hipblaslt.h>
#include <hipcub/hipcub.hpp>
#include <hipfft/hipfft.h>
#include <hiprand/hiprand.h>
#include <hipsolver/hipsolver.h>
#include <hipsparse/hipsparse.h>
#include <miopen/miopen.h>
#include <roctracer/roctx.h>
#include <thrust/device_vector.h>
#include <ck/ck.hpp>
#include <omp.h>
int main() {
  hipblasHandle_t b; hipblasCreate(&b);
  hipblasLtHandle_t lt; hipblasLtCreate(&lt);
  hipfftHandle f; hipfftCreate(&f);
  hiprandGenerator_t g; hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_DEFAULT);
  hipsolverHandle_t s; hipsolverCreate(&s);
  hipsparseHandle_t sp; hipsparseCreate(&sp);
  miopenHandle_t m; miopenCreate(&m);
  roctxRangePush("step"); roctxRangePop();
  thrust::device_vector<int> v(4);
  return omp_get_max_threads() > 0 ? 0 : 1;
}
"""


def test_the_libraries_compile_and_link(hipcc72, tmp_path):
    (tmp_path / "libs.hip").write_text(LIBRARIES)
    built = hipcc(hipcc72, "--offload-arch=gfx950", "-fopenmp", "libs.hip", "-o", "libs", "-lhipblas", "-lhipblaslt",
                  "-lhipfft", "-lhiprand", "-lhipsolver", "-lhipsparse", "-lMIOpen", "-lroctx64", cwd=tmp_path)
    assert built.returncode == 0, built.stderr


@pytest.mark.xfail(strict=True, reason="Debian's librocwmma-dev 7.2.4-1~exp1 ships rocwmma.hpp without the "
                   "internal/ headers it includes (docs/build.md, 'Toolchain')")
def test_rocwmma_compiles(hipcc72, tmp_path):
    (tmp_path / "w.hip").write_text("#include <hip/hip_runtime.h>\n#include <rocwmma/rocwmma.hpp>\nint main() {}\n")
    built = hipcc(hipcc72, "--offload-arch=gfx942", "-c", "w.hip", "-o", "w.o", cwd=tmp_path)
    assert built.returncode == 0, built.stderr


def test_hipblas_complex_calls_migrated_for_7_2_and_6_4_build_with_each(hipcc64, hipcc72, tmp_path):
    """hipBLAS 3.0 dropped `_v2`: cublasCaxpy is hipblasCaxpy for 7.2 and hipblasCaxpy_v2 for 6.4, and each compiles
    with its own release's headers (the plain name of 6.4 takes hipblasComplex, which hipComplex is not)."""
    from migrate.cpp_engine import translate
    from migrate.options import Options
    from migrate.packs import default_packs
    from migrate.registry import default_registry

    source = (b"#include <cublas_v2.h>\nint f(cublasHandle_t h, int n, const cuComplex* a, const cuComplex* x, "
              b"cuComplex* y) { return cublasCaxpy(h, n, a, x, 1, y, 1) == CUBLAS_STATUS_SUCCESS; }\n")
    rules = [r() for r in default_registry().cpp()]
    for release, tool, name in (("7.2", hipcc72, b"hipblasCaxpy("), ("6.4", hipcc64, b"hipblasCaxpy_v2(")):
        migrated = translate("a.cu", source, Options(), default_packs(), release, rules).data
        assert name in migrated
        (tmp_path / f"a{release}.hip").write_bytes(migrated)
        built = hipcc(tool, "--offload-arch=gfx942", "-c", f"a{release}.hip", "-o", f"a{release}.o", cwd=tmp_path)
        assert built.returncode == 0, built.stderr
    plain_on_64 = (tmp_path / "a7.2.hip").read_bytes()
    (tmp_path / "plain64.hip").write_bytes(plain_on_64)
    assert hipcc(hipcc64, "--offload-arch=gfx942", "-c", "plain64.hip", "-o", "p.o", cwd=tmp_path).returncode != 0


def test_the_root_is_what_install_hip72_promises(hipcc72):
    """Its apt sources are sid and experimental of one mirror; what compiling and linking never read is not there;
    3.1 GB measured (docs/build.md), under 3.5; a second run of the script returns at once."""
    import time

    from migrate import toolchain

    dest = Path(hipcc72).parent.parent
    root = dest / "root"
    sources = (root / "etc/apt/sources.list").read_text().splitlines()
    assert [line.split()[0::2] for line in sources] == [["deb", "sid"], ["deb", "experimental"]]
    assert sources[0].split()[1] == sources[1].split()[1]
    lib = root / "usr/lib/x86_64-linux-gnu"
    assert not (lib / "libdevice_conv_operations.a").exists() and (lib / "libutility.a").is_file()
    assert not list((root / "usr/share/miopen").rglob("*.kdb")) and not list(lib.glob("rocblas/*/library/*"))
    assert not list((root / "usr/share/doc").iterdir()) and not list((root / "var/cache/apt/archives").glob("*.deb"))
    size = sum(f.stat().st_size for f in root.rglob("*") if f.is_file() and not f.is_symlink())
    assert 2.5e9 < size < 3.5e9
    script = Path(__file__).resolve().parent.parent / "scripts" / "install-hip72"
    started = time.monotonic()
    again = subprocess.run([str(script)], capture_output=True, text=True, timeout=60,
                           env={**os.environ, "HIPMIGRATE_TOOLCHAIN": str(toolchain.TOOLCHAIN)})
    assert (again.returncode, again.stdout) == (0, f"install-hip72: done (HIP 7.2 toolchain already in {dest})\n")
    assert time.monotonic() - started < 5


def test_install_toolchain_installs_7_2_right_after_6_4():
    text = (Path(__file__).resolve().parent.parent / "scripts" / "install-toolchain").read_text()
    calls = [line.strip() for line in text.splitlines() if line.strip().startswith('"$here/install-hip')]
    assert calls == ['"$here/install-hip64"', '"$here/install-hip72"']


def test_the_nccl_sample_migrated_for_7_2_links_rccl_with_its_own_makefile(hipcc72, tmp_path):
    """HIP 6.4's root has RCCL's header only (BLD910 at -lrccl); 7.2's links the sample's own build."""
    import json

    from click.testing import CliRunner

    from migrate.cli import main

    sample = Path(__file__).resolve().parent.parent / "samples" / "nccl_nvtx_step" / "src"
    out = tmp_path / "out"
    assert CliRunner().invoke(main, ["run", str(sample), "--out", str(out), "--hip-version", "7.2"]).exit_code in (0, 1)
    built = CliRunner().invoke(main, ["build", str(out), "--project-build", "--output-format", "json"])
    assert built.exit_code == 0, built.output
    doc = json.loads(built.stdout)
    assert doc["hipcc"] == hipcc72 and doc["project"]["status"] == "ok" and doc["project"]["findings"] == []
    assert "-lrccl" in (out / "Makefile").read_text() and (out / "train_step").is_file()
