"""Packaging and deployment rules (PY040-PY062) on whole files through the pipeline (`api.analyse`): requirements
files, pyproject.toml, Dockerfiles, Kubernetes manifests, compose files, CI workflows and launch scripts are
migrated to their exact expected text, with the expected (code, line) findings; a second pass changes nothing;
`--unsafe-fixes` applies the unsafe fixes; no output holds a wrong port."""
from __future__ import annotations

import re

import pytest

from migrate.deploy.context import parse
from migrate.deploy.rocm_wheels import is_cuda_index, rocm_tag, torch_release
from migrate.model import Applicability, FileStatus
from tests.helpers import analysed_files

MINE = re.compile(r"PY0[4-6]\d")

REQUIREMENTS = """\
# GPU stack for training
--extra-index-url https://wheels.example.org/whl/cu121
torch==2.3.1+cu121
torchvision==0.18.1+cu121
torchaudio==2.3.1+cu121  # audio models
numpy>=1.24
nvidia-cudnn-cu12==8.9.2.26
nvidia-nccl-cu12==2.20.5
cupy-cuda12x==13.3.0
pynvml==11.5.0
einops
"""
REQUIREMENTS_SAFE = """\
# GPU stack for training
--extra-index-url https://wheels.example.org/whl/rocm6.0
torch==2.3.1+rocm6.0
torchvision==0.18.1+rocm6.0
torchaudio==2.3.1+rocm6.0  # audio models
numpy>=1.24
nvidia-cudnn-cu12==8.9.2.26
nvidia-nccl-cu12==2.20.5
cupy-cuda12x==13.3.0
pynvml==11.5.0
einops
"""
REQUIREMENTS_UNSAFE = """\
# GPU stack for training
--extra-index-url https://wheels.example.org/whl/rocm6.0
torch==2.3.1+rocm6.0
torchvision==0.18.1+rocm6.0
torchaudio==2.3.1+rocm6.0  # audio models
numpy>=1.24
cupy==13.3.0
pynvml==11.5.0
einops
"""

PYPROJECT = """\
[project]
name = "trainer"
version = "0.1.0"
dependencies = [
    "torch==2.5.1",
    "nvidia-cusparselt-cu12==0.6.2",  # sparse kernels
    "safetensors",
]

[project.optional-dependencies]
gpu = ["cupy-cuda12x>=13", "tensorrt-cu12==10.0.1"]

[[tool.uv.index]]
name = "pytorch-cu124"
url = "https://wheels.example.org/whl/cu124"
explicit = true

[tool.uv.sources]
torch = [{ index = "pytorch-cu124" }]
"""
PYPROJECT_SAFE = PYPROJECT.replace('url = "https://wheels.example.org/whl/cu124"',
                                   'url = "https://wheels.example.org/whl/rocm6.2"')
PYPROJECT_UNSAFE = PYPROJECT_SAFE.replace('    "nvidia-cusparselt-cu12==0.6.2",  # sparse kernels\n', "").replace(
    '"cupy-cuda12x>=13"', '"cupy>=13"')

DOCKERFILE = """\
# syntax=docker/dockerfile:1
FROM --platform=linux/amd64 nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04 AS build
RUN apt-get update && apt-get install -y --no-install-recommends \\
        git cuda-nsight-compute-12-1 libnccl-dev \\
    && rm -rf /var/lib/apt/lists/*
COPY requirements.txt .
RUN pip install -r requirements.txt

FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime AS serve
COPY --from=build /opt/app /opt/app
CMD ["python", "-m", "app"]
"""
DOCKERFILE_SAFE = DOCKERFILE.replace("nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04",
                                     "rocm/dev-ubuntu-22.04:6.4.1-complete")
DOCKERFILE_UNSAFE = DOCKERFILE_SAFE.replace("pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime",
                                            "rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0")

JOB = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: train
spec:
  template:
    spec:
      runtimeClassName: nvidia
      restartPolicy: Never
      nodeSelector:
        nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3
      tolerations:
        - key: nvidia.com/gpu
          operator: Exists
          effect: NoSchedule
      containers:
        - name: train
          image: registry.example.org/trainer:1.0
          args: ["--epochs", "10"]
          resources:
            limits:
              nvidia.com/gpu: 8
              memory: 64Gi
            requests:
              nvidia.com/gpu: 8
