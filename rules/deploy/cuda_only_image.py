"""A container image built for CUDA that is neither NVIDIA's CUDA base image (PY050) nor a CUDA PyTorch image (PY051):
NVIDIA's other NGC images (`nvcr.io/nvidia/tritonserver`, `tensorrt`, `nemo`, `tensorflow`, ...), vLLM's
`vllm/vllm-openai` and TensorFlow's `-gpu` images; in a Dockerfile's `FROM` (or the `ARG` it builds on), a YAML
`image:` (Kubernetes, compose, GitHub Actions, GitLab CI) or a whole word of shell text (`docker run ...` in a script,
a `RUN` or a CI step: migrate/deploy/container_images.py).

Why: their libraries and frameworks are compiled for CUDA; on an AMD GPU they find no device (or do not start).

What to use instead (reported, no fix: the images differ in layout, versions and entry points):
- `vllm/vllm-openai` → vLLM's ROCm image `vllm/vllm-openai-rocm`, or AMD's `rocm/vllm`;
- TensorFlow's `-gpu` images and NGC's `tensorflow` → AMD's `rocm/tensorflow`;
- other NGC images (Triton, TensorRT, NeMo, DALI, ...) have no ROCm build: rebuild on `rocm/dev-ubuntu-*` or
  `rocm/pytorch` with the ROCm counterparts of the libraries they hold (MIGraphX for TensorRT, for example).
"""
from __future__ import annotations

import re

from migrate.deploy.container_images import image_refs
from migrate.deploy.rocm_images import image_name, is_cuda_image, is_cuda_pytorch_image
from migrate.model import Severity
from migrate.rule import DeployRule, Invalid, Valid

NGC = "nvcr.io/nvidia/"
CUDA_TAG = re.compile(r"(?<![A-Za-z0-9])(cu\d{3}|cuda\d+(?:\.\d+)*)(?![A-Za-z0-9])")  # cu124, cuda12.4 as a tag part
CUDA_TAG_BYTES = re.compile(rb":[\w.-]*?(cu\d{3}|cuda\d)")
COUNTERPARTS = {
    "vllm/vllm-openai": "vLLM's ROCm image vllm/vllm-openai-rocm, or AMD's rocm/vllm, runs it on AMD GPUs",
    "tensorflow/tensorflow": "AMD's rocm/tensorflow images hold a ROCm build of TensorFlow",
    NGC + "tensorflow": "AMD's rocm/tensorflow images hold a ROCm build of TensorFlow",
}
NO_BUILD = ("NGC images have no ROCm build: rebuild it on rocm/dev-ubuntu-* or rocm/pytorch with the ROCm "
            "counterparts of its libraries")


def _advice(name: str, tag: str) -> str | None:
    """What to say about an image, or None when it is not a CUDA-only image this rule covers."""
    name = image_name(name)
    if is_cuda_image(name) or is_cuda_pytorch_image(name, tag):
        return None  # PY050, PY051
    if name == "tensorflow/tensorflow" and "gpu" not in tag:
        return None  # the CPU images
    if name in COUNTERPARTS:
        return COUNTERPARTS[name]
    if name.startswith(NGC):
        return NO_BUILD
    build = CUDA_TAG.search(tag)
    if build is not None:  # a third party's image built on CUDA (hiyouga/pytorch:th2.6.0-cu124-flashattn2.7.4-devel)
        return (f"its tag names a CUDA build ({build[1]}): use its publisher's ROCm build where there is one, or build "
                "on rocm/pytorch")
    return None


class CudaOnlyImage(DeployRule):
    code = "PY053"
    severity = Severity.WARNING
    fixable = False
    file_kinds = ("docker", "yaml", "shell")
    example_path = "Dockerfile"
    examples = [
        Invalid("FROM nvcr.io/nvidia/tritonserver:24.01-py3\n", line=1,
                message="nvcr.io/nvidia/tritonserver:24.01-py3 is built for CUDA: " + NO_BUILD),
        Invalid("FROM tensorflow/tensorflow:2.15.0-gpu\n", line=1,
                message="tensorflow/tensorflow:2.15.0-gpu is built for CUDA: AMD's rocm/tensorflow images hold a ROCm "
                        "build of TensorFlow"),
        Invalid("services:\n  llm:\n    image: vllm/vllm-openai:v0.6.3\n    ports: [\"8000:8000\"]\n",
                path="compose.yaml", line=3,
                message="vllm/vllm-openai:v0.6.3 is built for CUDA: vLLM's ROCm image vllm/vllm-openai-rocm, or AMD's "
                        "rocm/vllm, runs it on AMD GPUs"),
        Valid("FROM tensorflow/tensorflow:2.15.0\nFROM vllm/vllm-openai-rocm:latest\nFROM rocm/vllm:latest\n"),
        Invalid("#!/bin/bash\nset -e\ndocker run -d --name llm -p 8000:8000 vllm/vllm-openai:v0.6.3 --model \"$MODEL\"\n",
                path="serve.sh", line=3),
        Valid("#!/bin/bash\ndocker run -d vllm/vllm-openai-rocm:latest\n", path="serve.sh"),
        Valid("FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\nFROM nvcr.io/nvidia/pytorch:24.01-py3\n"),  # PY050, PY051
        # a third party's image whose tag names its CUDA build (LLaMA-Factory's base image, chosen by an ARG)
        Invalid("ARG BASE_IMAGE=hiyouga/pytorch:th2.6.0-cu124-flashattn2.7.4-cxx11abi0-devel\nFROM ${BASE_IMAGE}\n",
                line=1, message="hiyouga/pytorch:th2.6.0-cu124-flashattn2.7.4-cxx11abi0-devel is built for CUDA: its "
                                "tag names a CUDA build (cu124): use its publisher's ROCm build where there is one, or "
                                "build on rocm/pytorch"),
        Valid("FROM ghcr.io/acme/trainer:rocm6.4-py3.11\nFROM python:3.11-slim\nFROM acme/cuckoo:v1\n"),
    ]

    def check(self, ctx):
        if b"nvcr.io/nvidia/" not in ctx.data and b"vllm/vllm-openai" not in ctx.data \
                and b"tensorflow/tensorflow" not in ctx.data and CUDA_TAG_BYTES.search(ctx.data) is None:
            return
        for ref in image_refs(ctx):
            advice = _advice(ref.name, ref.tag)
            if advice is not None:
                yield self.finding(ctx, ref.start, ref.end, f"{ref.text} is built for CUDA: {advice}")
