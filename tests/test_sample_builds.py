"""Every sample builds both ways: the original with nvcc (compile only: no GPU here), the migrated tree
with its own migrated Makefile or CMake build for gfx90a."""
import os
import subprocess
from pathlib import Path

import pytest

from migrate import api
from migrate.cpp.hipify_perl import TOOLCHAIN
from migrate.options import Options
from tests.conftest import need_tool
from tests.helpers import golden_release

# The samples built with their own Makefile or CMakeLists.txt (pytorch_ddp is built by PyTorch's setup.py:
# tests/test_python_sample.py compiles its units).
ROOT = Path(__file__).resolve().parent.parent
SAMPLES_ROOT = ROOT / "samples"
SAMPLES = sorted(p.parent for p in SAMPLES_ROOT.glob("*/src")
                 if (p / "Makefile").exists() or (p / "CMakeLists.txt").exists())
CUDA_INCLUDE = TOOLCHAIN / "cuda" / "include"  # cuBLAS/cuRAND headers unpacked by scripts/install-toolchain
# On Debian 12 scripts/install-toolchain unpacks trixie's hipBLAS (with rocBLAS, rocSOLVER and the glibc and
# libstdc++ they need) here, since the suite packages none; on Debian 13 apt installs it and the folder is absent.
HIP_LIBDIR = TOOLCHAIN / "lib"


SAMPLES_52 = [s for s in SAMPLES if golden_release(s) == "5.2"]  # the others need a newer HIP (tests/helpers.py)


@pytest.mark.nvcc
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_original_compiles_with_nvcc(sample, tmp_path):
    nvcc = need_tool("nvcc")
    for source in sorted((sample / "src").glob("*.cu")):
        proc = subprocess.run([nvcc, "-arch=sm_90", "-std=c++17", "-c", str(source), "-o", str(tmp_path / "x.o"),
                               "-I", str(source.parent), "-I", str(CUDA_INCLUDE)], capture_output=True, text=True)
        assert proc.returncode == 0, f"{source}:\n{proc.stderr[-3000:]}"


@pytest.mark.parametrize("sample", SAMPLES_52, ids=lambda p: p.name)
def test_migrated_build_files_build_for_amd(sample, tmp_path, hipcc, monkeypatch):
    """The migrated Makefile or CMake build compiles and links the program for gfx90a: a complete link (ld checks
    the undefined symbols of every shared library in it), -lhipblas included."""
    need_tool("make")
    if HIP_LIBDIR.is_dir():
        # make reads CUDA_LIBDIR from the environment (`CUDA_LIBDIR ?=`): -L and an rpath for -lhipblas
        monkeypatch.setenv("CUDA_LIBDIR", str(HIP_LIBDIR))
    out = tmp_path / "hip"
    api.run(sample / "src", out, Options(hip_version="5.2", offload_arch=("gfx90a",)))
    result = api.build(out, ("gfx90a",), project_build=True, compile_units=False)
    project = result.project
    assert project is not None and project.findings == ()
    assert project.status == "ok", project.output_tail
    programs = [p for p in out.rglob(sample.name) if p.is_file() and os.access(p, os.X_OK)]
    assert programs, "the build produced no program"
    if sample.name == "cublas_sgemm":
        dynamic = subprocess.run([need_tool("readelf"), "-d", str(programs[0])], capture_output=True, text=True).stdout
        assert "Shared library: [libhipblas.so.0]" in dynamic, dynamic


AMD_TARGETS_64 = ("gfx942", "gfx950", "gfx1100")  # MI300X, MI350/MI355X, Radeon RX 7900
LINKS_RCCL = {"nccl_nvtx_step"}


def built_with(sample: Path, out: Path, release: str, targets: tuple[str, ...], hipcc: str):
    """The sample migrated for `release` and built with its toolchain for `targets`, units and project build: every
    unit compiled for every target, with no finding."""
    api.run(sample / "src", out, Options(hip_version=release, offload_arch=targets))
    result = api.build(out, targets, jobs=2, project_build=True, hip_version=release)
    assert result.hipcc == hipcc and result.hip_version.startswith(f"{release}.")
    assert [(u.path, u.target, u.status) for u in result.units] == [
        (u.path, t, "ok") for u in result.units[::len(targets)] for t in targets], \
        [f.message for u in result.units for f in u.findings]
    assert result.units and all(u.findings == () for u in result.units)
    return result


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_migrated_for_hip_6_4_builds_for_mi300_mi350_and_rdna3(sample, tmp_path, hipcc64):
    """Migrated with --hip-version 6.4, every unit compiles with HIP 6.4 (clang 21) for gfx942, gfx950 and gfx1100,
    and the migrated Makefile or CMake build compiles and links the program inside the toolchain's root."""
    out = tmp_path / "hip"
    result = built_with(sample, out, "6.4", AMD_TARGETS_64, hipcc64)
    project = result.project
    assert project is not None
    if sample.name in LINKS_RCCL:  # the HIP 6.4 root has RCCL's header, not its library: the one error says so
        errors = [(f.code, f.message.split(": ")[1]) for f in project.findings if f.severity.label == "error"]
        assert project.status == "failed" and errors == [("BLD910", "cannot find -lrccl")], project.output_tail
        return
    assert project.status == "ok", project.output_tail
    programs = [p for p in out.rglob("*") if p.is_file() and os.access(p, os.X_OK) and p.suffix == ""
                and p.read_bytes()[:4] == b"\x7fELF" and "CMakeFiles" not in p.parts]
    assert programs, "the build produced no program"
    if sample.name == "cublas_sgemm":
        dynamic = subprocess.run([need_tool("readelf"), "-d", str(programs[0])], capture_output=True, text=True).stdout
        assert "Shared library: [libhipblas.so.2]" in dynamic and "[libamdhip64.so.6]" in dynamic, dynamic
    if sample.name == "cudnn_conv":  # -lcudnn became -lMIOpen: ROCm 6.4's MIOpen 3.4 (libMIOpen.so.1)
        dynamic = subprocess.run([need_tool("readelf"), "-d", str(programs[0])], capture_output=True, text=True).stdout
        assert "Shared library: [libMIOpen.so.1]" in dynamic and "[libamdhip64.so.6]" in dynamic, dynamic


