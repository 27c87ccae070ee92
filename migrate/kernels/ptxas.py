"""The CUDA side: compile a unit of the original tree with `nvcc -c --resource-usage` and read what ptxas says
about each entry function (kernel):

    ptxas info    : Compiling entry function '_Z9reduceSumPKiPyi' for 'sm_90'
    ptxas info    : Function properties for _Z9reduceSumPKiPyi
        0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    ptxas info    : Used 13 registers, used 1 barriers, 32 bytes smem

Device functions compiled on their own (relocatable code) have properties but no "Compiling entry function":
they are left out. tests/data/kernels/ holds real output with the command that made it.
"""
from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from migrate.kernels import compiling
from migrate.kernels.model import Usage

ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(\w+)'")
PROPERTIES = re.compile(r"Function properties for (\S+)")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers")
SMEM = re.compile(r"(\d+) bytes smem")


def parse(output: str) -> list[Usage]:
    entries: dict[str, str] = {}  # mangled -> arch, in the order ptxas compiled them
    frames: dict[str, tuple[int, int]] = {}
    used: dict[str, tuple[int, int]] = {}
    current = props = None
    for line in output.splitlines():
        if m := ENTRY.search(line):
            current, props = m.group(1), None
            entries[current] = m.group(2)
        elif m := PROPERTIES.search(line):
            props = m.group(1)
        elif (m := FRAME.search(line)) and props:
            frames[props] = (int(m.group(1)), int(m.group(2)) + int(m.group(3)))
        elif (m := USED.search(line)) and current:
            smem = SMEM.search(line)
            used[current] = (int(m.group(1)), int(smem.group(1)) if smem else 0)
            current = None
    out = []
    for name, arch in entries.items():
        registers, shared = used.get(name, (0, 0))
        stack, spills = frames.get(name, (0, 0))
        out.append(Usage(name, arch, registers, shared, spills, stack))
    return out


def command(unit: Path, arch: str, args: list[str], output: Path) -> list[str]:
    language = [] if unit.suffix == ".cu" else ["-x", "cu"]  # a .cpp unit with kernels, as its project builds it
    return ["nvcc", "-c", "--resource-usage", f"-arch={arch}", *args, *language, str(unit), "-o", str(output)]


def compile_unit(unit: Path, arch: str, args: list[str]) -> tuple[list[Usage], str | None]:
    """(the kernels of `unit`, None) or ([], why it could not be compiled)."""
    if shutil.which("nvcc") is None:
        return [], "nvcc not found on PATH: the CUDA side needs the CUDA toolkit"
    with tempfile.TemporaryDirectory(prefix="hipmigrate-kernels-") as tmp:
        text, why = compiling.output(command(unit, arch, args, Path(tmp) / "unit.o"), unit.parent)
    return (parse(text), None) if why is None else ([], why)
