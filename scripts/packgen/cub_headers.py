"""CUB's own headers and their hipCUB counterparts of the same path: `cub/block/block_load.cuh` is
`hipcub/block/block_load.hpp`. hipify-perl maps only `cub/cub.cuh`; hipCUB mirrors CUB's layout, so a header of
CUB whose path, with `.hpp` for `.cuh`, exists among hipCUB's installed headers is that header, and every other
header of CUB is reached through hipCUB's umbrella `hipcub/hipcub.hpp`, which includes all of hipCUB. Used by
scripts/gen_packs.py (stage 4) and by scripts/gen_cub_headers.py, which writes these rows into the cub pack alone."""
from __future__ import annotations

from pathlib import Path

UMBRELLA = "hipcub/hipcub.hpp"


def cub_headers(cuda_inc: Path) -> list[str]:
    """CUB's public headers as `#include` names (`cub/...cuh`), from the CUDA toolkit's include folder (CUDA 13 puts
    CCCL under cccl/), leaving out its detail/ and backend folders, which code does not include."""
    for base in (cuda_inc / "cccl", cuda_inc):
        root = base / "cub"
        if root.is_dir():
            names = sorted(p.relative_to(base).as_posix() for p in root.rglob("*.cuh"))
            return [n for n in names if "/detail/" not in n and "/agent/" not in n]
    return []


def same_path_rows(cuda_inc: Path, hip_files: set[str], mapped: set[str]) -> dict[str, str]:
    """CUB header -> hipCUB header, for every CUB header not in `mapped` (`hip_files`: the HIP header files known,
    as include names)."""
    rows = {}
    for name in cub_headers(cuda_inc):
        if name in mapped:
            continue
        same = "hipcub/" + name[len("cub/"):-len(".cuh")] + ".hpp"
        rows[name] = same if same in hip_files else UMBRELLA
    return rows
