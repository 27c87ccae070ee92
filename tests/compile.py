"""Compile HIP sources for real AMD targets with hipcc (the NVIDIA platform is never used)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from migrate.cpp.hipify_perl import TOOLCHAIN

TARGET = "gfx90a"


def hipcc_compile(hipcc: str, source: Path, include_dirs: list[Path], out_dir: Path) -> subprocess.CompletedProcess:
    cmd = [hipcc, "-std=c++17", f"--offload-arch={TARGET}", "-x", "hip", "-c", str(source),
           "-o", str(out_dir / (source.name + ".o")), "-I", str(TOOLCHAIN / "include")]
    for d in include_dirs:
        cmd += ["-I", str(d)]
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
