"""`cuda_include_directories(...)`: FindCUDA's include path for the files nvcc compiles.

FindCUDA is gone from CMake 3.27, and with the `.cu` files compiled as HIP by CMake's own HIP language,
`include_directories(...)` (which applies to every language of the directory's targets) does the same job.
"""
from migrate.buildfiles.cmake_edits import name_span
from migrate.model import Edit
from migrate.rule import CMakeRule, Invalid, Valid


class CudaIncludeDirectories(CMakeRule):
    code = "BLD015"
    examples = [
        Invalid("cuda_include_directories(${PROJECT_SOURCE_DIR}/include)\n",
                fixed="include_directories(${PROJECT_SOURCE_DIR}/include)\n", line=1),
        Invalid("if(A)\n  CUDA_INCLUDE_DIRECTORIES(inc)\nendif()\n",
                fixed="if(A)\n  include_directories(inc)\nendif()\n"),
        Valid("include_directories(include)\n"),
    ]

    def check(self, ctx):
        for command in ctx.named("cuda_include_directories"):
            yield self.finding(ctx, *name_span(command), "cuda_include_directories is FindCUDA's (removed in CMake "
                               "3.27): include_directories covers the HIP sources too",
                               edits=[Edit(*name_span(command), "include_directories")],
                               title="Use include_directories")