AMD_TARGETS_72 = ("gfx942", "gfx950", "gfx1201")  # MI300X, MI350/MI355X, Radeon RX 9070


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_migrated_for_hip_7_2_builds_for_mi300_mi350_and_rdna4(sample, tmp_path, hipcc72):
    """Migrated with --hip-version 7.2, every unit compiles with HIP 7.2 (LLVM 22) for gfx942, gfx950 and gfx1201,
    and the migrated Makefile or CMake build compiles and links the program inside the toolchain's root (RCCL's
    library included: the 7.2 root has it)."""
    out = tmp_path / "hip"
    result = built_with(sample, out, "7.2", AMD_TARGETS_72, hipcc72)
    project = result.project
    assert project is not None and project.status == "ok", project.output_tail
    programs = [p for p in out.rglob("*") if p.is_file() and os.access(p, os.X_OK) and p.suffix == ""
                and p.read_bytes()[:4] == b"\x7fELF" and "CMakeFiles" not in p.parts]
    assert programs, "the build produced no program"
    dynamic = subprocess.run([need_tool("readelf"), "-d", str(programs[0])], capture_output=True, text=True).stdout
    assert "Shared library: [libamdhip64.so.7]" in dynamic, dynamic


@pytest.mark.hipcc
@pytest.mark.torch
@pytest.mark.parametrize("version, targets", [("5.2", ("gfx90a",)), ("6.4", AMD_TARGETS_64)])
def test_pytorch_extension_units_compile_with_torchs_headers(tmp_path, request, version, targets):
    """The DDP sample's extension: the binding file (torch/extension.h) is compiled once as host C++ with torch's
    include paths and defines, as PyTorch's ROCm build compiles it; the kernel file as HIP for each target."""
    request.getfixturevalue("hipcc" if version == "5.2" else "hipcc64")
    sample = SAMPLES_ROOT / "pytorch_ddp"
    out = tmp_path / "hip"
    api.run(sample / "src", out, Options(hip_version=version))
    result = api.build(out, targets, jobs=2, hip_version=version)
    assert [(u.path, u.target, u.status) for u in result.units] == [
        ("csrc/binding.cpp", "host", "ok"), *(("csrc/scale_bias.cu", t, "ok") for t in targets)], \
        [f.message for u in result.units for f in u.findings]
    binding = result.units[0].command
    assert "-x" in binding and binding[binding.index("-x", 2) + 1] == "c++"
    assert "-DTORCH_EXTENSION_NAME=binding" in binding and any(a.endswith("/torch/include") for a in binding)


def test_a_pytorch_extension_without_torch_headers_says_what_is_missing(tmp_path, hipcc):
    """A torch without its C++ headers first on the path (as where torch is not installed): the binding file's
    failure is explained first, in words, with the install command."""
    import sys

    fake = tmp_path / "site" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    sample = SAMPLES_ROOT / "pytorch_ddp"
    out = tmp_path / "hip"
    api.run(sample / "src", out, Options(hip_version="5.2"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT)])}
    proc = subprocess.run([sys.executable, "-m", "migrate", "build", str(out), "--offload-arch", "gfx90a",
                           "--output-format", "json"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    import json

    units = {(u["path"], u["target"]): u for u in json.loads(proc.stdout)["units"]}
    first = units[("csrc/binding.cpp", "host")]["findings"][0]
    assert (first["code"], first["line"]) == ("BLD909", 1)
    assert first["message"] == (
        "PyTorch extension unit: this Python imports no torch with its C++ headers (torch/include/torch/extension.h), "
        "so torch/extension.h and the ATen headers cannot be found; install torch (a ROCm build: pip install torch "
        "--index-url https://download.pytorch.org/whl/rocm6.4) and build again (host)")
    assert units[("csrc/scale_bias.cu", "gfx90a")]["status"] == "ok"
