"""PyTorch extension units in a compile check: the include paths and defines PyTorch's own extension build gives
hipcc on ROCm, read from the torch installed for this Python without importing it (an import takes seconds).

A unit is a PyTorch extension unit when it includes torch/extension.h or a torch, ATen or c10 header. One without
device code (the binding file) is host C++, compiled as PyTorch compiles it (`-x c++` with HIP's AMD platform
macro); one with kernels is HIP. With no torch importable, or a torch without ROCm headers (a CPU or CUDA wheel)
for a unit that includes ATen/hip or c10/hip, `problem()` says plainly what is missing.
"""
from __future__ import annotations

import importlib.util
import re
import sysconfig
from functools import lru_cache
from pathlib import Path

TORCH_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"](?:torch/|ATen/|c10/)", re.M)
ROCM_HEADER = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"](?:ATen/hip/|c10/hip/|ATen/native/hip/)", re.M)
DEVICE_CODE = re.compile(rb"__global__|<<<|hipLaunchKernelGGL")


def is_torch_unit(data: bytes) -> bool:
    return bool(TORCH_INCLUDE.search(data))


def is_host_unit(data: bytes) -> bool:
    """A binding file: torch headers, no kernels (PyTorch compiles it with the host compiler)."""
    return not DEVICE_CODE.search(data)


@lru_cache(maxsize=1)
def torch_root() -> Path | None:
    """The folder of the torch package this Python would import, None when there is none."""
    try:
        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(list(spec.submodule_search_locations)[0])
    return root if (root / "include" / "torch" / "extension.h").is_file() else None


def include_dirs() -> list[Path]:
    """What torch.utils.cpp_extension.include_paths() gives, and Python's own headers (pybind11 needs them)."""
    root = torch_root()
    if root is None:
        return []
    out = [root / "include", root / "include" / "torch" / "csrc" / "api" / "include"]
    return [d for d in out if d.is_dir()] + [Path(sysconfig.get_paths()["include"])]


def flags(unit: Path, data: bytes) -> list[str]:
    """The unit's extra compile flags: torch's include paths, the extension's defines and, for a binding file,
    host C++ in place of HIP (given after `-x hip`, it wins)."""
    name = re.sub(r"\W", "_", unit.stem)
    out = [f"-I{d}" for d in include_dirs()]
    out += [f"-DTORCH_EXTENSION_NAME={name}", "-DTORCH_API_INCLUDE_EXTENSION_H",
            "-D__HIP_PLATFORM_AMD__=1", "-DUSE_ROCM=1"]
    if is_host_unit(data):
        out += ["-x", "c++"]
    return out


def problem(data: bytes) -> str | None:
    """What keeps this PyTorch extension unit from compiling here, in words, or None."""
    root = torch_root()
    if root is None:
        return ("PyTorch extension unit: this Python imports no torch with its C++ headers "
                "(torch/include/torch/extension.h), so torch/extension.h and the ATen headers cannot be found; "
                "install torch (a ROCm build: pip install torch --index-url https://download.pytorch.org/whl/rocm6.4) "
                "and build again")
    if ROCM_HEADER.search(data) and not (root / "include" / "ATen" / "hip").is_dir():
        return (f"PyTorch extension unit: it includes ATen/hip or c10/hip headers, which only a ROCm build of torch "
                f"ships; the torch in {root} is not one; install a ROCm build of torch to compile-check it")
    return None
