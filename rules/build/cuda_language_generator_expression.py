"""Generator expressions that test for the CUDA language or nvcc: `$<COMPILE_LANGUAGE:CUDA>`,
`$<LINK_LANGUAGE:CUDA>`, `$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>`, `$<CUDA_COMPILER_ID:NVIDIA>`.

Once the sources are HIP, a condition on CUDA is never true and what it guards silently disappears. CUDA
becomes HIP in the language lists (`CXX,CUDA` -> `CXX,HIP`), and NVIDIA becomes Clang in the compiler-id
lists (CMake identifies ROCm's and Debian's HIP compiler as Clang). Compile- and link-option commands are
left to BLD009, which also translates the nvcc options those expressions guard.
"""
from migrate.buildfiles.cmake_options import OPTION_COMMANDS, language_expression_edits

from migrate.rule import CMakeRule, Invalid, Valid


class CudaLanguageGeneratorExpression(CMakeRule):
    code = "BLD008"
    examples = [
        Invalid("target_compile_definitions(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:USE_GPU=1>)\n",
                fixed="target_compile_definitions(k PRIVATE $<$<COMPILE_LANGUAGE:HIP>:USE_GPU=1>)\n", line=1),
        Invalid("target_include_directories(k PRIVATE \"$<$<COMPILE_LANGUAGE:CXX,CUDA>:${GEN}>\")\n",
                fixed="target_include_directories(k PRIVATE \"$<$<COMPILE_LANGUAGE:CXX,HIP>:${GEN}>\")\n"),
        Invalid("target_compile_definitions(k PRIVATE $<$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>:NV_BUILD>)\n",
                fixed="target_compile_definitions(k PRIVATE $<$<COMPILE_LANG_AND_ID:HIP,Clang>:NV_BUILD>)\n"),
        Invalid("set(IS_NV $<CUDA_COMPILER_ID:NVIDIA>)\n", fixed="set(IS_NV $<HIP_COMPILER_ID:Clang>)\n"),
        Invalid("target_link_libraries(k PRIVATE $<$<LINK_LANGUAGE:CUDA>:extra>)\n",
                fixed="target_link_libraries(k PRIVATE $<$<LINK_LANGUAGE:HIP>:extra>)\n"),
        Valid("target_compile_definitions(k PRIVATE $<$<COMPILE_LANGUAGE:HIP>:USE_GPU=1>)\n"),
        Valid("target_compile_definitions(k PRIVATE $<$<COMPILE_LANGUAGE:CXX>:CUDA_OFF>)\n"),
    ]

    def check(self, ctx):
        for command in ctx.commands:
            if command.name in OPTION_COMMANDS:
                continue
            for arg in command.args:
                edits = language_expression_edits(arg)
                if edits:
                    yield self.finding(ctx, edits[0].start, edits[0].end,
                                       "this generator expression tests for CUDA or nvcc: the migrated sources are "
                                       "HIP, compiled by Clang", edits=edits, title="Test for HIP")
