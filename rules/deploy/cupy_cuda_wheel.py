"""CuPy's CUDA wheels as a dependency (`cupy-cuda12x`, `cupy-cuda11x`, older `cupy-cuda117`, ...) in a requirements
file or pyproject.toml (or a `pip install` line of a shell script or a Dockerfile's `RUN`/`CMD`/`ENTRYPOINT`,
`sh -c` exec form included).

Why: each `cupy-cudaXX` wheel is CuPy compiled for one CUDA major version; it cannot use an AMD GPU. CuPy supports
ROCm in two ways (CuPy's installation guide, "Using CuPy on AMD GPU"): prebuilt `cupy-rocm-4-3` and `cupy-rocm-5-0`
wheels, which only match ROCm 4.3 and 5.0, and a build from the `cupy` source package with `CUPY_INSTALL_USE_HIP=1`
(and `HCC_AMDGPU_TARGET` naming the GPU targets, `ROCM_HOME` if ROCm is not in /opt/rocm) for current ROCm releases.

Fix (unsafe, with `--unsafe-fixes`): the package name becomes `cupy` (the version constraint stays); unsafe
because that package builds from source and only targets AMD when those variables are set where it is installed:
the message gives them, with hipmigrate's `--offload-arch` targets.
"""
from __future__ import annotations

import re

from migrate.deploy.dependencies import dependencies
from migrate.model import Applicability, Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid

CUPY_CUDA = re.compile(r"cupy-cuda\d+x?")


class CupyCudaWheel(DeployRule):
    code = "PY043"
    severity = Severity.ERROR
    applicability = Applicability.UNSAFE
    file_kinds = ("requirements", "pyproject", "shell", "docker", "yaml")
    example_path = "requirements.txt"
    examples = [
        Valid("cupy==13.3.0\ncupy-rocm-5-0==13.3.0\n"),
        Invalid("FROM python:3.11\nRUN pip install 'cupy-cuda12x>=13' \\\n    numpy\n", path="Dockerfile", line=2),
        Invalid("numpy\ncupy-cuda12x==13.3.0\n", line=2,
                message="cupy-cuda12x is CuPy built for CUDA and cannot use AMD GPUs; CuPy's ROCm wheels "
                        "(cupy-rocm-5-0, cupy-rocm-4-3) match only ROCm 5.0 and 4.3: for a current ROCm depend on cupy "
                        "and install it with CUPY_INSTALL_USE_HIP=1 HCC_AMDGPU_TARGET=gfx942 (it builds from "
                        "source)"),
        Invalid("numpy\ncupy-cuda12x==13.3.0\n", fixed="numpy\ncupy==13.3.0\n", options=(("unsafe_fixes", True),)),
        Invalid("[project]\ndependencies = [\"cupy-cuda11x>=12\"]\n", path="pyproject.toml",
                fixed="[project]\ndependencies = [\"cupy>=12\"]\n",
                options=(("unsafe_fixes", True), ("offload_arch", ("gfx942",)))),
    ]

    def check(self, ctx):
        deps, _ = dependencies(ctx)
        targets = ",".join(ctx.targets)
        for dep in deps:
            if not CUPY_CUDA.fullmatch(dep.key):
                continue
            edits = [] if dep.url else [Edit(dep.start, dep.end, "cupy")]
            yield self.finding(ctx, dep.start, dep.end,
                               f"{dep.name} is CuPy built for CUDA and cannot use AMD GPUs; CuPy's ROCm wheels "
                               "(cupy-rocm-5-0, cupy-rocm-4-3) match only ROCm 5.0 and 4.3: for a current ROCm depend "
                               f"on cupy and install it with CUPY_INSTALL_USE_HIP=1 HCC_AMDGPU_TARGET={targets} (it "
                               "builds from source)", edits=edits, title="Depend on cupy (built for ROCm)")
