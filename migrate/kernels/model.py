"""What the kernel diff knows: each kernel's resources as one compiler reports them (`Usage`), and per kernel the
CUDA side against each AMD target with the occupancy of each (`KernelRow`). Findings are migrate.model's."""
from __future__ import annotations

from dataclasses import dataclass

from migrate.kernels.occupancy import Occupancy
from migrate.model import Finding


@dataclass(frozen=True)
class Usage:
    """One kernel compiled for one architecture, as nvcc (ptxas) or hipcc reports it."""

    mangled: str
    arch: str  # sm_90, gfx942
    registers: int  # CUDA: registers per thread; AMD: architectural VGPRs per lane
    shared: int  # static shared memory (LDS) bytes per block
    spills: int  # CUDA: spill store and load bytes; AMD: VGPRs and SGPRs spilled
    scratch: int  # CUDA: stack frame bytes per thread; AMD: scratch bytes per lane
    agprs: int = 0
    sgprs: int = 0
    compiler_occupancy: int | None = None  # hipcc's own waves per SIMD (it assumes its own block size)
    name: str = ""  # demangled


@dataclass(frozen=True)
class Column:
    """One AMD target's side of a kernel."""

    target: str
    hip_version: str
    usage: Usage | None  # None: the kernel was not found in that compile
    occupancy: Occupancy | None
    ratio: float | None  # AMD occupancy fraction over CUDA's


@dataclass(frozen=True)
class KernelRow:
    name: str  # demangled, template arguments included
    path: str  # the CUDA source that defines it, relative to the original tree ("" when not found)
    line: int
    block: int  # threads per block the occupancy is worked out for
    block_from: str  # "__launch_bounds__", "launch at file:line", or "assumed"
    dynamic_shared: int  # bytes of dynamic shared memory a constant launch asks for
    cuda: Usage | None
    cuda_occupancy: Occupancy | None
    amd: tuple[Column, ...]
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class KernelDiff:
    cuda_arch: str
    targets: tuple[tuple[str, str], ...]  # (AMD target, HIP release) in column order
    kernels: tuple[KernelRow, ...]
    problems: tuple[str, ...] = ()  # units a compiler could not compile: said once each
    min_ratio: float = 0.5  # occupancy ratios below it are findings (PRF003)

    @property
    def findings(self) -> list[Finding]:
        return [f for k in self.kernels for f in k.findings]
