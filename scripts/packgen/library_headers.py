"""Headers of CUDA's C++ libraries whose ROCm counterparts keep the same layout, mapped path for path:
- CUB's `cub/block/block_load.cuh` is hipCUB's `hipcub/block/block_load.hpp`; a CUB header without one of the same
  path is reached through hipCUB's umbrella `hipcub/hipcub.hpp`, which includes all of hipCUB (hipify-perl maps only
  `cub/cub.cuh`);
- Thrust's CUDA system, `thrust/system/cuda/execution_policy.h`, is rocThrust's HIP system
  `thrust/system/hip/execution_policy.h` (hipify-perl leaves these alone; the `thrust/system/cuda/` headers rocThrust
  still ships include CUB headers hipCUB lacks, so they do not compile). CPP051 renames the namespaces.
A header maps only where the HIP header of that path exists among the installed ones. Used by scripts/gen_packs.py
(stage 4) and by scripts/gen_library_headers.py, which writes these rows into the two packs alone."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Library:
    family: str  # the pack
    prefix: str  # the CUDA headers' folder, as include names begin
    suffix: str  # of the CUDA headers
    hip_prefix: str
    hip_suffix: str
    umbrella: str  # the HIP header for the others; "" for none (left to CPP001's report)
    source: str  # the rows' comment in the pack


LIBRARIES = (
    Library("cub", "cub/", ".cuh", "hipcub/", ".hpp", "hipcub/hipcub.hpp", "same path in hipCUB"),
    Library("thrust", "thrust/system/cuda/", ".h", "thrust/system/hip/", ".h", "", "same path in rocThrust"),
)


def cuda_headers(library: Library, cuda_inc: Path) -> list[str]:
    """The library's public headers as `#include` names, from the CUDA toolkit's include folder (CUDA 13 puts CCCL
    under cccl/), leaving out detail/ and backend folders, which code does not include."""
    for base in (cuda_inc / "cccl", cuda_inc):
        root = base / library.prefix
        if root.is_dir():
            names = sorted(p.relative_to(base).as_posix() for p in root.rglob("*" + library.suffix))
            return [n for n in names if "/detail/" not in n and "/agent/" not in n]
    return []


def same_path_rows(library: Library, cuda_inc: Path, hip_files: set[str], mapped: set[str]) -> dict[str, str]:
    """CUDA header -> HIP header, for every header of the library not in `mapped` (`hip_files`: the HIP header files
    known, as include names)."""
    rows = {}
    for name in cuda_headers(library, cuda_inc):
        if name in mapped:
            continue
        same = library.hip_prefix + name[len(library.prefix):-len(library.suffix)] + library.hip_suffix
        hip = same if same in hip_files else library.umbrella
        if hip:
            rows[name] = hip
    return rows


def hip_files(library: Library, include: Path) -> set[str]:
    """The HIP headers of the library under one HIP include folder, as include names."""
    root = include / library.hip_prefix
    return ({p.relative_to(include).as_posix() for p in root.rglob("*" + library.hip_suffix)}
            if root.is_dir() else set())
