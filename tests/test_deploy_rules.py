"""Packaging and deployment rules (PY040-PY062) on whole files through the pipeline (`api.analyse`): requirements
files, pyproject.toml, Dockerfiles, Kubernetes manifests, compose files, CI workflows and launch scripts are
migrated to their exact expected text, with the expected (code, line) findings; a second pass changes nothing;
`--unsafe-fixes` applies the unsafe fixes; no output holds a wrong port."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from migrate import api
from migrate.deploy.context import parse
from migrate.deploy.rocm_wheels import is_cuda_index, rocm_tag, torch_release
from migrate.model import Applicability, FileStatus
from migrate.options import Options
from tests.helpers import write_tree

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


def analyse(root: Path, files: dict[str, str], **options):
    write_tree(root, files)
    _, result = api.analyse(root, Options(hip_version="6.2", **options))
    return {f.path: f for f in result.files}


def mine(result) -> list[tuple[str, int]]:
    return sorted(((f.code, f.span.line) for f in result.findings if MINE.fullmatch(f.code)),
                  key=lambda t: (t[1], t[0]))


@pytest.fixture(scope="module")
def safe(tmp_path_factory):
    return analyse(tmp_path_factory.mktemp("safe"), TREE)


@pytest.mark.parametrize("path", sorted(TREE))
def test_safe_fixes_give_the_exact_text(safe, path):
    assert safe[path].new.decode() == SAFE[path]


@pytest.mark.parametrize("path", sorted(TREE))
def test_findings_by_code_and_line(safe, path):
    assert mine(safe[path]) == sorted(FINDINGS[path], key=lambda t: (t[1], t[0]))
    assert not [f for f in safe[path].findings if f.code in ("INP001", "INP007")]


@pytest.mark.parametrize("path", sorted(TREE))
def test_unsafe_fixes_give_the_exact_text(tmp_path, path):
    result = analyse(tmp_path, {path: TREE[path]}, unsafe_fixes=True)
    assert result[path].new.decode() == UNSAFE[path]
    assert not [f for f in result[path].findings if f.code in ("INP001", "INP007")]


def test_second_pass_changes_nothing(tmp_path):
    for options, outputs in (({}, SAFE), ({"unsafe_fixes": True}, UNSAFE)):
        folder = tmp_path / ("unsafe" if options else "safe")
        again = analyse(folder, outputs, **options)
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
    result = analyse(tmp_path, {"requirements.txt": "cupy-cuda11x\n"}, offload_arch=("gfx942",))
    (finding,) = result["requirements.txt"].findings
    assert "CUPY_INSTALL_USE_HIP=1 HCC_AMDGPU_TARGET=gfx942 " in finding.message


def test_requirements_without_a_torch_pin_take_the_newest_tag(tmp_path):
    files = {"requirements/gpu.in": "-i https://mirror.example.org/simple/cu118/\ntorch>=2.1\n"}
    result = analyse(tmp_path, files)
    assert result["requirements/gpu.in"].new.decode() == "-i https://mirror.example.org/simple/rocm7.1/\ntorch>=2.1\n"
    (finding,) = result["requirements/gpu.in"].findings
    assert finding.message.endswith("for the newest torch release hipmigrate knows (check that it holds a release "
                                    "within the file's torch range)")


def test_unknown_torch_release_is_reported_not_guessed(tmp_path):
    text = "--index-url https://wheels.example.org/whl/cu130\ntorch==2.13.0+cu130\n"
    result = analyse(tmp_path, {"requirements.txt": text})
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
    result = analyse(tmp_path, {"compose.yaml": text})
    assert result["compose.yaml"].new.decode() == (
        "services:\n  app:\n    image: x\n    devices:\n      - /dev/kfd\n      - /dev/dri\n    group_add:\n"
        "      - video\n")


def test_crlf_files_keep_their_line_endings(tmp_path):
    result = analyse(tmp_path, {"docker-compose.yml": COMPOSE.replace("\n", "\r\n")})
    assert result["docker-compose.yml"].new.decode() == COMPOSE_SAFE.replace("\n", "\r\n")


# -- container images in YAML (PY050, PY051) ------------------------------------------------------------------

MANIFESTS = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: serve
  annotations:
    note: "was nvidia/cuda:12.1.1-devel-ubuntu22.04"
spec:
  template:
    spec:
      initContainers:
        - name: fetch
          image: 'nvidia/cuda:12.1.1-base-ubuntu22.04'   # only curl is used
      containers:
        - name: serve
          image: pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime
        - name: metrics
          image: nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.0-ubuntu22.04
---
apiVersion: v1
kind: Pod
metadata: {name: debug}
spec:
  ephemeralContainers:
  - {name: dbg, image: "docker.io/nvidia/cuda:12.4.1-devel-ubuntu24.04"}
  containers:
  - name: main
    image: nvidia/cuda@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
---
apiVersion: v1
kind: List
items:
- apiVersion: batch/v1
  kind: Job
  metadata: {name: once}
  spec:
    template:
      spec:
        containers:
        - name: once
          image: localhost:5000/nvidia/cuda:12.1.1-runtime-ubuntu22.04
        - name: twice
          image: nvidia/cuda:${CUDA_TAG}
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: ddp}
spec:
  pytorchReplicaSpecs:
    Worker:
      replicas: 2
      template:
        spec:
          containers:
            - name: pytorch
              image: nvcr.io/nvidia/pytorch:24.05-py3
---
image: nvidia/cuda:12.1.1-devel-ubuntu22.04
"""
MANIFESTS_SAFE = MANIFESTS.replace(
    "'nvidia/cuda:12.1.1-base-ubuntu22.04'", "'rocm/dev-ubuntu-22.04:6.4.1'").replace(
    '"docker.io/nvidia/cuda:12.4.1-devel-ubuntu24.04"', '"rocm/dev-ubuntu-24.04:7.1.1-complete"')
