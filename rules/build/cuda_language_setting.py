"""CUDA language settings with a HIP twin: `CMAKE_CUDA_STANDARD`, `CMAKE_CUDA_STANDARD_REQUIRED`,
`CMAKE_CUDA_EXTENSIONS`, `CMAKE_CUDA_VISIBILITY_PRESET`, `CMAKE_CUDA_COMPILER_LAUNCHER`, the target
properties `CUDA_STANDARD`, `CUDA_STANDARD_REQUIRED`, `CUDA_EXTENSIONS`, `CUDA_VISIBILITY_PRESET`,
`CUDA_COMPILER_LAUNCHER`, and the compile features `cuda_std_11` ... `cuda_std_23`.

CMake (3.21 and later) has the same variables, properties and features for HIP (`CMAKE_HIP_STANDARD`,
`HIP_STANDARD`, `hip_std_17`, ...; CMake 3.25's Modules/Internal/FeatureTesting.cmake defines
`hip_std_<N>`), so the CUDA ones, which no longer apply to any source, are renamed.
"""
import re

from migrate.model import Edit
from migrate.rule import CMakeRule, Invalid, Valid

SETTINGS = "STANDARD|STANDARD_REQUIRED|EXTENSIONS|VISIBILITY_PRESET|COMPILER_LAUNCHER"
VARIABLE = re.compile(rf"(?:(?<=-D)|(?<!\w))CMAKE_(CUDA)_(?:{SETTINGS})(?!\w)")
PROPERTY = re.compile(rf"(CUDA)_(?:{SETTINGS})")
FEATURE = re.compile(r"(?<![\w])(cuda)_std_\d+(?!\w)")
PROPERTY_COMMANDS = ("set_target_properties", "set_property", "get_target_property", "get_property",
                     "define_property")


class CudaLanguageSetting(CMakeRule):
    code = "BLD010"
    examples = [
        Invalid("set(CMAKE_CUDA_STANDARD 17)\nset(CMAKE_CUDA_STANDARD_REQUIRED ON)\n",
                fixed="set(CMAKE_HIP_STANDARD 17)\nset(CMAKE_HIP_STANDARD_REQUIRED ON)\n", line=1),
        Invalid("set_target_properties(k PROPERTIES CUDA_STANDARD 14 CUDA_EXTENSIONS OFF)\n",
                fixed="set_target_properties(k PROPERTIES HIP_STANDARD 14 HIP_EXTENSIONS OFF)\n"),
        Invalid("target_compile_features(k PUBLIC cuda_std_17 cxx_std_17)\n",
                fixed="target_compile_features(k PUBLIC hip_std_17 cxx_std_17)\n"),
        Invalid("set(CMAKE_CUDA_COMPILER_LAUNCHER ccache)\n", fixed="set(CMAKE_HIP_COMPILER_LAUNCHER ccache)\n"),
        Invalid("set_property(TARGET k PROPERTY CUDA_VISIBILITY_PRESET hidden)\n",
                fixed="set_property(TARGET k PROPERTY HIP_VISIBILITY_PRESET hidden)\n"),
        Valid("set(CMAKE_HIP_STANDARD 17)\nset(CMAKE_CXX_STANDARD 17)\n"),
        Valid("set(CUDA_STANDARD 14)\n"),
    ]

    def check(self, ctx):
        for command in ctx.commands:
            found = []  # (start, end of the whole name, edit)
            for arg in command.args:
                found.extend((arg.start + m.start(), arg.start + m.end(), Edit(arg.start + m.start(1),
                              arg.start + m.end(1), "HIP")) for m in VARIABLE.finditer(arg.text))
                if command.name in PROPERTY_COMMANDS and PROPERTY.fullmatch(arg.value) and not arg.quoted:
                    found.append((arg.start, arg.end, Edit(arg.start, arg.start + 4, "HIP")))
                if command.name == "target_compile_features" or "$<" in arg.text:
                    found.extend((arg.start + m.start(), arg.start + m.end(), Edit(arg.start + m.start(1),
                                  arg.start + m.end(1), "hip")) for m in FEATURE.finditer(arg.text))
            for start, end, edit in found:
                old = ctx.text(start, end)
                new = edit.text + old[4:]
                yield self.finding(ctx, start, end, f"{old} is a CUDA language setting: CMake has {new} for the HIP "
                                   "sources", edits=[edit], title=f"Use {new}")
