"""CUDA enabled as a CMake language: `project(... LANGUAGES CUDA)`, `enable_language(CUDA)`.

CMake (3.21 and later) knows HIP as a language of its own: hipcc's clang compiles the `.cu` sources
given `LANGUAGE HIP`, for the architectures in `CMAKE_HIP_ARCHITECTURES`. The language name is replaced
where it is enabled or checked; the other CMake rules move the CUDA variables, targets and properties.
"""
from migrate.model import Edit
from migrate.rule import CMakeRule, Invalid, Valid

LANGUAGE_COMMANDS = ("enable_language", "check_language")
PROJECT_KEYWORDS = {"VERSION", "DESCRIPTION", "HOMEPAGE_URL"}


class CudaLanguageInCMake(CMakeRule):
    code = "BLD001"
    examples = [
        Invalid("project(demo LANGUAGES CXX CUDA)\n", fixed="project(demo LANGUAGES CXX HIP)\n", line=1),
        Invalid("project(demo CXX CUDA)\n", fixed="project(demo CXX HIP)\n"),
        Invalid("cmake_minimum_required(VERSION 3.21)\nenable_language(CUDA)\n",
                fixed="cmake_minimum_required(VERSION 3.21)\nenable_language(HIP)\n", line=2),
        Invalid("include(CheckLanguage)\ncheck_language(CUDA)\n", fixed="include(CheckLanguage)\ncheck_language(HIP)\n"),
        Valid("project(demo LANGUAGES CXX HIP)\n"),
        Valid("project(CUDA_tools LANGUAGES CXX)\n"),
        Valid("# project(demo LANGUAGES CUDA)\nproject(demo LANGUAGES CXX)\n"),
    ]

    def check(self, ctx):
        for command in ctx.named("project", *LANGUAGE_COMMANDS):
            args = command.args if command.name != "project" else self._project_languages(command.args)
            for arg in args:
                if arg.value == "CUDA":
                    yield self.finding(ctx, arg.start, arg.end, f"{command.name}() enables CUDA: HIP is the language "
                                       "hipcc's clang compiles", edits=[Edit(arg.start, arg.end, "HIP")],
                                       title="Enable HIP instead")

    @staticmethod
    def _project_languages(args):
        """The language arguments of project(): after LANGUAGES, or the bare list after the name."""
        names = [a.value for a in args]
        if "LANGUAGES" in names:
            i = names.index("LANGUAGES") + 1
            out = []
            for a in args[i:]:
                if a.value in PROJECT_KEYWORDS:
                    break
                out.append(a)
            return out
        return [a for a in args[1:] if a.value not in PROJECT_KEYWORDS]
