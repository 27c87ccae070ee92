"""`CMAKE_CUDA_ARCHITECTURES` and the `CUDA_ARCHITECTURES` target property: NVIDIA compute capabilities.

CMake's HIP language reads `CMAKE_HIP_ARCHITECTURES` (and the `HIP_ARCHITECTURES` property, which it
initialises), a list of AMD targets such as `gfx90a;gfx940` passed to clang as `--offload-arch`. The name is
replaced wherever it appears (`set`, `if(NOT DEFINED ...)`, `${...}`, `-D...=` strings), and a value made of
NVIDIA architectures (`90`, `80-real`, `sm_86`, `native`, `all`, `all-major`) becomes the AMD targets this
migration is configured for (`--offload-arch`; by default `gfx942` for HIP 6 and later, `gfx90a;gfx940` for HIP 5). `OFF` is kept: it means the same
for HIP. A value computed from a variable cannot be translated: the name is replaced and a warning asks for
AMD targets in that variable.
"""
import re

from migrate.buildfiles.cmake_edits import delete_args
from migrate.buildfiles.cmake_sources import amd_architectures
from migrate.model import Edit, Severity
from migrate.rule import CMakeRule, Invalid, Valid

VARIABLE = re.compile(r"(?:(?<=-D)|(?<!\w))CMAKE_(CUDA)_ARCHITECTURES(?!\w)")
DEFINE = re.compile(r"(?:(?<=-D)|(?<!\w))CMAKE_(CUDA)_ARCHITECTURES(?::STRING)?=([\w;-]+)")
NVIDIA = re.compile(r"^(?:\d+(?:-real|-virtual)?|sm_\d+a?|compute_\d+a?|native|all|all-major)$")
PROPERTY = "CUDA_ARCHITECTURES"
STOP = {"CACHE", "PARENT_SCOPE", "FORCE"}


def _nvidia(values: list[str]) -> bool:
    items = [v for value in values for v in value.split(";") if v]
    return bool(items) and all(NVIDIA.match(v) for v in items)


class CudaArchitectures(CMakeRule):
    code = "BLD005"
    examples = [
        Invalid("if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES 90)\nendif()\n",
                fixed="if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)\n  set(CMAKE_HIP_ARCHITECTURES gfx942)\n"
                      "endif()\n",
                line=1),
        Invalid("set(CMAKE_CUDA_ARCHITECTURES 70 75 80 CACHE STRING \"GPU targets\")\n",
                fixed="set(CMAKE_HIP_ARCHITECTURES gfx942 CACHE STRING \"GPU targets\")\n"),
        Invalid("set(CMAKE_CUDA_ARCHITECTURES \"80-real;90\")\n", fixed="set(CMAKE_HIP_ARCHITECTURES \"gfx942\")\n",
                options=(("offload_arch", ("gfx942",)),)),
        Invalid("set_target_properties(k PROPERTIES CUDA_ARCHITECTURES \"80;86\" POSITION_INDEPENDENT_CODE ON)\n",
                fixed="set_target_properties(k PROPERTIES HIP_ARCHITECTURES \"gfx942\" "
                      "POSITION_INDEPENDENT_CODE ON)\n"),
        Invalid("set_property(TARGET k PROPERTY CUDA_ARCHITECTURES native)\n",
                fixed="set_property(TARGET k PROPERTY HIP_ARCHITECTURES gfx942)\n"),
        Invalid("set_target_properties(k PROPERTIES CUDA_ARCHITECTURES OFF)\n",
                fixed="set_target_properties(k PROPERTIES HIP_ARCHITECTURES OFF)\n"),
        Invalid("set(CMAKE_CUDA_ARCHITECTURES ${GPU_ARCHS})\n", fixed="set(CMAKE_HIP_ARCHITECTURES ${GPU_ARCHS})\n"),
        Invalid("message(STATUS \"archs: ${CMAKE_CUDA_ARCHITECTURES}\")\n",
                fixed="message(STATUS \"archs: ${CMAKE_HIP_ARCHITECTURES}\")\n"),
        Invalid("ExternalProject_Add(dep CMAKE_ARGS -DCMAKE_CUDA_ARCHITECTURES=80;86)\n",
                fixed="ExternalProject_Add(dep CMAKE_ARGS -DCMAKE_HIP_ARCHITECTURES=gfx942)\n"),
        Valid("set(CMAKE_HIP_ARCHITECTURES gfx90a)\nset_property(TARGET k PROPERTY HIP_ARCHITECTURES gfx90a)\n"),
        Valid("set(MY_CMAKE_CUDA_ARCHITECTURES_LIST 80)\n# CMAKE_CUDA_ARCHITECTURES\n"),
    ]

    def check(self, ctx):
        amd = amd_architectures(ctx)
        for command in ctx.commands:
            edits, computed = [], False
            args = command.args
            for arg in args:
                glued = list(DEFINE.finditer(arg.text))
                for m in glued:
                    edits.append(Edit(arg.start + m.start(1), arg.start + m.end(1), "HIP"))
                    if _nvidia([m.group(2)]):
                        edits.append(Edit(arg.start + m.start(2), arg.start + m.end(2), amd))
                if not glued:
                    edits.extend(Edit(arg.start + m.start(1), arg.start + m.end(1), "HIP")
                                 for m in VARIABLE.finditer(arg.text))
            values = []
            if command.name in ("set", "list") and args:
                names = [a.value for a in args]
                at = 0 if command.name == "set" else 1
                if len(names) > at and names[at] == "CMAKE_CUDA_ARCHITECTURES":
                    values = list(args[at + 1:])
                    cut = next((i for i, a in enumerate(values) if a.value in STOP), len(values))
                    values = values[:cut]
            elif command.name in ("set_target_properties", "set_property", "get_target_property", "get_property"):
                for i, arg in enumerate(args):
                    if arg.value != PROPERTY:
                        continue
                    edits.append(Edit(arg.start, arg.start + 4, "HIP"))
                    if command.name == "set_target_properties":
                        values = list(args[i + 1:i + 2])
                    elif command.name == "set_property":
                        values = list(args[i + 1:])
            if values and _nvidia([v.value for v in values]):
                first = values[0]
                text = f'"{amd}"' if first.quoted else amd
                edits.append(Edit(first.start, first.end, text))
                if len(values) > 1:
                    edits.append(delete_args(ctx, values[1], values[-1]))
            elif values and not any(v.value == "OFF" for v in values):
                computed = True
            if not edits:
                continue
            if computed:
                message = ("the CUDA architectures come from a variable here: the HIP name is set, but the "
                           f"value must list AMD targets (such as {amd}), not NVIDIA compute capabilities")
                severity = Severity.WARNING
            else:
                message = (f"CUDA architectures are NVIDIA compute capabilities: HIP takes AMD targets ({amd}) "
                           "in CMAKE_HIP_ARCHITECTURES / HIP_ARCHITECTURES")
                severity = Severity.INFO
            yield self.finding(ctx, edits[0].start, edits[0].end, message, edits=edits,
                               title="Use the HIP architectures", severity=severity)
