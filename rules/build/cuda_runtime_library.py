"""`CMAKE_CUDA_RUNTIME_LIBRARY`, the `CUDA_RUNTIME_LIBRARY` property and FindCUDA's
`CUDA_USE_STATIC_CUDA_RUNTIME`: the choice between a static and a shared CUDA runtime.

HIP's runtime is always the shared libamdhip64 (there is no static HIP runtime to choose), and CMake's HIP
language has no such setting, so the setting is removed: the command, or the property and its value when
`set_target_properties` sets other properties too.
"""
from migrate.buildfiles.cmake_edits import delete_args, delete_command
from migrate.buildfiles.cmake_sources import property_settings

from migrate.rule import CMakeRule, Invalid, Valid


class CudaRuntimeLibrary(CMakeRule):
    code = "BLD019"
    examples = [
        Invalid("set(CMAKE_CUDA_RUNTIME_LIBRARY Static)\nproject(x)\n", fixed="project(x)\n", line=1),
        Invalid("set_target_properties(k PROPERTIES CUDA_RUNTIME_LIBRARY Shared POSITION_INDEPENDENT_CODE ON)\n",
                fixed="set_target_properties(k PROPERTIES POSITION_INDEPENDENT_CODE ON)\n"),
        Invalid("set_property(TARGET k PROPERTY CUDA_RUNTIME_LIBRARY Static)\n", fixed=""),
        Invalid("set(CUDA_USE_STATIC_CUDA_RUNTIME OFF)\nfind_package(CUDA)\n", fixed="find_package(CUDA)\n"),
        Valid("set_target_properties(k PROPERTIES POSITION_INDEPENDENT_CODE ON)\n"),
    ]

    def check(self, ctx):
        for command in ctx.named("set", "option"):
            if command.args and command.args[0].value == "CUDA_USE_STATIC_CUDA_RUNTIME":
                yield self._finding(ctx, command.args[0], [delete_command(ctx, command)])
        for setting in property_settings(ctx, "CUDA_RUNTIME_LIBRARY"):
            command = setting.command
            names = [a.value for a in command.args]
            if command.name == "set_target_properties" and len(names) - names.index("PROPERTIES") > 3:
                edit = delete_args(ctx, setting.name, setting.values[-1])
            else:
                edit = delete_command(ctx, command)
            yield self._finding(ctx, setting.name, [edit])

    def _finding(self, ctx, name, edits):
        return self.finding(ctx, name.start, name.end, f"{name.value} picks a static or shared CUDA runtime: HIP's "
                            "runtime is always the shared libamdhip64, so the setting has no HIP meaning",
                            edits=edits, title="Remove the CUDA runtime setting")
