"""Which ROCm build of PyTorch's wheels pairs with which torch release, and the CUDA tags that name NVIDIA builds.

PyTorch publishes one wheel index per accelerator build: `<host>/whl/cu121`, `<host>/whl/rocm6.0`, ... and the
wheels on it carry the same tag as a local version (`torch==2.3.0+cu121`, `torch==2.3.0+rocm6.0`). Each torch
release is built for one or two ROCm versions only, so a CUDA tag is replaced by the ROCm tag of the torch
release the project pins. `TORCH_ROCM_TAGS` holds, per release, the newest ROCm tag PyTorch's install pages
("Installing previous versions of PyTorch", pytorch/pytorch.github.io `_get_started/previous-versions.md`)
give for it (the 2.10 and 2.11 rows also from their ROCm wheels in use):

| torch | ROCm wheel tag | also published |
|---|---|---|
| 1.12 | rocm5.1.1 | |
| 1.13 | rocm5.2 | |
| 2.0 | rocm5.4.2 | |
| 2.1 | rocm5.6 | |
| 2.2.0 | rocm5.6 | |
| 2.2.1, 2.2.2 | rocm5.7 | |
| 2.3 | rocm6.0 | |
| 2.4 | rocm6.1 | rocm6.0 |
| 2.5 | rocm6.2 | rocm6.1 |
| 2.6 | rocm6.2.4 | rocm6.1 |
| 2.7 | rocm6.3 | rocm6.2.4 |
| 2.8 | rocm6.4 | rocm6.3 |
| 2.9 | rocm6.4 | |
| 2.10 | rocm7.1 | rocm7.0 |
| 2.11 | rocm7.1 | |

A release this table does not know gets no tag (the rules then report and do not guess); a file that pins no
torch release gets `NEWEST_TAG`.
"""
from __future__ import annotations

import re

# (first torch version of a row, ROCm tag); a release (major, minor) is known when a row has it.
TORCH_ROCM_TAGS: tuple[tuple[tuple[int, int, int], str], ...] = (
    ((1, 12, 0), "rocm5.1.1"),
    ((1, 13, 0), "rocm5.2"),
    ((2, 0, 0), "rocm5.4.2"),
    ((2, 1, 0), "rocm5.6"),
    ((2, 2, 0), "rocm5.6"),
    ((2, 2, 1), "rocm5.7"),
    ((2, 3, 0), "rocm6.0"),
    ((2, 4, 0), "rocm6.1"),
    ((2, 5, 0), "rocm6.2"),
    ((2, 6, 0), "rocm6.2.4"),
    ((2, 7, 0), "rocm6.3"),
    ((2, 8, 0), "rocm6.4"),
    ((2, 9, 0), "rocm6.4"),
    ((2, 10, 0), "rocm7.1"),
    ((2, 11, 0), "rocm7.1"),
)
NEWEST_TAG = "rocm7.1"
TORCH_FAMILY = ("torch", "torchvision", "torchaudio")

CUDA_TAG = re.compile(r"cu\d{2,3}")  # cu118, cu121, cu92
CUDA_LOCAL = re.compile(r"\+cu\d{2,3}(?![\w.])")  # the local version of a CUDA wheel: +cu121
_RELEASE = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")
CUDA_BUILD = re.compile(r"(?:\+|%2B)[\w.]*?cu(?:da)?\d{2,3}", re.I)  # a local version of a CUDA build: +pt23cu121


def cuda_build(version: str) -> bool:
    """A version (or wheel file name) that names a CUDA build by its local version (`2.1.2+pt23cu121`)."""
    return bool(CUDA_BUILD.search(version))


def normalise(name: str) -> str:
    """A distribution name as the package index compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def release(version: str) -> tuple[int, int, int] | None:
    match = _RELEASE.match(version.strip())
    if not match:
        return None
    return int(match[1]), int(match[2]), int(match[3] or 0)


def torch_release(package: str, version: str) -> tuple[int, int, int] | None:
    """The torch release that a pinned torch, torchvision or torchaudio version belongs to."""
    found = release(version)
    if found is None:
        return None
    major, minor, patch = found
    package = normalise(package)
    if package == "torch":
        return found
    if package == "torchvision" and major == 0:  # torchvision 0.15 ships with torch 2.0, 0.13 with 1.12
        return (2, minor - 15, 0) if minor >= 15 else (1, minor - 1, 0)
    if package == "torchaudio":  # torchaudio 2.x ships with torch 2.x, 0.13 with 1.13
        return (major, minor, 0) if major >= 2 else (1, minor, 0)
    return None


def rocm_tag(torch: tuple[int, int, int] | None) -> str | None:
    """The ROCm wheel tag for a torch release; NEWEST_TAG when none is pinned; None for a release not in the table."""
    if torch is None:
        return NEWEST_TAG
    rows = [tag for first, tag in TORCH_ROCM_TAGS if first[:2] == torch[:2] and first <= torch]
    return rows[-1] if rows else None


def is_cuda_index(url: str) -> bool:
    """An index or find-links URL whose last path segment is a CUDA tag (`.../whl/cu121`, `.../cu118/`), or the
    segment before a find-links page (`.../whl/cu111/torch_stable.html`)."""
    return cuda_segment(url) is not None


def cuda_segment(url: str) -> tuple[int, int] | None:
    """Where the CUDA tag of such a URL lies in it: (start, end) character offsets."""
    path = url.split("?", 1)[0].split("#", 1)[0].rstrip("/")
    if "/" not in path:
        return None
    start = path.rindex("/") + 1
    end = len(path)
    if path.endswith(".html") and "/" in path[:start - 1]:  # a find-links page: its folder names the build
        end = start - 1
        start = path.rindex("/", 0, end) + 1
    return (start, end) if CUDA_TAG.fullmatch(path[start:end]) else None