---
apiVersion: v1
kind: Service
metadata:
  name: metrics
spec:
  ports:
    - port: 9400
"""
JOB_SAFE = JOB.replace("              nvidia.com/gpu: 8\n", "              amd.com/gpu: 8\n")
JOB_UNSAFE = JOB_SAFE.replace("      runtimeClassName: nvidia\n", "")

COMPOSE = """\
services:
  trainer:
    image: trainer:latest
    deploy:
      resources:
        limits:
          memory: 32g
        reservations:
          devices:
            - driver: nvidia
              count: all
              capabilities: [gpu]
    volumes:
      - ./data:/data
  redis:
    image: redis:7
"""
COMPOSE_SAFE = """\
services:
  trainer:
    image: trainer:latest
    deploy:
      resources:
        limits:
          memory: 32g
    volumes:
      - ./data:/data
    devices:
      - /dev/kfd
      - /dev/dri
    group_add:
      - video
  redis:
    image: redis:7
"""

WORKFLOW = """\
name: gpu-tests
on: [push]
jobs:
  unit:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
  gpu:
    runs-on: [self-hosted, linux, a100]
    container:
      image: trainer:latest
      options: --gpus all --ipc=host
    steps:
      - uses: actions/checkout@v4
      - name: smoke
        run: |
          docker run --rm --gpus '"device=0"' trainer:latest python -m app.smoke
