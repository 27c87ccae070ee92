"""CUDA packages installed by a Dockerfile `RUN`, a shell script, or a CI step (GitHub Actions `run:` in a workflow or
a composite action's `action.yml`, GitLab CI `script:`): `apt-get install cuda-toolkit-12-1`,
`libcudnn8`, `libnccl2`, `libcublas-12-1`, `nvidia-container-toolkit`, `yum install cuda`, `conda install
cudatoolkit` / `pytorch-cuda=12.1`, and what else conda installs for CUDA (`conda install cudnn nccl pytorch`: the
packages PY064 reports in environment files).

Why: these packages come from NVIDIA's repositories and hold CUDA's compilers and libraries (or NVIDIA's driver
tools); on an AMD machine nothing uses them, and their repositories are usually missing from a ROCm base image, so
the install fails. The message names the ROCm package to install instead (`rocm-dev`/`rocm-hip-sdk`, `miopen-hip`,
`rccl`, `rocblas`/`hipblas`, ...), or says that the driver belongs on the host (`amdgpu-dkms`) and the container
needs only `/dev/kfd` and `/dev/dri`. There is no fix: package lists are often shared with other lines, and a
`rocm/*` base image (PY050) usually has the libraries already.
"""
from __future__ import annotations

import re

from migrate.deploy import yaml_shell
from migrate.deploy.conda_packages import channel_name, classify as conda_classify, spec_name
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid

TOKEN = re.compile(r"[^\s\\;&|()\"'\[\],`]+")
CONDA = {"conda", "mamba", "micromamba"}  # their packages are also read as conda_packages classifies them (PY064)
CHANNEL_INSTEAD = "take ROCm's libraries from the system or a rocm/* image, and PyTorch's ROCm wheels through pip"
INSTALLERS = {"apt-get", "apt", "yum", "dnf", "microdnf", "zypper", "conda", "mamba", "micromamba", "apk"}
PACKAGES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"(cuda-toolkit|cuda-compiler|cuda-nvcc|cuda-libraries|cuda-runtime|cuda-cudart|cuda)([-=][\w.*-]+)?"),
     "the CUDA toolkit", "install ROCm's packages instead (rocm-hip-sdk, or rocm-dev) or build from a rocm/* image"),
    (re.compile(r"cuda-[\w.*-]+"), "a CUDA toolkit component",
     "install ROCm's packages instead (rocm-hip-sdk, or rocm-dev) or build from a rocm/* image"),
    (re.compile(r"libcudnn\d*(-dev)?([-=][\w.*+-]+)?"), "cuDNN", "install miopen-hip (MIOpen) instead"),
    (re.compile(r"libnccl\d*(-dev)?([-=][\w.*+-]+)?"), "NCCL", "install rccl (RCCL) instead"),
    (re.compile(r"libcublas[\w.*=+-]*"), "cuBLAS", "install rocblas and hipblas instead"),
    (re.compile(r"libcufft[\w.*=+-]*"), "cuFFT", "install rocfft and hipfft instead"),
    (re.compile(r"libcurand[\w.*=+-]*"), "cuRAND", "install rocrand and hiprand instead"),
    (re.compile(r"libcusparse[\w.*=+-]*"), "cuSPARSE", "install rocsparse and hipsparse instead"),
    (re.compile(r"libcusolver[\w.*=+-]*"), "cuSOLVER", "install rocsolver and hipsolver instead"),
    (re.compile(r"(libnvinfer|tensorrt)[\w.*=+-]*"), "TensorRT", "AMD's counterpart is MIGraphX (migraphx)"),
    (re.compile(r"(cudatoolkit|pytorch-cuda|cuda-version)([=<>][\w.*]+)?"), "conda's CUDA toolkit",
     "conda has no ROCm builds of PyTorch: install PyTorch's ROCm wheels with pip"),
    (re.compile(r"nvidia-container-toolkit[\w.*=+-]*|nvidia-docker2[\w.*=+-]*"), "NVIDIA's container runtime",
     "AMD containers need only the /dev/kfd and /dev/dri devices (or AMD's container toolkit on the host)"),
    (re.compile(r"nvidia-gds[\w.*=+-]*|libcufile[\w.*=+-]*"), "NVIDIA GPUDirect Storage (cuFile)",
     "ROCm has no package of it: read files through host memory, or port to AMD's hipFile where your ROCm has it"),
    (re.compile(r"(nvidia-[\w.*=+-]+|libnvidia-[\w.*=+-]+)"), "NVIDIA's driver or tools",
     "the AMD driver belongs on the host (amdgpu-dkms); the container needs only /dev/kfd and /dev/dri"),
)


def _classify(word: str) -> tuple[str, str] | None:
    for pattern, what, instead in PACKAGES:
        if pattern.fullmatch(word):
            return what, instead
    return None


def install_findings(text: str):
    """(offset, word, what, instead) for each CUDA package an install command in `text` names (conda's `create`
    installs too), and for NVIDIA's channel given to conda (`-c nvidia`, `-c "nvidia/label/cuda-12.6"`)."""
    for segment in re.finditer(r"(?:\\\n|[^;&|\n]|&(?!&)|\|(?!\|))+", text):
        words = [(m.start() + segment.start(), m[0]) for m in TOKEN.finditer(segment[0])]
        names = [w for _, w in words]
        installer = next((i for i, w in enumerate(names) if w.rsplit("/", 1)[-1] in INSTALLERS), None)
        if installer is None:
            continue
        conda = names[installer].rsplit("/", 1)[-1] in CONDA
        verb = next((i for i, w in enumerate(names) if i > installer and (w == "install" or conda and w == "create")),
                    None)
        if verb is None:
            continue
        for n, (offset, word) in enumerate(words[verb + 1:], verb + 1):
            if conda and names[n - 1] in ("-c", "--channel") and channel_name(word) == "nvidia":
                yield offset, word, "packages from NVIDIA's conda channel (CUDA's toolkit and libraries only)", \
                    CHANNEL_INSTEAD
                continue
            if word.startswith("-"):
                continue
            # a version written with a variable (libnccl2=${NCCL_VER}) is read by the package's name
            found = _classify(word) or _classify(word.split("=", 1)[0]) or (
                conda_classify(spec_name(word)) if conda else None)
            if found:
                yield offset, word, *found


