"""A CUDA package in the `dependencies:` of a conda environment file (migrate/deploy/conda_env.py): conda's CUDA
toolkit (`cudatoolkit=11.3`, `cuda-toolkit`, `cuda-version=12.1`, `cuda-nvcc`, `cuda-runtime`, ...), PyTorch's CUDA
selector (`pytorch-cuda=12.1`, conda-forge's `pytorch-gpu`), cuDNN (`cudnn`), NCCL (`nccl`), the CUDA math
libraries (`libcublas`, `libcufft`, ...), `magma-cuda121`, `cupy`, and PyTorch itself from conda (`pytorch`,
`torchvision`, `torchaudio`, with or without a `cuda` build string such as `pytorch=2.1.0=py3.10_cuda11.8*`).

Why: conda has no ROCm builds of PyTorch, and conda's CUDA packages only serve NVIDIA GPUs. On ROCm, PyTorch comes
from PyTorch's ROCm wheels through pip: list `torch` (with torchvision and torchaudio) under the file's `- pip:`
entry with an `--index-url .../whl/rocm7.1` line (the ROCm tag of the torch release you pin), and take the ROCm
libraries from the system or a `rocm/*` image (MIOpen for cuDNN, RCCL for NCCL, rocBLAS/hipBLAS for cuBLAS, ...).

No fix: moving packages between conda and pip changes how the environment resolves; the message says what to write.
The `- pip:` sub-list itself is read like a requirements file, so the wheel rules (PY040-PY045) migrate it.
"""
from __future__ import annotations

from migrate.deploy.conda_env import conda_env
from migrate.deploy.conda_packages import classify
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid


class CondaCudaPackage(DeployRule):
    code = "PY064"
    severity = Severity.WARNING
    fixable = False
    file_kind = "yaml"
    example_path = "environment.yml"
    examples = [
        Valid("name: rocm\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - numpy\n  - pip\n"
              "  - pip:\n      - torch==2.5.1\n      - --index-url https://wheels.example.org/whl/rocm6.2\n"),
        Valid("services:\n  app:\n    image: python:3.11\ndependencies:\n  - cudatoolkit\n", path="compose.yml"),
        Invalid("name: train\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python=3.10\n"
                "  - cudatoolkit=11.3\n  - cudnn\n", line=7,
                message="cudatoolkit=11.3 installs conda's CUDA toolkit: AMD GPUs do not use it: drop it; conda has "
                        "no ROCm builds of PyTorch: install torch from PyTorch's ROCm wheels under `- pip:` (with "
                        "`--index-url .../whl/rocm7.1`, or the tag of the release you pin)"),
        Invalid("dependencies:\n  - pytorch::pytorch=2.1.0=py3.10_cuda11.8_cudnn8.7.0_0\n  - pytorch-cuda=12.1\n",
                path="environment-gpu.yaml", line=2,
                message="pytorch::pytorch=2.1.0=py3.10_cuda11.8_cudnn8.7.0_0 installs a conda build of PyTorch (CUDA "
                        "or CPU): conda has no ROCm builds of PyTorch: install torch from PyTorch's ROCm wheels under "
                        "`- pip:` (with `--index-url .../whl/rocm7.1`, or the tag of the release you pin)"),
        Invalid("channels: [conda-forge]\ndependencies: [python=3.11, \"nccl>=2.18\", cuda-nvcc]\n",
                path="conda-env.yml", line=2,
                message="nccl>=2.18 installs NCCL: ROCm's counterpart is RCCL (rccl; torch's 'nccl' backend runs on "
                        "it): take it from ROCm (the system or a rocm/* image) instead"),
    ]

    def check(self, ctx):
        env = conda_env(ctx)
        for package in env.packages if env is not None else ():
            found = classify(package.name)
            if found is None:
                continue
            what, instead = found
            entry = package.entry
            yield self.finding(ctx, entry.start, entry.end, f"{entry.text.strip()} installs {what}: {instead}")
