"""The HIP toolchains of this machine, shared by `run`, `build` and `doctor`: every hipcc found, which HIP and clang
each is, which AMD targets it really compiles for (probed), and how to run a build with it.

Found, in this order (the same hipcc reached twice is listed once): the one given with `--hipcc` or
`[tool.hipmigrate] hipcc`; hipcc on PATH; $ROCM_PATH/bin and /opt/rocm*/bin (AMD's ROCm packages); the toolchains
scripts/install-toolchain puts under $HIPMIGRATE_TOOLCHAIN/hip-*/bin (HIP 6.4 and HIP 7.2, each in a Debian sid root
of its own, run through the root's `enter`). Debian's own hipcc is /usr/bin/hipcc, on PATH.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from migrate.errors import UsageError
from migrate.packs import version_tuple

INSTALL_HINT = ("install hipcc: `sudo scripts/install-toolchain` (Debian 12/13: Debian's hipcc with the HIP library "
                "headers, and HIP 6.4 and 7.2 in roots of their own), or ROCm from AMD's packages (adds /opt/rocm/bin)")
# What scripts/install-toolchain unpacks: bin/hipify-perl, include/ (HIP library headers for Debian's own hipcc),
# cuda/include/, hip-6.4/ and hip-7.2/ (the HIP 6.4 and 7.2 toolchain roots and their bin/).
TOOLCHAIN = Path(os.environ.get("HIPMIGRATE_TOOLCHAIN", "/opt/hipmigrate/toolchain"))
EXTRA_INCLUDE = TOOLCHAIN / "include"
PROBE_SOURCE = "#include <hip/hip_runtime.h>\n__global__ void probe(int* p) { p[threadIdx.x] = 1; }\n"
ENTER = "enter"  # beside a hipcc that runs inside a root of its own: runs any command there


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
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=amd_env(),
                              cwd=tempfile.gettempdir(), stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return ""
    return proc.stdout + proc.stderr


@dataclass(frozen=True)
class Toolchain:
    hipcc: str
    hipconfig: str | None
    hip_version: str | None  # as hipconfig prints it, e.g. 5.2.21153-0
    clang: str | None  # the clang behind hipcc, e.g. "Debian clang version 15.0.6"
    rocm_path: str | None
    platform: str | None  # what hipconfig reports with HIP_PLATFORM=amd forced
    origin: str = "PATH"  # where it was found: --hipcc, pyproject.toml, PATH, ROCM_PATH, /opt/rocm-6.4.0, hipmigrate, Debian
    enter: str | None = None  # for a toolchain in a root of its own: the command that runs a command inside it
    clang_dir: str | None = None  # HIP_CLANG_PATH: the folder of the clang behind hipcc

    @property
    def short_version(self) -> str | None:
        m = re.match(r"(\d+)\.(\d+)", self.hip_version or "")
        return f"{m.group(1)}.{m.group(2)}" if m else None

    @property
    def label(self) -> str:
        return f"HIP {self.short_version or '?'} ({self.hipcc})"

    def include_dirs(self) -> list[Path]:
        """Headers that hipcc does not find on its own: the HIP library headers scripts/install-toolchain unpacks
        for Debian's own hipcc (whose suite lacks hipBLAS, hipCUB, ...). Never for another toolchain, whose own
        library headers those would shadow."""
        debian = self.enter is None and (self.rocm_path in ("/usr", None)) and self.hipcc.startswith("/usr/")
        return [EXTRA_INCLUDE] if debian and EXTRA_INCLUDE.is_dir() else []

    def shell(self, command: str) -> str:
        """A shell command line that runs `command` with this toolchain: inside its root for one that has one."""
        return command if self.enter is None else f"{shlex.quote(self.enter)} sh -c {shlex.quote(command)}"

    def default_targets(self) -> tuple[str, ...]:
        from migrate.targets import defaults_for

        return defaults_for(self.short_version)


ORIGINS = {"--hipcc": "given with --hipcc", "PATH": "found on PATH", "ROCM_PATH": "found in $ROCM_PATH/bin",
           "hipmigrate": f"installed by scripts/install-toolchain in {TOOLCHAIN}"}


def provenance(origin: str) -> str:
    """Where a toolchain's hipcc came from (its `origin`), as `build` and `doctor` say it: the program run is this one
    because of that."""
    if origin in ORIGINS:
        return ORIGINS[origin]
    return origin if origin.startswith("named by ") else f"found in {origin}/bin"


def _describe(hipcc: str, origin: str) -> Toolchain:
    folder = Path(hipcc).parent
    hipconfig = str(folder / "hipconfig") if (folder / "hipconfig").is_file() else None
    if hipconfig is None and origin == "PATH":
        hipconfig = shutil.which("hipconfig")
    enter = str(folder / ENTER) if (folder / ENTER).is_file() and os.access(folder / ENTER, os.X_OK) else None
    version = clang = rocm = platform = clang_dir = None
    if hipconfig:
        lines = _run([hipconfig, "--version"]).strip().splitlines()
        version = lines[0].strip() if lines and re.match(r"\d+\.\d+", lines[0].strip()) else None
        full = _run([hipconfig, "--full"])
        m = re.search(r"^(\S.*clang version [\d.]+)", full, re.M)
        clang = m.group(1) if m else None
        m = re.search(r"^ROCM_PATH\s*:\s*(\S+)", full, re.M)
        rocm = m.group(1) if m else None
        m = re.search(r"^HIP_PLATFORM\s*:\s*(\S+)", full, re.M)
        platform = m.group(1) if m else None
        m = re.search(r"^HIP_CLANG_PATH\s*:\s*(\S+)", full, re.M)
        clang_dir = m.group(1) if m else None
    return Toolchain(hipcc, hipconfig, version, clang, rocm, platform, origin, enter, clang_dir)


def _candidates(explicit: str | None) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if explicit:
        out.append((explicit, "--hipcc"))
    if found := shutil.which("hipcc"):
        out.append((found, "PATH"))
    if os.environ.get("ROCM_PATH"):
        out.append((str(Path(os.environ["ROCM_PATH"]) / "bin" / "hipcc"), "ROCM_PATH"))
    for root in sorted(Path("/opt").glob("rocm*")):
        out.append((str(root / "bin" / "hipcc"), str(root)))
    for root in sorted(TOOLCHAIN.glob("hip-*")):
        out.append((str(root / "bin" / "hipcc"), "hipmigrate"))
    return out


@lru_cache(maxsize=8)
def discover_all(explicit: str | None = None, explicit_origin: str = "--hipcc") -> tuple[Toolchain, ...]:
    """Every HIP toolchain found, the explicit one first, then the rest newest first."""
    if explicit and not (Path(explicit).is_file() and os.access(explicit, os.X_OK)):
        raise UsageError(f"{explicit} ({explicit_origin}): no such program (give the path of a hipcc)")
    seen: set[str] = set()
    found: list[Toolchain] = []
    for path, origin in _candidates(explicit):
        p = Path(path)
        if not (p.is_file() and os.access(p, os.X_OK)):
            continue
        key = str(p.resolve())
        if key in seen:
            continue
        seen.add(key)
        found.append(_describe(str(p), explicit_origin if origin == "--hipcc" else origin))
    first = [t for t in found if explicit and t.hipcc == explicit]
    rest = sorted((t for t in found if t not in first), key=lambda t: _key(t.short_version), reverse=True)
    return tuple(first + rest)


def _key(version: str | None) -> tuple[int, int]:
    return version_tuple(version) if version else (0, 0)


def discover() -> Toolchain | None:
    """The toolchain used when nothing chooses one: the newest installed."""
    found = discover_all()
    return found[0] if found else None


def installed_hip_version() -> str | None:
    """major.minor of the newest installed HIP, or None without one."""
    tc = discover()
    return tc.short_version if tc else None


def choose(hip_version: str | None = None, hipcc: str | None = None, hipcc_origin: str = "--hipcc") -> Toolchain:
    """The toolchain for a build: the given hipcc, else the one of `hip_version` (major.minor), else the newest.
    A usage error says what is installed and what to install when none fits."""
    found = discover_all(hipcc, hipcc_origin)
    if not found:
        raise UsageError(f"hipcc not found: {INSTALL_HINT}")
    if hipcc or not hip_version:
        return found[0]
    for tc in found:
        if tc.short_version == hip_version:
            return tc
    installed = ", ".join(t.label for t in found)
    raise UsageError(f"no HIP {hip_version} toolchain installed (found: {installed}); install ROCm {hip_version} "
                     f"(AMD's packages put it in /opt/rocm-{hip_version}.x, found automatically) or give its hipcc with "
                     "--hipcc PATH; scripts/install-toolchain installs HIP 7.2, 6.4 and Debian's own")


@lru_cache(maxsize=64)
def accepts_target(hipcc: str, target: str) -> bool:
    """Does this hipcc compile and link device code for `target`? Found by compiling a one-line kernel."""
    with tempfile.TemporaryDirectory(prefix="hipmigrate-probe-") as tmp:
        source = Path(tmp) / "probe.hip"
        source.write_text(PROBE_SOURCE)
        try:
            proc = subprocess.run([hipcc, f"--offload-arch={target}", "-c", str(source), "-o", str(Path(tmp) / "p.o")],
                                  capture_output=True, text=True, timeout=300, env=amd_env(scratch=tmp), cwd=tmp,
                                  stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            return False
        return proc.returncode == 0


MULTIARCH_CMAKE = Path("/usr/lib/x86_64-linux-gnu/cmake")
DEBIAN_BITCODE = Path("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")


def build_env(tc: Toolchain, scratch: str | None = None) -> dict[str, str]:
    """amd_env() plus the headers hipcc does not find on its own (CPATH, which clang reads), for the
    project's own build commands."""
    env = amd_env(scratch=scratch)
    extra = [str(d) for d in tc.include_dirs()]
    if extra:
        env["CPATH"] = os.pathsep.join([*extra, *filter(None, [env.get("CPATH")])])
    return env


def cmake_hip_args(tc: Toolchain, work: Path) -> tuple[dict[str, str], list[str]]:
    """(environment, arguments) that let CMake's HIP language work with Debian's ROCm packages, which install
    their CMake packages in the multiarch folder that CMake before 3.27 does not search (the environment's
    CMAKE_PREFIX_PATH also reaches CMake's try-compile projects), and whose clang needs to be told where
    the ROCm device libraries are. In a toolchain root (Debian sid: CMake 4 and clang 21, no g++) CMake is told
    to use the root's clang for C++ and HIP. Nothing for other toolchains."""
    if tc.enter is not None:
        clang = f"{tc.clang_dir or '/usr/bin'}/clang++"
        return {}, [f"-DCMAKE_CXX_COMPILER={clang}", f"-DCMAKE_HIP_COMPILER={clang}"]
    if not (MULTIARCH_CMAKE / "hip-lang").is_dir() or not tc.hipcc.startswith("/usr/"):
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
