"""`cmake_minimum_required(VERSION x)` below 3.21 in a file that builds HIP sources.

CMake's HIP language (`project(... HIP)`, `enable_language(HIP)`, `LANGUAGE HIP`, `CMAKE_HIP_ARCHITECTURES`)
first appeared in CMake 3.21. A file that enables CUDA or HIP, or has `.cu` sources (which the migration
marks `LANGUAGE HIP`), gets `VERSION 3.21`; in a range `3.18...3.26` only the lower bound moves (a range
ending below 3.21 becomes `3.21`).

Which CMake is installed matters as well: CMake before 3.27 looks for the `hip-lang` package only in
`<ROCm root>/lib/cmake`, not in a multiarch directory such as Debian's
`/usr/lib/x86_64-linux-gnu/cmake/hip-lang` (fixed by CMake 3.27's "Fix search for hip-lang CMake package on
multiarch distros"); ROCm's own /opt/rocm layout works from 3.21.
"""
import re

from migrate.buildfiles.cmake_sources import needs_hip_language
from migrate.model import Edit
from migrate.rule import CMakeRule, Invalid, Valid

HIP_MINIMUM = (3, 21)
VERSION = re.compile(r"^(\d+(?:\.\d+)*)(?:\.\.\.(\d+(?:\.\d+)*))?$")


def _tuple(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


class CMakeMinimumBelowHip(CMakeRule):
    code = "BLD017"
    examples = [
        Invalid("cmake_minimum_required(VERSION 3.18)\nproject(demo LANGUAGES CXX CUDA)\n",
                fixed="cmake_minimum_required(VERSION 3.21)\nproject(demo LANGUAGES CXX CUDA)\n", line=1),
        Invalid("cmake_minimum_required(VERSION 3.17...3.26)\nenable_language(HIP)\n",
                fixed="cmake_minimum_required(VERSION 3.21...3.26)\nenable_language(HIP)\n"),
        Invalid("cmake_minimum_required(VERSION 3.10...3.18 FATAL_ERROR)\nproject(d CXX)\nadd_executable(d d.cu)\n",
                fixed="cmake_minimum_required(VERSION 3.21 FATAL_ERROR)\nproject(d CXX)\nadd_executable(d d.cu)\n"),
        Valid("cmake_minimum_required(VERSION 3.21)\nproject(demo LANGUAGES CXX HIP)\n"),
        Valid("cmake_minimum_required(VERSION 3.10)\nproject(tools CXX)\nadd_executable(t t.cpp)\n"),
    ]

    def check(self, ctx):
        commands = list(ctx.named("cmake_minimum_required"))
        if not commands or not needs_hip_language(ctx):
            return
        for command in commands:
            values = [a.value for a in command.args]
            if "VERSION" not in values or values.index("VERSION") + 1 >= len(values):
                continue
            arg = command.args[values.index("VERSION") + 1]
            m = VERSION.match(arg.value)
            if not m or _tuple(m.group(1)) >= HIP_MINIMUM:
                continue
            upper = m.group(2)
            text = "3.21" if not upper or _tuple(upper) < HIP_MINIMUM else f"3.21...{upper}"
            yield self.finding(ctx, arg.start, arg.end, f"CMake {m.group(1)} has no HIP language: it needs CMake "
                               "3.21 or newer", edits=[Edit(arg.start, arg.end, text)], title="Require CMake 3.21")
