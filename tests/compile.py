"""Compile HIP sources for real AMD targets with hipcc (the NVIDIA platform is never used)."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

from migrate.cpp.hipify_perl import TOOLCHAIN

TARGET = "gfx90a"
CACHE = "HIPMIGRATE_TEST_COMPILE_CACHE"  # the run's folder of compile results (tests/conftest.py sets it)
SOURCES = {".c", ".cc", ".cpp", ".cu", ".cuh", ".cxx", ".h", ".hh", ".hip", ".hpp", ".inc", ".inl"}


def run_cached(cmd: list[str], source: Path, include_dirs: list[Path], out_dir: Path,
               env: dict[str, str]) -> subprocess.CompletedProcess:
    """`cmd` run, or the result of the same compile made earlier in this test run (every worker's): keyed by the
    compiler and its arguments (the source, output and include folders by position), the compiler's own version
    line, the source's bytes and those of every C/C++ file under the include folders. A result read back is the
    earlier compile's output, with its paths."""
    folder = os.environ.get(CACHE)
    if not folder:
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    places = {str(source): "SOURCE", str(out_dir / (source.name + ".o")): "OUTPUT",
              **{str(d): f"INCLUDE{i}" for i, d in enumerate(include_dirs)}}
    key = hashlib.sha256(json.dumps([places.get(a, a) for a in cmd]).encode())
    key.update(_version(cmd[0], env).encode() + b"\0" + source.read_bytes())
    for i, d in enumerate(include_dirs):
        for path in sorted(p for p in d.rglob("*") if p.suffix in SOURCES and p.is_file()):
            key.update(f"\0{i}:{path.relative_to(d).as_posix()}\0".encode() + path.read_bytes())
    entry = Path(folder) / f"{key.hexdigest()}.json"
    if entry.is_file():
        kept = json.loads(entry.read_text())
        return subprocess.CompletedProcess(cmd, kept["returncode"], kept["stdout"], kept["stderr"])
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    partial = entry.with_suffix(f".{os.getpid()}.partial")
    partial.write_text(json.dumps({"returncode": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}))
    os.replace(partial, entry)
    return proc


_versions: dict[str, str] = {}


def _version(compiler: str, env: dict[str, str]) -> str:
    if compiler not in _versions:
        proc = subprocess.run([compiler, "--version"], capture_output=True, text=True, env=env, timeout=120)
        _versions[compiler] = proc.stdout
    return _versions[compiler]


def hipcc_compile(hipcc: str, source: Path, include_dirs: list[Path], out_dir: Path,
                  target: str = TARGET) -> subprocess.CompletedProcess:
    """`target` gfx90a: Debian's HIP 5.2, with the library headers install-toolchain unpacks for it; another target
    is compiled with the HIP 6.4 toolchain's own headers."""
    library = ["-I", str(TOOLCHAIN / "include")] if target == TARGET else []
    cmd = [hipcc, "-std=c++17", f"--offload-arch={target}", "-x", "hip", "-c", str(source),
           "-o", str(out_dir / (source.name + ".o")), *library]
    for d in include_dirs:
        cmd += ["-I", str(d)]
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    return run_cached(cmd, source, include_dirs, out_dir, env)


def torch_extension_unit(source: Path) -> bool:
    """A PyTorch extension's C++ file (it includes torch/extension.h)."""
    return source.suffix != ".cu" and "<torch/extension.h>" in source.read_text(errors="replace")


def compile_unit(hipcc: str, source: Path, include_dirs: list[Path], out_dir: Path,
                 target: str = TARGET) -> subprocess.CompletedProcess:
    """Compile one migrated unit for gfx90a the way its build would: a PyTorch extension's .cpp as PyTorch
    builds it on ROCm (host C++ with __HIP_PLATFORM_AMD__, against torch's headers: those of the CPU torch
    installed here), everything else as HIP."""
    if not torch_extension_unit(source):
        return hipcc_compile(hipcc, source, include_dirs, out_dir, target)
    import sysconfig

    from torch.utils.cpp_extension import include_paths

    cmd = [hipcc, "-std=c++17", "-x", "c++", "-D__HIP_PLATFORM_AMD__=1", f"-DTORCH_EXTENSION_NAME={source.stem}",
           "-c", str(source), "-o", str(out_dir / (source.name + ".o")), "-I", sysconfig.get_paths()["include"]]
    for d in [*include_paths(), *include_dirs]:
        cmd += ["-I", str(d)]
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    return run_cached(cmd, source, include_dirs, out_dir, env)
