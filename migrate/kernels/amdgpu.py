"""The AMD side: compile a migrated unit's device code for one target with hipcc and
`-Rpass-analysis=kernel-resource-usage`, and read the remarks clang writes for each kernel:

    k.hip:33:1: remark: Function Name: _Z9reduceSumPKiPyi [-Rpass-analysis=kernel-resource-usage]
    k.hip:33:1: remark:     TotalSGPRs: 17 [...]          (HIP 5.2's clang 15 says "SGPRs: 14")
    k.hip:33:1: remark:     VGPRs: 10 [...]
    k.hip:33:1: remark:     AGPRs: 0 [...]                (CDNA targets only)
    k.hip:33:1: remark:     ScratchSize [bytes/lane]: 0 [...]
    k.hip:33:1: remark:     Occupancy [waves/SIMD]: 8 [...]
    k.hip:33:1: remark:     SGPRs Spill: 0 [...]
    k.hip:33:1: remark:     VGPRs Spill: 0 [...]
    k.hip:33:1: remark:     LDS Size [bytes/block]: 32 [...]

The remarks do not name the target, so each compile has one. Only kernels have an LDS line.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

from migrate import toolchain
from migrate.kernels import compiling
from migrate.kernels.model import Usage

REMARK = re.compile(r"remark:\s+(Function Name|[A-Za-z][\w ]*?(?: \[[\w/]+\])?):\s*(\S+)\s*\[-Rpass-analysis=kernel-resource-usage\]")
FIELDS = {"TotalSGPRs": "sgprs", "SGPRs": "sgprs", "VGPRs": "registers", "AGPRs": "agprs",
          "ScratchSize [bytes/lane]": "scratch", "Occupancy [waves/SIMD]": "compiler_occupancy",
          "SGPRs Spill": "sgpr_spill", "VGPRs Spill": "vgpr_spill", "LDS Size [bytes/block]": "shared"}


def parse(output: str, target: str) -> list[Usage]:
    kernels: list[dict] = []
    for m in REMARK.finditer(output):
        key, value = m.group(1), m.group(2)
        if key == "Function Name":
            kernels.append({"mangled": value})
        elif kernels and key in FIELDS and value.isdigit():
            kernels[-1][FIELDS[key]] = int(value)
    out = []
    for k in kernels:
        if "shared" not in k:  # a device function, not a kernel
            continue
        out.append(Usage(k["mangled"], target, k.get("registers", 0), k["shared"],
                         k.get("vgpr_spill", 0) + k.get("sgpr_spill", 0), k.get("scratch", 0), k.get("agprs", 0),
                         k.get("sgprs", 0), k.get("compiler_occupancy")))
    return out


def command(tc: toolchain.Toolchain, unit: Path, target: str, args: list[str], output: Path) -> list[str]:
    return [tc.hipcc, "-x", "hip", f"--offload-arch={target}", "--offload-device-only", *args, "-c",
            "-Rpass-analysis=kernel-resource-usage", str(unit), "-o", str(output)]


def compile_unit(tc: toolchain.Toolchain, unit: Path, target: str, args: list[str]) -> tuple[list[Usage], str | None]:
    """(the kernels of `unit` for `target`, None) or ([], why it could not be compiled)."""
    with tempfile.TemporaryDirectory(prefix="hipmigrate-kernels-") as tmp:
        text, why = compiling.output(command(tc, unit, target, args, Path(tmp) / "unit.o"), unit.parent,
                                     toolchain.build_env(tc, scratch=tmp))
    return (parse(text, target), None) if why is None else ([], why)