MANIFESTS_UNSAFE = MANIFESTS_SAFE.replace(
    "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime", "rocm/pytorch:rocm6.2.4_ubuntu22.04_py3.10_pytorch_release_2.5.0"
).replace("nvcr.io/nvidia/pytorch:24.05-py3", "rocm/pytorch:latest")

COMPOSE_IMAGES = """\
services:
  train:
    image: "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-devel"  # the trainer
  build:
    image: nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04
  db:
    image: postgres:16
"""
WORKFLOW_IMAGES = """\
on: push
jobs:
  test:
    runs-on: [self-hosted, gpu]
    container: nvidia/cuda:12.4.1-devel-ubuntu22.04
    services:
      cache:
        image: redis:7
      gpu:
        image: nvidia/cuda:12.4.1-runtime-ubuntu20.04
  matrix:
    container:
      image: nvidia/cuda:${{ matrix.cuda }}-devel-ubuntu22.04
      options: --ipc=host
"""
IMAGE_TREE = {"k8s/all.yaml": MANIFESTS, "compose.yaml": COMPOSE_IMAGES, ".github/workflows/ci.yml": WORKFLOW_IMAGES}
IMAGE_SAFE = {
    "k8s/all.yaml": MANIFESTS_SAFE,
    "compose.yaml": COMPOSE_IMAGES.replace("nvidia/cuda:12.1.1-cudnn8-devel-ubuntu22.04",
                                           "rocm/dev-ubuntu-22.04:6.4.1-complete"),
    ".github/workflows/ci.yml": WORKFLOW_IMAGES.replace(
        "container: nvidia/cuda:12.4.1-devel-ubuntu22.04", "container: rocm/dev-ubuntu-22.04:6.4.1-complete").replace(
        "image: nvidia/cuda:12.4.1-runtime-ubuntu20.04", "image: rocm/dev-ubuntu-20.04:6.1.1"),
}
IMAGE_UNSAFE = {
    **IMAGE_SAFE,
    "k8s/all.yaml": MANIFESTS_UNSAFE,
    "compose.yaml": IMAGE_SAFE["compose.yaml"].replace(
        '"pytorch/pytorch:2.3.0-cuda12.1-cudnn8-devel"',
        '"rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0"'),
}
IMAGE_FINDINGS = {
    # the digest, the registry with a port (not NVIDIA's image) and ${CUDA_TAG}: reported or left as described
    "k8s/all.yaml": [("PY050", 12), ("PY051", 15), ("PY050", 24), ("PY050", 27), ("PY050", 42), ("PY051", 55)],
    "compose.yaml": [("PY051", 3), ("PY050", 5)],
    ".github/workflows/ci.yml": [("PY050", 5), ("PY050", 10), ("PY050", 13)],
}


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_images_in_yaml(tmp_path, unsafe):
    result = analyse(tmp_path, IMAGE_TREE, unsafe_fixes=unsafe)
    expected = IMAGE_UNSAFE if unsafe else IMAGE_SAFE
    for path, text in expected.items():
        assert result[path].new.decode() == text, path
        assert [(f.code, f.span.line) for f in sorted(result[path].findings, key=lambda f: f.span.start)
                if f.code in ("PY050", "PY051")] == IMAGE_FINDINGS[path], path
        assert not parse("yaml", result[path].new).root_node.has_error, path
        assert not [f for f in result[path].findings if f.code in ("INP001", "INP007")]
    again = analyse(tmp_path / "again", expected, unsafe_fixes=unsafe)
    assert [p for p, r in again.items() if r.status is FileStatus.MIGRATED] == []


