"""The hardware-aware expectation: the time ratio (candidate over base) a kernel should show if it were bound by the
same resource on both GPUs, from the products' peak memory bandwidth and FP32 throughput (rules/data/hardware.toml),
so that a measured slowdown can be told apart from slower hardware.

    >>> e = between(product(gpu="NVIDIA H200"), product(arch="gfx942"))
    >>> (e.base, e.candidate, round(e.memory, 3), round(e.compute, 3))
    ('H200', 'MI300X', 0.906, 0.82)

A measured ratio is explained by the hardware when it is within the threshold of the larger of the two; above
that, the kernel is slower than either peak accounts for (occupancy, spills, a code path).
"""
from __future__ import annotations

from dataclasses import dataclass

from migrate.kernels.hardware import Product, product  # noqa: F401  (product: the doctest's, and callers')


@dataclass(frozen=True)
class Expectation:
    base: str
    candidate: str
    memory: float  # expected time ratio if bound by memory bandwidth
    compute: float  # expected time ratio if bound by FP32 throughput

    def explains(self, ratio: float, threshold: float) -> bool:
        return ratio <= max(self.memory, self.compute) * (1 + threshold)

    def as_dict(self) -> dict:
        return {"base": self.base, "candidate": self.candidate, "memory": round(self.memory, 4),
                "compute": round(self.compute, 4)}


def between(base: Product | None, candidate: Product | None) -> Expectation | None:
    if base is None or candidate is None:
        return None
    return Expectation(base.name, candidate.name, base.bandwidth / candidate.bandwidth, base.fp32 / candidate.fp32)
