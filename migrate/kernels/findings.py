"""The kernel diff's findings, at the line of the kernel's definition in the original CUDA source, one per kernel
and AMD target: PRF001 spills or scratch on AMD where CUDA has none, PRF002 shared memory over the target's LDS per
workgroup (an error: the launch fails), PRF003 occupancy below CUDA's by more than the allowed factor, PRF004 a
block size that is not a multiple of 64 on a wave64 target. Each code's explanation is in CODES (also what
`hipmigrate rules PRF001` prints); samples/kernel_pressure shows all four.
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
    """A finding code of the kernel diff, described for the code table, SARIF and the report like a rule class."""

    code: str
    title: str
    severity: Severity
    explanation: str
    kind: RuleKind = RuleKind.PERF

    def name(self) -> str:
        return "kernels:" + self.title.replace(" ", "-")

    def doc(self) -> str:
        return f"{self.title[0].upper()}{self.title[1:]}.\n\n{self.explanation}\n\n{HELP}"


SPILLS = Code("PRF001", "spills or scratch on AMD where CUDA has none", Severity.WARNING,
              "hipcc spilled registers or gave the kernel scratch memory where nvcc kept it in registers with no stack "
              "frame. A kernel without `__launch_bounds__` is compiled by hipcc for blocks of up to 1,024 threads, "
              "which leaves it 128 VGPRs a lane on CDNA, while nvcc gives it up to 255 registers: give it "
              "`__launch_bounds__` with the block size it is launched with, or reduce the values live at once.")
LDS = Code("PRF002", "shared memory over the target's LDS per workgroup", Severity.ERROR,
           "A block needs more shared memory (static, plus the dynamic bytes a constant launch asks for) than the "
           "target gives a workgroup: 64 KiB on CDNA2/3 and RDNA3, 160 KiB on CDNA4 (gfx950), against up to 227 KiB "
           "on an H100/H200 after `cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, N)`. The "
           "launch fails on that target: shrink the tile or split the work.")
OCCUPANCY = Code("PRF003", "occupancy below CUDA's", Severity.WARNING,
                 "The resident waves per CU over the most a CU holds is below `--min-occupancy-ratio` (0.5 by "
                 "default) times the resident warps per SM over the most an SM holds, for the same block size: a "
                 "32 KiB shared tile lets 6 blocks of 256 threads onto an H200 SM (75%) but 2 onto an MI300X CU "
                 "(25%). The message names what limits it (LDS, VGPRs, SGPRs, waves, workgroups).")
WAVE64 = Code("PRF004", "block size not a multiple of 64 on a wave64 target", Severity.WARNING,
              "The block size (from `__launch_bounds__` or a constant launch) leaves the last 64-lane wavefront of "
              "every block partly idle on CDNA: `<<<n, 32>>>` uses half of each wavefront. Use a multiple of 64, or "
              "give each block more work.")
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