"""
WORKFLOW_SAFE = WORKFLOW.replace("options: --gpus all --ipc=host",
                                 "options: --device=/dev/kfd --device=/dev/dri --group-add video --ipc=host")
WORKFLOW_UNSAFE = WORKFLOW_SAFE.replace(
    "docker run --rm --gpus '\"device=0\"' trainer:latest",
    "docker run --rm --device=/dev/kfd --device=/dev/dri --group-add video trainer:latest")

LAUNCH = """\
#!/usr/bin/env bash
set -euo pipefail
IMAGE=${IMAGE:-trainer:latest}
sudo apt-get install -y nvidia-container-toolkit
docker run --rm --gpus all --shm-size=16g -v "$PWD:/w" "$IMAGE" python train.py "$@"
docker run --runtime=nvidia "$IMAGE" python eval.py
"""
LAUNCH_SAFE = LAUNCH.replace("--gpus all", "--device=/dev/kfd --device=/dev/dri --group-add video")
LAUNCH_UNSAFE = LAUNCH_SAFE.replace("--runtime=nvidia", "--device=/dev/kfd --device=/dev/dri --group-add video")

TREE = {
    "requirements.txt": REQUIREMENTS,
    "pyproject.toml": PYPROJECT,
    "docker/Dockerfile": DOCKERFILE,
    "k8s/job.yaml": JOB,
    "docker-compose.yml": COMPOSE,
    ".github/workflows/gpu.yml": WORKFLOW,
    "scripts/launch.sh": LAUNCH,
}
SAFE = {
    "requirements.txt": REQUIREMENTS_SAFE,
    "pyproject.toml": PYPROJECT_SAFE,
    "docker/Dockerfile": DOCKERFILE_SAFE,
    "k8s/job.yaml": JOB_SAFE,
    "docker-compose.yml": COMPOSE_SAFE,
    ".github/workflows/gpu.yml": WORKFLOW_SAFE,
    "scripts/launch.sh": LAUNCH_SAFE,
}
UNSAFE = {
    **SAFE,
    "requirements.txt": REQUIREMENTS_UNSAFE,
    "pyproject.toml": PYPROJECT_UNSAFE,
    "docker/Dockerfile": DOCKERFILE_UNSAFE,
    "k8s/job.yaml": JOB_UNSAFE,
    ".github/workflows/gpu.yml": WORKFLOW_UNSAFE,
    "scripts/launch.sh": LAUNCH_UNSAFE,
}
FINDINGS = {
    "requirements.txt": [("PY040", 2), ("PY041", 3), ("PY041", 4), ("PY041", 5), ("PY042", 7), ("PY042", 8),
                         ("PY043", 9), ("PY044", 10)],
    "pyproject.toml": [("PY042", 6), ("PY043", 11), ("PY044", 11), ("PY040", 15)],
    "docker/Dockerfile": [("PY050", 2), ("PY052", 4), ("PY052", 4), ("PY051", 9)],
    "k8s/job.yaml": [("PY057", 8), ("PY056", 11), ("PY056", 13), ("PY055", 22), ("PY055", 25)],
    "docker-compose.yml": [("PY058", 10)],
    ".github/workflows/gpu.yml": [("PY060", 9), ("PY061", 12), ("PY061", 17)],
    "scripts/launch.sh": [("PY052", 4), ("PY061", 5), ("PY062", 6)],
}


def mine(result) -> list[tuple[str, int]]:
    return sorted(((f.code, f.span.line) for f in result.findings if MINE.fullmatch(f.code)),
                  key=lambda t: (t[1], t[0]))


@pytest.fixture(scope="module")
def safe(tmp_path_factory):
    return analysed_files(tmp_path_factory.mktemp("safe"), TREE)


@pytest.mark.parametrize("path", sorted(TREE))
def test_safe_fixes_give_the_exact_text(safe, path):
    assert safe[path].new.decode() == SAFE[path]


@pytest.mark.parametrize("path", sorted(TREE))
def test_findings_by_code_and_line(safe, path):
    assert mine(safe[path]) == sorted(FINDINGS[path], key=lambda t: (t[1], t[0]))
    assert not [f for f in safe[path].findings if f.code in ("INP001", "INP007")]


@pytest.mark.parametrize("path", sorted(TREE))
def test_unsafe_fixes_give_the_exact_text(tmp_path, path):
    result = analysed_files(tmp_path, {path: TREE[path]}, unsafe_fixes=True)
    assert result[path].new.decode() == UNSAFE[path]
    assert not [f for f in result[path].findings if f.code in ("INP001", "INP007")]


def test_second_pass_changes_nothing(tmp_path):
    for options, outputs in (({}, SAFE), ({"unsafe_fixes": True}, UNSAFE)):
        folder = tmp_path / ("unsafe" if options else "safe")
        again = analysed_files(folder, outputs, **options)
        changed = [p for p, r in again.items() if r.status is FileStatus.MIGRATED]
        assert changed == []
        # what is left is reported only: nothing the same options would still apply
        assert not [f for r in again.values() for f in r.findings
                    if MINE.fullmatch(f.code) and f.fix is not None and (
                        f.fix.applicability is Applicability.SAFE or options)]


def test_outputs_still_parse_and_hold_no_wrong_port(tmp_path):
    kinds = {"requirements.txt": "requirements", "pyproject.toml": "pyproject", "docker/Dockerfile": "docker",
             "k8s/job.yaml": "yaml", "docker-compose.yml": "yaml", ".github/workflows/gpu.yml": "yaml",
             "scripts/launch.sh": "shell"}
    for path, text in UNSAFE.items():
        assert not parse(kinds[path], text.encode()).root_node.has_error, path
        lowered = text.lower()
        for wrong in ("torch.hip", "hipextension", "rccl", "'hip'", '"hip"', "'rocm'", '"rocm"'):
            assert wrong not in lowered, (path, wrong)


def test_messages_say_why(safe):
    messages = {f.code: f.message for r in safe.values() for f in r.findings if MINE.fullmatch(f.code)}
    assert messages["PY040"] == ("https://wheels.example.org/whl/cu121 is PyTorch's CUDA wheel index: AMD GPUs need "
                                 "the ROCm build, published on the rocm6.0 index for torch 2.3.1")
    assert messages["PY058"] == ("service trainer asks for NVIDIA GPUs (driver: nvidia), which need NVIDIA's "
                                 "container toolkit: AMD GPUs are given as devices /dev/kfd and /dev/dri with group "
                                 "video")
    assert messages["PY060"] == ("job gpu runs on runner label a100, an NVIDIA GPU runner: the migrated code needs a "
                                 "runner with an AMD GPU (label the job with your AMD runner's labels: usually "
                                 "self-hosted, named after its GPU or gfx target, e.g. mi300x or gfx942)")
    severities = {f.code: f.severity.label for r in safe.values() for f in r.findings if MINE.fullmatch(f.code)}
    assert severities == {"PY040": "info", "PY041": "info", "PY042": "warning", "PY043": "error", "PY044": "error",
                          "PY050": "warning", "PY051": "warning", "PY052": "warning", "PY055": "info",
                          "PY056": "warning", "PY057": "warning", "PY058": "warning", "PY060": "warning",
                          "PY061": "warning", "PY062": "warning"}


def test_offload_arch_reaches_the_cupy_message(tmp_path):
    result = analysed_files(tmp_path, {"requirements.txt": "cupy-cuda11x\n"}, offload_arch=("gfx942",))
    (finding,) = result["requirements.txt"].findings
    assert "CUPY_INSTALL_USE_HIP=1 HCC_AMDGPU_TARGET=gfx942 " in finding.message


def test_requirements_without_a_torch_pin_take_the_newest_tag(tmp_path):
    files = {"requirements/gpu.in": "-i https://mirror.example.org/simple/cu118/\ntorch>=2.1\n"}
    result = analysed_files(tmp_path, files)
    assert result["requirements/gpu.in"].new.decode() == "-i https://mirror.example.org/simple/rocm7.1/\ntorch>=2.1\n"
    (finding,) = result["requirements/gpu.in"].findings
    assert finding.message.endswith("for the newest torch release hipmigrate knows (check that it holds a release "
                                    "within the file's torch range)")


def test_unknown_torch_release_is_reported_not_guessed(tmp_path):
    text = "--index-url https://wheels.example.org/whl/cu130\ntorch==2.13.0+cu130\n"
    result = analysed_files(tmp_path, {"requirements.txt": text})
    assert result["requirements.txt"].status is FileStatus.UNCHANGED
    assert [(f.code, f.span.line, f.fix) for f in result["requirements.txt"].findings] == [
        ("PY040", 1, None), ("PY041", 2, None)]


@pytest.mark.parametrize(("package", "version", "torch"), [
    ("torch", "2.2.0", (2, 2, 0)), ("torchvision", "0.17.2", (2, 2, 0)), ("torchaudio", "2.2.2", (2, 2, 0)),
    ("torchvision", "0.13.1", (1, 12, 0)), ("torchaudio", "0.13.1", (1, 13, 0)), ("numpy", "2.0", None)])
def test_torch_release_of_a_pin(package, version, torch):
    assert torch_release(package, version) == torch


@pytest.mark.parametrize(("release", "tag"), [
    ((2, 2, 0), "rocm5.6"), ((2, 2, 2), "rocm5.7"), ((2, 6, 0), "rocm6.2.4"), ((2, 8, 0), "rocm6.4"),
    ((2, 10, 0), "rocm7.1"), ((3, 0, 0), None), (None, "rocm7.1")])
def test_rocm_tag_table(release, tag):
    assert rocm_tag(release) == tag


@pytest.mark.parametrize(("url", "cuda"), [
    ("https://wheels.example.org/whl/cu121", True), ("https://wheels.example.org/whl/cu121/", True),
    ("https://wheels.example.org/whl/nightly/cu128", True), ("https://wheels.example.org/whl/cpu", False),
    ("https://wheels.example.org/whl/cu121/torch_stable.html", True),  # a find-links page: its folder is the build
    ("https://wheels.example.org/whl/torch_stable.html", False), ("https://wheels.example.org/cuda", False)])
def test_cuda_index_urls(url, cuda):
    assert is_cuda_index(url) is cuda


def test_compose_service_at_end_of_file_without_newline(tmp_path):
    text = "services:\n  app:\n    image: x\n    runtime: nvidia"
    result = analysed_files(tmp_path, {"compose.yaml": text})
    assert result["compose.yaml"].new.decode() == (
        "services:\n  app:\n    image: x\n    devices:\n      - /dev/kfd\n      - /dev/dri\n    group_add:\n"
        "      - video\n")


def test_crlf_files_keep_their_line_endings(tmp_path):
    result = analysed_files(tmp_path, {"docker-compose.yml": COMPOSE.replace("\n", "\r\n")})
    assert result["docker-compose.yml"].new.decode() == COMPOSE_SAFE.replace("\n", "\r\n")
