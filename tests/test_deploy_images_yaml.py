"""Container images in YAML (PY050, PY051): Kubernetes manifests, compose files, Helm values and CI jobs name
NVIDIA's CUDA images and PyTorch's CUDA images; the safe and the unsafe fixes give the exact text, a second pass
changes nothing, and the messages name the ROCm image."""
from __future__ import annotations

import pytest

from migrate.deploy.context import parse
from migrate.model import FileStatus
from tests.helpers import analysed_files

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
    result = analysed_files(tmp_path, IMAGE_TREE, unsafe_fixes=unsafe)
    expected = IMAGE_UNSAFE if unsafe else IMAGE_SAFE
    for path, text in expected.items():
        assert result[path].new.decode() == text, path
        assert [(f.code, f.span.line) for f in sorted(result[path].findings, key=lambda f: f.span.start)
                if f.code in ("PY050", "PY051")] == IMAGE_FINDINGS[path], path
        assert not parse("yaml", result[path].new).root_node.has_error, path
        assert not [f for f in result[path].findings if f.code in ("INP001", "INP007")]
    again = analysed_files(tmp_path / "again", expected, unsafe_fixes=unsafe)
    assert [p for p, r in again.items() if r.status is FileStatus.MIGRATED] == []


def test_image_messages_in_yaml(tmp_path):
    result = analysed_files(tmp_path, IMAGE_TREE)
    messages = {(f.code, f.span.line): f.message for f in result["k8s/all.yaml"].findings}
    assert messages[("PY050", 27)] == ("nvidia/cuda@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789"
                                       "abcdef is NVIDIA's CUDA image: replace it with a rocm/dev-ubuntu-* image "
                                       "(rocm/dev-ubuntu-22.04:6.4.1-complete, for example) by hand")
    assert messages[("PY050", 42)].startswith("nvidia/cuda:${CUDA_TAG} is NVIDIA's CUDA image: replace it")
    fixes = {(f.code, f.span.line): f.fix.title for f in result["compose.yaml"].findings if f.fix}
    assert fixes == {("PY050", 5): "Run rocm/dev-ubuntu-22.04:6.4.1-complete",
                     ("PY051", 3): "Run rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0"}


