"""Compile HIP sources for real AMD targets with hipcc (the NVIDIA platform is never used)."""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from migrate.cpp.hipify_perl import TOOLCHAIN
from migrate.verify import compile_cache

TARGET = "gfx90a"
HOST = "host"  # the target of a PyTorch extension's host C++ unit


def run_cached(cmd: list[str], source: Path, obj: Path, env: dict[str, str], target: str,
               cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`cmd` run in `cwd`, or the result of the same compile made before, from the compile cache that
    HIPMIGRATE_COMPILE_CACHE names (tests/conftest.py sets it for the run; `hipmigrate build` shares it): keyed by
    migrate.verify.compile_cache, the source's folder as the tree root and the object file `obj` by its place.
    Everything the compiler printed, stdout then stderr, is the result's stderr, whether it ran or was read back."""
    store = compile_cache.folder()
    if store is None:
        return _ran(cmd, env, cwd)
    root = source.parent
    key = compile_cache.key(cmd[0], compile_cache.version(cmd[0], env), cmd[1:], target, source, root,
                            cwd or Path.cwd(), env, {str(obj): "<object>"}, _memo)
    hit = None if key is None else compile_cache.load(store, key, root)
    if hit is not None:
        return subprocess.CompletedProcess(cmd, hit.status, "", hit.output)
    started = time.perf_counter()
    proc = _ran(cmd, env, cwd)
    if key is not None:
        compile_cache.save(store, key, compile_cache.Outcome(proc.stderr, proc.returncode,
                                                             time.perf_counter() - started), root)
    return proc


_memo: dict = {}  # the environment's headers (HIP's, torch's), read once per test process


def _ran(cmd: list[str], env: dict[str, str], cwd: Path | None) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    return subprocess.CompletedProcess(cmd, proc.returncode, "", proc.stdout + proc.stderr)


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
    return run_cached(cmd, source, out_dir / (source.name + ".o"), env, target)


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
    return run_cached(cmd, source, out_dir / (source.name + ".o"), env, HOST)
