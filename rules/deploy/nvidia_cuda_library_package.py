"""NVIDIA's CUDA library wheels as dependencies (`nvidia-cublas-cu12`, `nvidia-cudnn-cu12`, `nvidia-nccl-cu12`,
`nvidia-cuda-runtime-cu12`, `nvidia-cusparselt-cu12`, ...) in a requirements file or pyproject.toml (or a
`pip install` line of a shell script or a Dockerfile's `RUN`/`CMD`/`ENTRYPOINT`, `sh -c` exec form included).

Why: these wheels hold NVIDIA's shared libraries for the CUDA builds of PyTorch and other packages; nothing on an
AMD GPU loads them. The ROCm builds of PyTorch bring their own ROCm libraries (rocBLAS/hipBLASLt, MIOpen, RCCL,
rocFFT, ...) inside the torch wheel, so there is nothing to install in their place.

Fix (unsafe, with `--unsafe-fixes`): the dependency is removed (its line in a requirements file or poetry table, the
array element with its comma in pyproject). Unsafe because code may still load them by path (`nvidia.cudnn`
folders, `LD_LIBRARY_PATH` tricks): check for that first.
"""
from __future__ import annotations

import re

from migrate.deploy.dependencies import dependencies
from migrate.model import Applicability, Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid

LIBRARY = re.compile(r"nvidia-(cuda-[a-z]+|cublas|cudnn|cufft|curand|cusolver|cusparse|cusparselt|nccl|nvtx|"
                     r"nvjitlink|cufile|nvshmem|nvjpeg)(-cu\d+)?")
COUNTERPARTS = {
    "cublas": "rocBLAS and hipBLASLt", "cudnn": "MIOpen", "nccl": "RCCL", "cufft": "rocFFT", "curand": "rocRAND",
    "cusolver": "rocSOLVER", "cusparse": "rocSPARSE", "cusparselt": "hipSPARSELt", "nvtx": "roctx",
    "nvjitlink": "the ROCm code-object tools", "cufile": "hipFile", "nvshmem": "rocSHMEM", "nvjpeg": "rocJPEG",
}


class NvidiaCudaLibraryPackage(DeployRule):
    code = "PY042"
    severity = Severity.WARNING
    applicability = Applicability.UNSAFE
    file_kinds = ("requirements", "pyproject", "shell", "docker", "yaml")
    example_path = "requirements.txt"
    examples = [
        Valid("torch==2.3.0\nnvidia-ml-py==12.535.133\n"),
        Invalid('FROM python:3.11\nRUN ["sh", "-c", "pip install numpy \\"nvidia-nccl-cu12==2.20.5\\" && echo ok"]\n',
                fixed='FROM python:3.11\nRUN ["sh", "-c", "pip install numpy && echo ok"]\n', path="Dockerfile", line=2,
                options=(("unsafe_fixes", True),)),
        Invalid("FROM python:3.11\nRUN pip install numpy nvidia-cudnn-cu12 && rm -rf /root/.cache\n",
                fixed="FROM python:3.11\nRUN pip install numpy && rm -rf /root/.cache\n", path="Dockerfile", line=2,
                options=(("unsafe_fixes", True),)),
        Invalid("torch==2.3.0\nnvidia-cudnn-cu12==8.9.2.26\nnumpy\n", line=2,
                message="nvidia-cudnn-cu12 is NVIDIA's cuDNN library for CUDA builds; ROCm builds of PyTorch bring "
                        "their own counterpart (MIOpen): remove it"),
        Invalid("torch==2.3.0\nnvidia-cudnn-cu12==8.9.2.26\nnumpy\n", fixed="torch==2.3.0\nnumpy\n",
                options=(("unsafe_fixes", True),)),
        Invalid("[project]\ndependencies = [\"torch\", \"nvidia-nccl-cu12>=2.18\", \"numpy\"]\n",
                fixed="[project]\ndependencies = [\"torch\", \"numpy\"]\n", options=(("unsafe_fixes", True),),
                path="pyproject.toml",
                message="nvidia-nccl-cu12 is NVIDIA's NCCL library for CUDA builds; ROCm builds of PyTorch bring "
                        "their own counterpart (RCCL): remove it"),
        Invalid("[project.optional-dependencies]\ngpu = [\n  \"cupy\",\n  \"nvidia-cuda-runtime-cu12\",  # rt\n]\n",
                fixed="[project.optional-dependencies]\ngpu = [\n  \"cupy\",\n]\n", options=(("unsafe_fixes", True),),
                path="pyproject.toml"),
    ]

    def check(self, ctx):
        deps, _ = dependencies(ctx)
        for dep in deps:
            match = LIBRARY.fullmatch(dep.key)
            if match is None:
                continue
            family = match[1]
            library = "the CUDA runtime" if family.startswith("cuda-") else {
                "cublas": "cuBLAS", "cudnn": "cuDNN", "nccl": "NCCL", "cufft": "cuFFT", "curand": "cuRAND",
                "cusolver": "cuSOLVER", "cusparse": "cuSPARSE", "cusparselt": "cuSPARSELt", "nvtx": "NVTX",
                "nvjitlink": "nvJitLink", "cufile": "cuFile", "nvshmem": "NVSHMEM", "nvjpeg": "nvJPEG"}[family]
            counterpart = "the HIP runtime" if family.startswith("cuda-") else COUNTERPARTS[family]
            yield self.finding(ctx, dep.start, dep.end,
                               f"{dep.name} is NVIDIA's {library} library for CUDA builds; ROCm builds of PyTorch "
                               f"bring their own counterpart ({counterpart}): remove it",
                               edits=[Edit(dep.drop[0], dep.drop[1], "")], title=f"Remove {dep.name}")
