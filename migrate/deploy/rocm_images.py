"""Container images: NVIDIA's CUDA and PyTorch images, and the ROCm images that take their place.

`rocm/dev-ubuntu-<release>` images (Docker Hub, published by AMD) hold a ROCm install on plain Ubuntu; a plain tag
(`6.4.1`) has the HIP runtime and compilers, `-complete` adds every ROCm library (rocBLAS, MIOpen, RCCL, ...), the
counterpart of a CUDA `devel` or `cudnn` image. `rocm/pytorch` images hold a ROCm build of PyTorch; their tags name
the ROCm, Ubuntu, Python and PyTorch versions. The tags below are ones in public use on Docker Hub (seen in
Dockerfiles and docs); the rules that use them warn that the tag is a choice to check against the host's driver.

| CUDA image OS | ROCm image |
|---|---|
| ubuntu20.04 | rocm/dev-ubuntu-20.04:6.1.1 |
| ubuntu22.04 | rocm/dev-ubuntu-22.04:6.4.1 |
| ubuntu24.04 | rocm/dev-ubuntu-24.04:7.1.1 |

| torch in the image | rocm/pytorch tag |
|---|---|
| 2.3 | rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0 |
| 2.4 | rocm6.3.2_ubuntu22.04_py3.10_pytorch_release_2.4.0 |
| 2.5 | rocm6.2.4_ubuntu22.04_py3.10_pytorch_release_2.5.0 |
| 2.6 | rocm6.4.1_ubuntu24.04_py3.12_pytorch_release_2.6.0 |
| other, or unknown (NGC images) | latest |
"""
from __future__ import annotations

import re

ROCM_DEV_IMAGES = {
    "ubuntu20.04": ("rocm/dev-ubuntu-20.04", "6.1.1"),
    "ubuntu22.04": ("rocm/dev-ubuntu-22.04", "6.4.1"),
    "ubuntu24.04": ("rocm/dev-ubuntu-24.04", "7.1.1"),
}
ROCM_PYTORCH_TAGS = {
    (2, 3): "rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0",
    (2, 4): "rocm6.3.2_ubuntu22.04_py3.10_pytorch_release_2.4.0",
    (2, 5): "rocm6.2.4_ubuntu22.04_py3.10_pytorch_release_2.5.0",
    (2, 6): "rocm6.4.1_ubuntu24.04_py3.12_pytorch_release_2.6.0",
}
_REGISTRY = re.compile(r"^(?:docker\.io/|index\.docker\.io/|registry-1\.docker\.io/)?(?:library/)?")
_CUDA_TAG = re.compile(r"(\d+(?:\.\d+)*)-(?P<flavour>[a-z0-9-]+?)-(?P<os>[a-z]+\d+(?:\.\d+)?)")
_PYTORCH_TAG = re.compile(r"(\d+)\.(\d+)(?:\.\d+)?-cuda[\d.]+")


def image_name(name: str) -> str:
    """An image name without Docker Hub's implicit registry prefixes."""
    return _REGISTRY.sub("", name)


def is_cuda_image(name: str) -> bool:
    return image_name(name) in ("nvidia/cuda", "nvcr.io/nvidia/cuda")


def is_cuda_pytorch_image(name: str, tag: str) -> bool:
    name = image_name(name)
    return name == "nvcr.io/nvidia/pytorch" or (name == "pytorch/pytorch" and "cuda" in tag)


def rocm_dev_image(tag: str) -> str | None:
    """The ROCm image for an nvidia/cuda tag (`12.1.1-cudnn8-devel-ubuntu22.04`); None for an OS without one."""
    match = _CUDA_TAG.fullmatch(tag)
    if match is None or match["os"] not in ROCM_DEV_IMAGES:
        return None
    name, version = ROCM_DEV_IMAGES[match["os"]]
    flavour = match["flavour"]
    complete = "devel" in flavour or "cudnn" in flavour
    return f"{name}:{version}-complete" if complete else f"{name}:{version}"


def rocm_pytorch_image(tag: str) -> str:
    match = _PYTORCH_TAG.match(tag)
    release = (int(match[1]), int(match[2])) if match else None
    return "rocm/pytorch:" + ROCM_PYTORCH_TAGS.get(release, "latest")