class CudaPackageInstall(DeployRule):
    code = "PY052"
    severity = Severity.WARNING
    fixable = False
    file_kinds = ("docker", "shell", "yaml")
    example_path = "Dockerfile"
    examples = [
        Valid("FROM rocm/dev-ubuntu-22.04:6.4.1\nRUN apt-get update && apt-get install -y rccl miopen-hip git\n"),
        Valid("FROM ubuntu:22.04\nRUN echo cuda-toolkit && apt-get install -y curl\n"),
        Invalid("FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y --no-install-recommends \\\n"
                "    cuda-toolkit-12-1 libcudnn8=8.9.7.29-1+cuda12.2 \\\n    git && rm -rf /var/lib/apt/lists/*\n",
                line=3,
                message="cuda-toolkit-12-1 installs the CUDA toolkit, which AMD GPUs do not use: install "
                        "ROCm's packages instead (rocm-hip-sdk, or rocm-dev) or build from a rocm/* image"),
        Invalid("FROM continuumio/miniconda3\nRUN conda install -y pytorch pytorch-cuda=12.1 -c pytorch -c nvidia\n",
                message="pytorch-cuda=12.1 installs conda's CUDA toolkit, which AMD GPUs do not use: conda has no "
                        "ROCm builds of PyTorch: install PyTorch's ROCm wheels with pip"),
        Invalid("#!/bin/sh\nmamba install -y -c conda-forge \"nvidia::cudnn>=8\" nccl numpy\n", path="setup_env.sh",
                line=2, message="nvidia::cudnn>=8 installs cuDNN, which AMD GPUs do not use: ROCm's counterpart is MIOpen "
                                "(miopen-hip): take it from ROCm (the system or a rocm/* image) instead"),
        Invalid("jobs:\n  build:\n    runs-on: ubuntu-22.04\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - name: Install CUDA\n        run: |\n          sudo apt-get update\n"
                "          sudo apt-get install -y cuda-toolkit-12-4 nvidia-gds\n",
                path=".github/workflows/build.yml", line=9,
                message="cuda-toolkit-12-4 installs the CUDA toolkit, which AMD GPUs do not use: install ROCm's "
                        "packages instead (rocm-hip-sdk, or rocm-dev) or build from a rocm/* image"),
        Invalid("name: setup-cuda\nruns:\n  using: composite\n  steps:\n"
                "    - run: sudo apt install -y cuda-toolkit\n      shell: bash\n",
                path=".github/actions/setup-cuda/action.yml", line=5),
        Valid("jobs:\n  build:\n    steps:\n      - run: sudo apt-get install -y rocm-hip-sdk\n"
              "      - run: echo cuda-toolkit\n", path=".github/workflows/build.yml"),
        Invalid("#!/bin/bash\nsudo apt-get install -y nvidia-container-toolkit\n", path="setup_gpu.sh", line=2,
                message="nvidia-container-toolkit installs NVIDIA's container runtime, which AMD GPUs do not use: AMD "
                        "containers need only the /dev/kfd and /dev/dri devices (or AMD's container toolkit on the "
                        "host)"),
        # a version from a variable (Megatron-LM's install_nccl.sh)
        Invalid("#!/bin/bash\nNCCL_VER=\"2.30.7-1+cuda13.3\"\napt-get install -y --no-install-recommends \\\n"
                "    libnccl2=${NCCL_VER} \\\n    libnccl-dev=${NCCL_VER}\n", path="install_nccl.sh", line=4,
                message="libnccl2=${NCCL_VER} installs NCCL, which AMD GPUs do not use: install rccl (RCCL) instead"),
        # conda's create installs too, and NVIDIA's channel is named where it is given (xformers' GPU workflow)
        Invalid("jobs:\n  t:\n    steps:\n      - run: |\n          micromamba create -n env python=3.11 \\\n"
                "            zlib pip cuda-toolkit \\\n            -c \"nvidia/label/cuda-12.6\" -c conda-forge -y\n",
                path=".github/workflows/gpu.yml", line=6),
    ]

    def check(self, ctx):
        if ctx.kind == "yaml":
            if b"install" not in ctx.data and b"create" not in ctx.data:
                return
            regions = [(shell.text, shell.at) for shell in yaml_shell.shell_texts(ctx)]
        else:
            # in a shell script, nested commands repeat words: `seen` keeps one finding each
            nodes = ctx.nodes("run_instruction") if ctx.kind == "docker" else ctx.nodes("command")
            regions = [(ctx.data[n.start_byte:n.end_byte], (lambda base: lambda offset: base + offset)(n.start_byte))
                       for n in nodes]
        seen: set[int] = set()
        for raw, at in regions:
            text = raw.decode("utf-8", "surrogateescape")
            for offset, word, what, instead in install_findings(text):
                start = at(len(text[:offset].encode("utf-8", "surrogateescape")))
                if start in seen:
                    continue
                seen.add(start)
                yield self.finding(ctx, start, start + len(word.encode("utf-8", "surrogateescape")),
                                   f"{word} installs {what}, which AMD GPUs do not use: {instead}")
