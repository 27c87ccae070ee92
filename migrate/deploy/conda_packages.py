"""What conda's CUDA packages are, and what to use on ROCm instead: the table of the conda rules (PY064, PY065)."""
from __future__ import annotations

import re

from migrate.deploy.rocm_wheels import NEWEST_TAG

PIP_ROCM = (f"conda has no ROCm builds of PyTorch: install torch from PyTorch's ROCm wheels under `- pip:` "
            f"(with `--index-url .../whl/{NEWEST_TAG}`, or the tag of the release you pin)")
SYSTEM = "take it from ROCm (the system or a rocm/* image) instead"
PACKAGES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"cudatoolkit|cuda-toolkit|cuda-version|cuda|cuda-[\w.-]+|cudatoolkit-dev"), "conda's CUDA toolkit",
     f"AMD GPUs do not use it: drop it; {PIP_ROCM}"),
    (re.compile(r"pytorch-cuda|pytorch-gpu"), "PyTorch's CUDA build", PIP_ROCM),
    (re.compile(r"pytorch|torchvision|torchaudio"), "a conda build of PyTorch (CUDA or CPU)", PIP_ROCM),
    (re.compile(r"cudnn"), "cuDNN", f"ROCm's counterpart is MIOpen (miopen-hip): {SYSTEM}"),
    (re.compile(r"nccl"), "NCCL", f"ROCm's counterpart is RCCL (rccl; torch's 'nccl' backend runs on it): {SYSTEM}"),
    (re.compile(r"libcublas[\w.-]*"), "cuBLAS", f"ROCm's counterparts are rocBLAS and hipBLAS: {SYSTEM}"),
    (re.compile(r"libcufft[\w.-]*"), "cuFFT", f"ROCm's counterparts are rocFFT and hipFFT: {SYSTEM}"),
    (re.compile(r"libcurand[\w.-]*"), "cuRAND", f"ROCm's counterparts are rocRAND and hipRAND: {SYSTEM}"),
    (re.compile(r"libcusparse[\w.-]*"), "cuSPARSE", f"ROCm's counterparts are rocSPARSE and hipSPARSE: {SYSTEM}"),
    (re.compile(r"libcusolver[\w.-]*"), "cuSOLVER", f"ROCm's counterparts are rocSOLVER and hipSOLVER: {SYSTEM}"),
    (re.compile(r"magma-cuda\d+"), "MAGMA built for CUDA", f"build MAGMA for HIP, or {SYSTEM}"),
    (re.compile(r"cupy(-cuda\d*x?)?"), "CuPy built for CUDA",
     "list cupy under `- pip:` and build it for ROCm (CUPY_INSTALL_USE_HIP=1, as PY043 says)"),
)


def classify(name: str) -> tuple[str, str] | None:
    lower = name.lower()
    return next(((what, instead) for pattern, what, instead in PACKAGES if pattern.fullmatch(lower)), None)


def spec_name(spec: str) -> str:
    """The package a conda spec names: `cudnn` of `nvidia::cudnn>=8`, `pytorch` of `pytorch=2.1.0=py3.10_cuda*`."""
    return re.split(r"[\s=<>!~\[]", spec.split("::", 1)[-1], maxsplit=1)[0]


def channel_name(text: str) -> str:
    """`nvidia` for `nvidia`, `nvidia/label/cuda-12.1.0` and a channel URL ending in `/nvidia`."""
    text = text.strip().rstrip("/")
    if "://" in text:
        return text.rsplit("/", 1)[-1]
    return text.split("/", 1)[0]
