"""The GPU tables of rules/data/hardware.toml: per-SM limits of NVIDIA architectures and per-CU limits of AMD
targets, each figure's source named in the file."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache

from migrate.packs import rules_root


@dataclass(frozen=True)
class NvidiaArch:
    name: str  # sm_90
    products: str
    warp_size: int
    registers_per_sm: int
    max_registers_per_thread: int
    register_unit: int
    sub_partitions: int
    max_warps_per_sm: int
    max_blocks_per_sm: int
    max_threads_per_block: int
    shared_per_sm: int
    shared_per_block: int
    shared_reserved_per_block: int
    shared_unit: int


@dataclass(frozen=True)
class AmdTarget:
    name: str  # gfx942
    products: str
    wave_size: int
    simds_per_cu: int
    vgprs_per_simd: int
    vgpr_granule: int
    sgpr_limits: str  # "gfx9": the GFX8-GFX9 SGPR steps; "none": SGPRs do not limit occupancy
    max_waves_per_simd: int
    max_workgroups_per_cu: int
    lds_per_cu: int
    lds_per_workgroup: int
    lds_granule: int

    @property
    def max_waves_per_cu(self) -> int:
        return self.max_waves_per_simd * self.simds_per_cu


@dataclass(frozen=True)
class Product:
    name: str  # H200, MI300X
    arch: str  # sm_90, gfx942
    names: tuple[str, ...]  # as the GPU names itself
    bandwidth: float  # peak memory bandwidth, GB/s
    fp32: float  # peak FP32 vector TFLOPS


@dataclass(frozen=True)
class Tables:
    nvidia: dict[str, NvidiaArch]
    amd: dict[str, AmdTarget]
    products: dict[str, Product]


@lru_cache(maxsize=1)
def tables() -> Tables:
    with open(rules_root() / "data" / "hardware.toml", "rb") as f:
        doc = tomllib.load(f)
    return Tables({k: NvidiaArch(k, **v) for k, v in doc["nvidia"].items()},
                  {k: AmdTarget(k, **v) for k, v in doc["amd"].items()},
                  {k: Product(k, v["arch"], tuple(v["names"]), v["bandwidth"], v["fp32"])
                   for k, v in doc["products"].items()})


def amd_target(name: str) -> AmdTarget | None:
    """The table of an --offload-arch value, feature suffixes (gfx90a:xnack+) left off."""
    return tables().amd.get(name.split(":")[0])


def product(gpu: str | None = None, arch: str | None = None) -> Product | None:
    """The product a GPU's own name mentions ("NVIDIA H200", "AMD Instinct MI300X"), else the first of `arch`."""
    found = tables().products.values()
    if gpu:
        return next((p for p in found if any(n.lower() in gpu.lower() for n in p.names)), None)
    if arch:
        arch = arch.split(":")[0].removesuffix("a") if arch.startswith("sm_") else arch.split(":")[0]
        return next((p for p in found if p.arch == arch), None)
    return None


def nvidia_arch(name: str) -> NvidiaArch | None:
    return tables().nvidia.get(name.removesuffix("a"))  # sm_90a has sm_90's limits
