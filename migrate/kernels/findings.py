"""The kernel diff's findings, at the line of the kernel's definition in the original CUDA source:

PRF001 (warning) the AMD compile spills registers or uses scratch where nvcc kept the kernel in registers with no
    stack: `float acc[12][12]` in a kernel without `__launch_bounds__`, which hipcc compiles for blocks of up to
    1,024 threads (128 VGPRs a lane on CDNA) while nvcc gives it up to 255 registers.
PRF002 (error) the shared memory a block needs (static, plus a constant launch's dynamic bytes) is more than the
    target's LDS per workgroup (64 KiB on CDNA2/3 and RDNA3, 160 KiB on CDNA4): `k<<<g, 256, 96 * 1024>>>` after
    `cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024)` runs on an H200, not on an
    MI300X.
PRF003 (warning) the AMD occupancy (resident waves over the CU's most) is below the CUDA one (warps over the SM's
    most) by more than the allowed factor (`--min-occupancy-ratio`, 0.5 by default): a 32 KiB shared tile lets
    6 blocks of 256 threads onto an H200 SM (75%) but 2 onto an MI300X CU (25%).
PRF004 (warning) a block size that is not a multiple of 64 on a wave64 target: `<<<n, 32>>>` leaves half of every
    wavefront's lanes idle.
"""
from __future__ import annotations

from dataclasses import dataclass

from migrate.kernels.hardware import amd_target
from migrate.kernels.model import Column, Usage
from migrate.kernels.occupancy import NO_FIT
from migrate.model import Finding, RuleKind, Severity, Span

HELP = ("`hipmigrate build --kernels` compared the kernel's resources as nvcc reports them for the original CUDA "
        "source with those hipcc reports for the migrated source, and the occupancy each gives "
        "(rules/data/hardware.toml). The message names the AMD target.")


@dataclass(frozen=True)
class Code:
    """A finding code of the kernel diff, described for SARIF and the report like a rule class."""

    code: str
    title: str
    severity: Severity
    kind: RuleKind = RuleKind.PERF

    def name(self) -> str:
        return "kernels:" + self.title.replace(" ", "-")

    def doc(self) -> str:
        return f"{self.title[0].upper()}{self.title[1:]}.\n\n{HELP}"


SPILLS = Code("PRF001", "spills or scratch on AMD where CUDA has none", Severity.WARNING)
LDS = Code("PRF002", "shared memory over the target's LDS per workgroup", Severity.ERROR)
OCCUPANCY = Code("PRF003", "occupancy below CUDA's", Severity.WARNING)
WAVE64 = Code("PRF004", "block size not a multiple of 64 on a wave64 target", Severity.WARNING)
CODES = (SPILLS, LDS, OCCUPANCY, WAVE64)


def _finding(code: Code, kernel: str, target: str, path: str, line: int, message: str) -> Finding:
    return Finding(code.code, code.kind, code.severity, f"{kernel} on {target}: {message}",
                   Span(path, 0, 0, line, 1), matched=f"{kernel} {target}")


def check(kernel: str, path: str, line: int, block: int, block_from: str, dynamic: int, cuda: Usage | None,
          column: Column, min_ratio: float) -> list[Finding]:
    """The findings of one kernel on one AMD target."""
    amd, out = column.usage, []
    if amd is None:
        return out
    target = amd_target(column.target)
    if cuda is not None and not cuda.spills and not cuda.scratch and (amd.spills or amd.scratch):
        out.append(_finding(SPILLS, kernel, column.target, path, line,
                            f"{amd.spills} registers spilled, {amd.scratch} bytes of scratch per lane, where nvcc "
                            f"({cuda.arch}) keeps it in {cuda.registers} registers with no stack; give it "
                            "__launch_bounds__ with its real block size (hipcc otherwise assumes 1,024 threads) or "
                            "reduce the live values"))
    if target is not None and amd.shared + dynamic > target.lds_per_workgroup:
        needs = amd.shared + dynamic
        out.append(_finding(LDS, kernel, column.target, path, line,
                            f"a block needs {needs} bytes of shared memory (LDS), over the {target.lds_per_workgroup} "
                            "a workgroup may have: the launch fails; shrink the tile or split the work"))
    if column.ratio is not None and column.ratio < min_ratio and column.occupancy is not None \
            and column.occupancy.limit != NO_FIT:  # PRF002 says why
        occ = column.occupancy
        out.append(_finding(OCCUPANCY, kernel, column.target, path, line,
                            f"occupancy {occ.fraction:.0%} ({occ.resident} of {occ.most} waves per CU, limited by "
                            f"{occ.limit}) is {column.ratio:.2f}x CUDA's, below {min_ratio}; block of {block} "
                            f"({block_from})"))
    if target is not None and target.wave_size == 64 and block_from != "assumed" and block % 64:
        out.append(_finding(WAVE64, kernel, column.target, path, line,
                            f"blocks of {block} threads ({block_from}) fill {block % 64} of the last wavefront's "
                            "64 lanes: use a multiple of 64"))
    return out
