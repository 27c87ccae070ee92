"""Dependencies that only work with NVIDIA's CUDA, in a requirements file or pyproject.toml (or a `pip install` line of
a shell script or a Dockerfile's `RUN`/`CMD`/`ENTRYPOINT`, `sh -c` exec form included): PyCUDA, CUDA Python, the
NVML bindings (`nvidia-ml-py`, `pynvml`), TensorRT, `onnxruntime-gpu`, NVIDIA DALI, and CUDA builds pinned by
version or URL (`torch-scatter==2.1.2+pt23cu121`, `flash-attn @ https://.../flash_attn-2.5.8+cu122torch2.3...whl`).

Why: each of them loads NVIDIA's driver or CUDA libraries, which an AMD machine does not have; they fail at import or
at their first call. The message names the ROCm counterpart where one exists (amdsmi for NVML, HIP Python for
CUDA Python, MIGraphX for TensorRT, a source build for CUDA builds of packages that support ROCm) and says so where
none does. There is no fix: the counterparts have other names, APIs or install steps, so the code that uses them
needs a hand port as well (the Python rules flag the calls).
"""
from __future__ import annotations

import re

from migrate.deploy.dependencies import dependencies
from migrate.deploy.rocm_wheels import TORCH_FAMILY, cuda_build
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid

NVML = "NVIDIA's NVML bindings: use amdsmi (the AMD SMI Python library shipped with ROCm) and port the calls"
KNOWN = {
    "pycuda": "PyCUDA drives NVIDIA's CUDA driver API and has no ROCm build: port it to HIP Python (hip-python) or "
              "to PyTorch or CuPy kernels",
    "cuda-python": "CUDA Python binds NVIDIA's CUDA APIs: use HIP Python (hip-python), whose CUDA Python "
                   "interoperability layer covers much of it",
    "cuda-bindings": "CUDA Python binds NVIDIA's CUDA APIs: use HIP Python (hip-python), whose CUDA Python "
                     "interoperability layer covers much of it",
    "nvidia-ml-py": NVML,
    "nvidia-ml-py3": NVML,
    "pynvml": NVML,
    "py3nvml": NVML,
    "tensorrt": "TensorRT runs on NVIDIA GPUs only: AMD's counterpart is MIGraphX (torch_migraphx for PyTorch "
                "models), a different API",
    "nvidia-tensorrt": "TensorRT runs on NVIDIA GPUs only: AMD's counterpart is MIGraphX (torch_migraphx for "
                       "PyTorch models), a different API",
    "torch-tensorrt": "Torch-TensorRT compiles for TensorRT, NVIDIA only: AMD's counterpart is torch_migraphx",
    "onnxruntime-gpu": "onnxruntime-gpu is ONNX Runtime's CUDA build: on AMD use an ONNX Runtime build with the "
                       "MIGraphX or ROCm execution provider",
}
TENSORRT = re.compile(r"tensorrt-cu\d+(-.*)?")
DALI = re.compile(r"nvidia-dali-cuda\d+")
FROM_SOURCE = {"flash-attn": "flash-attn builds for ROCm from source (composable_kernel backend, MI200/MI300)"}


class CudaOnlyPackage(DeployRule):
    code = "PY044"
    severity = Severity.ERROR
    fixable = False
    file_kinds = ("requirements", "pyproject", "shell", "docker", "yaml")
    example_path = "requirements.txt"
    examples = [
        Valid("amdsmi\nhip-python\nflash-attn==2.6.3\ntorch==2.3.0+rocm6.0\n"),
        Invalid("#!/bin/sh\npython3 -m pip install --upgrade pynvml\n", path="monitor.sh", line=2),
        Invalid("numpy\npynvml==11.5.0\n", line=2,
                message="pynvml is NVIDIA's NVML bindings: use amdsmi (the AMD SMI Python library shipped with ROCm) "
                        "and port the calls"),
        Invalid("pycuda>=2022.2\n",
                message="pycuda: PyCUDA drives NVIDIA's CUDA driver API and has no ROCm build: port it to HIP Python "
                        "(hip-python) or to PyTorch or CuPy kernels"),
        Invalid("flash-attn @ https://wheels.example.org/flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-"
                "linux_x86_64.whl\n",
                message="flash-attn @ flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl is a "
                        "CUDA build: flash-attn builds for ROCm from source (composable_kernel backend, MI200/MI300)"),
        Invalid("[project]\ndependencies = [\"torch-scatter==2.1.2+pt23cu121\", \"tensorrt-cu12==10.0.1\"]\n",
                path="pyproject.toml", line=2,
                message="torch-scatter==2.1.2+pt23cu121 is a CUDA build: install its ROCm build, or build it from "
                        "source against ROCm"),
    ]

    def check(self, ctx):
        deps, _ = dependencies(ctx)
        for dep in deps:
            key = dep.key
            reason = KNOWN.get(key)
            if reason is None and TENSORRT.fullmatch(key):
                reason = KNOWN["tensorrt"]
            if reason is None and DALI.fullmatch(key):
                reason = "NVIDIA DALI has no ROCm build: AMD's rocAL is the closest counterpart, a different API"
            if reason is not None:
                yield self.finding(ctx, dep.start, dep.end,
                                   f"{dep.name} is {reason}" if reason is NVML else f"{dep.name}: {reason}")
                continue
            if key in TORCH_FAMILY and not dep.url:
                continue  # PY041 rewrites +cuXYZ pins of torch, torchvision and torchaudio
            how = FROM_SOURCE.get(key, "install its ROCm build, or build it from source against ROCm")
            if dep.url:
                wheel = dep.url.rsplit("/", 1)[-1]
                if wheel.endswith(".whl") and cuda_build(wheel):
                    yield self.finding(ctx, dep.start, dep.url_start + len(dep.url.encode("utf-8", "surrogateescape")),
                                       f"{dep.name} @ {wheel} is a CUDA build: {how}")
                continue
            for version in dep.versions:
                if cuda_build(version.text):
                    yield self.finding(ctx, dep.start, version.end,
                                       f"{dep.name}{version.operator}{version.text} is a CUDA build: {how}")