def test_image_messages_in_yaml(tmp_path):
    result = analyse(tmp_path, IMAGE_TREE)
    messages = {(f.code, f.span.line): f.message for f in result["k8s/all.yaml"].findings}
    assert messages[("PY050", 27)] == ("nvidia/cuda@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789"
                                       "abcdef is NVIDIA's CUDA image: replace it with a rocm/dev-ubuntu-* image "
                                       "(rocm/dev-ubuntu-22.04:6.4.1-complete, for example) by hand")
    assert messages[("PY050", 42)].startswith("nvidia/cuda:${CUDA_TAG} is NVIDIA's CUDA image: replace it")
    fixes = {(f.code, f.span.line): f.fix.title for f in result["compose.yaml"].findings if f.fix}
    assert fixes == {("PY050", 5): "Run rocm/dev-ubuntu-22.04:6.4.1-complete",
                     ("PY051", 3): "Run rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0"}


# -- Dockerfile shell text (migrate/deploy/docker_shell.py) ---------------------------------------------------

@pytest.mark.parametrize(("words", "index"), [
    (["/bin/sh", "-c", "x"], 2), (["bash", "-lc", "x"], 2), (["bash", "-o", "pipefail", "-c", "x"], 4),
    (["bash", "-eo", "pipefail", "-c", "x", "--"], 4), (["/usr/bin/env", "bash", "-c", "x"], 3),
    (["env", "A=1", "sh", "-c", "x"], 4), (["bash", "--login", "-c", "x"], 3), (["bash", "-c"], None),
    (["sh", "script.sh"], None), (["python", "-c", "x"], None), (["bash", "+c", "x"], None), ([], None)])
def test_exec_form_command_string(words, index):
    from migrate.deploy.docker_shell import command_string
    assert command_string(words) == index


def test_json_string_decoding_maps_each_byte():
    from migrate.deploy.docker_shell import decode_json_string
    raw = b'a\\"\\u00e9\\ud83d\\ude00\\\\b'
    text, sources = decode_json_string(raw, 0, len(raw))
    assert text.decode() == 'a"\u00e9\U0001F600\\b'
    assert sources == (0, 1, 3, 3, 9, 9, 9, 9, 21, 23, 24)
    assert decode_json_string(b"\\x", 0, 2) is None and decode_json_string(b"\\ud800", 0, 6) is None


def _exec_form_fixes():
    from migrate.registry import default_registry
    from migrate.rule import Invalid
    for rule in default_registry().rules:
        for example in rule.examples:
            path = example.path or getattr(rule, "example_path", "")
            if isinstance(example, Invalid) and example.fixed and path == "Dockerfile" and '["' in example.fixed:
                yield pytest.param(example, id=f"{rule.code}-{rule.examples.index(example)}")


@pytest.mark.parametrize("example", list(_exec_form_fixes()))
def test_exec_form_fixes_stay_json_and_shell(example):
    """Every rule example that edits inside an exec-form string leaves valid JSON whose shell string parses."""
    import json

    from migrate.deploy.docker_shell import command_string
    for before, after in zip(example.code.splitlines(), example.fixed.splitlines()):
        instruction, _, rest = after.partition(" ")
        if instruction == "HEALTHCHECK":
            rest = rest.partition(" ")[2]
        if before == after or not rest.startswith("["):
            continue
        words = json.loads(rest)
        index = command_string(words)
        assert index is not None, after
        assert not parse("shell", words[index].encode()).root_node.has_error, after


def test_bytes_that_are_not_utf8_do_not_shift_the_docker_run_fix(tmp_path):
    """Found by benchmarks/fuzz.py: bytes that are not UTF-8 in a `docker run` line before `--gpus all` counted as
    three bytes each, so the fix landed inside --ipc (`--i--device=...`), further each run."""
    from migrate import api
    from migrate.options import Options

    script = (b"#!/bin/sh\ndocker run -e TAG=\x9a\x86\x87\xb6\xab\xff\xfe --gpus all --ipc=host -v \"$PWD\":/ws img \\\n"
              b"    python train.py\n")
    (tmp_path / "train.sh").write_bytes(script)
    _, result = api.analyse(tmp_path, Options(hip_version="7.0"))
    new = result.files[0].new
    assert new == script.replace(b"--gpus all", b"--device=/dev/kfd --device=/dev/dri --group-add video")
    (tmp_path / "train.sh").write_bytes(new)
    _, again = api.analyse(tmp_path, Options(hip_version="7.0"))
    assert again.files[0].new in (None, new)
