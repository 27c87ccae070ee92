"""Compile HIP sources for real AMD targets with hipcc (the NVIDIA platform is never used)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from migrate.cpp.hipify_perl import TOOLCHAIN

TARGET = "gfx90a"


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
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)


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
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
