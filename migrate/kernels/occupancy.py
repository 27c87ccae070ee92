"""How many warps (NVIDIA, per SM) or waves (AMD, per CU) of a kernel are resident at once, from its resources
and block size, by the rules of rules/data/hardware.toml. Occupancy is that count over the most the SM or CU
holds; the AMD figure over the CUDA one is the ratio the findings and the report compare.

NVIDIA, as NVIDIA's occupancy calculator counts: registers per warp rounded up to the allocation unit, each warp
held by one of the SM's sub-partitions; shared memory per block plus the system's reserve, rounded up to the
allocation unit; at most the SM's warps and blocks.

    >>> from migrate.kernels.hardware import tables
    >>> cuda(tables().nvidia["sm_90"], registers=40, shared=0, block=256)
    Occupancy(resident=48, most=64, blocks=6, limit='registers')

AMD, as LLVM's AMDGPU backend counts: VGPRs (and, on CDNA2-4, the AGPRs after them) rounded up to the allocation
granule limit the waves per SIMD; SGPRs on GFX9; LDS per workgroup rounded up to its granule against the CU's;
at most 16 workgroups of more than one wave (barriers); a workgroup's waves spread over the CU's SIMDs.

    >>> amd(tables().amd["gfx942"], vgprs=40, agprs=0, sgprs=20, lds=32768, block=256)
    Occupancy(resident=8, most=32, blocks=2, limit='LDS')
"""
from __future__ import annotations

from dataclasses import dataclass

from migrate.kernels.hardware import AmdTarget, NvidiaArch

NO_FIT = "does not fit"


@dataclass(frozen=True)
class Occupancy:
    resident: int  # warps per SM, or waves per CU
    most: int  # the most the SM or CU holds
    blocks: int  # blocks (workgroups) resident at once
    limit: str  # what stops more: registers, shared memory, warps, blocks, VGPRs, SGPRs, LDS, waves, workgroups

    @property
    def fraction(self) -> float:
        return self.resident / self.most if self.most else 0.0


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def round_up(a: int, unit: int) -> int:
    return ceil_div(a, unit) * unit


def _least(limits: dict[str, int]) -> tuple[int, str]:
    """The smallest limit and its name (the first named on a tie)."""
    name = min(limits, key=lambda k: limits[k])
    return limits[name], name


def cuda(arch: NvidiaArch, registers: int, shared: int, block: int) -> Occupancy:
    warps = ceil_div(block, arch.warp_size)
    if block > arch.max_threads_per_block:
        return Occupancy(0, arch.max_warps_per_sm, 0, "block size")
    if shared > arch.shared_per_block:
        return Occupancy(0, arch.max_warps_per_sm, 0, NO_FIT)
    limits = {"warps": arch.max_warps_per_sm // warps, "blocks": arch.max_blocks_per_sm}
    if registers:
        per_warp = round_up(registers * arch.warp_size, arch.register_unit)
        per_partition = arch.registers_per_sm // arch.sub_partitions // per_warp
        limits["registers"] = per_partition * arch.sub_partitions // warps
    limits["shared memory"] = arch.shared_per_sm // round_up(shared + arch.shared_reserved_per_block, arch.shared_unit)
    blocks, limit = _least(limits)
    return Occupancy(blocks * warps, arch.max_warps_per_sm, blocks, limit)


def sgpr_waves(target: AmdTarget, sgprs: int) -> int:
    """Waves per SIMD the scalar registers allow: GFX8-GFX9's steps; none from GFX10 on."""
    if target.sgpr_limits != "gfx9":
        return target.max_waves_per_simd
    steps = ((80, 10), (88, 9), (100, 8))
    waves = next((w for most, w in steps if sgprs <= most), 7)
    return min(waves, target.max_waves_per_simd)


def vgpr_waves(target: AmdTarget, vgprs: int, agprs: int) -> int:
    """Waves per SIMD the vector registers allow (AGPRs after the VGPRs, rounded up to 4, where they share a file)."""
    total = (round_up(vgprs, 4) + agprs) if agprs else vgprs
    if total < target.vgpr_granule:
        return target.max_waves_per_simd
    return min(max(target.vgprs_per_simd // round_up(total, target.vgpr_granule), 1), target.max_waves_per_simd)


def amd(target: AmdTarget, vgprs: int, agprs: int, sgprs: int, lds: int, block: int) -> Occupancy:
    waves = ceil_div(block, target.wave_size)
    most = target.max_waves_per_cu
    if block > 1024:
        return Occupancy(0, most, 0, "block size")
    if lds > target.lds_per_workgroup:
        return Occupancy(0, most, 0, NO_FIT)
    per_simd = {"VGPRs": vgpr_waves(target, vgprs, agprs), "SGPRs": sgpr_waves(target, sgprs)}
    limits = {"waves": most // waves,
              "workgroups": target.max_workgroups_per_cu if waves > 1 else most}
    for name, count in per_simd.items():
        limits[name] = count * target.simds_per_cu // waves
    if lds:
        limits["LDS"] = target.lds_per_cu // round_up(lds, target.lds_granule)
    blocks, limit = _least(limits)
    return Occupancy(blocks * waves, most, blocks, limit)
