"""The HIP toolchain of this machine, shared by `build` and `doctor`: where hipcc, hipconfig and the ROCm
tools are, which HIP and clang they are, and which AMD targets hipcc really compiles for (probed)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

INSTALL_HINT = ("install hipcc: `sudo scripts/install-toolchain` (Debian 12/13: apt-get install hipcc and the "
                "HIP library headers), or ROCm from AMD's packages (adds /opt/rocm/bin)")
# What scripts/install-toolchain unpacks: bin/hipify-perl, include/ (HIP library headers), cuda/include/.
TOOLCHAIN = Path(os.environ.get("HIPMIGRATE_TOOLCHAIN", "/opt/hipmigrate/toolchain"))
EXTRA_INCLUDE = TOOLCHAIN / "include"
PROBE_SOURCE = "#include <hip/hip_runtime.h>\n__global__ void probe(int* p) { p[threadIdx.x] = 1; }\n"


def amd_env(base: dict[str, str] | None = None, scratch: str | None = None) -> dict[str, str]:
    """The environment for AMD builds: HIP_PLATFORM=amd, since nvcc on PATH would make hipcc pick NVIDIA.
    `scratch`: a folder for the compiler's temporary files (TMPDIR). hipcc leaves an empty folder named after
    each source it compiles in the temporary folder (Debian's clang 15-17 does): give one that is removed after."""
    env = dict(os.environ if base is None else base)
    env["HIP_PLATFORM"] = "amd"
    if scratch is not None:
        env["TMPDIR"] = scratch
    return env


def which(name: str) -> str | None:
    """A tool on PATH, else in $ROCM_PATH/bin or /opt/rocm/bin."""
    found = shutil.which(name)
    if found:
        return found
    for root in (os.environ.get("ROCM_PATH"), "/opt/rocm"):
        if root and (Path(root) / "bin" / name).is_file():
            return str(Path(root) / "bin" / name)
    return None


def _run(cmd: list[str], timeout: int = 60) -> str:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=amd_env())
    except (OSError, subprocess.SubprocessError):
        return ""
    return proc.stdout + proc.stderr


@dataclass(frozen=True)
class Toolchain:
    hipcc: str | None
    hipconfig: str | None
    hip_version: str | None  # as hipconfig prints it, e.g. 5.2.21153-0
    clang: str | None  # the clang behind hipcc, e.g. "Debian clang version 15.0.6"
    rocm_path: str | None
    platform: str | None  # what hipconfig reports with HIP_PLATFORM=amd forced

    @property
    def short_version(self) -> str | None:
        m = re.match(r"(\d+)\.(\d+)", self.hip_version or "")
        return f"{m.group(1)}.{m.group(2)}" if m else None

    def include_dirs(self) -> list[Path]:
        """Headers that hipcc does not find on its own (library headers unpacked by scripts/install-toolchain)."""
        return [EXTRA_INCLUDE] if EXTRA_INCLUDE.is_dir() else []


@lru_cache(maxsize=1)
def discover() -> Toolchain:
    hipcc, hipconfig = which("hipcc"), which("hipconfig")
    version = clang = rocm = platform = None
    if hipconfig:
        version = _run([hipconfig, "--version"]).strip().splitlines()[0:1] or None
        version = version[0] if version else None
        full = _run([hipconfig, "--full"])
        m = re.search(r"^(\S.*clang version [\d.]+)", full, re.M)
        clang = m.group(1) if m else None
        m = re.search(r"^ROCM_PATH\s*:\s*(\S+)", full, re.M)
        rocm = m.group(1) if m else None
        m = re.search(r"^HIP_PLATFORM\s*:\s*(\S+)", full, re.M)
        platform = m.group(1) if m else None
    return Toolchain(hipcc, hipconfig, version, clang, rocm, platform)


def installed_hip_version() -> str | None:
    """major.minor of the installed HIP, or None without one."""
    return discover().short_version


@lru_cache(maxsize=32)
def accepts_target(target: str) -> bool:
    """Does hipcc compile and link device code for `target`? Found by compiling a one-line kernel."""
    tc = discover()
    if tc.hipcc is None:
        return False
    with tempfile.TemporaryDirectory(prefix="hipmigrate-probe-") as tmp:
        source = Path(tmp) / "probe.hip"
        source.write_text(PROBE_SOURCE)
        try:
            proc = subprocess.run([tc.hipcc, f"--offload-arch={target}", "-c", str(source), "-o", str(Path(tmp) / "p.o")],
                                  capture_output=True, text=True, timeout=300, env=amd_env(scratch=tmp))
        except (OSError, subprocess.SubprocessError):
            return False
        return proc.returncode == 0


MULTIARCH_CMAKE = Path("/usr/lib/x86_64-linux-gnu/cmake")
DEBIAN_BITCODE = Path("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")


def build_env(scratch: str | None = None) -> dict[str, str]:
    """amd_env() plus the headers hipcc does not find on its own (CPATH, which clang reads), for the
    project's own build commands."""
    env = amd_env(scratch=scratch)
    extra = [str(d) for d in discover().include_dirs()]
    if extra:
        env["CPATH"] = os.pathsep.join([*extra, *filter(None, [env.get("CPATH")])])
    return env


def cmake_hip_args(work: Path) -> tuple[dict[str, str], list[str]]:
    """(environment, arguments) that let CMake's HIP language work with Debian's ROCm packages, which install
    their CMake packages in the multiarch folder that CMake before 3.27 does not search (the environment's
    CMAKE_PREFIX_PATH also reaches CMake's try-compile projects), and whose clang needs to be told where
    the ROCm device libraries are. Nothing elsewhere."""
    if not (MULTIARCH_CMAKE / "hip-lang").is_dir():
        return {}, []
    clang = shutil.which("clang++") or next(iter(sorted(Path("/usr/bin").glob("clang++-*"))), None)
    root = work / "rocm-root"
    (root / "lib").mkdir(parents=True, exist_ok=True)
    link = root / "lib" / "cmake"
    if not link.is_symlink():
        link.symlink_to(MULTIARCH_CMAKE)
    args = [f"-DCMAKE_HIP_COMPILER_ROCM_ROOT={root}",
            f"-DCMAKE_HIP_FLAGS=--rocm-path=/usr --hip-device-lib-path={DEBIAN_BITCODE}"]
    return {"CMAKE_PREFIX_PATH": str(MULTIARCH_CMAKE)}, ([f"-DCMAKE_HIP_COMPILER={clang}"] if clang else []) + args
