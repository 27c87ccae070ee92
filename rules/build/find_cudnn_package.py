"""cuDNN found by CMake: `find_package(CUDNN)` (a project's or cudnn_frontend's FindCUDNN module) and the
variables such modules set.

NVIDIA ships no CMake package for cuDNN; projects bring a FindCUDNN.cmake (PyTorch, cudnn_frontend, many
trainers) and spell it CUDNN, cuDNN or CuDNN. MIOpen's own package is `miopen`, whose imported target is `MIOpen`
(sid's libmiopen-dev 6.4.3, miopen-targets.cmake). So `find_package(CUDNN ...)` becomes `find_package(miopen ...)`
with `REQUIRED`/`QUIET` kept (a cuDNN version means nothing to MIOpen and is dropped, as are the module's own
options), or goes when the file already finds miopen; `${CUDNN_LIBRARIES}`/`${CUDNN_LIBRARY}` become the `MIOpen`
target, `${CUDNN_INCLUDE_DIRS}`/`${CUDNN_INCLUDE_DIR}` MIOpen's include directories
(`$<TARGET_PROPERTY:MIOpen,INTERFACE_INCLUDE_DIRECTORIES>`) and `CUDNN_FOUND` `miopen_FOUND`. The `CUDNN::`
targets are BLD003's.
"""
import re

from migrate.buildfiles.cmake_edits import delete_command
from migrate.model import Edit
from migrate.rule import CMakeRule, Invalid, Valid

PACKAGE = re.compile(r"cudnn", re.I)
VARIABLES = {
    "CUDNN_LIBRARIES": "MIOpen", "CUDNN_LIBRARY": "MIOpen", "CUDNN_LIBRARY_PATH": "MIOpen",
    "CUDNN_INCLUDE_DIRS": "$<TARGET_PROPERTY:MIOpen,INTERFACE_INCLUDE_DIRECTORIES>",
    "CUDNN_INCLUDE_DIR": "$<TARGET_PROPERTY:MIOpen,INTERFACE_INCLUDE_DIRECTORIES>",
    "CUDNN_INCLUDE_PATH": "$<TARGET_PROPERTY:MIOpen,INTERFACE_INCLUDE_DIRECTORIES>",
}
REFERENCE = re.compile(r"\$\{(" + "|".join(VARIABLES) + r")\}")
FOUND = re.compile(r"(?<![\w$])(CUDNN_FOUND|cuDNN_FOUND|CuDNN_FOUND)(?!\w)")


class FindCudnnPackage(CMakeRule):
    code = "BLD020"
    examples = [
        Invalid("find_package(CUDNN 8.0 REQUIRED)\ntarget_link_libraries(net PRIVATE CUDNN::cudnn)\n",
                fixed="find_package(miopen REQUIRED)\ntarget_link_libraries(net PRIVATE CUDNN::cudnn)\n", line=1,
                message="find_package(CUDNN) looks for NVIDIA's cuDNN: MIOpen's package is miopen (target MIOpen)"),
        Invalid("find_package(cuDNN)\nif(CUDNN_FOUND)\n  include_directories(${CUDNN_INCLUDE_DIRS})\n"
                "  target_link_libraries(net ${CUDNN_LIBRARIES})\nendif()\n",
                fixed="find_package(miopen)\nif(miopen_FOUND)\n"
                      "  include_directories($<TARGET_PROPERTY:MIOpen,INTERFACE_INCLUDE_DIRECTORIES>)\n"
                      "  target_link_libraries(net MIOpen)\nendif()\n"),
        Invalid("find_package(miopen REQUIRED)\nfind_package(CUDNN REQUIRED)\n", fixed="find_package(miopen REQUIRED)\n",
                message="find_package(CUDNN) looks for NVIDIA's cuDNN: MIOpen's package, miopen, is found above"),
        Valid("find_package(miopen REQUIRED)\ntarget_link_libraries(net PRIVATE MIOpen)\n"),
        Valid("find_package(CUDNNX REQUIRED)\nset(MY_CUDNN_LIBRARIES x)\n# find_package(CUDNN)\n"),
    ]

    def check(self, ctx):
        if not re.search(rb"(?i)cudnn", ctx.data):  # without a copy of the file
            return
        finds = [c for c in ctx.named("find_package") if c.args and PACKAGE.fullmatch(c.args[0].value)]
        has_miopen = any(c.args and c.args[0].value.lower() == "miopen" for c in ctx.named("find_package"))
        for command in finds:
            name = command.args[0].value
            if has_miopen:
                yield self.finding(ctx, command.start, command.end, f"find_package({name}) looks for NVIDIA's cuDNN: "
                                   "MIOpen's package, miopen, is found above", edits=[delete_command(ctx, command)],
                                   title="Remove the cuDNN find_package")
                continue
            words = [a.value for a in command.args[1:]]
            flags = "".join(f" {f}" for f in ("REQUIRED", "QUIET") if f in words)
            has_miopen = True
            yield self.finding(ctx, command.start, command.end, f"find_package({name}) looks for NVIDIA's cuDNN: "
                               "MIOpen's package is miopen (target MIOpen)",
                               edits=[Edit(command.start, command.end, f"find_package(miopen{flags})")],
                               title="Find miopen")
        for command in ctx.commands:
            for arg in command.args:
                for pattern in (REFERENCE, FOUND):
                    for m in pattern.finditer(arg.text):
                        start, end = arg.start + m.start(), arg.start + m.end()
                        new = VARIABLES.get(m.group(1), "miopen_FOUND")
                        yield self.finding(ctx, start, end, f"{m.group(1)} is set by a FindCUDNN module: MIOpen's "
                                           f"package gives {new}", edits=[Edit(start, end, new)], title=f"Use {new}")
